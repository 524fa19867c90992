"""What a hunt through the command line found: seats and sides counted from 1 for people (as
the web page counts them), a tournament that stops at once on Ctrl-C and says so without
leaving a truncated record, `--plot` and `--records` refused before any deal when the file
could not be written (or would be written under another name), and `serve --db` refusing a
name SQLite reads as a database that vanishes with the server."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import tournament as tour
from rummykit.bots.tournament import Spec, summarize
from rummykit.cli.main import main
from rummykit.cli.tournament import _print
from rummykit.engine import Game
from tests.cli_support import cli, refused, stopped, tournament_under_way

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"


# -- seats and sides for people -------------------------------------------------------------


def test_replay_for_people_counts_sides_and_seats_from_one() -> None:
    # simple 2 v 2: seat 1 (from 0) went out, so its side, the second, pays nothing.
    code, out, _ = cli(["replay", str(GOLDEN / "simple-2v2.json")])
    assert code == 0
    assert "Scores: side 1: 200, side 2: 0" in out
    assert "seat 2 (side 2)" in out
    assert "side 0" not in out
    code, out, _ = cli(["replay", str(GOLDEN / "rummy-blocked.json")])
    assert code == 0
    assert "Scores: seat 1: 0, seat 2: 0, seat 3: 15" in out
    assert "seat 3" in out and "Game over: seat 3 wins." in out
    # The JSON keeps the engine's numbers, from 0.
    code, out, _ = cli(["replay", str(GOLDEN / "rummy-blocked.json"), "--json"])
    assert json.loads(out)["winner"] == 2


def test_replay_for_people_names_the_seat_to_move_from_one(tmp_path: Path) -> None:
    rec = json.loads((GOLDEN / "rummy-69.json").read_text())
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:3]
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec))
    assert Game.from_record(rec).to_move == 0
    code, out, _ = cli(["replay", str(path)])
    assert code == 0 and "seat 1 to move" in out


def test_a_tournament_names_the_seat_of_a_replaced_move_from_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = Spec("rummy", 2, ("medium", "easy"), 2, seed=1)
    deal = {"shuffle": 0, "lineup": 1, "bots": ["easy", "medium"], "winner": 1,
            "how": "discard", "points": 10, "net": [-10, 10],
            "times": {"0": [0.1], "1": [0.2]},
            "fallbacks": [{"seat": 1, "bot": "medium", "why": "too slow", "played": "draw"}]}
    _print(summarize(spec, [deal]))
    out = " ".join(capsys.readouterr().out.split())
    # Shuffle and lineup were already counted from 1; the seat was not.
    assert "medium at seat 2 of shuffle 1, lineup 2: too slow" in out


# -- Ctrl-C during a tournament -------------------------------------------------------------


def test_ctrl_c_leaves_only_whole_records_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the third record is being written: the command says how far it got, exit
    status 130, and the directory holds the two whole records, which replay."""
    real_dump = json.dump
    calls = 0

    def dump(obj: Any, fh: Any, **kw: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            fh.write(json.dumps(obj)[:100])  # half written
            raise KeyboardInterrupt
        real_dump(obj, fh, **kw)

    monkeypatch.setattr("rummykit.bots.tournament.json.dump", dump)
    records = tmp_path / "records"
    code, out, err = cli(["tournament", "--bots", "medium,easy", "--deals", "8", "--seed", "1",
                          "--records", str(records)])
    assert code == 130 and out == ""
    assert err.strip().splitlines() == [
        f"rummykit tournament: interrupted after 2 of 8 deals, no results; the records of "
        f"those played are in {records}"
    ]
    assert sorted(os.listdir(records)) == ["deal-00001-lineup-1.json",
                                          "deal-00001-lineup-2.json"]
    for name in os.listdir(records):
        Game.from_record((records / name).read_text())


def test_ctrl_c_stops_a_tournament_of_several_processes_at_once(tmp_path: Path) -> None:
    """The terminal's Ctrl-C reaches the whole process group. The command used to wait for
    every deal already queued (all 400 here) before it ended, silently."""
    records = tmp_path / "records"
    proc = tournament_under_way(records, jobs="2")
    code, out, err = stopped(proc, lambda: os.killpg(proc.pid, signal.SIGINT))
    assert code == 130, err
    assert out == "" and len(err.splitlines()) == 1, err
    names = os.listdir(records)
    assert f"interrupted after {len(names)} of 400 deals" in err
    # the deals queued were cancelled, not played (no timing: a loaded machine is slow)
    assert 4 <= len(names) < 400
    assert all(n.startswith("deal-") and n.endswith(".json") for n in names), names
    for name in names:
        Game.from_record((records / name).read_text())


# -- files the tournament could not write -----------------------------------------------------


@pytest.fixture
def no_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    def played(*args: object, **kw: object) -> None:
        raise AssertionError("a deal was played")

    monkeypatch.setattr("rummykit.cli.tournament.run_deals", played)
    monkeypatch.setattr(tour, "play_task", played)


def test_a_plot_named_as_a_directory_or_without_a_format_is_refused_before_any_deal(
    tmp_path: Path, no_deals: None
) -> None:
    pytest.importorskip("matplotlib")
    folder = tmp_path / "charts"
    folder.mkdir()
    base = ["tournament", "--bots", "medium,easy", "--deals", "2", "--seed", "1", "--plot"]
    # matplotlib saved these as charts.png, charts/.png and results.png.
    for path, said in [(str(folder), "is a directory"), (f"{folder}{os.sep}", "is a directory"),
                       (str(tmp_path / "results"), "extension names the image format")]:
        assert said in refused(*cli([*base, path]))
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["charts"]


@pytest.mark.skipif(not os.path.isdir("/proc/sys"), reason="needs Linux's /proc")
def test_a_plot_or_records_that_cannot_be_written_are_refused_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    # /proc takes no new file, even from root (who may write in any directory of a disk).
    monkeypatch.setattr(tour, "warm_up", lambda *a: None)
    monkeypatch.setattr(tour, "play_task", lambda t: pytest.fail("a deal was played"))
    base = ["tournament", "--bots", "medium,easy", "--deals", "2", "--seed", "1"]
    assert "--plot /proc/results.png" in refused(*cli([*base, "--plot", "/proc/results.png"]))
    msg = refused(*cli([*base, "--records", "/proc/sys"]))
    assert msg.startswith("rummykit tournament: --records /proc/sys: no record can be written")


def test_a_plot_the_tournament_can_write_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    svg = tmp_path / "chart.svg"
    code, _, err = cli(["tournament", "--bots", "medium,easy", "--deals", "2", "--seed", "1",
                        "--plot", str(svg), "--json"])
    assert code == 0, err
    assert svg.read_text().lstrip().startswith("<?xml")


# -- serve --db -------------------------------------------------------------------------------


@pytest.mark.parametrize("db", ["", ":memory:"])
def test_serve_refuses_a_database_that_is_no_file(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a: pytest.fail("the server started"))
    msg = refused(*cli(["serve", "--port", "0", "--db", db]))
    assert f"--db {db!r} is no file" in msg


# -- arguments --------------------------------------------------------------------------------


def test_check_takes_a_meld_unquoted_as_analyze_takes_a_hand() -> None:
    code, out, err = cli(["check", "7S", "7H", "X", "X", "--json"])
    assert (code, json.loads(out), err) == (0, {"valid": True, "kind": "set", "points": 28}, "")
    assert cli(["check", "7S 7H X X", "--json"])[1] == out
    code, out, _ = cli(["check", "-", "--json"], b"7S 7H X\nAS 2S\n")
    assert code == 1 and [json.loads(line)["valid"] for line in out.splitlines()] == [True, False]


@pytest.mark.parametrize("argv", [
    ["check", "7S 7H X", "--bogus"],
    ["replay", "a.json", "b.json"],
    ["analyze", "KS", "--bogus"],
    ["tournament", "--bogus"],
    ["serve", "--bogus", "x"],
])
def test_an_unknown_argument_is_refused_in_the_subcommands_name(argv: list[str]) -> None:
    # It pointed to `rummykit --help`, which does not list the subcommand's options.
    msg = refused(*cli(argv))
    assert msg.startswith(f"rummykit {argv[0]}: unrecognized arguments: ")
    assert msg.endswith(f"(see rummykit {argv[0]} --help)")


@pytest.mark.parametrize(("flag", "value"), [
    ("--allow-origin", "example.org"),  # no scheme: a browser's Origin always has one
    ("--allow-origin", "https://example.org/lobby"),
    ("--allow-origin", "ftp://example.org"),
    ("--allow-origin", "https://example.org:99999"),
    ("--allow-host", "https://games.example.org"),
    ("--allow-host", "games.example.org:8080"),  # the Host is compared without its port
    ("--allow-host", ""),
])
def test_serve_refuses_an_origin_or_host_that_could_never_match(
    flag: str, value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a: pytest.fail("the server started"))
    db = tmp_path / "s.db"
    msg = refused(*cli(["serve", "--port", "0", "--db", str(db), flag, value]))
    assert msg.startswith(f"rummykit serve: {flag} {value!r}: ")
    assert not db.exists()


def test_serve_writes_an_allowed_origin_as_a_browser_sends_it() -> None:
    import argparse

    from rummykit.cli.serve import add_arguments, config_from_args

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    config = config_from_args(parser.parse_args([
        "--allow-origin", "https://Games.Example.org/", "--allow-origin", "https://a.org:443",
        "--allow-origin", "http://localhost:3000", "--allow-origin", "*",
        "--allow-host", "games.example.org", "--allow-host", "*.club.example",
    ]))
    assert config.allow_origins == ["https://games.example.org", "https://a.org",
                                    "http://localhost:3000", "*"]
    assert config.allow_hosts == ["games.example.org", "*.club.example"]


@pytest.mark.parametrize("argv", [
    ["analyze", "KS KH ZZ"],
    ["analyze", "KS", "--variant", "gin"],
    ["check", "KS", "--variant", "gin"],
    ["replay", "/no/such/record.json"],
    ["tournament", "--variant", "gin"],
])
def test_every_subcommand_words_a_refusal_alike(argv: list[str]) -> None:
    # analyze alone said "rummykit analyze: error: ...".
    msg = refused(*cli(argv))
    assert msg.startswith(f"rummykit {argv[0]}: ") and "error:" not in msg


# -- output read only in part -----------------------------------------------------------------


@pytest.mark.parametrize("argv", [["analyze", "-"], ["check", "-"], ["check", "-", "--json"]])
def test_a_reader_that_goes_away_ends_a_batch_quietly(argv: list[str], tmp_path: Path) -> None:
    """`rummykit analyze - < hands | head -1`: analyze said "Broken pipe" with exit status 2
    (bad input), check's text exit status 1 ("not a meld"); now neither says anything and
    both end as a command ended by SIGPIPE does in a shell, 141."""
    hands = tmp_path / "hands.txt"
    hands.write_text("KS KH KD\n" * 20000)
    with hands.open("rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "rummykit", *argv], cwd=ROOT,
                                stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 141, err
    assert err == ""


def test_a_tournament_says_the_budget_hard_played_with(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Without --budget, hard thinks within its default of 1 s: the results depend on it, and
    # the JSON said null and the table nothing.
    s = summarize(Spec("rummy", 2, ("hard", "medium"), 2, seed=1), [])
    assert s["budget"] == 1.0
    _print(s)
    assert "hard budget 1.0 s" in capsys.readouterr().out
    assert summarize(Spec("rummy", 2, ("hard", "easy"), 2, seed=1, budget=0.25), [])[
        "budget"] == 0.25
    assert summarize(Spec("rummy", 2, ("medium", "easy"), 2, seed=1), [])["budget"] is None


# -- check under house rules ------------------------------------------------------------------


@pytest.mark.parametrize(("meld", "rule", "answer"), [
    # One real card is enough under min_real=1: analyze already laid X X 5C with it.
    ("X X 5C", "min_real=1", {"valid": True, "kind": "set", "points": 15}),
    ("7S 7H X", "jokers_zero=yes", {"valid": True, "kind": "set", "points": 14}),
])
def test_check_answers_under_house_rules_as_analyze_does(
    meld: str, rule: str, answer: dict[str, Any]
) -> None:
    code, out, err = cli(["check", meld, "--rule", rule, "--json"])
    assert (code, json.loads(out), err) == (0, answer, "")
    code, out, _ = cli(["analyze", meld, "--rule", rule, "--json"])
    assert json.loads(out)["opening"]["points"] == answer["points"]
    code, out, _ = cli(["check", "-", "--rule", rule, "--json"], f"{meld}\n".encode())
    assert (code, json.loads(out)) == (0, answer)


def test_check_says_pure_in_indian_only_whatever_the_house_rules() -> None:
    code, out, _ = cli(["check", "X 5C 5D", "--variant", "indian", "--rule", "min_real=2",
                        "--json"])
    assert (code, json.loads(out)) == (0, {"valid": True, "kind": "set", "points": 15,
                                           "pure": False})


@pytest.mark.parametrize("rule", ["bogus=1", "min_real=7", "jokers_zero=maybe", "min_real"])
def test_check_refuses_a_bad_house_rule_in_one_line(rule: str) -> None:
    msg = refused(*cli(["check", "7S 7H X", "--rule", rule]))
    assert msg.startswith("rummykit check: ")
    refused(*cli(["check", "-", "--rule", rule], b"7S 7H X\n"))


@pytest.mark.parametrize("argv", [["check", "-", "--json"], ["analyze", "-"]])
def test_a_batch_skips_a_byte_order_mark_as_replay_does(argv: list[str]) -> None:
    # Notepad's UTF-8 starts with one, and Windows' lines end in CR LF.
    code, out, err = cli(argv, b"\xef\xbb\xbfKS KH KD\r\n7S 7H X\r\n")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 2 and "error" not in out


@pytest.mark.parametrize(("db", "said"), [
    ("folder", "a directory, not a file"),
    ("missing/s.db", "no directory "),
])
def test_serve_says_why_it_cannot_open_the_database(
    db: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite said "unable to open database file" for both.
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a: pytest.fail("the server started"))
    (tmp_path / "folder").mkdir()
    msg = refused(*cli(["serve", "--port", "0", "--db", str(tmp_path / db)]))
    assert msg.startswith(f"rummykit serve: --db {tmp_path / db}: {said}")


def test_check_for_people_says_whether_an_indian_meld_is_pure() -> None:
    # The JSON said it; the text did not, and a hand declares only with a pure sequence.
    assert "a valid pure run, worth 18" in cli(["check", "5S 6S 7S", "--variant", "indian"])[1]
    assert "a valid impure run" in cli(["check", "5S X 7S", "--variant", "indian"])[1]
    assert "a valid run, worth 18" in cli(["check", "5S 6S 7S"])[1]


@pytest.mark.parametrize("token", ["", "  ", "a\nb"])
def test_serve_refuses_an_admin_token_no_request_could_carry(
    token: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a: pytest.fail("the server started"))
    msg = refused(*cli(["serve", "--port", "0", "--db", str(tmp_path / "s.db"),
                        "--admin-token", token]))
    assert msg.startswith("rummykit serve: --admin-token ")


def test_help_pages_give_the_defaults_of_the_tournament_and_the_variant() -> None:
    # serve's help gave every default; the tournament's gave none of players, bots, deals,
    # jobs, and no page gave the default variant.
    import argparse

    from rummykit.cli.main import build_parser

    pages = {}
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            pages = {n: " ".join(p.format_help().split()) for n, p in action.choices.items()}
    for name in ("check", "analyze", "tournament"):
        assert "one of rummy, rami51, rami71, simple, indian (rummy)" in pages[name]
    for said in ("seats at the table (2)", "medium, hard (hard,medium)", "lineups (100)",
                 "parallel processes (1)"):
        assert said in pages["tournament"]


class Zeros(io.RawIOBase):
    """/dev/zero, which a test may not read more than 8 MB of."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        self.given += len(b)
        assert self.given < 8 * 2**20, "the batch read a line of 8 MB"
        b[:] = bytes(len(b))
        return len(b)


@pytest.mark.parametrize("command", ["check", "analyze"])
def test_a_batch_refuses_a_line_too_long_to_be_cards(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rummykit check - < /dev/zero` read its one line until the memory ran out."""
    stream = io.BufferedReader(Zeros())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8"))
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main([command, "-"]) == 2
    assert out.getvalue() == ""
    assert err.getvalue() == (f"rummykit {command}: standard input: line 1 is longer than "
                              f"64 KiB: no meld or hand is, it is not a file of them\n")
    # Lines before it are answered.
    code, out_text, _ = cli([command, "-", "--json"], b"KS KH KD\n" + bytes(70_000))
    assert code == 2 and len(out_text.splitlines()) == 1 and "error" not in out_text


@pytest.mark.parametrize("argv", [["check", "-"], ["analyze", "-"], ["replay", "-"]])
def test_a_closed_standard_input_is_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Started with `<&-`, Python makes sys.stdin None: each said it with a traceback.
    monkeypatch.setattr(sys, "stdin", None)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"rummykit {argv[0]}: standard input is closed: there is nothing to read\n"


def test_a_closed_standard_output_is_said_before_the_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `rummykit tournament --json >&-` played every deal, then failed with a traceback.
    monkeypatch.setattr("rummykit.cli.tournament.run_deals",
                        lambda *a, **k: pytest.fail("deals were played"))
    for argv in (["check", "7S 7H 7D", "--json"], ["tournament", "--json"]):
        with monkeypatch.context() as mp:
            mp.setattr(sys, "stdout", None)
            assert main(argv) == 2
        assert capsys.readouterr().err == (
            f"rummykit {argv[0]}: standard output is closed: the answer has nowhere to go\n")


@pytest.mark.parametrize(("flag", "what"), [("--records", "directory"), ("--plot", "file")])
def test_a_tournament_refuses_an_empty_file_name(flag: str, what: str, no_deals: None) -> None:
    # `--records "$DIR"` with DIR unset played every deal and saved nothing, without a word.
    msg = refused(*cli(["tournament", "--bots", "medium,easy", "--deals", "2", flag, ""]))
    assert msg == f"rummykit tournament: {flag} '': name a {what}"


def test_replay_of_an_empty_file_name_names_it() -> None:
    assert refused(*cli(["replay", ""])) == "rummykit replay: No such file or directory: ''"
    assert refused(*cli(["replay", "/no/such.json"])) == (
        "rummykit replay: No such file or directory: /no/such.json")


def test_check_accepts_the_rules_analyze_accepts() -> None:
    # analyze takes any opening minimum; check refused 35 as no room's choice.
    for command in ("check", "analyze"):
        assert cli([command, "7S 7H X", "--rule", "opening=35", "--json"])[0] == 0
        assert refused(*cli([command, "7S 7H X", "--rule", "opening=-1"])) == (
            f"rummykit {command}: opening minimum -1 is not a number of points")


# -- scripts that start the command -----------------------------------------------------------


def test_the_server_benchmark_starts_a_server_it_can_reach() -> None:
    """scripts/bench_server.py started `python -m rummykit.server`, gone since the server no
    longer imports the CLI: every client was refused and the script died with a traceback."""
    proc = subprocess.run(
        [sys.executable, "scripts/bench_server.py", "--clients", "4", "--duration", "0.5",
         "--warmup", "0.2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "server pid" in proc.stdout and "errors: 0" in proc.stdout, proc.stdout
