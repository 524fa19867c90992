"""The tournament command: duplicate deals, intervals, records, plots, errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import Observation, TurnReport, make_bot, observe, play_turn
from rummykit.bots.base import any_legal_real
from rummykit.bots.tournament import Spec, lineups, run_deals, summarize, t975, wilson
from rummykit.cli.main import main
from rummykit.engine import Game


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["tournament", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_lineups_rotate_every_bot_through_every_seat() -> None:
    assert lineups(["hard", "medium"], 2) == [("hard", "medium"), ("medium", "hard")]
    assert lineups(["hard", "medium"], 4) == [
        ("hard", "medium", "hard", "medium"), ("medium", "hard", "medium", "hard")]
    assert lineups(["hard", "medium"], 3) == [
        ("hard", "medium", "hard"), ("hard", "hard", "medium"), ("medium", "hard", "hard")]
    assert lineups(["medium"], 3) == [("medium", "medium", "medium")]


@pytest.mark.parametrize(("bots", "players", "count"), [
    (["easy", "medium", "hard"], 3, 6), (["easy", "medium", "hard"], 4, 12),
    (["a", "b", "c", "d"], 4, 24)])
def test_three_bots_or_more_meet_every_seat_and_every_neighbour_alike(
    bots: list[str], players: int, count: int
) -> None:
    """Rotations alone would always seat the same bot after a given one (easy, medium, hard
    round three seats: hard always takes medium's discards)."""
    lus = lineups(bots, players)
    assert len(lus) == len(set(lus)) == count
    base = [bots[s % len(bots)] for s in range(players)]
    for b in bots:
        for seat in range(players):
            assert sum(lu[seat] == b for lu in lus) == count * base.count(b) // players
    after = [(lu[s], lu[(s + 1) % players]) for lu in lus for s in range(players)]
    for x in bots:
        for y in bots:
            if x != y:
                assert after.count((x, y)) == after.count((y, x)) > 0


def test_six_distinct_bots_fall_back_to_rotations() -> None:
    assert len(lineups(["a", "b", "c", "d", "e", "f"], 6)) == 6


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.6 < hi < 0.7
    assert wilson(0, 0) == (0.0, 1.0)


def test_student_t_quantiles() -> None:
    assert t975(1) == 12.706 and t975(3) == 3.182
    for df, exact in [(10, 2.228), (20, 2.086), (60, 2.000), (1000, 1.962)]:
        assert t975(df) == pytest.approx(exact, rel=2e-3)


def fake_deal(shuffle: int, lineup: int, bots: list[str], winner: int,
              net: list[float]) -> dict[str, Any]:
    return {"shuffle": shuffle, "lineup": lineup, "bots": bots, "winner": winner,
            "how": "discard", "points": max(net), "net": net,
            "times": {"0": [0.1], "1": [0.2]}, "fallbacks": []}


def test_intervals_by_hand() -> None:
    """Two shuffles, each played in both lineups. medium wins 3 of 4 deals: Wilson gives
    [0.3006, 0.9544]. Its points are 10 and 30 on the first shuffle (mean 20), 0 and 20 on the
    second (mean 10): mean 15, the shuffles' standard deviation 7.071, and with one degree of
    freedom t = 12.706, so 15 +- 12.706 * 7.071 / sqrt(2) = 15 +- 63.53."""
    spec = Spec("rummy", 2, ("medium", "easy"), 4, seed=1)
    me, em = ["medium", "easy"], ["easy", "medium"]
    deals = [fake_deal(0, 0, me, 0, [10, -10]), fake_deal(0, 1, em, 1, [-30, 30]),
             fake_deal(1, 0, me, 1, [0, 0]), fake_deal(1, 1, em, 1, [-20, 20])]
    s = summarize(spec, deals)
    assert s["shuffles"] == 2
    medium = s["results"]["medium"]
    assert (medium["deals"], medium["won"], medium["mean_points"]) == (4, 3, 15.0)
    assert medium["win_ci"] == pytest.approx([0.3006, 0.9544], abs=1e-4)
    assert medium["points_ci"] == pytest.approx([15 - 63.53, 15 + 63.53], abs=0.01)
    assert s["results"]["easy"]["points_ci"] == pytest.approx([-15 - 63.53, -15 + 63.53],
                                                              abs=0.01)
    assert (medium["seats"], s["results"]["easy"]["seats"]) == (1, 1)
    three = summarize(Spec("rummy", 3, ("easy", "medium"), 3, seed=1), [])
    assert (three["results"]["easy"]["seats"], three["results"]["medium"]["seats"]) == (2, 1)
    one = summarize(spec, deals[:2])
    assert one["results"]["medium"]["points_ci"] is None


def test_wilson_interval_holds_the_share_exactly() -> None:
    for n in range(1, 60):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0, (k, n)
    assert wilson(6, 6)[1] == 1.0 and wilson(0, 11)[0] == 0.0


def test_smoke_json_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--variant", "rummy", "--players", "2", "--bots", "medium,easy", "--deals", "4",
            "--seed", "5")
    a = run_json(capsys, *args)
    assert a["deals"] == 4 and a["seed"] == 5
    assert set(a["results"]) == {"medium", "easy"}
    for r in a["results"].values():
        assert r["deals"] == 4
        lo, hi = r["win_ci"]
        assert 0 <= lo <= r["win_rate"] <= hi <= 1
        assert r["points_ci"][0] <= r["mean_points"] <= r["points_ci"][1]
        assert r["fallbacks"] == 0
    won = sum(r["won"] for r in a["results"].values())
    assert won + a["no_winner"] == 4
    b = run_json(capsys, *args, "--jobs", "2")
    for bot in ("medium", "easy"):
        for key in ("won", "mean_points", "deals"):
            assert a["results"][bot][key] == b["results"][bot][key]


def test_duplicate_deals_share_the_shuffle() -> None:
    spec = Spec("simple", 2, ("medium", "easy"), 2, seed=9)
    deals = run_deals(spec)
    assert [d["bots"] for d in deals] == [["medium", "easy"], ["easy", "medium"]]
    assert deals[0]["shuffle"] == deals[1]["shuffle"] == 0
    s = summarize(spec, deals)
    assert s["results"]["medium"]["deals"] == 2


def test_records_replay_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    rec_dir = tmp_path / "records"
    png = tmp_path / "out.png"
    run_json(capsys, "--variant", "indian", "--players", "2", "--bots", "hard,easy",
             "--deals", "2", "--seed", "1", "--budget", "0.02", "--records", str(rec_dir),
             "--plot", str(png))
    files = sorted(rec_dir.glob("*.json"))
    assert len(files) == 2
    for f in files:
        rec = json.loads(f.read_text())
        assert rec["bots"] in (["hard", "easy"], ["easy", "hard"])
        g = Game.from_record(rec)
        assert g.results
    assert png.stat().st_size > 1000


def test_people_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--variant", "rami51", "--bots", "easy,medium", "--deals", "2",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "medium" in out and "easy" in out and "95%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "poker"], "choose one of rummy, rami51, rami71, simple, indian"),
        (["--variant", "rami51", "--players", "3"], "or 4 (2 v 2, partners opposite)"),
        (["--bots", "hard,wizard"], "easy, medium, hard"),
        (["--bots", "easy,medium,hard"], "at most 2"),
        (["--variant", "rami51", "--players", "4", "--bots", "easy,medium,hard"],
         "rami51 with 4 players is played in 2 v 2, partners being the same bot: name at most 2"),
        (["--deals", "0"], "at least 1"),
        (["--jobs", "0"], "at least 1"),
        (["--budget", "0"], "positive"),
        (["--budget", "inf"], "finite"),
        (["--overwrite"], "--overwrite needs --records DIR"),
        (["--bots", "easy,medium", "--budget", "0.5"],
         "--budget is used only by hard, and --bots easy,medium names none"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("plot", "message"),
    [("missing/out.png", "no directory"), ("out.pnk", "unknown image format 'pnk': choose among")],
)
def test_a_plot_that_cannot_be_saved_stops_before_any_deal(
    plot: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    records = tmp_path / "records"
    assert main(["tournament", "--bots", "easy", "--deals", "1", "--seed", "1",
                 "--records", str(records), "--plot", str(tmp_path / plot)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_records_refuse_a_directory_holding_records_unless_told_to_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The old records would be replaced one by one, the surplus left to mix with the new."""
    old = tmp_path / "deal-00001-lineup-1.json"
    stale = tmp_path / "deal-00009-lineup-2.json"
    notes = tmp_path / "notes.txt"
    for f in (old, stale, notes):
        f.write_text("earlier run")
    args = ["tournament", "--variant", "simple", "--bots", "easy", "--deals", "1", "--seed", "1",
            "--records", str(tmp_path), "--json"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "already holds 2 deal records" in err and "--overwrite" in err
    assert len(err.splitlines()) == 1
    assert {f.read_text() for f in tmp_path.iterdir()} == {"earlier run"}
    assert main([*args, "--overwrite"]) == 0
    capsys.readouterr()
    assert sorted(f.name for f in tmp_path.iterdir()) == [old.name, notes.name]
    assert json.loads(old.read_text())["bots"] == ["easy", "easy"]
    assert notes.read_text() == "earlier run"


def test_records_accept_an_existing_directory_without_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("kept")
    run_json(capsys, "--variant", "simple", "--bots", "easy", "--deals", "1", "--seed", "1",
             "--records", str(tmp_path))
    assert sorted(f.name for f in tmp_path.iterdir()) == ["deal-00001-lineup-1.json",
                                                          "notes.txt"]


class Raiser:
    name = "easy"
    budget: float | None = None

    def choose(self, obs: Observation, rng: random.Random) -> str:
        raise RuntimeError("broken on purpose")


def test_a_broken_bot_is_replaced_and_every_replacement_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("rummykit.bots.tournament.make_bot",
                        lambda level, budget=None: Raiser() if level == "easy" else make_bot(level))
    args = ["tournament", "--bots", "medium,easy", "--deals", "2", "--seed", "3"]
    s = run_json(capsys, *args[1:])
    assert s["results"]["medium"]["fallbacks"] == 0
    n = s["results"]["easy"]["fallbacks"]
    assert n > 0 and len(s["fallbacks"]) == n
    first = s["fallbacks"][0]
    assert first["bot"] == "easy" and first["why"] == "raised RuntimeError: broken on purpose"
    assert {f["lineup"] for f in s["fallbacks"]} == {0, 1}
    assert first["seat"] == 1 - first["lineup"]  # easy sits second, then first
    assert main(args) == 0
    assert f"{n} moves were replaced by the medium move" in capsys.readouterr().out


class Saboteur:
    """Throws away the hand in the observation it is given, then answers nonsense."""

    name = "saboteur"
    budget: float | None = None

    def choose(self, obs: Observation, rng: random.Random) -> str:
        obs.view["hand"].clear()
        return "discard nonsense"


def test_fallback_plays_the_medium_move_even_when_the_bot_spoiled_its_observation() -> None:
    a, b = Game.new("rummy", 2, seed=3), Game.new("rummy", 2, seed=3)
    medium = make_bot("medium")
    for g in (a, b):  # to a turn where medium's move is not the first legal action
        play_turn(g, g.to_move or 0, medium, random.Random(1))
        play_turn(g, g.to_move or 0, medium, random.Random(1))
    seat = a.to_move
    assert seat is not None
    expected = medium.choose(observe(b, seat), random.Random(2))
    assert expected != str(any_legal_real(b))
    falls: list[TurnReport] = []
    rep = play_turn(a, seat, Saboteur(), random.Random(2), on_fallback=falls.append)
    assert rep.action == expected
    assert falls and falls[0].fallback == "answered an illegal action 'discard nonsense'"
