"""Claims of the documentation pinned to the code, so that a change to either one fails here
until the other follows (a hunt through README.md and docs/*.md, read against the code)."""

from __future__ import annotations

import argparse
import ast
import asyncio
import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.engine import Game

ROOT = Path(__file__).resolve().parent.parent
#: The docs a reader follows; the two lab logs keep the commands of their day as they were.
DOCS = [
    ROOT / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if not p.name.endswith("-log.md")),
]


def _doc(name: str) -> str:
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The text under a heading, up to the next heading of its level or above."""
    level = heading.split(" ", 1)[0]
    start = 0 if text.startswith(f"{heading}\n") else text.index(f"\n{heading}\n")
    ends = [m.start() for m in re.finditer(rf"\n#{{1,{len(level)}}} ", text[start + 1:])]
    return text[start: start + 1 + ends[0]] if ends else text[start:]


def _first_column(table_text: str) -> list[str]:
    """The backquoted names of the first column of a Markdown table's body rows."""
    return [
        m.group(1)
        for line in table_text.splitlines()
        if (m := re.match(r"\| `([^`]+)` \|", line))
    ]


def _json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, re.S)


def _code_spans(text: str) -> list[str]:
    """Every inline code span and every line of every code block."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    rest = re.sub(r"```[a-z]*\n.*?```", "", text, flags=re.S)
    return re.findall(r"`([^`]+)`", rest) + [line for b in blocks for line in b.splitlines()]


# -- the wire protocol -----------------------------------------------------------------------


def test_the_error_codes_of_the_protocol_doc_are_the_servers() -> None:
    from rummykit.server.protocol import ERROR_CODES

    table = _section(_doc("protocol.md"), "### `error`")
    assert sorted(_first_column(table)) == sorted(ERROR_CODES)


def test_the_client_messages_of_the_protocol_doc_are_the_servers() -> None:
    from rummykit.server.protocol import CLIENT_TYPES

    table = _section(_doc("protocol.md"), "## Client → server")
    assert sorted(_first_column(table)) == sorted(CLIENT_TYPES)


def test_the_limits_in_the_protocol_doc_are_the_servers() -> None:
    from rummykit.server import protocol
    from rummykit.server.config import ServerConfig

    text = _doc("protocol.md")
    assert protocol.MAX_MESSAGE == 8 * 1024 and "more than 8 KiB" in text
    assert protocol.MAX_FRAME == 64 * 1024 and "a frame over 64 KiB" in text
    assert (protocol.RATE, protocol.BURST) == (20, 40) == (ServerConfig.rate, ServerConfig.burst)
    assert "20 messages per second with bursts up to 40" in text
    assert protocol.MAX_REFUSED == 200 and protocol.REFUSAL_WINDOW == 60
    assert "more than 200 refused messages" in text and "at 200 a minute" in text
    assert f"Room codes are {protocol.ROOM_CODE_LEN} characters from `{protocol.ROOM_ALPHABET}`" \
        in text
    welcome = (
        '"limits": {"max_message": 8192, "rate": 20, "burst": 40, '
        '"say": {"burst": 3, "window": 10}}'
    )
    assert welcome in text


def test_the_welcome_gives_the_limits_as_the_protocol_doc_writes_them(tmp_path: Path) -> None:
    from rummykit.server.rooms import Connection
    from tests.server_support import sent, thread_rooms

    with thread_rooms(tmp_path / "welcome.db") as rooms:
        conn = Connection()
        rooms.connected(conn)
        (hello,) = sent(conn)
    text = _doc("protocol.md")
    # as written: 20, not 20.0
    assert json.dumps({"limits": hello["limits"]})[1:-1] in text, hello["limits"]


def test_room_seated_and_state_messages_carry_the_documented_fields(tmp_path: Path) -> None:
    from rummykit.server.rooms import Connection
    from tests.server_support import sent, thread_rooms

    text = _doc("protocol.md")
    room_doc = json.loads(_json_blocks(_section(text, "### `room`"))[0])
    state_doc = _section(text, "### `state`")
    state_block = re.search(r"```json\n(.*?)```", state_doc, re.S)
    assert state_block is not None
    state_names = set(re.findall(r'"(\w+)":', state_block.group(1)))

    async def play() -> list[dict[str, Any]]:
        with thread_rooms(tmp_path / "doc.db") as rooms:
            ana, ben = Connection(), Connection()
            rooms.handle(ana, {"type": "create", "id": 1, "variant": "rummy", "players": 2,
                               "options": {}})
            assert ana.room is not None
            rooms.handle(ana, {"type": "sit", "id": 2, "seat": 0, "name": "Ana"})
            rooms.handle(ben, {"type": "join", "id": 3, "room": ana.room.code})
            rooms.handle(ben, {"type": "sit", "id": 4, "seat": 1, "name": "Ben"})
            await asyncio.sleep(0.05)
            return sent(ana)

    messages = asyncio.run(play())
    rooms_sent = [m for m in messages if m["type"] == "room"]
    seated = next(m for m in messages if m["type"] == "seated")
    state = next(m for m in messages if m["type"] == "state")
    for room in rooms_sent:
        assert set(room) - {"id"} == set(room_doc)
        for seat in room["seats"]:
            assert set(seat) == set(room_doc["seats"][0])  # a bot's seat adds its `level`
    assert set(seated) == {"type", "id", "room", "seat", "token"}
    assert set(state) | {"ack"} <= state_names
    assert set(state["clock"]) <= state_names


# -- the engine ------------------------------------------------------------------------------


def _played(variant: str, players: int, seed: int, to_end: bool) -> Game:
    """A seeded game played by random legal moves (a deal to its end, or a few turns)."""
    game = Game.new(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000 if to_end else 6):
        if game.phase != "draw" and game.phase != "play":
            break
        # a few turns leave every seat in the deal: no drop, no declaration
        moves = [
            a for a in game.legal_actions()
            if str(a) != "timeout" and (to_end or str(a).split()[0] not in ("drop", "declare"))
        ]
        game.apply(rng.choice(moves))
    return game


def test_the_view_example_of_the_engine_doc_has_the_views_keys() -> None:
    text = _doc("engine.md")
    example = json.loads(_json_blocks(text)[0])
    game = _played("rummy", 4, 3, to_end=False)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    assert set(view) == set(example)
    for key in ("turn", "opening"):
        assert set(view[key]) == set(example[key]), key
    assert set(view["opening"]["meter"]) == set(example["opening"]["meter"])
    assert set(view["seats"][0]) == set(example["seats"][0])
    # "game.public_view() is the same with "seat": null and without the seat's own fields"
    public = game.public_view()
    assert public["seat"] is None
    assert set(view) - set(public) == {"hand", "opening", "declaration"}
    indian = _played("indian", 3, 3, to_end=False)
    seat = indian.to_move
    assert seat is not None
    own = indian.view(seat)
    # a pool (the default format) says its limit
    assert set(own) - set(view) == {"drop_cost", "wrong_declaration", "limit"}
    assert set(own) - set(indian.public_view()) == {"hand", "opening", "declaration", "drop_cost"}
    assert own["opening"] is None and "drop_cost" in own["seats"][0]
    # "The Rami family adds `limit` ... in every view, a spectator's too."
    for variant in ("rami51", "rami71", "simple"):
        rami = _played(variant, 2, 3, to_end=False)
        assert set(rami.public_view()) - set(public) == {"limit"}, variant
        assert set(rami.view(0)) - set(view) == {"limit"}, variant
    # "a rummy game played to-200 adds target; an Indian deals or points game adds deal_count"
    to_200 = Game.new("rummy", 4, {"length": "to-200"}, seed=1)
    assert set(to_200.public_view()) - set(public) == {"target"}
    assert to_200.public_view()["target"] == 200
    for fmt, total in (("deals", 3), ("points", 1)):
        options: dict[str, object] = {"format": fmt} | ({"deals": 3} if fmt == "deals" else {})
        game_of = Game.new("indian", 3, options, seed=1)
        assert set(game_of.public_view()) - set(indian.public_view()) == {"deal_count"}, fmt
        assert set(indian.public_view()) - set(game_of.public_view()) == {"limit"}, fmt
        assert game_of.public_view()["deal_count"] == {"played": 0, "total": total}, fmt


def test_the_results_and_records_of_the_engine_doc_have_the_engines_keys() -> None:
    text = _doc("engine.md")
    line = re.search(r'`results` has one entry per finished deal: `(\{.*?\})`', text, re.S)
    assert line is not None
    documented = set(re.findall(r'"(\w+)":', line.group(1)))
    game = _played("rummy", 2, 5, to_end=True)
    assert game.phase in ("deal-over", "game-over")
    (result,) = game.view(0)["results"]
    assert set(result) == documented
    record = game.record()
    assert set(record) == {"variant", "players", "options", "seed", "deals"}
    assert set(record["deals"][0]) <= {"dealer", "deck", "actions", "restocks"}
    events = set(_first_column(_section(text, "## History events")))
    assert {e["action"] for e in game.history()} <= events


# -- the solver ------------------------------------------------------------------------------


def test_the_solver_doc_lists_the_rules_that_change_the_analysis() -> None:
    from rummykit.analysis import VARIANTS, answer_rules

    rows = {}
    for line in _doc("solver.md").splitlines():
        if m := re.match(r"  \| `(\w+)` \| (.*) \|$", line):
            rows[m.group(1)] = m.group(2)
    assert set(rows) == set(VARIANTS)
    listed = {v: set(re.findall(r"`(\w+)`", row)) for v, row in rows.items()}
    # "rami51: the same but `small_opening`"
    assert rows["rami51"] == "the same but `small_opening`"
    listed["rami51"] = listed["rummy"] - {"small_opening"}
    for variant in VARIANTS:
        assert listed[variant] == set(answer_rules(variant)), variant


def test_the_solver_doc_names_the_rules_defaults() -> None:
    from rummykit import solver

    text = _doc("solver.md")
    fields = ", ".join(f.name for f in dataclasses.fields(solver.OpeningRule))
    assert f"`OpeningRule({fields})`" in " ".join(text.split())
    fields = ", ".join(f.name for f in dataclasses.fields(solver.PenaltyRule))
    assert f"`PenaltyRule({fields})`" in text
    assert solver.RUMMY_OPENING.minimum == 40 and solver.RUMMY_OPENING.close_leaves == (0, 1)
    assert solver.RAMI51_OPENING.minimum == 51 and solver.RAMI51_OPENING.close_leaves == (1,)
    assert (solver.RAMI71_OPENING.minimum, solver.RAMI71_OPENING.jokers_zero) == (71, True)
    assert solver.SIMPLE_OPENING.close_only
    assert solver.INDIAN_PENALTY.cap == 80 and solver.INDIAN_PENALTY.two_sequences


# -- the server ------------------------------------------------------------------------------


def test_the_storage_doc_lists_every_method_of_the_interface() -> None:
    from rummykit.server.storage import Storage

    methods = {
        name for name, value in vars(Storage).items()
        if callable(value) and not name.startswith("_")
    }
    documented = {row.split("(", 1)[0] for row in _first_column(_section(_doc("server.md"),
                                                                          "## Storage"))}
    assert documented == methods
    number = {9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}[len(methods)]
    assert f"implements the same {number} methods" in _doc("server.md")


def _normal(value: str) -> Any:
    value = value.strip().strip("`")
    if value in ("none",):
        return None
    if value == "off":
        return False
    try:
        return float(value)
    except ValueError:
        return value


def test_the_serve_options_table_gives_the_defaults() -> None:
    from rummykit.cli.serve import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    defaults = {f: a.default for a in parser._actions for f in a.option_strings}
    table = _section(_doc("server.md"), "# The game server")
    checked = 0
    for line in table.splitlines():
        m = re.match(r"\| (`--.*?) \| (.*?) \| ", line)
        if not m or "--admin-token" in m.group(1):
            continue  # the token's default is read from the environment
        flags = re.findall(r"`(--[a-z-]+)", m.group(1))
        values = [_normal(v) for v in m.group(2).split(", ")]
        assert len(flags) == len(values), line
        for flag, value in zip(flags, values, strict=True):
            default = defaults[flag]
            if default == []:
                default = None
            if isinstance(default, (int, float)) and not isinstance(default, bool):
                default = float(default)
            assert value == default, f"{flag}: the doc says {value!r}, --help {default!r}"
            checked += 1
    assert checked >= 18


# -- the command line and the scripts ---------------------------------------------------------


def test_every_flag_the_docs_give_a_command_exists() -> None:
    from rummykit.cli.main import build_parser

    parser = build_parser()
    commands = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    flags = {name: {f for a in sub._actions for f in a.option_strings}
             for name, sub in commands.items()}
    missing, seen = set(), 0
    for path in DOCS:
        for span in _code_spans(path.read_text(encoding="utf-8")):
            for m in re.finditer(rf"rummykit ({'|'.join(flags)})\b([^#|]*)", span):
                for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(2)):
                    seen += 1
                    if flag not in flags[m.group(1)]:
                        missing.add((path.name, m.group(1), flag))
    assert not missing, f"flags the docs give and the command lacks: {sorted(missing)}"
    assert seen >= 30


def test_every_flag_the_docs_give_a_script_exists() -> None:
    missing, seen = set(), 0
    for path in DOCS:
        for span in _code_spans(path.read_text(encoding="utf-8")):
            for m in re.finditer(r"scripts/(\w+\.py)\b([^#|]*)", span):
                # the benchmarks' shared flags (--work, --bytecodes, --pick) live in _bench.py
                source = (ROOT / "scripts" / m.group(1)).read_text(encoding="utf-8") + (
                    ROOT / "scripts" / "_bench.py").read_text(encoding="utf-8")
                for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(2)):
                    seen += 1
                    if f'"{flag}"' not in source:
                        missing.add((path.name, m.group(1), flag))
    assert not missing, f"flags the docs give and the script lacks: {sorted(missing)}"
    assert seen >= 40


# -- the bots --------------------------------------------------------------------------------


def test_a_bots_time_limit_and_the_tournaments_lineups_are_as_documented() -> None:
    from rummykit.bots import LEVELS, make_bot, time_limit
    from rummykit.bots.tournament import lineups

    text = " ".join(_doc("bots.md").split())
    assert "1.5 × its budget + 0.5 s, or 2 s for a bot without a budget" in text
    assert time_limit(make_bot("hard")) == 1.5 * 1.0 + 0.5
    assert time_limit(make_bot("hard", budget=0.2)) == 1.5 * 0.2 + 0.5
    assert time_limit(make_bot("medium")) == time_limit(make_bot("easy")) == 2.0
    assert LEVELS == ("easy", "medium", "hard")
    assert "(6 for three bots at three seats, 12 at four, 24 for four bots)" in text
    three, four = ("easy", "medium", "hard"), ("easy", "medium", "hard", "easy")
    assert [len(lineups(three, 3)), len(lineups(three, 4))] == [6, 12]
    assert len(lineups(("a", "b", "c", "d"), 4)) == 24
    assert len(lineups(four[:3], 5)) == 5  # past 24 arrangements: the rotations only


# -- the layers (README, "Layout") ------------------------------------------------------------

PACKAGE = Path(rummykit.__file__).parent

#: Standard modules that do I/O or read the clock or fresh randomness: none below the bots.
NOT_BELOW_THE_BOTS = {
    "asyncio", "datetime", "http", "io", "logging", "os", "pathlib", "secrets", "shutil",
    "socket", "sqlite3", "subprocess", "sys", "tempfile", "threading", "time", "urllib",
    "uuid", "random",
}
#: The engine's one randomness, the shuffle from the seed or rng given (SystemRandom without).
ALLOWED = {("engine/game.py", "random")}
BELOW_THE_BOTS = ("cards", "melds", "errors", "solver", "rules", "rules_table", "analysis",
                  "engine")


def _module_imports(path: Path) -> list[tuple[str, int]]:
    """Top names of the modules a file imports, and each import's level (0: absolute)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[0], 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append(((node.module or "").split(".")[0], node.level))
    return found


def test_no_module_imports_relatively() -> None:
    # tests/test_layers.py reads absolute imports only: a relative one would pass it unseen.
    relative = [
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
        if any(level for _, level in _module_imports(p))
    ]
    assert not relative


def test_no_layer_below_the_bots_imports_io_clock_or_randomness() -> None:
    found = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(PACKAGE)
        if rel.parts[0].removesuffix(".py") not in BELOW_THE_BOTS:
            continue
        for name, _ in _module_imports(p):
            if name in NOT_BELOW_THE_BOTS and (rel.as_posix(), name) not in ALLOWED:
                found.append(f"{rel}: {name}")
    assert not found, found


@pytest.mark.parametrize("bad", ["import time\n", "from os import path\n",
                                 "from . import cards\n"])
def test_the_layer_checks_see_what_they_look_for(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(bad)
    (name, level), = _module_imports(path)
    assert name in NOT_BELOW_THE_BOTS or level == 1


# -- signatures ------------------------------------------------------------------------------


def _doc_parameters(args: str) -> list[str]:
    """``cards, rule=None, *, keep: Card | None = None`` -> ``["cards", "rule", "*", "keep"]``."""
    out = []
    for part in re.split(r",(?![^\[(]*[\])])", args):
        m = re.match(r"\s*(\*|\w+)", part)
        assert m is not None, args
        out.append(m.group(1))
    return out


def _parameters(func: Any) -> list[str]:
    import inspect

    out: list[str] = []
    for p in inspect.signature(func).parameters.values():
        if p.kind is p.KEYWORD_ONLY and "*" not in out:
            out.append("*")
        out.append(p.name)
    return out


def _documented_call(text: str, name: str) -> list[str]:
    """The parameters of the first place the doc shows ``name(...)`` with names, not values."""
    flat = " ".join(text.split())
    for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\(((?:[^()]|\([^()]*\))*)\)", flat):
        parts = re.split(r",(?![^\[(]*[\])])", m.group(1))
        if all(re.fullmatch(r"\s*(\*|[a-z_]\w*)\s*(?:[:=].*)?", part) for part in parts):
            return _doc_parameters(m.group(1))
    raise AssertionError(f"the doc shows no signature of {name}")


@pytest.mark.parametrize(
    ("doc", "module", "names"),
    [
        ("solver.md", "rummykit.solver", ["best_opening", "best_close", "opening",
                                          "least_penalty", "opening_and_penalty",
                                          "declaration"]),
        ("solver.md", "rummykit.analysis", ["analyze"]),
        ("bots.md", "rummykit.bots", ["make_bot", "play_turn", "play_deal",
                                      "rummykit.bots.choose_action"]),
    ],
)
def test_the_signatures_the_docs_show_are_the_functions(
    doc: str, module: str, names: list[str]
) -> None:
    import importlib

    text = _doc(doc)
    for name in names:
        func = getattr(importlib.import_module(module), name.rsplit(".", 1)[-1])
        assert _documented_call(text, name) == _parameters(func), name


def test_the_doc_says_what_a_public_view_leaves_out_and_what_medium_takes() -> None:
    flat = " ".join(_doc("engine.md").split())
    assert ('`game.public_view()` is the same with `"seat": null` and without the seat\'s own '
            "fields (`hand`, `opening`, `declaration`, and in Indian rummy `drop_cost`)") in flat
    # medium's median decision times, as the table of results gives them
    bots = _doc("bots.md")
    medians = []
    for line in bots.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 11 and cells[2] in ("medium v easy", "hard v medium"):
            times = cells[7] if cells[2] == "medium v easy" else cells[8]
            medians.append(float(times.split("/")[0]))
    assert len(medians) == 10
    span = f"{min(medians)}–{max(medians)} ms"
    assert f"Its decisions take {span} (median" in bots
    assert f"| {span} on the loaded machine |" in bots


def test_the_servers_constants_are_those_the_server_doc_gives() -> None:
    from rummykit.server import botpool, loop_monitor, rooms, storage
    from rummykit.server.config import ServerConfig

    text = " ".join(_doc("server.md").split())
    pairs = [
        (botpool.BACKOFF_AFTER == 3, "After **3** such failures in a row"),
        (botpool.BACKOFF_FIRST == 5.0, "starts no worker for **5 s**"),
        (botpool.BACKOFF_MAX == 60.0, "up to **60 s**"),
        (botpool.STANDBY_TIMEOUT == 1.0, "a deadline of its own (1 s, or `--bot-timeout`"),
        (botpool.START_TIMEOUT == 60.0, "(or takes 60 s) before it says it is ready"),
        (ServerConfig.max_rooms_per_connection == 20, "the limit of 20 rooms per connection"),
        (rooms.IDLE_MS == 24 * 3600 * 1000, "for 24 hours"),
        (ServerConfig.max_queue == 512, "(512 queued messages)"),
        (ServerConfig.full_gc_interval == 600, "one runs every 10 minutes"),
        (loop_monitor.GC_THRESHOLDS[0] == 700, "(700 objects"),
        (storage.WAL_LIMIT == 64 * 1024 * 1024, "back to 64 MB (`storage.WAL_LIMIT`)"),
        (ServerConfig.codes_window == 600, "60 codes naming nothing in 10 minutes"),
        (ServerConfig.rooms_window == 3600, "100 rooms created in any hour"),
    ]
    wrong = [phrase for holds, phrase in pairs if not holds or phrase not in text]
    assert not wrong, wrong


@pytest.mark.parametrize("seat", ["1", 5, -1, True, 1.0, None])
def test_play_turn_refuses_a_seat_that_is_no_seat_as_an_invalid_argument(seat: Any) -> None:
    # docs/bots.md: play_turn checks its arguments as choose_action does (InvalidArgument), and
    # docs/engine.md: a seat is an int from 0. A seat "1" was told "it is not seat '1''s turn",
    # a plain RummyError, as was 5 at a table of two.
    from rummykit.bots import make_bot, play_turn
    from rummykit.errors import InvalidArgument, RummyError

    game = Game.new("rummy", players=2, seed=1)
    with pytest.raises(InvalidArgument, match=r"^seat must be a seat number from 0 to 1, not "):
        play_turn(game, seat, make_bot("easy"))
    other = 1 - game.to_move if game.to_move is not None else 0
    with pytest.raises(RummyError, match=rf"^it is not seat {other}'s turn$") as refused:
        play_turn(game, other, make_bot("easy"))
    assert type(refused.value) is RummyError
    assert game.version == 1


def test_the_history_table_of_the_engine_doc_lists_every_event_the_engine_logs() -> None:
    source = "".join(
        p.read_text(encoding="utf-8") for p in sorted((PACKAGE / "engine").glob("*.py"))
    )
    logged = set(re.findall(r'_event\(\s*"([a-z-]+)"', source))
    logged |= set(re.findall(r'"action": "([a-z-]+)"', source))
    table = set(_first_column(_section(_doc("engine.md"), "## History events"))) - {"action"}
    assert len(logged) >= 13
    assert logged == table


@pytest.mark.parametrize("wild", ["7", True, 7.0, None])
def test_a_wild_rank_of_the_wrong_type_is_an_invalid_argument(wild: Any) -> None:
    # docs/engine.md, Errors: an argument of the Python API of the wrong type raises
    # InvalidArgument; analyze(wild_rank="7") raised a plain RummyError, as a rank out of range.
    from rummykit.analysis import analyze
    from rummykit.errors import InvalidArgument, RummyError

    hand = "4H 5H 6H QC QH QD KS KH KD 2C 3D 4S 5C"
    with pytest.raises(InvalidArgument, match=r"^wild_rank must be a whole number \(int\)"):
        analyze(hand, "indian", wild_rank=wild)
    with pytest.raises(RummyError, match=r"^wild rank 14 is not a rank") as refused:
        analyze(hand, "indian", wild_rank=14)
    assert type(refused.value) is RummyError
    assert analyze(hand, "indian", wild_rank=7).penalty.points == 80


@pytest.mark.parametrize("game", ["x", None, 5, {"view": 1}])
def test_observe_refuses_what_is_no_game_as_an_invalid_argument(game: Any) -> None:
    # docs/engine.md, Errors: every fault of the Python API's arguments is a RummyError
    # (InvalidArgument for the wrong type); observe("x", 0) raised AttributeError.
    from rummykit.bots import observe
    from rummykit.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match=r"^game must be a Game, not "):
        observe(game, 0)


def test_the_engine_and_solver_constants_are_those_their_docs_give() -> None:
    from rummykit.engine import place
    from rummykit.solver import core, fast

    engine = " ".join(_doc("engine.md").split())
    solver = " ".join(_doc("solver.md").split())
    assert place.NODE_BUDGET == 2000 and "The search stops after 2,000 states" in engine
    assert core.TABLE_LIMIT == 60_000 and "past 60,000 entries in all" in solver
    assert fast.PAIR_JOKERS == 2 and "a hand with at most two jokers is searched once" in solver


def test_a_create_may_set_every_option_and_house_rule_of_its_variant() -> None:
    # The protocol caps `options` at 16 entries (docs/protocol.md, create): rummy's 3 room
    # options and 13 house rules reach it exactly, so one more rule offered would make a
    # room with every rule set unrequestable.
    from rummykit.rules import VARIANTS, house_rule_schema, option_schema
    from rummykit.server.protocol import ProtocolError, parse_client_message

    for variant in VARIANTS:
        names = {**option_schema(variant), **house_rule_schema(variant)}
        options = {name: spec["default"] for name, spec in names.items()}
        msg = parse_client_message(json.dumps(
            {"type": "create", "variant": variant, "players": 2, "options": options}))
        assert msg["options"] == options
    too_many = {f"rule{i}": 0 for i in range(17)}
    with pytest.raises(ProtocolError, match="options"):
        parse_client_message(json.dumps({"type": "create", "players": 2, "options": too_many}))
    assert "`options` (object of at most 16 entries" in _doc("protocol.md")


def _script_defaults(name: str) -> dict[str, str]:
    """``{"--deals": "40", ...}``: the defaults a script's parser is given, as written."""
    source = (ROOT / "scripts" / name).read_text(encoding="utf-8")
    return dict(re.findall(r'add_argument\(\s*"(--[\w-]+)",[^)]*?default=([\w."]+)', source))


def test_the_scripts_defaults_are_those_the_docs_give() -> None:
    engine, solver = " ".join(_doc("engine.md").split()), _doc("solver.md")
    server = _doc("server.md")
    bench = _script_defaults("bench_engine.py")
    assert [bench[f] for f in ("--variant", "--players", "--deals", "--runs")] == [
        '"rummy"', "4", "40", "5"]
    assert "`python scripts/bench_engine.py` (rummy, 4 players, 40 deals × 5 runs)" in engine
    bench = _script_defaults("bench_solver.py")
    assert [bench[f] for f in ("--hands", "--seed", "--baseline")] == ["1000", "2026", "60"]
    assert "# 1000 hands, seed 2026, baseline on 60 of them" in solver
    bench = _script_defaults("bench_indian.py")
    assert [bench[f] for f in ("--hands", "--heavy", "--seed")] == ["300", "200", "2026"]
    assert "# 300 random + 200 wild-heavy hands, seed 2026" in solver
    bench = _script_defaults("bench_server.py")
    assert [bench[f] for f in ("--clients", "--seats", "--think", "--warmup", "--duration")] \
        == ["1000", "4", "4.0", "10", "60"]
    assert "# 1,000 connections = 250 four-seat rooms," in server
    assert "# think 4 s, 10 s warm-up, 60 s measured" in server
    soak = (ROOT / "scripts" / "soak_server.py").read_text(encoding="utf-8")
    assert "\nMINUTES = 15.0\n" in soak and "\nROOMS = 18\n" in soak
    assert "# 15 minutes, 18 rooms at a time" in server
