"""The game: deals, turns and the performing of actions, for every variant (the check of each
action is in :mod:`rummykit.engine.checks`, the turn's duties in :mod:`rummykit.engine.duties`).

>>> g = Game.new("rummy", players=2, seed=1)
>>> g.to_move, g.phase, len(g.view(1)["hand"]), g.view(0)["stock"]
(1, 'draw', 13, 81)
>>> g.apply("draw"); g.phase
'play'
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, Protocol

from rummykit.cards import (
    ACE,
    JOKER,
    Card,
    cards_argument,
    format_cards,
    make_deck,
    parse_cards,
)
from rummykit.engine import duties
from rummykit.engine.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Layoff,
    NewMeld,
    Open,
    Return,
    Swap,
    Take,
    Timeout,
    as_action,
)
from rummykit.engine.checks import CHECKS
from rummykit.engine.scoring import DealResult, Declaration, GameScore, score_deal
from rummykit.engine.state import DealState, TableMeld
from rummykit.errors import (
    IllegalAction,
    InvalidArgument,
    InvalidHand,
    RummyError,
    describe,
)
from rummykit.melds import Meld, MeldRules, indian_penalty, rummy_penalty
from rummykit.rules import Ruleset, make_rules
from rummykit.solver import OpeningRule

#: What a copied or pickled game holds in place of its secure source of shuffles.
_SECURE: Final = "secure shuffle"


class Shuffler(Protocol):
    def shuffle(self, x: list[Any], /) -> None: ...


class Game:
    """A game of any variant: a sequence of deals played by ``rules.players`` seats.

    Create games with :meth:`new` or :meth:`from_record`, or ``Game(rules)`` with a ruleset
    as :func:`~rummykit.rules.make_rules` builds it. Every action goes through
    :meth:`check` (the one source of legality), :meth:`is_legal` and :meth:`apply`.
    """

    def __init__(
        self,
        rules: Ruleset,
        *,
        seed: int | None = None,
        rng: Shuffler | None = None,
        deck: Sequence[Card | str] | None = None,
    ) -> None:
        # The checks of every way in (Game.new, a replay, a bot's world): once per game.
        if type(rules) is not Ruleset:
            raise InvalidArgument(
                f"rules must be a Ruleset (rummykit.rules.make_rules), not {describe(rules)}; "
                "Game.new makes one from a variant's name"
            )
        _check_made(rules)
        # The record stores the seed and replays only a whole number (JSON has no other
        # seed a replay could rebuild the same shuffles from).
        if seed is not None and type(seed) is not int:
            raise InvalidArgument(
                f"seed must be a whole number (int) or None, not {describe(seed)}"
            )
        if seed is not None and rng is not None:
            # The record would name a seed its shuffles did not come from.
            raise InvalidArgument(
                "give seed or rng, not both: a seeded game draws every shuffle from its seed, "
                "which the record stores"
            )
        if rng is not None and not callable(getattr(rng, "shuffle", None)):
            raise InvalidArgument(
                f"rng must have a shuffle method (a random.Random), not {describe(rng)}"
            )
        # A deck of other cards would deal a game whose record does not replay (or, short,
        # fail with an IndexError): counted here, where Game.new and a replay come in too.
        cards = None if deck is None else _deck_cards(deck, rules)
        self.rules = rules
        self.seed = seed
        self._rng: Shuffler | None = rng
        if rng is None and seed is None:
            self._rng = random.SystemRandom()
        self.score = GameScore(rules)
        self._undoable = rules.taken_card_duty or rules.freed_joker_duty
        #: The indicator lies face up under the first stock of each deal: its last card.
        self._face_up_bottom = rules.indicator_in_stock and rules.indicator
        self.deals: list[DealState] = []
        self.results: list[DealResult] = []
        self.version = 0
        #: Restock orders a replay must use, by deal number (from a record).
        self._planned_restocks: dict[int, list[list[Card]]] = {}
        #: While a record replays, a stock rebuilt with no order given is an error.
        self._replaying = False
        self.deal: DealState = self._start_deal(rules.first_dealer, cards)

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str = "rummy",
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | None = None,
        rng: Shuffler | None = None,
    ) -> Game:
        """A new game. ``seed`` makes every shuffle reproducible; ``deck`` fixes the first
        deal's cards (notation strings or cards); with neither, shuffles are secure."""
        return cls(make_rules(variant, players, options), seed=seed, rng=rng, deck=deck)

    @property
    def variant(self) -> str:
        """The variant's name: ``rummy``, ``rami51``, ``rami71``, ``simple`` or ``indian``."""
        return self.rules.variant

    @property
    def players(self) -> int:
        """The number of seats (seats are numbered from 0)."""
        return self.rules.players

    def _shuffled(self, cards: list[Card], purpose: str) -> list[Card]:
        if self._rng is not None:
            self._rng.shuffle(cards)
        else:
            random.Random(f"{self.seed}:{purpose}").shuffle(cards)
        return cards

    def _start_deal(self, dealer: int, deck: Sequence[Card] | None) -> DealState:
        rules = self.rules
        number = len(self.deals) + 1
        if deck is None:
            deck = self._shuffled(make_deck(rules.jokers), f"deal{number}")
        deck = tuple(deck)
        seats = self.score.active_seats()
        order = [s for s in _seats_after(dealer, rules.players) if s in seats]
        hands: list[list[Card]] = [[] for _ in range(rules.players)]
        pos = 0
        for _ in range(rules.hand_size):
            for s in order:
                hands[s].append(deck[pos])
                pos += 1
        if rules.first_extra:
            hands[order[0]].append(deck[pos])
            pos += 1
        indicator = None
        wild = 0
        if rules.indicator:
            indicator = deck[pos]
            pos += 1
            wild = ACE if indicator is JOKER else indicator.rank
        pile: list[Card] = []
        if rules.starter:
            pile.append(deck[pos])
            pos += 1
        stock = list(reversed(deck[pos:]))
        if indicator is not None and rules.indicator_in_stock:
            # Face up under the stock: it is the stock's last card, and everyone knows it.
            stock.insert(0, indicator)
        n = rules.players
        state = DealState(
            number=number,
            dealer=dealer,
            deck=deck,
            meld_rules=MeldRules(
                min_real=rules.min_real, adjacent_jokers=rules.adjacent_jokers, wild_rank=wild
            ),
            hands=hands,
            stock=stock,
            pile=pile,
            indicator=indicator,
            wild_rank=wild,
            opened=[False] * n,
            out=[None if s in seats else "eliminated" for s in range(n)],
            drew=[False] * n,
        )
        self.deals.append(state)
        self.deal = state
        self.version += 1
        self._start_turn(order[0], first=True)
        return state

    def next_deal(self, deck: Sequence[Card | str] | None = None) -> None:
        """Start the next deal once the previous one is scored and the game goes on."""
        if self.score.over:
            raise IllegalAction("the game is over")
        if not self.deal.over:
            raise IllegalAction(f"deal {self.deal.number} is not over")
        cards = None if deck is None else _deck_cards(deck, self.rules)
        self._start_deal(self.score.dealer, cards)

    # -- turn flow ------------------------------------------------------------------------

    def _start_turn(self, seat: int, first: bool = False) -> None:
        d = self.deal
        rules = self.rules
        d.turn = seat
        d.took = d.owed = d.stock_card = None
        d.took_laid = False
        d.freed = 0
        d.acted = d.returned = False
        d.opened_at_start = d.opened[seat]
        if first and rules.first_extra:
            d.phase, d.drawn = "play", "deal"
        else:
            d.phase, d.drawn = "draw", None
            if not d.stock and not self._restock():
                return
        d.snapshot = None

    def _restock(self) -> bool:
        """Rebuild an empty stock from the pile, or end the deal; False when it ended."""
        d = self.deal
        limit = self.rules.max_restocks
        # The pile's top card stays as the new pile, or the whole pile is turned over.
        kept = 1 if self.rules.restock_keeps_top else 0
        if (limit >= 0 and d.restocks >= limit) or len(d.pile) <= kept:
            self._finish(None, "blocked" if self.rules.scoring == "rummy" else "no-winner")
            return False
        cards = d.pile[: len(d.pile) - kept]
        planned = self._planned_restocks.get(d.number, [])
        if d.restocks < len(planned):
            order = planned[d.restocks]
            if Counter(order) != Counter(cards):
                raise RummyError(
                    f"deal {d.number}: rebuilt stock {d.restocks + 1} does not hold the cards "
                    "of the discard pile"
                )
            order = list(order)
        elif self._replaying and self.seed is None:
            raise RummyError(
                f"deal {d.number} rebuilds its stock: the record needs a seed, or the rebuilt "
                f"orders in the deal's restocks (it lists {len(planned)})"
            )
        else:
            order = self._shuffled(list(cards), f"deal{d.number}:restock{d.restocks + 1}")
        d.restock_orders.append(list(order))
        d.stock = list(reversed(order))
        d.pile = d.pile[len(d.pile) - kept :]
        d.restocks += 1
        d.events.append({"seat": None, "action": "restock", "stock": len(d.stock)})
        return True

    def _end_turn(self) -> None:
        d = self.deal
        if d.over:
            return
        active = [s for s in range(self.rules.players) if d.out[s] is None]
        if len(active) == 1:
            self._finish(active[0], "last-player")
            return
        nxt = d.turn
        while True:
            nxt = (nxt + 1) % self.rules.players
            if d.out[nxt] is None:
                break
        self._start_turn(nxt)

    def _finish(self, winner: int | None, how: str) -> None:
        d = self.deal
        d.over = True
        d.phase = "over"
        d.snapshot = None
        result = score_deal(self.rules, d, winner, how)
        self.score.add(result)
        # the totals it left, for a sheet of the game deal by deal, and what a look back at
        # the deal needs once its view and events are gone
        self.results.append(dataclasses.replace(
            result,
            totals=tuple(self.scores),
            out=tuple(d.out),
            eliminated=tuple(s for s, gone in enumerate(self.score.eliminated) if gone),
            wild_rank=d.wild_rank,
            declarations=tuple(
                Declaration(int(e["seat"]), tuple(e["melds"]), bool(e["valid"]))
                for e in d.events if e.get("action") == "declare"
            ),
        ))
        d.events.append({"seat": None, "action": "end", "winner": result.winner})

    # -- public state ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game is over (``phase == "game-over"``; :attr:`winner` says who won)."""
        return self.score.over

    @property
    def winner(self) -> int | None:
        """The game's winner: a seat, or a side in 2 v 2 Rami; None while it goes on."""
        return self.score.winner

    @property
    def scores(self) -> list[int]:
        """The game's running totals, one per seat (one per side in 2 v 2 Rami, side 0 being
        seats 0 and 2). ``rummy``: what each seat has won (a deal's winner takes the losers'
        penalties; ``to-200`` ends when a total reaches ``target``). Rami and ``simple``: the
        penalties each side has paid (a side reaching ``limit`` loses). Indian pools: the
        penalties each seat has paid (above ``limit`` it is out). Indian ``deals`` and
        ``points``: what each seat has won (a wrong declaration that ends the deal comes off
        its declarer's total). A copy: changing it changes nothing."""
        return list(self.score.totals)

    @property
    def phase(self) -> str:
        """``"draw"`` or ``"play"`` (the player to move has drawn), ``"deal-over"`` (call
        :meth:`next_deal`) or ``"game-over"``."""
        if self.score.over:
            return "game-over"
        if self.deal.over:
            return "deal-over"
        return self.deal.phase

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; None between deals and once the game is over."""
        return None if self.deal.over else self.deal.turn

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand (engine-side code only: views decide who sees it)."""
        return list(self.deal.hands[self._seat(seat)])

    def _seat(self, seat: object) -> int:
        # A bool is an int to Python, and a negative index would read another seat's cards.
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise InvalidArgument(
                f"seat must be a seat number from 0 to {self.rules.players - 1}, not "
                f"{describe(seat)}"
            )
        return seat

    def history(self, start: int = 0) -> list[dict[str, Any]]:
        """Public events of the current deal, in order, from the ``start``-th (from 0) on: a
        caller that has the first ones asks for the rest only (copying the whole deal's
        events at every action made a long deal's actions cost ever more)."""
        if type(start) is not int or start < 0:
            raise InvalidArgument(f"start must be a whole number from 0, not {describe(start)}")
        events = self.deal.events
        return [dict(events[i]) for i in range(start, len(events))]

    def history_length(self) -> int:
        """How many public events the current deal has had (``len(game.history())``)."""
        return len(self.deal.events)

    # -- legality -------------------------------------------------------------------------

    def check(self, action: Action | str) -> None:
        """Raise :class:`IllegalAction` saying why ``action`` is not legal now."""
        self._validate(as_action(action))

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` is legal now; a value that is no action nor text raises
        :class:`InvalidArgument` (text that is no action is simply not legal)."""
        try:
            self._validate(as_action(action))
        except InvalidArgument:
            raise
        except RummyError:
            return False
        return True

    def apply(self, action: Action | str) -> None:
        """Play ``action`` for the player to move; an illegal action raises and changes
        nothing."""
        act = as_action(action)
        plan = self._validate(act)
        d = self.deal
        if d.snapshot is None and self._undoable and type(act) not in _NO_SNAPSHOT:
            # The automatic play may have to undo this turn: keep the state as it was before
            # its first action other than a draw from the stock (redrawing gives the same card).
            d.snapshot = d.copy_for_undo()
        d.actions.append(str(act))
        self.version += 1
        _PERFORM[type(act)](self, act, plan)

    def _validate(self, act: Action) -> Any:
        if self.score.over:
            raise IllegalAction("the game is over")
        d = self.deal
        if d.over:
            raise IllegalAction(f"deal {d.number} is over")
        validator = CHECKS.get(type(act))
        if validator is None:
            raise IllegalAction(f"{act} is not an action of this game")
        return validator(self, act)

    def opening_freed(self, seat: int) -> bool:
        """Whether ``seat`` may lay down without the minimum because its partner has (Rami
        2 v 2 under ``partner_opens_free``). The one source for the legality, the refusal, the
        meter, the view and the bots."""
        rules = self.rules
        # A seat that is none would read another's partner (9 % 4) or fail on "1" + 2.
        seat = self._seat(seat)
        return bool(
            rules.teams
            and rules.partner_opens_free
            and self.deal.opened[(seat + 2) % rules.players]
        )

    def opening_rule(self, seat: int) -> OpeningRule:
        """The solver's opening rule for ``seat`` now (no minimum once it is freed)."""
        return self.rules.opening_rule(self.opening_freed(seat))

    def kept_card(self) -> Card | None:
        """The card the player to move may not throw this turn: the one just taken from the
        pile, unless the rules allow throwing it or the hand holds another copy, or a card of its
        face has been laid this turn (with ``taken_card_duty`` or without). The one source for
        the discard, the declaration, the listed moves and the clock's play."""
        return duties.kept_card(self.rules, self.deal)

    def kept_after_take(self, hand: Sequence[Card], taken: Card) -> Card | None:
        """What :meth:`kept_card` would be with ``hand`` (``taken`` included) after taking
        ``taken`` from the pile: for players weighing a take before making it."""
        if type(taken) is not Card:
            raise InvalidArgument(f"taken must be a Card, not {describe(taken)}")
        cards = cards_argument(hand, "hand")
        if taken not in cards:
            # Without it the answer would be None, as if the card could be thrown.
            raise InvalidHand(
                f"the hand must include the card taken, {taken.text}: the question is what "
                "may be thrown once it is in hand"
            )
        return duties.kept_after_take(self.rules, cards, taken)

    # -- performing -----------------------------------------------------------------------

    def _event(self, action: str, **fields: Any) -> None:
        self.deal.events.append({"seat": self.deal.turn, "action": action, **fields})

    def _p_draw(self, act: Action, plan: None) -> None:
        d = self.deal
        c = d.stock.pop()
        d.hands[d.turn].append(c)
        d.phase, d.drawn, d.stock_card = "play", "stock", c
        d.drew[d.turn] = True
        if self._face_up_bottom and not d.stock and not d.restocks:
            # The indicator lying face up under the stock: everyone sees who draws it.
            self._event("draw", card=c.text)
        else:
            self._event("draw")

    def _p_take(self, act: Action, plan: None) -> None:
        d = self.deal
        c = d.pile.pop()
        d.hands[d.turn].append(c)
        d.phase, d.drawn, d.took = "play", "pile", c
        d.drew[d.turn] = True
        if self.rules.taken_card_duty:
            d.owed = c
        self._event("take", card=c.text)

    def _p_return(self, act: Action, plan: None) -> None:
        d = self.deal
        c = d.took
        assert c is not None
        d.hands[d.turn].remove(c)
        d.pile.append(c)
        d.phase, d.drawn, d.took, d.owed, d.returned = "draw", None, None, None, True
        self._event("return", card=c.text)

    def _p_discard(self, act: Discard, plan: None) -> None:
        d = self.deal
        hand = d.hands[d.turn]
        hand.remove(act.card)
        d.pile.append(act.card)
        self._event("discard", card=act.card.text)
        if not hand:
            self._finish(d.turn, "discard")
        else:
            self._end_turn()

    def _laid(self, cards: Sequence[Card]) -> None:
        d = self.deal
        hand = d.hands[d.turn]
        for c in cards:
            hand.remove(c)
            if c is d.took:
                d.took_laid = True
            if c is d.owed:
                d.owed = None
            elif c is JOKER and d.freed:
                d.freed -= 1
        d.acted = True

    def _after_laying(self, how: str) -> None:
        d = self.deal
        if not d.hands[d.turn]:
            self._finish(d.turn, how)

    def _p_open(self, act: Open, melds: list[Meld]) -> None:
        d = self.deal
        for m in melds:
            self._laid(m.cards)
            d.table.append(TableMeld(m, d.turn))
        d.opened[d.turn] = True
        laid = [format_cards(m.cards) for m in melds]
        if len(d.hands[d.turn]) == 1 and self._closes():
            # every card but the one to discard: a close, which needs no minimum; logged as an
            # opening, a Rami close of 18 points read as an opening below 51
            self._event("open", melds=laid, close=True)
        else:
            self._event("open", melds=laid)
        self._after_laying("open")

    def _closes(self) -> bool:
        """Whether a first lay-down that leaves one card is a close (it ignores the minimum)."""
        rules = self.rules
        return rules.lay_mode == "close" or rules.lay_all_close or rules.small_opening >= 1

    def _p_meld(self, act: NewMeld, meld: Meld) -> None:
        d = self.deal
        self._laid(meld.cards)
        d.table.append(TableMeld(meld, d.turn))
        self._event("meld", meld=format_cards(meld.cards))
        self._after_laying("meld")

    def _p_layoff(self, act: Layoff, meld: Meld) -> None:
        d = self.deal
        self._laid([act.card])
        tm = d.table[act.number - 1]
        d.table[act.number - 1] = TableMeld(meld, tm.owner)
        self._event("layoff", number=act.number, card=act.card.text, end=act.end)
        self._after_laying("layoff")

    def _p_swap(self, act: Swap, i: int) -> None:
        d = self.deal
        tm = d.table[act.number - 1]
        meld, freed = tm.meld.swapped(i, act.card)
        self._laid([act.card])
        d.hands[d.turn].append(freed)
        d.table[act.number - 1] = TableMeld(meld, tm.owner)
        if self.rules.freed_joker_duty:
            d.freed += 1
        self._event("swap", number=act.number, card=act.card.text)

    def _p_declare(self, act: Declare, discard: Card) -> None:
        from rummykit.engine.indian import declaration_problem

        d = self.deal
        seat = d.turn
        d.hands[seat].remove(discard)
        d.pile.append(discard)
        problem = declaration_problem(act.melds, d.meld_rules)
        groups = [format_cards(m) for m in act.melds]
        if problem is None:
            self._event("declare", melds=groups, discard=discard.text, valid=True)
            self._finish(seat, "declare")
            return
        d.out[seat] = "wrong-declaration"
        self._event("declare", melds=groups, discard=discard.text, valid=False, reason=problem)
        if self.rules.wrong_declaration_ends:
            self._finish(None, "wrong-declaration")
        else:
            self._end_turn()

    def _p_drop(self, act: Action, cost: int) -> None:
        d = self.deal
        d.out[d.turn] = "dropped"
        self._event("drop", cost=cost)
        self._end_turn()

    def _p_timeout(self, act: Action, plan: None) -> None:
        d = self.deal
        undone = False
        if (d.owed is not None or d.freed) and d.snapshot is not None:
            d.restore(d.snapshot)
            undone = True
        drew = False
        face_up = None
        if d.phase == "draw":
            c = d.stock.pop()
            d.hands[d.turn].append(c)
            d.phase, d.drawn, d.stock_card = "play", "stock", c
            d.drew[d.turn] = True
            drew = True
            if self._face_up_bottom and not d.stock and not d.restocks:
                face_up = c  # the indicator lying face up under the stock, as for a draw
        card = self.timeout_discard()
        hand = d.hands[d.turn]
        hand.remove(card)
        d.pile.append(card)
        if face_up is None:
            self._event("timeout", undone=undone, draw=drew, card=card.text)
        else:
            self._event("timeout", undone=undone, draw=drew, card=card.text, drawn=face_up.text)
        if not hand:
            self._finish(d.turn, "discard")
        else:
            self._end_turn()

    def timeout_discard(self) -> Card:
        """The card the automatic play discards once the player holds their drawn card: the
        card drawn from the stock if still in hand (unless the ruleset's ``timeout_discard``
        says ``heaviest``), else the highest-penalty non-joker. Raise :class:`IllegalAction`
        when no turn is on (between deals, or the game over) or when the player has yet to
        draw (the automatic play draws first: the card it throws is not yet known)."""
        d = self.deal
        if self.to_move is None:
            # The last player's hand may be empty (gone out by laying): no card to name.
            raise IllegalAction(f"no turn is on: deal {d.number} is over")
        if d.phase != "play":
            raise IllegalAction(
                "the player has not drawn yet: the automatic play draws from the stock first, "
                "so the card it discards is not known"
            )
        hand = d.hands[d.turn]
        drawn = d.stock_card
        if self.rules.timeout_discard == "drawn" and drawn is not None and drawn in hand:
            return drawn
        kept = self.kept_card()
        candidates = [
            c
            for c in hand
            if not d.meld_rules.is_joker(c) and c is not kept
        ]
        if not candidates:
            candidates = list(hand)
        penalty = self.penalty
        return max(
            candidates,
            key=lambda c: (penalty(c), 14 if c.rank == ACE else c.rank, -c.suit),
        )

    def penalty(self, c: Card) -> int:
        """What card ``c`` costs when left in hand in this variant and deal."""
        if self.rules.scoring == "indian":
            return indian_penalty(c, self.deal.wild_rank)
        return rummy_penalty(c)

    # -- views, records, legal actions (in their own modules) ------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may know, as a JSON-ready dict."""
        from rummykit.engine.views import build_view

        return build_view(self, self._seat(seat))

    def public_view(self) -> dict[str, Any]:
        """What a spectator may know: no hand."""
        from rummykit.engine.views import build_view

        return build_view(self, None)

    def record(self) -> dict[str, Any]:
        """The game record of the text formats (replayable with :meth:`from_record`)."""
        from rummykit.engine.records import make_record

        return make_record(self)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str) -> Game:
        """Replay a record (a dict or JSON text); raise ``InvalidRecord`` at the first fault."""
        from rummykit.engine.records import replay

        return replay(record)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (see :meth:`iter_legal_actions`)."""
        return list(self.iter_legal_actions())

    def iter_legal_actions(self) -> Iterator[Action]:
        """Every legal action of the player to move, lazily (an ``open`` or ``meld`` of a
        hand with jokers may be laid in hundreds of ways), in canonical form, each once (a
        lay-off on the one end of a run that takes the card comes twice, as two values:
        ``layoff 1 4H`` and ``layoff 1 4H low`` are both legal, and lay the same).
        Complete for every verb but ``declare``: any 13 of an Indian hand's 14 cards may be
        declared (a wrong declaration costs its price), and only a valid declaration is
        listed, when there is one. ``timeout`` is listed whenever a turn is on (the host's
        automatic play). Nothing when the deal or the game is over."""
        from rummykit.engine.legal import iter_legal

        return iter_legal(self)

    def copy(self) -> Game:
        """An independent copy of the game, to try moves on without touching this one: its
        own deals, hands, table and scores. A ``random.Random`` given as ``rng`` is copied
        (both games then shuffle alike); a secure source has no state to copy."""
        return copy.deepcopy(self)

    def __copy__(self) -> Game:
        # The shallow copy of Python would share the deal: a move on it would change this game.
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        # random.SystemRandom refuses to be copied or pickled (NotImplementedError): it has no
        # state, so a fresh one stands in for it.
        state = self.__dict__.copy()
        if isinstance(self._rng, random.SystemRandom):
            state["_rng"] = _SECURE
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if state.get("_rng") == _SECURE:
            state = {**state, "_rng": random.SystemRandom()}
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (
            f"<Game {self.variant} players={self.players} deal={self.deal.number} "
            f"phase={self.phase} to_move={self.to_move}>"
        )


def _seats_after(dealer: int, n: int) -> list[int]:
    return [(dealer + i) % n for i in range(1, n + 1)]


@functools.lru_cache(maxsize=64)
def _made_problem(rules: Ruleset) -> str | None:
    """Why ``rules`` is not what :func:`make_rules` builds from its own options (a ruleset
    made by hand or by ``dataclasses.replace``), or None."""
    try:
        made = make_rules(rules.variant, rules.players, rules.options())
    except RummyError as exc:
        return str(exc)
    except Exception as exc:  # a field made by hand may hold anything
        return f"{type(exc).__name__}: {exc}"
    wrong = {
        f.name: getattr(rules, f.name)
        for f in dataclasses.fields(Ruleset)
        if getattr(rules, f.name) != getattr(made, f.name)
    }
    if not wrong:
        return None
    given = ", ".join(f"{name}={value!r}" for name, value in wrong.items())
    asked = {**rules.options(), **wrong}
    return (
        f"{given} {'is' if len(wrong) == 1 else 'are'} not among its options, which are all "
        f"a record stores: give house rules by name, make_rules({rules.variant!r}, "
        f"{rules.players!r}, {asked!r})"
    )


def _check_made(rules: Ruleset) -> None:
    """Refuse a ruleset :func:`make_rules` would not build: its checks keep every deal
    playable and the record stores only its options, so another one would not replay."""
    try:
        problem = _made_problem(rules)
    except TypeError:  # a field made by hand holds an unhashable value
        problem = "a field holds a value of the wrong type"
    if problem is not None:
        raise InvalidArgument(
            f"rules must be a Ruleset as make_rules(variant, players, options) builds it: "
            f"{problem}"
        )


def _deck_cards(deck: Sequence[Card | str], rules: Ruleset) -> list[Card]:
    if not isinstance(deck, Sequence) or isinstance(deck, str):
        raise InvalidArgument(
            f"deck must be a list of cards (Card or text like '7H'), not {describe(deck)}"
        )
    cards = [c if isinstance(c, Card) else _one_card(c) for c in deck]
    if Counter(cards) != Counter(make_deck(rules.jokers)):
        have = Counter(cards)
        full = Counter(make_deck(rules.jokers))
        extra = sorted((have - full).elements())
        missing = sorted((full - have).elements())
        parts = []
        if missing:
            parts.append(f"missing {format_cards(missing[:5])}{'…' if len(missing) > 5 else ''}")
        if extra:
            parts.append(f"too many {format_cards(extra[:5])}{'…' if len(extra) > 5 else ''}")
        raise InvalidHand(
            f"the deck must hold the {rules.deck_size} cards of {rules.variant} exactly once "
            f"each ({len(cards)} given; {', '.join(parts)})"
        )
    return cards


def _one_card(text: str) -> Card:
    if not isinstance(text, str):
        raise InvalidArgument(
            f"deck must hold cards (Card or text like '7H'), not {describe(text)}"
        )
    cards = parse_cards(text)
    if len(cards) != 1:
        raise InvalidHand(f"{text!r} is not one card")
    return cards[0]


_NO_SNAPSHOT = (Draw, Discard, Timeout)
_PERFORM: dict[type, Any] = {
    Draw: Game._p_draw,
    Take: Game._p_take,
    Return: Game._p_return,
    Discard: Game._p_discard,
    Open: Game._p_open,
    NewMeld: Game._p_meld,
    Layoff: Game._p_layoff,
    Swap: Game._p_swap,
    Declare: Game._p_declare,
    Drop: Game._p_drop,
    Timeout: Game._p_timeout,
}
