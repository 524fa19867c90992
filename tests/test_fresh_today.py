"""What a fresh look at the day's changes found outside the browser, each kept as a test."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from rummykit.server.rooms import OVER, PLAYING
from tests.test_server_crash import Table, _over

CATALOGS = Path(__file__).resolve().parent.parent / "rummykit" / "web" / "i18n"


def test_the_help_says_which_deal_has_a_results_button() -> None:
    """The help's line on past deals said "a deal's number in the score sheet (or its Results
    button)": only the first deal's line has that button, and only in the second deal (the
    sheet needs two deals); a player in the fifth deal looked for a button that is not there.
    Each catalog names the button by its own word, as the first deal's."""
    first = {"en": "first deal's {b} button", "es": "botón {b} de la primera",
             "fr": "bouton {b} de la première"}
    for lang, words in first.items():
        catalog = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
        line = catalog["help"]["pastDeals"]
        assert words.format(b=catalog["past"]["button"]) in line, (lang, line)


def test_a_restart_starts_no_rematch_somebody_did_not_ask_for(tmp_path: Path) -> None:
    """The first person back starts a rematch refused before a restart only when every person
    had asked: with one who had not, both back, the room stays over and the rematch waits
    for them (the database refused no game here; the askers are as stored)."""
    table = Table(tmp_path / "one-asked.db")

    async def main() -> None:
        room = _over(table, players=3)
        table.handle(table.conns[0], type="rematch")
        table.handle(table.conns[2], type="rematch")
        assert room.status == OVER
        _, manager = table.crash()
        again = manager.rooms[room.code]
        assert again.status == OVER and again.game_no == 1
        assert [s.rematch for s in again.seats] == [True, False, True]
        assert again.rematch_at is None  # nobody is gone: no clock either
        # the one who had not asked asks now: the rematch starts as ever
        table.handle(table.conns[1], type="rematch")
        assert again.status == PLAYING and again.game_no == 2

    try:
        asyncio.run(main())
    finally:
        table.close()
