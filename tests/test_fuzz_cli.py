"""Every subcommand given bad arguments or a bad file (missing, a directory, binary, empty, not
UTF-8) exits 2 with exactly one line on standard error, writes nothing on standard output and
starts nothing; a batch answers a line that is not UTF-8 as a bad line and goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.engine import Game
from tests.cli_support import cli, refused

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def files(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "dir").mkdir()
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe\x01PK\x03\x04")
    (tmp_path / "latin1.json").write_bytes('{"variant": "rummy", "é": 1}'.encode("latin-1"))
    (tmp_path / "array.json").write_text("[]")
    (tmp_path / "nul.json").write_text('{"variant": "rummy\x00"}')
    yield tmp_path


@pytest.mark.parametrize("name", ["missing.json", "dir", "binary.json", "empty.json",
                                  "latin1.json", "array.json", "nul.json"])
def test_replay_of_a_bad_file_is_one_line(files: Path, name: str) -> None:
    refused(*cli(["replay", str(files / name)]))
    refused(*cli(["replay", str(files / name), "--json"]))


@pytest.mark.parametrize("data", [b"", b"\xff\xfe{}", b"\x00", b"{", b"null", b"[" * 100_000])
def test_replay_of_bad_standard_input_is_one_line(data: bytes) -> None:
    refused(*cli(["replay", "-"], data))


def test_replay_says_which_file_is_not_utf8(files: Path) -> None:
    err = cli(["replay", str(files / "latin1.json")])[2]
    assert "latin1.json: not UTF-8 text (byte 0xe9" in err
    err = cli(["replay", "-"], b"\xff")[2]
    assert "standard input: not UTF-8 text (byte 0xff at offset 0)" in err


def test_replay_of_an_endless_file_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummykit.cli import output

    monkeypatch.setattr(output, "MAX_TEXT_BYTES", 1000)
    code, out, err = cli(["replay", "/dev/zero"])
    refused(code, out, err)
    assert "/dev/zero: more than" in err
    refused(*cli(["replay", "-"], b" " * 1001))


def test_replay_reads_a_record_that_starts_with_a_byte_order_mark(tmp_path: Path) -> None:
    record = json.dumps(Game.new("rummy", 2, seed=1).record())
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + record.encode())
    code, out, err = cli(["replay", str(path), "--json"])
    assert (code, err) == (0, "")
    assert json.loads(out)["variant"] == "rummy"


@pytest.mark.parametrize("argv", [
    ["check"],
    ["check", "ZZ"],
    ["check", "KS KH KD", "--variant", "nope"],
    ["check", "KS KH KD", "--variant", "indian", "--wild", "²"],
    ["check", "KS KH KD", "--variant", "indian", "--wild", "1" * 5000],
    ["check", "KS KH KD", "--wild", "7"],
    ["check", "KS\x00"],
    ["analyze"],
    ["analyze", "KS KH KD", "--wild", "²"],
    ["analyze", "KS KH KD", "--wild", "٣"],
    ["analyze", "KS KH KD", "--opening", "-5"],
    ["analyze", "KS KH KD", "--opening", "abc"],
    ["analyze", "KS KH KD", "--must-include", "ZZ"],
    ["analyze", "KS KH KD", "--variant", "nope"],
    ["analyze", "KS", "KH", "KD", "X"] + ["X"] * 40,
    ["tournament", "--players", "0"],
    ["tournament", "--deals", "0"],
    ["tournament", "--jobs", "0"],
    ["tournament", "--budget", "nan"],
    ["tournament", "--bots", "foo"],
    ["tournament", "--bots", ""],
    ["tournament", "--variant", "nope"],
    ["tournament", "--plot", "/no/such/dir/x.png"],
    ["tournament", "--seed", "x"],
    ["replay"],
    ["replay", "a.json", "b.json"],
    ["nonsense"],
    ["--nonsense"],
])
def test_bad_arguments_are_one_line(argv: list[str]) -> None:
    refused(*cli(argv))


@pytest.mark.parametrize("argv", [
    ["replay", "a.json", "\r"],  # check takes several arguments: not refused there
    ["check", "7H", "--variant", "rummy\nindian"],
    ["replay", "no\nsuch.json"],
    ["tournament", "--plot", "/no\nsuch/x.png"],
])
def test_a_refusal_quoting_a_line_break_stays_one_line(argv: list[str]) -> None:
    code, out, err = cli(argv)
    refused(code, out, err)
    assert "\\n" in err or "\\r" in err


def test_a_tournament_refuses_a_record_directory_that_is_a_file(files: Path) -> None:
    refused(*cli(["tournament", "--deals", "1", "--records", str(files / "empty.json")]))


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """A serve that got past its checks would start listening: make that a failure."""
    import uvicorn

    def started(self: object, *args: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "run", started)


@pytest.mark.parametrize("argv", [
    ["--port", "99999999"],
    ["--port", "-1"],
    ["--port", "http"],
    ["--host", "no such host.."],
    ["--host", "nosuchhost.invalid"],
    ["--rate", "0"],
    ["--rate", "nan"],
    ["--burst", "0.5"],
    ["--clock-scale", "inf"],
    ["--next-deal-pause", "-1"],
    ["--bot-delay", "inf"],
    ["--away-delay", "nan"],
    ["--bot-workers", "0"],
    ["--bot-workers", "65"],
    ["--view-threads", "65"],
    ["--away-after", "-1"],
    ["--away-after", "two"],
    ["--view-threads", "-1"],
    ["--max-connections-per-address", "-1"],
    ["--max-rooms-per-address", "-1"],
    ["--max-missed-codes-per-address", "-1"],
    ["--bot-pool", "fork"],
])
def test_serve_with_bad_settings_is_one_line_and_starts_nothing(
    argv: list[str], no_server: None, tmp_path: Path
) -> None:
    db = tmp_path / "s.db"
    refused(*cli(["serve", "--db", str(db), *argv]))
    assert not db.exists()


def test_serve_on_a_port_already_taken_is_one_line(no_server: None, tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "s.db"
        code, out, err = cli(["serve", "--port", str(port), "--db", str(db)])
    refused(code, out, err)
    assert f"cannot listen on 127.0.0.1 port {port}" in err
    assert not db.exists()


@pytest.mark.parametrize("db", ["dir", "binary.json", "missing/s.db"])
def test_serve_with_a_database_it_cannot_open_is_one_line(files: Path, db: str) -> None:
    # In a process of its own: the server tunes the collector before it opens its database.
    before = {p: p.read_bytes() for p in files.iterdir() if p.is_file()}
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "serve", "--port", "0", "--db",
         str(files / db)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    refused(proc.returncode, proc.stdout, proc.stderr)
    assert f"--db {files / db}: " in proc.stderr
    assert {p: p.read_bytes() for p in files.iterdir() if p.is_file()} == before


def test_batches_answer_a_line_that_is_not_utf8_and_go_on() -> None:
    lines = b"KS KH KD\n\xff\xfe 7H\nQS QH QD\n"
    code, out, err = cli(["analyze", "-", "--variant", "rummy"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == ""
    assert [a.get("line") for a in answers] == [None, 2, None]
    assert answers[1]["error"] == "line 2 is not UTF-8 text (byte 0xff at offset 0)"
    code, out, err = cli(["check", "-", "--json"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == ""
    assert [a.get("valid") for a in answers] == [True, None, True]
    assert "not UTF-8 text" in answers[1]["error"]
    code, out, err = cli(["check", "-"], lines)
    assert code == 2 and len(err.splitlines()) == 1 and "line 2 is not UTF-8 text" in err


WORDS = ["check", "analyze", "replay", "-", "--json", "--variant", "indian", "rummy", "rami71",
         "--wild", "--opening", "--must-include", "KS KH KD", "7H", "X", "ZZ", "²", "0", "-1",
         "99", "1" * 50, "", " ", "\x00", "--help-me", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"]


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "0")) or 60, deadline=None,
          derandomize="FUZZ_EXAMPLES" not in os.environ)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=6), min_size=1, max_size=6),
       st.binary(max_size=40))
def test_any_command_line_answers_or_is_one_line(argv: list[str], stdin: bytes) -> None:
    argv = [a.replace("\x00", "") if i == 0 else a for i, a in enumerate(argv)]
    if argv[0] not in ("check", "analyze", "replay"):
        argv.insert(0, "check")
    if "--help" in argv or "-h" in argv:
        return
    code, out, err = cli(argv, stdin)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err
    if code == 2 and "-" not in argv:
        refused(code, out, err)
