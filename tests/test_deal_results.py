"""Each finished deal's result carries what showing that deal again needs once its view and
events are gone (docs/engine.md, *Views*: `results`): why each seat was out of it, who was out
of the game once it was scored, its wild rank and its declarations. The web page's look back
at a past deal draws from these alone."""

from __future__ import annotations

import json
import random

from rummykit.bots import make_bot, play_deal
from rummykit.engine import DealResult, Declaration, Game
from tests.helpers import medium_game

KEYS = {"deal", "dealer", "winner", "how", "points", "double", "blocked", "penalties", "hands",
        "totals", "out", "eliminated", "wild_rank", "declarations"}


def dropped_and_declared_wrongly() -> Game:
    """A 3-player Indian pool whose first deal ends at once: seat 1 drops, seat 2 declares its
    hand in four groups that are no melds, and seat 0 is the last player in."""
    game = Game.new("indian", players=3, seed=4, options={"format": "pool101"})
    assert game.to_move == 1
    game.apply("drop")
    game.apply("draw")
    hand = [c.text for c in game.hand(2)]
    groups = [hand[0:3], hand[3:6], hand[6:9], hand[9:13]]
    game.apply("declare " + " / ".join(" ".join(g) for g in groups))
    assert game.deal.over
    return game


def test_a_drop_and_a_wrong_declaration_are_in_the_result() -> None:
    game = dropped_and_declared_wrongly()
    result = game.results[0]
    assert (result.winner, result.how) == (0, "last-player")
    assert result.out == (None, "dropped", "wrong-declaration")
    assert result.eliminated == ()
    assert result.wild_rank == game.deal.wild_rank != 0
    (declared,) = result.declarations
    assert declared == Declaration(2, tuple(declared.melds), False)
    assert [m.split() for m in declared.melds] == [result.hands[2].split()[i:j] for i, j in
                                                   ((0, 3), (3, 6), (6, 9), (9, 13))]
    # the next deal deals everyone again (a drop and a wrong declaration leave the game on)
    game.next_deal()
    shown = game.view(1)["results"][0]
    assert set(shown) == KEYS
    assert shown["out"] == [None, "dropped", "wrong-declaration"]
    assert shown["wild_rank"] == result.wild_rank
    assert shown["declarations"] == [
        {"seat": 2, "melds": list(declared.melds), "valid": False}]
    assert game.view(1)["seats"][1]["out"] is None


def test_the_winning_declaration_is_in_the_result() -> None:
    game = medium_game("indian", 2, 1, seed=3, deal_next=False)
    result = game.results[0]
    assert result.how == "declare"
    (declared,) = result.declarations
    assert (declared.seat, declared.valid) == (result.winner, True)
    # the melds as laid out: the winner's hand, group by group
    assert sorted(" ".join(declared.melds).split()) == sorted(result.hands[declared.seat].split())
    assert len(declared.melds) >= 2


def test_a_pool_player_put_out_and_then_dealt_nothing() -> None:
    # seed 7: seat 2 goes past 101 in the third deal and is dealt nothing in the fourth
    game = medium_game("indian", 3, 4, seed=7, options={"format": "pool101"})
    results = game.results
    assert [r.eliminated for r in results] == [(), (), (2,), (2,)]
    assert results[2].totals[2] > 101 and results[2].out[2] is None
    assert results[3].out[2] == "eliminated" and results[3].penalties[2] == 0
    assert game.view(0)["results"][3]["eliminated"] == [2]


def test_other_variants_have_nothing_of_the_kind() -> None:
    for variant, players in (("rummy", 3), ("rami51", 4), ("simple", 2)):
        game = medium_game(variant, players, 1, deal_next=False)
        result = game.results[0]
        assert result.out == (None,) * players, variant
        assert (result.eliminated, result.wild_rank, result.declarations) == ((), 0, ()), variant
        shown = game.view(0)["results"][0]
        assert set(shown) == KEYS
        assert (shown["wild_rank"], shown["declarations"]) == (None, []), variant


def test_a_replayed_record_gives_the_same_results() -> None:
    game = dropped_and_declared_wrongly()
    game.next_deal()
    bots = [make_bot("medium") for _ in range(3)]
    assert play_deal(game, bots, random.Random(1))
    again = Game.from_record(json.loads(json.dumps(game.record())))
    assert again.results == game.results
    assert again.view(0)["results"] == game.view(0)["results"]


def test_a_result_is_a_value() -> None:
    game = dropped_and_declared_wrongly()
    result = game.results[0]
    assert isinstance(result, DealResult)
    assert eval(repr(result), {"DealResult": DealResult, "Declaration": Declaration}) == result
    assert hash(result) == hash(eval(repr(result), {"DealResult": DealResult,
                                                    "Declaration": Declaration}))
