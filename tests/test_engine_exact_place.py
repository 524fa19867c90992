"""A card owed to the table this turn (taken from the pile under ``taken_card_duty``) keeps a
place only if some sequence of legal moves still lays it and leaves a card to discard: the
engine searches for one (``rummykit.engine.place``) instead of trusting a meld of its suit or
rank on the table, or two cards in hand that might meld with it. A move that leaves none is
refused and never listed, so the turn cannot end up with nothing but ``timeout``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.cards import Card
from rummykit.engine import Game, place
from rummykit.engine.duties import turn_rules
from rummykit.engine.legal import candidate_melds
from rummykit.engine.place import TurnRules, can_finish
from rummykit.errors import IllegalAction
from rummykit.melds import Meld, MeldRules, make_meld, parse_meld
from tests.helpers import cards, new_game, play

POSITIONS = Path(__file__).parent / "positions"
SEAT0 = "2D 3D 8C AH AC 4H 6D 7D 9C KC KD TS"
NO_WAY = "no sequence of moves left could lay it this turn"


def listed(g: Game) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def taking(thrown: str, hand: str, opening: str) -> Game:
    """``rummy``: seat 1 opens with ``opening``, then takes ``thrown`` from seat 0."""
    g = new_game("rummy", 2, {0: f"{thrown} {SEAT0}", 1: hand}, starter="KH", stock="QD 8S")
    play(g, "draw", f"open {opening}", "discard QD", "draw", f"discard {thrown}", "take")
    assert g.view(1)["turn"]["owes"] == [thrown]
    return g


def refused(g: Game, move: str, why: str) -> None:
    before = (g.view(0), g.view(1), g.record())
    with pytest.raises(IllegalAction, match=why):
        g.apply(move)
    assert (g.view(0), g.view(1), g.record()) == before
    assert not g.is_legal(move)
    assert move not in listed(g)


# -- positions the house-rule hunt found: the move left only timeout ------------------------

HUNTED = [
    # 2D: the table's diamonds run is X TD JD, far from the 2.
    ("rummy-taken-2D-run-out-of-reach.json", "layoff 4 9C", "2D", NO_WAY),
    # TH: the hearts run QH KH AH needs a JH first, and the hand has none.
    ("rummy-taken-TH-gap-in-run.json", "layoff 5 TC low", "TH", NO_WAY),
    # 2S: the spades run QS KS AS does not wrap round to the 2.
    ("rummy-taken-2S-no-wrap.json", "layoff 3 JD high", "2S", NO_WAY),
    # taken_card_duty off, out by laying: the 6S just taken, left alone, could not be thrown
    # and had nowhere to go.
    ("rummy-kept-6S-alone.json", "layoff 13 6D high", "6S", NO_WAY),
]


@pytest.mark.parametrize(("name", "move", "taken", "why"), HUNTED)
def test_a_hunted_move_that_left_only_timeout_is_refused(
    name: str, move: str, taken: str, why: str
) -> None:
    g = Game.from_record((POSITIONS / name).read_text())
    refused(g, move, f"the {taken} you took from the pile with no place to go: {why}")
    moves = [a for a in listed(g) if a != "timeout"]
    assert moves
    # Every move still listed leaves a turn with something to do besides the clock's play.
    for a in moves:
        after = Game.from_record(g.record())
        after.apply(a)
        if after.to_move == g.to_move and after.phase == "play":
            assert [b for b in listed(after) if b != "timeout"], a


def test_a_taken_card_with_no_place_since_the_take_can_only_go_back() -> None:
    g = Game.from_record((POSITIONS / "rummy-taken-2D-run-out-of-reach.json").read_text())
    assert listed(g) == ["return", "timeout"]


# -- the places the search finds, and the moves that take them away ------------------------


def test_the_cards_in_between_are_laid_off_first() -> None:
    # 9H goes on 5H 6H 7H once 8H is laid off: melding the 8H with the other eights is refused.
    g = taking("9H", "JH JD JC 5H 6H 7H 8H 8S 8D 2C 3C 4C KS", "JH JD JC / 5H 6H 7H")
    refused(g, "meld 8S 8H 8D", "the 9H you took from the pile with no place to go: lay it first")
    assert "meld 2C 3C 4C" in listed(g)
    play(g, "meld 2C 3C 4C", "layoff 2 8H", "layoff 2 9H")
    assert g.view(1)["turn"]["owes"] == []


def test_a_joker_in_hand_fills_the_gap() -> None:
    g = taking("9H", "JH JD JC 5H 6H 7H X 8S 8D 2C 3C 4C KS", "JH JD JC / 5H 6H 7H")
    refused(g, "meld 8S 8D X", "lay it first")
    play(g, "layoff 2 X high", "layoff 2 9H")
    assert g.view(0)["table"][1]["cards"] == ["5H", "6H", "7H", "X", "9H"]


def test_two_copies_of_one_card_are_not_two_partners() -> None:
    # 6D could meld with 8D only through a joker; two 8D do not make 6D 8D 8D a meld.
    g = taking("6D", "JH JD JC 5H 6H 7H 8D 8D 2C 3C 4C KS 9S", "JH JD JC / 5H 6H 7H")
    assert listed(g) == ["return", "timeout"]
    refused(g, "meld 2C 3C 4C", NO_WAY)


def test_a_full_set_of_its_rank_is_no_place() -> None:
    g = taking("9H", "9S 9D 9C 9H 5H 6H 7H 2C 3C 4C KD QS 3D", "9S 9D 9C 9H / 5H 6H 7H")
    assert listed(g) == ["return", "timeout"]


def test_a_set_filled_by_a_joker_still_takes_it_by_a_swap() -> None:
    # The X laid on 9S 9D 9C fills the set, but 9H takes the joker's place; the freed joker
    # then goes on the hearts run.
    g = taking("9H", "9S 9D 9C 5H 6H 7H X 2C 3C 4C KD QS 3D", "9S 9D 9C / 5H 6H 7H")
    play(g, "layoff 1 X", "swap 1 9H", "layoff 2 X high", "discard KD")
    assert g.view(0)["table"][0]["cards"] == ["9S", "9H", "9D", "9C"]


def test_rami_keeps_a_card_to_discard_at_the_end_of_the_chain() -> None:
    # rami51 (no going out by laying): 8H then 9H go on the hearts run and QC is discarded.
    # Laying QC off first would leave 8H and 9H, and the 9H could then only be the last card.
    g = new_game("rami51", 2,
                 {1: "KS KH KD KC QS QH QD 3H 4H 5H 6H 7H QC 8H 2C",
                  0: "9H 2S 3S 8D 5C 6C AD JD 4C 2D TS 5S 8C KC"},
                 stock="4D 6D 7D 8S")
    play(g, "open KS KH KD KC / QS QH QD / 3H 4H 5H 6H 7H", "discard 2C",
         "draw", "discard 9H", "take")
    refused(g, "layoff 2 QC", "the 9H you took from the pile with no place to go: lay it first")
    play(g, "layoff 3 8H high", "layoff 3 9H", "discard QC")


# -- the search itself ---------------------------------------------------------------------

RUMMY = TurnRules(melds=MeldRules(), layoffs=True, swap="any", freed_joker_duty=True, keep=0,
                  new_melds=True, discard_taken=False)


def _finishes(hand: str, table: list[str], owed: str, rules: TurnRules = RUMMY) -> bool:
    o = cards(owed)[0]
    return can_finish(cards(hand), [parse_meld(m) for m in table], o, 0, o, rules)


def test_the_search_needs_real_places() -> None:
    assert _finishes("8H 9H 2C", ["5H 6H 7H"], "9H")
    assert not _finishes("9H 2C", ["5H 6H 7H"], "9H")
    assert _finishes("X 9H 2C", ["5H 6H 7H"], "9H")
    # Two missing cards: two jokers may not stand side by side, a real card between helps.
    assert not _finishes("X X 9H 2C", ["4H 5H 6H"], "9H")
    assert _finishes("X 8H 9H 2C", ["4H 5H 6H"], "9H")
    assert _finishes("9S 9D 2C 9H", [], "9H")
    assert not _finishes("9S 9S 2C 9H", [], "9H")
    # Rami: a card must stay to discard, so the last card cannot be the owed one.
    rami = TurnRules(melds=MeldRules(), layoffs=True, swap="fourth", freed_joker_duty=False,
                     keep=1, new_melds=True, discard_taken=False)
    assert _finishes("8H 9H 2C", ["5H 6H 7H"], "9H", rami)
    assert not _finishes("8H 9H", ["5H 6H 7H"], "9H", rami)


def test_every_listed_move_leaves_a_way_to_finish_in_random_games() -> None:
    """Random rummy games: whenever a card is owed, the player always has a move besides the
    clock's play (the property the exact place search exists for)."""
    for seed in range(6):
        g = Game.new("rummy", 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.phase != "draw" and g.phase != "play":
                break
            moves = listed(g)
            plain = [a for a in moves if a != "timeout"]
            assert plain, (seed, g.deal.owed, g.hand(g.deal.turn))
            lays = [a for a in plain if a.split()[0] in ("take", "meld", "layoff", "swap")]
            g.apply(rng.choice(lays if lays and rng.random() < 0.8 else plain))


class _EveryMove(place._Search):
    """The search over every lay-off, swap and new meld of the hand, none left out."""

    def _useful_layoff(self, *args: object) -> bool:
        return True

    def _new_melds(
        self, hand: place.Hand, table: place.Table, owed: Card | None, freed: int,
        jokers_owed: bool,
    ) -> Iterator[tuple[place.Hand, place.Table, Card | None, int, tuple[Card, ...]]]:
        mr = self.rules.melds
        for g in candidate_melds(list(hand), mr):
            if len(hand) - len(g) >= self.rules.keep:
                yield place._lay(hand, g, (*table, make_meld(g, mr)), owed, freed)


@pytest.mark.parametrize(("variant", "players", "seed"),
                         [("rummy", 3, 1), ("rummy", 3, 2), ("rami51", 2, 4)])
def test_the_search_agrees_with_one_over_every_move(variant: str, players: int, seed: int) -> None:
    """The moves the search leaves out never matter: on every state one move after a position
    with a card owed, it answers as the search over every move does."""
    g = Game.new(variant, players, seed=seed)
    rng = random.Random(seed)
    judged = 0
    for _ in range(300):
        if g.phase not in ("draw", "play"):
            break
        d = g.deal
        if d.owed is not None or d.freed:
            rules = turn_rules(g.rules, d)
            hand = tuple(sorted(d.hands[d.turn], key=lambda c: c.index))
            table: tuple[Meld, ...] = tuple(tm.meld for tm in d.table)
            for h, t, o, f, laid in _EveryMove(rules)._moves(hand, table, d.owed, d.freed):
                took = None if d.took in laid else d.took
                every = _EveryMove(rules)
                assert can_finish(h, t, o, f, took, rules) == every.reach(h, t, o, f, took), h
                judged += 1
        moves = [a for a in g.legal_actions() if a.verb != "timeout"]
        lays = [a for a in moves if a.verb in ("take", "open", "meld", "layoff", "swap")]
        g.apply(rng.choice(lays if lays and rng.random() < 0.85 else moves))
    assert judged > 20
