"""Shared output helpers of the command line."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

from rummykit.cards import parse_cards, pretty_cards


def console() -> Console:
    return Console(highlight=False)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def pretty(text_cards: list[str] | str) -> str:
    """Notation cards shown with suit symbols, red suits in red."""
    if isinstance(text_cards, list):
        text_cards = " ".join(text_cards)
    out = []
    for c in parse_cards(text_cards):
        p = pretty_cards([c])
        out.append(f"[red]{p}[/red]" if c.suit in (1, 2) else p)
    return " ".join(out)
