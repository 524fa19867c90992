"""Explicit deals for the browser tests' whole games (docs/web.md, "Browser tests").

A Rami game lasts until one side passes 251 (300 in ``simple``) points, which with shuffled
decks is ten or more deals: minutes of play through the page. The tests' server deals instead
from the plans below: the person (seat 0) gets melds that go out in one turn of play (rummy's
first deal: a few turns, to use every move), the bot (seat 1) a heavy hand that cannot meld, so
the game is over in two or three deals. Everything else is the real server, bots included: the
plans only fix the order of the shuffled deck (the engine's ``rng`` parameter), never a rule.

``python -m tests.web_decks [serve options]`` runs ``python -m rummykit serve`` with every new
game of a planned variant dealt from its plan; other variants, later deals and rebuilt stocks
are shuffled from a fixed seed.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.cards import Card, format_cards, make_deck, parse_cards
from rummykit.rules import make_rules

HUMAN, BOT = 0, 1

# Per variant, per deal: (the person's cards, the bot's cards, the first cards of the stock).
# The dealer passes every deal, so seat 1 (the bot) is first in deals 1 and 3 and seat 0 in
# deal 2; in Rami the first player has 15 cards and starts by discarding (no draw). The third
# string is what follows the hands: the indicator, the starter, then the stock from its top.
# Hands are listed as the person should lay them; the tests' player finds the melds itself.
PLANS: dict[str, list[tuple[str, str, str]]] = {
    # rummy, deal 1: the person opens a set by selection, melds a run and a run with a joker,
    # lays off; draws the card the joker stands for, swaps it in and lays the freed joker off;
    # then lays off what comes and discards the rest. The stock's first cards fit the person's
    # melds (6H twice: whether the bot draws or takes, the person draws one) and nothing of the
    # bot's.
    "rummy": [
        (
            "KS KH KD 5H X 7H 9C TC JC QS 8S 2S 4C",
            "AS QH JD 9H 8D 6C 4S 3H 2C TS 8C 7S 2D",
            "QD KC QC 6H 6H 8C 4H 8H AS 3C JC",
        ),
        # deal 2 (a game to 200): the person is first and goes out in one turn from a hand not
        # opened before (rummy de mano): the bot's heavy hand counts double
        (
            "KS KH KD 5H 6H 7H 9C TC JC 2D 3D 4D 5D",
            "KS KH QD QC JS JH TD TC 9S 9H AS AH 8D",
            "8S 2C 7C",
        ),
    ],
    # rami51: no joker can make a meld of the bot's (distinct ranks, each suit four ranks
    # apart), so it never lays anything; three jokers make its hand heavy (over 130 a deal).
    "rami51": [
        (
            "KS KH KD 9C TC JC QC 4D 5D 6D 7S 7H 7C X",
            "X X X AS KH QD JC TS 9H 8D 7C 6S 5H 4D 3C",
            "2H 8S 3S 6C",
        ),
        (
            "QS QH QC 5H 6H 7H 8H AD 2D 3D 9S 9D 9C X KC",
            "X X X AH KS QD JC TH 9S 8D 7C 6H 5S 4D",
            "2S 8C 3H",
        ),
    ],
    # rami71: the first lay-down needs a joker-free run and set worth 71 (jokers count 0); the
    # bot holds pairs and both jokers but no joker-free meld, so it cannot lay down.
    "rami71": [
        (
            "AS AH AD TC JC QC KC 4D 5D 6D 8S 8H 8C 9C",
            "X X AS AH KS KH QD QC JD JC TS TH 9D 9C 7S",
            "2H 6C 3C 5S",
        ),
        (
            "AS AC AD 9H TH JH QH 2C 3C 4C 5C 6S 6D 6C JS",
            "X X AC AD KC KD QS QH JD JH TC TS 9D 9C",
            "2S 7D 4H",
        ),
    ],
    # simple: closing lays every card but one at once; each losing hand pays 100, the game
    # ends at 300: three deals.
    "simple": [
        (
            "KS KH KD 9C TC JC QC 4D 5D 6D 7D 7S 7H 7C",
            "X AS QH JD 9H 8D 6C 4S 3C 2S TS 8C 7D 5C KC",
            "QD 8S 5S 6H",
        ),
        (
            "QS QH QC 5H 6H 7H 8H AD 2D 3D 9S 9D 9C X JS",
            "AH KS QD JC TH 9S 8D 7C 6H 5S 4D 3C 2C KD",
            "2S 8C 3S",
        ),
        (
            "AS AH AC TD JD QD KD 4C 5C 6C 7C 8S 8H 8D",
            "X KS QH JC TH 9S 8C 7D 6H 5S 4D 3C 2C KD 9H",
            "QC 7S 6D 4H",
        ),
    ],
    # indian, one deal ("points"): after the draw the person holds a valid declaration (the
    # indicator, 2C, makes twos wild: none is in the hands).
    "indian": [
        (
            "3S 4S 5S 7H 8H 9H QS QH QD QC KD KC KS",
            "AS AH JD TC 9S 8D 7C 6S 5H 4D 3C TH 6D",
            "2C 5C AD 9C JH",
        ),
    ],
}


def plan_deck(variant: str, deal: int) -> list[Card] | None:
    """The deck of ``deal`` (1, 2, …) of a planned 2-player game, in dealing order, or None."""
    plans = PLANS.get(variant, [])
    if not 1 <= deal <= len(plans):
        return None
    rules = make_rules(variant, 2)
    human, bot, top = (parse_cards(x) for x in plans[deal - 1])
    dealer = (rules.first_dealer + deal - 1) % 2
    first = (dealer + 1) % 2
    hands = {HUMAN: list(human), BOT: list(bot)}
    size = rules.hand_size
    want = {s: size + (1 if rules.first_extra and s == first else 0) for s in hands}
    for s, cards in hands.items():
        if len(cards) != want[s]:
            raise ValueError(f"{variant} deal {deal}: seat {s} needs {want[s]} cards")
    order = [first, 1 - first]
    deck: list[Card] = []
    for i in range(size):
        for s in order:
            deck.append(hands[s][i])
    if rules.first_extra:
        deck.append(hands[first][size])
    deck.extend(top)  # the indicator, the starter, then the top of the stock
    rest = Counter(make_deck(rules.jokers))
    rest.subtract(deck)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"{variant} deal {deal}: too many of {+(-rest)}")
    others = sorted(rest.elements(), key=lambda c: c.text)
    random.Random(f"{variant}:{deal}").shuffle(others)
    return deck + others


class PlannedShuffle:
    """The engine's ``rng``: full decks come from the plan, deal after deal; anything else (a
    deal past the plan, a rebuilt stock) is shuffled from a fixed seed."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.deck_size = len(make_deck(make_rules(variant, 2).jokers))
        self.deals = 0
        self.rng = random.Random(variant)

    def shuffle(self, x: list[Any], /) -> None:
        if len(x) == self.deck_size:
            self.deals += 1
            planned = plan_deck(self.variant, self.deals)
            if planned is not None:
                assert Counter(planned) == Counter(x)
                x[:] = planned
                return
        self.rng.shuffle(x)


def install() -> None:
    """Make every new 2-player game of a planned variant deal from its plan."""
    from rummykit.engine.game import Game

    original: Callable[..., Game] = Game.new.__func__  # type: ignore[attr-defined]

    def new(cls: type[Game], variant: str, *args: Any, **kw: Any) -> Game:
        planned = (
            variant in PLANS
            and kw.get("players", 2) == 2
            and not args
            and all(kw.get(k) is None for k in ("seed", "deck", "rng"))
        )
        if planned:
            kw["rng"] = PlannedShuffle(variant)
        return original(cls, variant, *args, **kw)

    Game.new = classmethod(new)  # type: ignore[method-assign,assignment]


def describe(variant: str) -> list[str]:
    """The planned decks as text (for reading a failing test)."""
    out = []
    for deal in range(1, len(PLANS.get(variant, [])) + 1):
        deck = plan_deck(variant, deal)
        assert deck is not None
        out.append(format_cards(deck))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    install()
    from rummykit.cli.main import main as rummykit

    return rummykit(["serve", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    sys.exit(main())
