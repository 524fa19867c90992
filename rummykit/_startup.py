"""A Ctrl-C while the ``rummykit`` command is still starting ends it quietly, status 130.

The command's own ``main`` answers an interrupt with status 130 and no traceback, but Python
imports the package (its rules tables, the solver: a tenth of a second or more) and every
subcommand's module before ``main`` can catch anything: a Ctrl-C then printed a traceback of
whichever module was being imported. Imported first by ``rummykit/__init__.py``, which
:func:`hold` runs for; nothing changes for a program that imports the package, only for the
command itself.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

#: How the command is started: its script (``rummykit``; ``rummykit.exe`` and
#: ``rummykit-script.py`` on Windows) or ``python -m`` of one of these modules.
_SCRIPTS = ("rummykit", "rummykit.exe", "rummykit-script.py")
_MODULES = ("rummykit", "rummykit.__main__", "rummykit.cli.main")


def interrupted(signum: int, frame: FrameType | None) -> None:
    """SIGINT while the command starts: exit at once, as ``main`` would have."""
    raise SystemExit(130)


def started_as_command() -> bool:
    """Whether this process is the ``rummykit`` command (not a program importing the
    package). While ``python -m`` locates its module, ``sys.argv[0]`` is ``-m``: the module's
    name is read from the interpreter's own arguments then."""
    first = sys.argv[0] if sys.argv else ""
    if os.path.basename(first).lower() in _SCRIPTS:
        return True
    if first != "-m":
        return False
    args = list(getattr(sys, "orig_argv", []))
    for i, arg in enumerate(args[:-1]):
        if arg == "-m":
            return args[i + 1] in _MODULES
    return False


def hold() -> None:
    """Answer SIGINT with :func:`interrupted` while the command starts (its default handler
    untouched: a program that ignores SIGINT, or set its own, keeps it)."""
    if threading.current_thread() is not threading.main_thread() or not started_as_command():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, interrupted)


def release() -> None:
    """The command has started (``main``, before it runs the subcommand): Ctrl-C raises
    ``KeyboardInterrupt`` again, which the subcommands handle their own way."""
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is interrupted
    ):
        signal.signal(signal.SIGINT, signal.default_int_handler)


hold()
