"""What following the documentation as written turned up: each test fails without its fix."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
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


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_serve_says_the_address_it_listens_on(tmp_path: Path, host: str) -> None:
    # With --port 0 it said port 0 (not the port it got), and an IPv6 host without brackets.
    if ":" in host:
        try:
            with socket.socket(socket.AF_INET6) as probe:
                probe.bind((host, 0))
        except OSError:
            pytest.skip("no IPv6 loopback on this machine")
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "serve", "--host", host, "--port", "0", "--db",
         str(tmp_path / "s.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        shown = f"[{host}]" if ":" in host else host
        assert line.startswith(f"rummykit server on http://{shown}:"), line
        url = line.split()[3]
        assert not url.endswith(":0/"), line
        with urllib.request.urlopen(f"{url}api/health", timeout=10) as answer:
            assert json.load(answer)["ok"] is True
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_serve_without_the_server_extra_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # It printed its advice on standard output and exited with status 1.
    from rummykit.cli.main import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["serve", "--db", str(tmp_path / "s.db")]) == 2
    assert out.getvalue() == ""
    assert len(err.getvalue().splitlines()) == 1
    assert "rummykit serve: this command needs the server extra" in err.getvalue()
    assert not (tmp_path / "s.db").exists()


def test_a_room_refuses_a_field_in_good_english(tmp_path: Path) -> None:
    # "a indian room cannot set 'hand_size'".
    import asyncio

    from tests.server_support import Client, ServerProc

    server = ServerProc(tmp_path / "s.db").start()
    try:
        async def main() -> tuple[str, str]:
            c = await Client("c").connect(server.ws)
            indian = await c.request("create", variant="indian", players=2,
                                     options={"hand_size": 10})
            rummy = await c.request("create", variant="rummy", players=2,
                                    options={"hand_size": 10})
            await c.close()
            return indian["message"], rummy["message"]

        indian, rummy = asyncio.run(main())
    finally:
        server.stop()
    assert indian.startswith("an indian room cannot set 'hand_size': its options are ")
    assert rummy.startswith("a rummy room cannot set 'hand_size': its options are ")
