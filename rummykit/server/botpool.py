"""Bots in the server: the seam to ``rummykit.bots`` and a worker pool off the event loop.

The server asks ``rummykit.bots.choose_action(view, history, level, seed)`` (the action text)
in a worker pool, so a slow bot never holds up other rooms. If the bots package is missing or
a bot fails, :func:`fallback_bot` plays instead: a deliberately simple player (draw from the
stock, then discard the heaviest card) that needs the game itself.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import logging
import multiprocessing
import random
from collections.abc import Callable
from typing import Any

from rummykit.cards import ACE, JOKER_RANK, Card, parse_card

log = logging.getLogger("rummykit.server")

DEFAULT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

ChooseAction = Callable[[dict[str, Any], list[Any], str, int | None], str]


def _penalty(card: Card, wild_rank: int | None) -> tuple[int, int, int]:
    """Sort key: penalty value (a joker lowest so it is kept), then rank (A high), then suit."""
    if card.rank == JOKER_RANK or (wild_rank is not None and card.rank == wild_rank):
        return (-1, 0, 0)
    rank = 14 if card.rank == ACE else card.rank
    value = 11 if card.rank == ACE else min(card.rank, 10)
    return (value, rank, -card.suit)


def fallback_bot(game: Any, seat: int, rng: random.Random) -> str:
    """A plain legal move for ``seat`` when no bot can answer: draw from the stock, then
    discard the card with the highest penalty (never a joker while another card can go);
    anything else the engine lists when neither is possible."""
    if game.is_legal("draw"):
        return "draw"
    view = game.view(seat)
    wild = view.get("wild_rank")
    wild_rank: int | None = None
    if isinstance(wild, str):
        try:
            wild_rank = parse_card(wild + "S").rank
        except ValueError:
            wild_rank = None
    elif isinstance(wild, int):
        wild_rank = wild
    hand = sorted(
        {c for c in view.get("hand", [])},
        key=lambda t: _penalty(parse_card(t), wild_rank),
        reverse=True,
    )
    for text in hand:
        action = f"discard {text}"
        if game.is_legal(action):
            return action
    legal = [str(a) for a in game.legal_actions()]
    if not legal:
        raise RuntimeError(f"no legal action for seat {seat}")
    return rng.choice(legal)


def find_choose_action() -> ChooseAction | None:
    """``rummykit.bots.choose_action`` when the bots package provides it."""
    try:
        bots = importlib.import_module("rummykit.bots")
    except ImportError:
        return None
    fn = getattr(bots, "choose_action", None)
    return fn if callable(fn) else None


def bot_levels() -> tuple[str, ...]:
    """The levels ``rummykit.bots`` offers (``LEVELS``), or the default three."""
    try:
        bots = importlib.import_module("rummykit.bots")
    except ImportError:
        return DEFAULT_LEVELS
    levels = getattr(bots, "LEVELS", None)
    if isinstance(levels, (list, tuple, dict)) and levels:
        return tuple(str(x) for x in levels)
    return DEFAULT_LEVELS


def _call_choose(view: dict[str, Any], history: list[Any], level: str, seed: int) -> str:
    fn = find_choose_action()
    if fn is None:
        raise RuntimeError("rummykit.bots.choose_action is not available")
    return str(fn(view, history, level, seed))


class BotPool:
    """Runs bot decisions in a process pool (``kind="process"``, the default) or a thread pool."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        self.workers = max(1, workers)
        self.kind = kind
        self.choose = find_choose_action()
        self._pool: concurrent.futures.Executor | None = None
        self._rng = random.SystemRandom()

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.kind == "process":
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(self.workers, "bot")
        return self._pool

    async def decide(
        self, game: Any, seat: int, level: str, view: dict[str, Any] | None = None
    ) -> str:
        """The action text the bot in ``seat`` plays now (never ``timeout``); ``view`` is the
        seat's view when the caller has it already."""
        seed = self._rng.getrandbits(63)
        if self.choose is not None:
            if view is None:
                view = game.view(seat)
            history = list(game.history())
            loop = asyncio.get_running_loop()
            try:
                action = await loop.run_in_executor(
                    self._executor(), _call_choose, view, history, level, seed
                )
                if action.strip() != "timeout":
                    return action
            except Exception:
                log.exception("bot failed; playing the fallback move")
        return fallback_bot(game, seat, random.Random(seed))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
