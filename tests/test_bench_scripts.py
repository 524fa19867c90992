"""The benchmark scripts' deterministic work count (``--bytecodes``): it must not depend on
the interpreter's hash seed, or a change in the count would not tell a change in the code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _count(script: str, args: list[str], seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, str(SCRIPTS / script), "--bytecodes", *args],
                         env=env, capture_output=True, text=True, check=True).stdout
    # The first line names the hash seed; the counts follow.
    lines = out.splitlines()
    assert f"PYTHONHASHSEED={seed}" in lines[0]
    return "\n".join(lines[1:])


@pytest.mark.parametrize(("script", "args"), [
    ("bench_solver.py", ["--hands", "16"]),
    ("bench_indian.py", ["--hands", "6", "--heavy", "4"]),
])
def test_bytecode_counts_do_not_depend_on_the_hash_seed(script: str, args: list[str]) -> None:
    first = _count(script, args, "1")
    assert "median" in first
    medians = [int(x.replace(",", "")) for x in first.split() if x.replace(",", "").isdigit()]
    assert medians and all(m > 0 for m in medians)
    assert _count(script, args, "12345") == first


def test_the_solver_benchmark_reports_every_target_of_its_issue() -> None:
    # A tiny run: the numbers mean nothing here, the report's shape does (each target once,
    # judged against what the run measured), and the answers are checked against the baseline.
    out = subprocess.run([sys.executable, str(SCRIPTS / "bench_solver.py"), "--hands", "6",
                          "--baseline", "2", "--runs", "3", "--passes", "1"],
                         capture_output=True, text=True, check=True).stdout
    (each_run,) = [line for line in out.splitlines() if "median of each run: " in line]
    assert each_run.count(" µs") == 3
    targets = out.split("targets (issue #3, one core):\n")[1].splitlines()
    assert len(targets) == 6
    assert all(line.endswith(("   met", "   NOT MET")) for line in targets)
    assert "same answers" in out


def test_the_solver_benchmark_refuses_an_empty_run() -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_solver.py"), "--runs", "0"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "--runs" in done.stderr


def test_the_bots_benchmark_judges_the_decision_time_targets() -> None:
    # A tiny run: the times mean nothing here, the report's shape does: medium's median in
    # every run it plays, hard's 95th percentile against the budget it was given.
    out = subprocess.run([sys.executable, str(SCRIPTS / "bench_bots.py"), "--variants",
                          "indian,simple", "--deals", "2", "--jobs", "1", "--budget", "0.02"],
                         capture_output=True, text=True, check=True).stdout
    targets = out.split("decision-time targets (issue #6, wall-clock, this run):\n")[1]
    lines = targets.splitlines()
    assert len(lines) == 6
    assert all(line.endswith(("   met", "   NOT MET")) for line in lines)
    assert sum("medium median <= 10 ms" in line for line in lines) == 4
    assert sum("hard p95 <= its budget 0.02 s" in line for line in lines) == 2


def test_the_drops_benchmark_reports_both_pairings() -> None:
    # A tiny run: the numbers mean nothing here, the report's shape does.
    out = subprocess.run([sys.executable, str(SCRIPTS / "bench_drops.py"), "--deals", "2",
                          "--seeds", "1"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("seed 1: v easy, drops ") and "no drops v medium" in lines[0]
    assert lines[1].startswith("all 2 deals v easy, with drops: ") and lines[1].endswith("%")
    assert lines[2].startswith("all 2 deals v easy, without drops: ")


def test_the_observation_benchmark_reports_by_events() -> None:
    # A tiny run: the times mean nothing here, the report's shape does.
    script = str(SCRIPTS / "bench_observation.py")
    out = subprocess.run([sys.executable, script, "--variant", "rummy", "--players", "2",
                          "--deals", "1"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("rummy, 2 seats, 1 deals: ")
    assert lines[1].startswith("  events 0-49: ") and "observation" in lines[1]
    refused = subprocess.run([sys.executable, script, "--variant", "rami71", "--players", "6"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
