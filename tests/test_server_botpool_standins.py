"""Stand-ins for ``rummykit.bots.choose_action`` in the bot pool's tests
(``test_server_botpool.py``): a module of their own, light to import, since every spawned
worker imports it as it starts. No tests here."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

#: set at the end of a test so that hung threads (a thread cannot be killed) return
RELEASE = threading.Event()


def hang_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                       seed: int | None) -> str:
    if level != "medium":
        RELEASE.wait()
    return "draw"


def hang_always(view: dict[str, Any], history: list[Any], level: str, seed: int | None) -> str:
    RELEASE.wait()
    return "draw"


def die_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                      seed: int | None) -> str:
    if level != "medium":
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel kills a process out of memory
    return "draw"


def raise_unless_medium(view: dict[str, Any], history: list[Any], level: str,
                        seed: int | None) -> str:
    if level != "medium":
        raise ZeroDivisionError("a bug in the bot")
    return "draw"
