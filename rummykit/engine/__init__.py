"""The rules engine: one :class:`Game` for every variant."""

from rummykit.engine.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Layoff,
    NewMeld,
    Open,
    Return,
    Swap,
    Take,
    Timeout,
    parse_action,
)
from rummykit.engine.game import Game
from rummykit.engine.scoring import DealResult, Declaration

__all__ = [
    "Action",
    "DealResult",
    "Declaration",
    "Declare",
    "Discard",
    "Draw",
    "Drop",
    "Game",
    "Layoff",
    "NewMeld",
    "Open",
    "Return",
    "Swap",
    "Take",
    "Timeout",
    "parse_action",
]
