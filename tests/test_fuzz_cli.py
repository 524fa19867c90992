"""Every subcommand given bad arguments or a bad file (missing, a directory, binary, empty, not
UTF-8) exits 2 with exactly one line on standard error, writes nothing on standard output and
starts nothing; a batch answers a line that is not UTF-8 as a bad line and goes on."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.cli.main import main

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


def cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """Run the command in this process; standard input is bytes, as a terminal gives them."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def refused(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    assert out == "", out
    assert len(err.splitlines()) == 1 and err.strip(), err
    assert "Traceback" not in err


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
