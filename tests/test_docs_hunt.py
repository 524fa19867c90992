"""What following the documentation as written turned up: each test fails without its fix."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from rummykit.bots import tournament
from rummykit.bots.tournament import Spec, run_deals


def test_a_tournament_starts_no_more_processes_than_it_has_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `--jobs 1000000 --deals 1` tried to start a million processes for two deals.
    asked: list[int] = []

    def pool(max_workers: int, **kwargs: Any) -> ThreadPoolExecutor:
        asked.append(max_workers)
        assert max_workers <= 2, f"{max_workers} processes asked for 2 deals"
        return ThreadPoolExecutor(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(tournament, "ProcessPoolExecutor", pool)
    spec = Spec("rummy", 2, ("medium", "easy"), deals=1, seed=1)
    assert len(run_deals(spec, jobs=1_000_000)) == 2
    assert asked == [2]


def test_a_hand_of_the_wrong_size_is_refused_in_good_english() -> None:
    from rummykit.analysis import analyze
    from rummykit.errors import InvalidHand

    with pytest.raises(InvalidHand, match=r"^an indian hand holds 13 or 14 cards; this one "):
        analyze("KS KH KD", "indian")
    with pytest.raises(InvalidHand, match=r"^a rummy hand holds 1 to 14 cards; this one "):
        analyze("", "rummy")


def test_a_tournament_of_one_shuffle_says_one_shuffle(capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.cli.main import main

    assert main(["tournament", "--bots", "medium,easy", "--deals", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "rummy, 2 players, 2 deals (1 shuffle, seed 1)" in out


@pytest.mark.parametrize("players", ["2", 2.0, True, None])
def test_a_seat_count_of_the_wrong_type_is_an_invalid_argument(players: Any) -> None:
    # docs/engine.md's table of errors names Game.new("rummy", players="2") under
    # InvalidArgument; it raised a plain RummyError.
    from rummykit.engine import Game
    from rummykit.errors import InvalidArgument, RummyError

    with pytest.raises(InvalidArgument, match="players must be a whole number"):
        Game.new("rummy", players=players)
    with pytest.raises(RummyError) as refused:
        Game.new("rummy", players=7)
    assert type(refused.value) is RummyError


def test_a_tournament_of_more_deals_than_memory_holds_is_refused_before_it_starts() -> None:
    # `--deals 10000000000` built ten billion tasks and died of MemoryError, with a traceback.
    from rummykit.bots.tournament import MAX_DEALS, TournamentError

    Spec("rummy", 2, ("medium", "easy"), deals=MAX_DEALS, seed=1).check()
    with pytest.raises(TournamentError, match=r"^--deals must be at most 1,000,000: "):
        Spec("rummy", 2, ("medium", "easy"), deals=10**10, seed=1).check()
