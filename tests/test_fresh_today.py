"""What a fresh look at the day's changes found outside the browser, each kept as a test."""

from __future__ import annotations

import json
from pathlib import Path

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
