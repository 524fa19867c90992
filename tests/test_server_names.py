"""Seat names that pass for a bot's label written in look-alike characters are refused;
real names, digits and other scripts included, are kept."""

from __future__ import annotations

import json

import pytest

from rummykit.server.protocol import (
    LOOK_ALIKES,
    ProtocolError,
    looks_like_bot,
    parse_client_message,
)
from tests.server_support import ROOT


def sit(name: str) -> dict[str, object]:
    return parse_client_message(json.dumps({"type": "sit", "id": 4, "seat": 0, "name": name}))


@pytest.mark.parametrize(
    "name",
    [
        "Вот",  # Cyrillic
        "ВОТ 2 (НАRD)",
        "Bоt (mеdium)",  # Latin with a Cyrillic o and e
        "Βοτ",  # Greek
        "Βότ",
        "Ｂｏｔ",  # fullwidth
        "𝐁𝐨𝐭",  # mathematical bold
        "ʙᴏᴛ",  # small capitals
        "B0t",  # a zero for the o
        "R0B0T 1 (D1FF1C1LE)",
        "Bot (dificiI)",  # a capital I for the l
        "B0t 10",  # the seat number stays a number
    ],
)
def test_a_bot_label_in_look_alike_characters_is_refused(name: str) -> None:
    with pytest.raises(ProtocolError) as info:
        sit(name)
    assert info.value.code == "bad_name" and info.value.extra == {"id": 4}


@pytest.mark.parametrize(
    "name",
    ["B0b", "Al1", "T0m", "Bob", "Ｂｏｂ", "Вова", "Борис", "Ольга", "Αλέξης", "B0tha",
     "Bot Bob"],
)
def test_real_names_with_digits_or_in_other_scripts_are_kept(name: str) -> None:
    assert sit(name)["name"] == name


def _alikes() -> dict[str, list[str]]:
    """Each Latin letter and the characters of the table folded to it."""
    out: dict[str, list[str]] = {}
    for src, dst in LOOK_ALIKES.items():
        out.setdefault(chr(dst).casefold(), []).append(chr(src))
    return out


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_every_look_alike_of_every_letter_of_the_web_labels_is_caught(lang: str) -> None:
    """The page's own labels, each Latin letter replaced in turn by every character of the
    table drawn like it, upper and lower case: none passes for a name."""
    catalog = json.loads((ROOT / "rummykit/web/i18n" / f"{lang}.json").read_text("utf-8"))
    labels = [catalog["seat"]["botPlain"], catalog["seat"]["botNumbered"].replace("{n}", "2")]
    for level in catalog["bot"].values():
        labels.append(catalog["seat"]["bot"].replace("{n}", "2").replace("{level}", level))
    alikes = _alikes()
    tried = 0
    for label in labels:
        for letter in {ch.casefold() for ch in label if ch.casefold() in alikes}:
            for alike in alikes[letter]:
                fake = "".join(alike if ch.casefold() == letter else ch for ch in label)
                assert looks_like_bot(fake), (label, fake)
                tried += 1
    assert tried > 50
