"""The engine and the solver leave no cyclic garbage: a long-running server would otherwise
pay for it in collector pauses (docs/server.md, "Measured load")."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from rummykit.engine import Game
from rummykit.solver import clear_tables


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


@pytest.mark.parametrize("variant", ["rummy", "rami51", "rami71", "simple", "indian"])
def test_views_and_legal_actions_leave_no_cycles(
    variant: str, saved_garbage: list[object]
) -> None:
    clear_tables()  # the solver's searches run, not only its stored answers
    game = Game.new(variant, 2, seed=11)
    rng = random.Random(5)
    for _ in range(30):
        seat = game.to_move
        if seat is None:
            break
        for s in range(2):
            game.view(s)
        actions = [a for a in game.legal_actions() if str(a) != "timeout"]
        game.apply(rng.choice(actions) if actions else "timeout")
    gc.collect()
    kinds = sorted({type(o).__name__ for o in saved_garbage})
    assert not saved_garbage, f"{len(saved_garbage)} objects in cycles: {kinds}"
