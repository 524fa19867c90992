"""The command line run in the test's own process, and what a refusal must look like."""

from __future__ import annotations

import io
import sys

import pytest

from rummykit.cli.main import main


def cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """Run the command in this process; standard input is bytes, as a terminal gives them.
    Returns the exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def refused(code: int, out: str, err: str) -> str:
    """A refusal: exit status 2, nothing on standard output, one line on standard error (no
    traceback). Returns that line."""
    assert code == 2, (code, out, err)
    assert out == "", out
    assert len(err.splitlines()) == 1 and err.strip() and "Traceback" not in err, err
    return err.strip()
