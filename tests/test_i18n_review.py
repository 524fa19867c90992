"""A reviewer's rules for the web catalogs (rummykit/web/i18n) and the page's translation of the
engine's refusals (js/reasons.js), checked without a browser: counts take each language's plural
form, each language names the game's things one way, French typography, no English left over."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "rummykit" / "web"


def _flatten(node: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in node.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


def catalog(lang: str) -> dict[str, str]:
    """Every string of a catalog by dotted key (a count's forms as KEY.one and KEY.other)."""
    return _flatten(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


def _bad(lang: str, rule: str, keys: list[str]) -> list[tuple[str, str, str]]:
    return [(lang, rule, k) for k in keys]


# -- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_a_singular_form_shows_its_count(lang: str) -> None:
    # French counts 0 as singular ("0 carte en main", "0 spectateur"): a "one" form that wrote
    # "1" would show 1 for nothing. So every "one" form shows {n}.
    cat = catalog(lang)
    ones = {k: v for k, v in cat.items() if k.endswith(".one")}
    assert ones
    assert [k for k, v in ones.items() if "{n}" not in v] == []


def test_the_page_picks_a_count_form_by_the_languages_rule() -> None:
    source = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "Intl.PluralRules" in source
    assert "n === 1 ?" not in source
