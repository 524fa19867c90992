"""Stand-ins for ``rummykit.bots.choose_action`` in the bot pool's tests
(``test_server_botpool.py``): a module of their own, light to import, since every spawned
worker imports it as it starts. No tests here."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
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


def die_always(view: dict[str, Any], history: list[Any], level: str, seed: int | None) -> str:
    os.kill(os.getpid(), signal.SIGKILL)
    return "draw"


class ExitOnArrival:
    """A ``choose_action`` that never reaches its worker: unpickling it there (as the worker
    starts) ends the process, as a worker that dies at once every time."""

    def __call__(self, view: dict[str, Any], history: list[Any], level: str,
                 seed: int | None) -> str:
        return "draw"

    def __reduce__(self) -> tuple[Callable[[int], object], tuple[int]]:
        return (os._exit, (3,))
