"""How the server keeps its event loop responsive and measures it: the garbage collector set
for short pauses (``tune_gc``), and the loop's lag and the collector's pauses
(``LoopMonitor``, reported by ``GET /api/metrics``).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import time
from typing import Any

#: Collector thresholds of the server process (see ``tune_gc``): young collections every 700
#: new containers, the middle generation every 10 of them, and no automatic full collection
#: (its threshold is out of reach); ``full_collections`` (``app.py``) runs one every
#: ``ServerConfig.full_gc_interval`` seconds instead.
GC_THRESHOLDS = (700, 10, 1_000_000_000)
LAG_TICK = 0.02  # seconds between two wake-ups of the event-loop lag probe


def tune_gc() -> None:
    """Set the server process's cyclic garbage collector for short pauses.

    The engine's views used to create cyclic garbage (recursive helpers) at thousands of
    objects a second. With large young-generation thresholds each collection frees tens of
    thousands of them at once (20–60 ms of CPU, every couple of seconds); with the default
    thresholds the full collections that CPython triggers whenever a quarter of the old
    generation is new scan every room and connection (150–250 ms each, every few seconds under
    load). Small young collections (under 4 ms) and full collections on a slow timer keep every
    pause short. Objects that exist at start-up (modules, tables) are frozen out of the
    collector altogether.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class LoopMonitor:
    """How late the event loop runs a timer (its lag) and how long collections pause it."""

    def __init__(self, size: int = 20000) -> None:
        self.lags: collections.deque[float] = collections.deque(maxlen=size)
        self.pauses: collections.deque[tuple[int, float]] = collections.deque(maxlen=size)
        self.collections = [0, 0, 0]
        self._gc_started = 0.0

    def gc_callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        generation = int(info["generation"])
        self.collections[generation] += 1
        self.pauses.append((generation, time.perf_counter() - self._gc_started))

    async def probe(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            self.lags.append(max(0.0, time.perf_counter() - t - LAG_TICK))

    def reset(self) -> None:
        self.lags.clear()
        self.pauses.clear()

    def summary(self) -> dict[str, Any]:
        lags = sorted(self.lags)
        out: dict[str, Any] = {
            "loop_lag_ms": {
                "samples": len(lags),
                "p50": quantile_ms(lags, 0.5),
                "p99": quantile_ms(lags, 0.99),
                "max": quantile_ms(lags, 1.0),
            },
            "gc": {"collections": list(self.collections)},
        }
        # A copy made in one C call: a collection (in any thread) may append meanwhile.
        recorded = list(self.pauses)
        for generation in range(3):
            pauses = sorted(d for g, d in recorded if g == generation)
            out["gc"][f"gen{generation}_pause_ms"] = {
                "count": len(pauses),
                "p99": quantile_ms(pauses, 0.99),
                "max": quantile_ms(pauses, 1.0),
            }
        return out


def quantile_ms(values: list[float], p: float) -> float | None:
    """The ``p`` quantile of sorted seconds, in milliseconds."""
    if not values:
        return None
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2)
