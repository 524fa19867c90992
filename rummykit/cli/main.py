"""The ``rummykit`` command: one subcommand per module of this package."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from rummykit import _startup
from rummykit.errors import RummyError

#: Subcommand modules, each with ``add_parser(subparsers)`` and ``run(args) -> int``.
COMMANDS = ("serve", "replay", "check", "analyze", "tournament")


def _modules() -> list[tuple[str, ModuleType | None, str]]:
    found: list[tuple[str, ModuleType | None, str]] = []
    for name in COMMANDS:
        try:
            found.append((name, importlib.import_module(f"rummykit.cli.{name}"), ""))
        except ModuleNotFoundError as exc:
            if exc.name == f"rummykit.cli.{name}":
                continue
            # The subcommand needs an optional dependency that is not installed.
            found.append((name, None, exc.name or "a dependency"))
    return found


def _missing(dependency: str) -> NoReturn:
    raise RummyError(
        f"this command needs {dependency}: pip install 'rummykit[server,plot]'"
    )


def one_line(message: str) -> str:
    """``message`` with its line breaks and other control characters escaped (``\\r``), so that
    the arguments or file names it quotes keep a refusal to one line."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
        for ch in message
    )


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line on standard error and exit status 2, as every other bad
    input of the command (argparse would print the whole usage first); ``--help`` still
    shows the usage. Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rummykit",
        description="Rummy, Rami and Indian rummy: play online, replay records, check melds.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, dependency in _modules():
        if module is not None:
            module.add_parser(sub)
        else:
            p = sub.add_parser(name, help=f"(needs {dependency})")
            p.add_argument("rest", nargs=argparse.REMAINDER)
            p.set_defaults(run=lambda args, d=dependency: _missing(d))
    for sub_parser in sub.choices.values():
        sub_parser.set_defaults(parser=sub_parser)  # to refuse in the subcommand's name
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"rummykit {version('rummykit')}"
    except PackageNotFoundError:
        return "rummykit (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        # the subcommands' modules (the server's, the bots'): a Ctrl-C meanwhile is an
        # interrupt as any other (rummykit/_startup.py answers it so until here)
        parser = build_parser()
    except KeyboardInterrupt:
        return 130
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # parse_args would blame the whole command and point to its help, which does not
            # list the subcommand's options: the subcommand's parser says it instead.
            getattr(args, "parser", parser).error(
                f"unrecognized arguments: {' '.join(extra)}"
            )
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    if sys.stdout is None and args.command != "serve":
        # Started with it closed (`>&-`): Python makes it None, and the answer would fail
        # once computed (after a whole tournament) with a traceback. serve prints no answer.
        print(f"rummykit {args.command}: standard output is closed: the answer has nowhere "
              f"to go", file=sys.stderr)
        return 2
    try:
        _startup.release()  # each subcommand answers Ctrl-C its own way from here
        return int(args.run(args))
    except RummyError as exc:
        print(one_line(f"rummykit {args.command}: {exc}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of the output went away (`rummykit analyze - < hands | head`): nothing
        # is wrong with the input, so no refusal is said; the status is a shell's for a
        # command ended by SIGPIPE. Standard output goes to /dev/null so that Python's last
        # flush of it at exit does not complain in its turn.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # an output that is no file (a test's StringIO)
            pass
        finally:
            os.close(devnull)
        return 141
    except OSError as exc:
        name = exc.filename
        # An empty name is shown as one ('') rather than left out.
        where = "" if name is None else f": {name!r}" if name == "" else f": {name}"
        print(one_line(f"rummykit {args.command}: {exc.strerror or exc}{where}"),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
