"""The checks of each action: why an action is not legal now, or the plan to perform it.

``Game.check``, ``Game.is_legal`` and ``Game.apply`` all come through :data:`CHECKS`, the one
source of legality: each check reads the game and raises :class:`IllegalAction` with the reason,
or returns what performing the action needs (the melds an opening lays, a joker's place, ...).
The checks that a move leaves the turn's duties a way to be met are in
:mod:`rummykit.engine.duties`; the legal actions (:mod:`rummykit.engine.legal`) go through the
same lay-down rules and duties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from rummykit.cards import ONLY_CARDS, Card
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
    refuse_fields,
)
from rummykit.engine.state import TableMeld
from rummykit.errors import IllegalAction, InvalidMeld
from rummykit.melds import Meld, make_meld

if TYPE_CHECKING:
    from rummykit.engine.game import Game

#: The ends a lay-off may name.
_ENDS: Final = (None, "low", "high")


def need_play(game: Game, what: str) -> None:
    """Refuse ``what`` before the player to move has drawn."""
    if game.deal.phase != "play":
        raise IllegalAction(f"draw or take a card before you {what}")


def need_hand(game: Game, cards: Sequence[Card]) -> None:
    """Refuse cards the player to move does not hold, as many times as named."""
    if len(cards) == 1:
        if cards[0] in game.deal.hands[game.deal.turn]:
            return
        raise IllegalAction(f"you do not hold {cards[0].text}")
    hand = Counter(game.deal.hands[game.deal.turn])
    need = Counter(cards)
    for c, n in sorted(need.items()):
        have = hand[c]
        if have < n:
            if have == 0:
                raise IllegalAction(f"you do not hold {c.text}")
            raise IllegalAction(f"you hold only {have} {c.text}, not {n}")


def as_meld(game: Game, cards: Sequence[Card]) -> Meld:
    """The meld ``cards`` make under the deal's meld rules, refused as an action if none."""
    try:
        return make_meld(cards, game.deal.meld_rules)
    except InvalidMeld as exc:
        raise IllegalAction(str(exc)) from None


def check_draw(game: Game, act: Action) -> None:
    """Check a draw from the stock."""
    d = game.deal
    if d.phase != "draw":
        raise IllegalAction("you have already drawn this turn")


def check_take(game: Game, act: Action) -> None:
    """Check a take of the pile's top card."""
    d = game.deal
    if d.phase != "draw":
        raise IllegalAction("you have already drawn this turn")
    if d.returned:
        raise IllegalAction("after returning the card, draw from the stock")
    if not d.pile:
        raise IllegalAction("the discard pile is empty")
    top = d.pile[-1]
    if not game.rules.take_jokers and d.meld_rules.is_joker(top):
        raise IllegalAction(f"{top.text} is a joker: this room does not let jokers be taken")


def check_return(game: Game, act: Action) -> None:
    """Check the return of the card just taken from the pile."""
    d = game.deal
    if not game.rules.taken_card_duty:
        raise IllegalAction("return is not part of this game")
    if d.drawn != "pile" or d.phase != "play":
        raise IllegalAction("return puts back a card just taken from the pile")
    if d.acted:
        raise IllegalAction("return must come before anything else in the turn")


def check_discard(game: Game, act: Discard) -> None:
    """Check a discard."""
    # Each validator first checks the types of its action's values (an action may be made
    # in Python with any): check, is_legal and apply all come through here.
    if type(act.card) is not Card:
        refuse_fields(act)
    d = game.deal
    need_play(game, "discard")
    hand = d.hands[d.turn]
    if act.card not in hand:
        raise IllegalAction(f"you do not hold {act.card.text}")
    if d.owed is not None:
        raise IllegalAction(
            f"lay the {d.owed.text} you took from the pile before discarding"
        )
    if d.freed:
        raise IllegalAction("lay the freed joker on the table before discarding")
    if act.card is duties.kept_card(game.rules, d):
        raise IllegalAction(f"{act.card.text} was just taken from the pile: keep it this turn")


def lay_down_rules(game: Game, melds: list[Meld], laid: list[Card]) -> None:
    """What a first lay-down (opening or close) must satisfy."""
    d = game.deal
    rules = game.rules
    seat = d.turn
    left = len(d.hands[seat]) - len(laid)
    duties.keep_one(game.rules, d, laid)
    duties.lone_kept_keeps_a_place(game.rules, d, laid, [*(tm.meld for tm in d.table), *melds])
    if rules.lay_mode == "close":
        if left != 1:
            raise IllegalAction(
                f"lay every card but one at once: this leaves {left} cards in your hand"
            )
        kinds = {m.kind for m in melds}
        if kinds != {"run", "set"}:
            raise IllegalAction("the lay-down needs at least one run and one set")
    if d.owed is not None and d.owed not in laid:
        raise IllegalAction(f"the {d.owed.text} you took from the pile must be part of it")
    if rules.clean_run_and_set:
        clean_runs = [m for m in melds if m.kind == "run" and m.pure]
        if not clean_runs or not any(m.kind == "set" and m.pure for m in melds):
            raise IllegalAction("a first lay-down needs a run and a set without jokers")
        owed = d.owed
        # With two copies of the taken card laid, the copy outside a run may be the taken one.
        if owed is not None and all(
            owed in m.cards and laid.count(owed) == m.cards.count(owed) for m in clean_runs
        ):
            raise IllegalAction(
                f"one run without jokers must be made without the {owed.text} you took"
            )
    free = (
        (rules.small_opening >= 0 and left <= rules.small_opening)
        or (rules.lay_all_close and left == 1)
        or game.opening_freed(seat)
    )
    if not free and rules.opening_minimum:
        worth = sum(m.value(rules.jokers_zero) for m in melds)
        if worth < rules.opening_minimum:
            extra = " without jokers" if rules.jokers_zero else ""
            raise IllegalAction(
                f"opening is worth {worth}{extra}; the minimum is {rules.opening_minimum}"
            )


def check_open(game: Game, act: Open) -> list[Meld]:
    """Check a first lay-down; its plan is the melds it lays."""
    if not all(ONLY_CARDS.issuperset(map(type, m)) for m in act.melds):
        refuse_fields(act)
    d = game.deal
    rules = game.rules
    if rules.lay_mode == "declare":
        raise IllegalAction("nothing is laid on the table in this game: declare instead")
    need_play(game, "lay down")
    if d.opened[d.turn]:
        raise IllegalAction("you have already opened: lay more melds with meld")
    if not act.melds:
        # Open(()) met a minimum of 0 (a partner's lay-down, a house rule) and opened the
        # seat with nothing laid; its text, "open ", is no notation: the record broke.
        raise IllegalAction("no cards: a meld needs at least 3 cards")
    laid = [c for m in act.melds for c in m]
    need_hand(game, laid)
    melds = [as_meld(game, m) for m in act.melds]
    lay_down_rules(game, melds, laid)
    return melds


def check_meld(game: Game, act: NewMeld) -> Meld:
    """Check a new meld laid after the opening; its plan is the meld."""
    if not ONLY_CARDS.issuperset(map(type, act.cards)):
        refuse_fields(act)
    d = game.deal
    if game.rules.lay_mode != "open":
        raise IllegalAction("melds are laid only with the lay-down in this game")
    need_play(game, "meld")
    if not d.opened[d.turn]:
        raise IllegalAction(open_first(game))
    need_hand(game, act.cards)
    meld = as_meld(game, act.cards)
    duties.keep_one(game.rules, d, act.cards)
    duties.lone_kept_keeps_a_place(
        game.rules, d, act.cards, [*(tm.meld for tm in d.table), meld]
    )
    if d.owed is not None or d.freed:
        after = [*(tm.meld for tm in d.table), meld]
        duties.owed_keeps_a_place(game.rules, d, act.cards, after)
        if d.freed:
            duties.freed_keeps_a_place(game.rules, d, act.cards, after)
    return meld


def open_first(game: Game) -> str:
    """Why a seat that has not opened may not lay on the table yet."""
    # A seat whose partner has laid down (Rami 2 v 2) needs no minimum: naming the
    # table's would send it looking for points it does not need.
    m = game.opening_rule(game.deal.turn).minimum
    return f"open first: your first melds must reach {m}" if m else "lay down first"


def table_meld(game: Game, number: int) -> TableMeld:
    """The table's meld ``number`` (from 1), refused if there is none."""
    table = game.deal.table
    if not 1 <= number <= len(table):
        raise IllegalAction(
            f"there is no meld {number} on the table"
            + (f" (melds 1 to {len(table)})" if table else " (the table is empty)")
        )
    return table[number - 1]


def check_layoff(game: Game, act: Layoff) -> Meld:
    """Check a lay-off; its plan is the meld it makes."""
    if type(act.card) is not Card or type(act.number) is not int or act.end not in _ENDS:
        refuse_fields(act)
    d = game.deal
    if not game.rules.layoffs:
        raise IllegalAction("cards are not laid off in this game")
    need_play(game, "lay off")
    if not d.opened[d.turn]:
        raise IllegalAction(open_first(game))
    tm = table_meld(game, act.number)
    need_hand(game, [act.card])
    duties.keep_one(game.rules, d, [act.card])
    try:
        meld = tm.meld.add(act.card, act.end, d.meld_rules)
    except InvalidMeld as exc:
        raise IllegalAction(f"meld {act.number}: {exc}") from None
    duties.lone_kept_keeps_a_place(
        game.rules, d, [act.card], table_with(game, act.number, meld)
    )
    if d.owed is not None or d.freed:
        after = table_with(game, act.number, meld)
        duties.owed_keeps_a_place(game.rules, d, [act.card], after)
        if d.freed:
            duties.freed_keeps_a_place(game.rules, d, [act.card], after)
    return meld


def check_swap(game: Game, act: Swap) -> int:
    """Check a joker's swap; its plan is the joker's place in the meld."""
    if type(act.card) is not Card or type(act.number) is not int:
        refuse_fields(act)
    d = game.deal
    if game.rules.swap == "none":
        raise IllegalAction("jokers are not swapped in this game")
    need_play(game, "swap a joker")
    if not d.opened[d.turn]:
        raise IllegalAction(open_first(game))
    tm = table_meld(game, act.number)
    need_hand(game, [act.card])
    i = tm.meld.swap_index(act.card, d.meld_rules, game.rules.swap == "fourth")
    if i is None:
        meld = tm.meld
        if (
            game.rules.swap == "fourth"
            and meld.kind == "set"
            and any(meld.jokers)
            and meld.rank == act.card.rank
            and act.card.suit in meld.missing_suits()
            # A full set (two jokers among four cards) has no room to lay the card off.
            and len(meld.cards) < 4
        ):
            raise IllegalAction(
                f"a joker leaves a set only as its fourth card: lay {act.card.text} off"
            )
        raise IllegalAction(
            f"{act.card.text} does not take the place of a joker in meld {act.number}"
        )
    if d.owed is not None or game.rules.freed_joker_duty:
        after = table_with(game, act.number, tm.meld.swapped(i, act.card)[0])
        duties.owed_keeps_a_place(game.rules, d, [act.card], after, jokers=1)
        if game.rules.freed_joker_duty:
            duties.freed_keeps_a_place(game.rules, d, [act.card], after, 1)
    return i


def table_with(game: Game, number: int, meld: Meld) -> list[Meld]:
    """The table's melds with meld ``number`` (from 1) replaced by ``meld``."""
    melds = [tm.meld for tm in game.deal.table]
    melds[number - 1] = meld
    return melds


def check_declare(game: Game, act: Declare) -> Card:
    """Check an Indian declaration; its plan is the card it throws."""
    if not all(ONLY_CARDS.issuperset(map(type, m)) for m in act.melds):
        refuse_fields(act)
    d = game.deal
    if game.rules.lay_mode != "declare":
        raise IllegalAction("declare belongs to Indian rummy")
    need_play(game, "declare")
    hand = d.hands[d.turn]
    cards = [c for m in act.melds for c in m]
    if len(cards) != len(hand) - 1:
        raise IllegalAction(
            f"a declaration shows {len(hand) - 1} cards in melds; this shows {len(cards)}"
        )
    need_hand(game, cards)
    rest = Counter(hand) - Counter(cards)
    discard = next(iter(rest))
    if discard is duties.kept_card(game.rules, d):
        raise IllegalAction(
            f"{discard.text} was just taken from the pile: declare with it in a meld"
        )
    return discard


def check_drop(game: Game, act: Action) -> int:
    """Check an Indian drop; its plan is what it costs."""
    if game.rules.lay_mode != "declare":
        raise IllegalAction("drop belongs to Indian rummy")
    d = game.deal
    return game.rules.middle_drop if d.drew[d.turn] else game.rules.first_drop


def check_timeout(game: Game, act: Action) -> None:
    """The host's automatic play is legal whenever a turn is on."""
    return None


#: The check of each kind of action, called with the game and the action: it raises, or
#: returns the plan the game's performing of the action takes.
CHECKS: Final[dict[type, Callable[[Game, Any], Any]]] = {
    Draw: check_draw,
    Take: check_take,
    Return: check_return,
    Discard: check_discard,
    Open: check_open,
    NewMeld: check_meld,
    Layoff: check_layoff,
    Swap: check_swap,
    Declare: check_declare,
    Drop: check_drop,
    Timeout: check_timeout,
}
