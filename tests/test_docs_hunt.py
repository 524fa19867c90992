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
