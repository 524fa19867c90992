"""The web client's table of letters drawn alike (``TWINS`` in js/lobby.js, which folds
people's initials for their marks) is the server's ``LOOK_ALIKES`` (which folds names before
comparing them with the bots'), written again in JavaScript: the two must not drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from rummykit.server.protocol import LOOK_ALIKES

LOBBY = Path(__file__).resolve().parent.parent / "rummykit" / "web" / "js" / "lobby.js"


def test_the_clients_twins_are_the_servers_look_alikes() -> None:
    text = LOBBY.read_text(encoding="utf-8")
    block = text[text.index("const TWINS"):]
    block = block[: block.index("));")]
    sources, targets = block.split("(c, i) =>")
    source = "".join(re.findall(r'"([^"]*)"', sources))
    target = "".join(re.findall(r'"([^"]*)"', targets))
    assert len(source) == len(target)
    client = dict(zip(source, target, strict=True))
    server = {chr(k): chr(v) if isinstance(v, int) else str(v) for k, v in LOOK_ALIKES.items()}
    assert client.keys() == server.keys()
    # the client draws a small capital as its capital, the server folds case anyway
    assert {c: t.casefold() for c, t in client.items()} == {
        c: t.casefold() for c, t in server.items()
    }
