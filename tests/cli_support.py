"""The command line run in the test's own process, and what a refusal must look like."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

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


ROOT = Path(__file__).resolve().parent.parent


def saved(records: Path) -> list[str]:
    """The deal records written whole in ``records`` (not the hidden ``.part`` files)."""
    return [n for n in os.listdir(records) if not n.startswith(".")]


def tournament_under_way(records: Path, jobs: str, deals: int = 400) -> subprocess.Popen[str]:
    """``rummykit tournament`` (medium v easy, seed 1) started in a session of its own,
    returned once it has saved at least four whole deal records in ``records``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "tournament", "--bots", "medium,easy", "--deals",
         str(deals), "--seed", "1", "--jobs", jobs, "--records", str(records)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    # finished records only: a hidden ``.part`` file (a record being written) is removed when
    # the command is stopped, and counting two of them let a test stop it with three records
    while not (records.is_dir() and len(saved(records)) >= 4):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(
                f"the tournament made no four records: {proc.communicate()[1]}")
        time.sleep(0.05)
    return proc


def stopped(proc: subprocess.Popen[str], stop: Callable[[], None]) -> tuple[int, str, str]:
    """Stop ``proc`` (started by :func:`tournament_under_way`) by calling ``stop``, and wait
    for it; its process group is killed if it is still running after a minute. Returns the
    exit status, standard output and standard error."""
    try:
        stop()
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out, err
