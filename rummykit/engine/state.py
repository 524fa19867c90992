"""The mutable state of one deal, kept private to the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummykit.cards import Card
from rummykit.melds import Meld, MeldRules


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table and the seat that first laid it."""

    meld: Meld
    owner: int


@dataclass(slots=True)
class DealState:
    number: int
    dealer: int
    deck: tuple[Card, ...]
    meld_rules: MeldRules
    hands: list[list[Card]]
    #: Face-down stock; its top is the last element.
    stock: list[Card]
    #: Discard pile; its top is the last element.
    pile: list[Card]
    indicator: Card | None = None
    wild_rank: int = 0
    table: list[TableMeld] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    #: Why a seat takes no part in the rest of the deal (Indian rummy), or None.
    out: list[str | None] = field(default_factory=list)
    #: Whether a seat has drawn in this deal (Indian rummy's drop cost).
    drew: list[bool] = field(default_factory=list)
    turn: int = 0
    phase: str = "draw"
    #: How the player got their card this turn: "stock", "pile", "deal" (a 15th card) or None.
    drawn: str | None = None
    stock_card: Card | None = None
    #: The card taken from the pile this turn.
    took: Card | None = None
    #: A taken card the player still has to lay (a duty), or None.
    owed: Card | None = None
    #: Whether a card of the taken card's face was laid this turn: the two decks' copies look
    #: alike, so the taken card is then on the table and a copy left in hand is the player's own.
    took_laid: bool = False
    #: Freed jokers the player still has to lay.
    freed: int = 0
    #: Whether the player did anything after drawing (a taken card can no longer be returned).
    acted: bool = False
    returned: bool = False
    opened_at_start: bool = False
    restocks: int = 0
    restock_orders: list[list[Card]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The state at the start of the turn, for the automatic play's undo.
    snapshot: DealState | None = None
    over: bool = False

    def copy_for_undo(self) -> DealState:
        """A copy of what a turn can change (logs and the snapshot itself are shared)."""
        return DealState(
            number=self.number,
            dealer=self.dealer,
            deck=self.deck,
            meld_rules=self.meld_rules,
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            pile=list(self.pile),
            indicator=self.indicator,
            wild_rank=self.wild_rank,
            table=list(self.table),
            opened=list(self.opened),
            out=list(self.out),
            drew=list(self.drew),
            turn=self.turn,
            phase=self.phase,
            drawn=self.drawn,
            stock_card=self.stock_card,
            took=self.took,
            owed=self.owed,
            took_laid=self.took_laid,
            freed=self.freed,
            acted=self.acted,
            returned=self.returned,
            opened_at_start=self.opened_at_start,
            restocks=self.restocks,
        )

    def restore(self, snap: DealState) -> None:
        """Put back what :meth:`copy_for_undo` saved."""
        self.hands = [list(h) for h in snap.hands]
        self.stock = list(snap.stock)
        self.pile = list(snap.pile)
        self.table = list(snap.table)
        self.opened = list(snap.opened)
        self.out = list(snap.out)
        self.drew = list(snap.drew)
        self.phase = snap.phase
        self.drawn = snap.drawn
        self.stock_card = snap.stock_card
        self.took = snap.took
        self.owed = snap.owed
        self.took_laid = snap.took_laid
        self.freed = snap.freed
        self.acted = snap.acted
        self.returned = snap.returned
        self.opened_at_start = snap.opened_at_start
