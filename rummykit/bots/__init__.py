"""Computer players at three levels (``easy``, ``medium``, ``hard``) for every variant.

A bot decides from exactly what its seat sees: :class:`Observation` (the seat's view plus the
public events of the deal). The server calls :func:`choose_action`; local play and the
tournament use :func:`play_turn`, which never lets a bot crash a game. See ``docs/bots.md``.
"""

from rummykit.bots.base import (
    DEFAULT_BUDGET,
    LEVELS,
    Bot,
    EasyBot,
    MediumBot,
    TurnReport,
    UnknownBot,
    choose_action,
    make_bot,
    play_deal,
    play_turn,
    time_limit,
)
from rummykit.bots.observation import Observation, SeatMemory, observe

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Bot",
    "EasyBot",
    "MediumBot",
    "Observation",
    "SeatMemory",
    "TurnReport",
    "UnknownBot",
    "choose_action",
    "make_bot",
    "observe",
    "play_deal",
    "play_turn",
    "time_limit",
]
