"""A bots package that crashes on import, as after a broken deploy: a stand-in for
``choose_action`` (for ``test_server_botpool.py``) whose module raises when imported while
``RUMMYKIT_TEST_BROKEN_BOTS`` is set, as a test sets it for the worker processes it starts. The
tests' own process imported it before, to hand ``choose_action`` to the pool. No tests here."""

from __future__ import annotations

import os
from typing import Any

#: the variable that breaks this module
BROKEN = "RUMMYKIT_TEST_BROKEN_BOTS"

if os.environ.get(BROKEN):
    raise RuntimeError("a broken bots package")


def choose_action(view: dict[str, Any], history: list[Any], level: str,
                  seed: int | None) -> str:
    return "draw"
