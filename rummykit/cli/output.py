"""Shared output helpers of the command line."""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from rich.console import Console

from rummykit.cards import parse_cards, pretty_cards
from rummykit.errors import RummyError


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # The reader went away (`| head`): rich would exit with status 1, which `check`
        # uses for "not a meld"; main ends every command alike instead (see main).
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console(file: TextIO | None = None) -> Console:
    return _Console(file=file, highlight=False)


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


def not_utf8(data: bytes) -> str | None:
    """What is wrong with ``data`` as UTF-8 text, or None when it is UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
    return None


#: The most a text file given to the command line may hold: a long game's record is well
#: under a megabyte, and ``replay /dev/zero`` would otherwise fill the memory.
MAX_TEXT_BYTES = 64 * 2**20


#: The longest line a batch (``check -``, ``analyze -``) reads: a hand is under 100 bytes.
MAX_LINE_BYTES = 64 * 2**10


def read_text(path: str) -> str:
    """The UTF-8 text of a file, ``-`` meaning standard input; raise :class:`RummyError`
    naming the file when it is not UTF-8 (Python would raise a bare UnicodeDecodeError) or
    is larger than :data:`MAX_TEXT_BYTES`."""
    if path == "-":
        _open(sys.stdin)
        if not hasattr(sys.stdin, "buffer"):
            return sys.stdin.read()
        data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
        name = "standard input"
    else:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TEXT_BYTES + 1)
        name = path
    if len(data) > MAX_TEXT_BYTES:
        raise RummyError(f"{name}: more than {MAX_TEXT_BYTES >> 20} MiB, too long to be read")
    fault = not_utf8(data)
    if fault is not None:
        raise RummyError(f"{name}: {fault}")
    # Some editors start a UTF-8 file with a byte order mark, which JSON does not allow.
    return data.decode("utf-8-sig")


def _open(stream: TextIO | None) -> None:
    # Python makes sys.stdin None when the command is started with it closed (`<&-`).
    if stream is None:
        raise RummyError("standard input is closed: there is nothing to read")


def input_lines(stream: TextIO) -> Iterator[tuple[str, str | None]]:
    """The lines of a batch with what is wrong with each as UTF-8 (None when nothing is): a
    line that is not UTF-8 is answered as a bad line and the batch goes on. Its text shows the
    bad bytes as U+FFFD."""
    _open(stream)
    # A byte order mark, which some editors put at the start of a UTF-8 file, is skipped as
    # read_text skips it: it made the batch's first line no cards.
    if not hasattr(stream, "buffer"):
        for number, line in enumerate(stream):
            yield (line.removeprefix("\ufeff") if number == 0 else line), None
        return
    number = 0
    while raw := stream.buffer.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            # A line was read whole however long: `check - < /dev/zero` filled the memory.
            # No hand or meld is that long: the input is not what the command reads.
            raise RummyError(
                f"standard input: line {number} is longer than {MAX_LINE_BYTES >> 10} KiB: "
                f"no meld or hand is, it is not a file of them"
            )
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        yield raw.decode("utf-8", "replace"), not_utf8(raw)
