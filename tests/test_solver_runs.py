"""The run tables' list of runs from the lowest card (``core._run_shapes``) against a plain
enumeration: the list is tabled by the places held and its search stops early where no run
it could still close would be kept, so it must give exactly the runs, in the same order,
that growing every run place by place and filtering each one gives."""

from __future__ import annotations

import random

import pytest

from rummykit.melds import RUMMY_MELDS, MeldRules
from rummykit.solver import api, core
from rummykit.solver.core import F_CM_ONE, F_CRC, F_PURE, F_SEQ

INDIAN = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=7)


def plain_shapes(
    cfg: core.Config, rest0: int, low: int, jcap: int, c_rank: int
) -> list[tuple[object, ...]]:
    """Every run from the natural card at place ``low + 1``, grown with a natural card (when
    ``rest0`` holds one) or a joker at each place, kept by the same rules as the solver's
    (``slide``: a run opening with jokers only when pushed against the top; ``trim``: with
    jokers weighing nothing, no run of 4 or more ending with a joker)."""
    run_nat, run_jok = cfg.run_nat, cfg.run_jok
    slide = cfg.adjacent and min(run_jok) == max(run_jok)
    trim = slide and max(run_jok) <= 0
    c_places = (c_rank - 1, 13) if c_rank == 1 else ((c_rank - 1,) if c_rank else ())
    out: list[tuple[object, ...]] = []

    def grow(q: int, taken: int, start: int, length: int, nat: int, jk: int, last_joker: bool,
             score: int, mask: int, has_c: bool) -> None:
        if length >= 3 and nat >= cfg.min_real:
            pre = (mask ^ (mask + 1)).bit_length() - 1
            if not (slide and pre and start + length + pre + 1 <= 15) and not (
                trim and length > 3 and mask >> (length - 1)
            ):
                flags = 1
                if jk == 0:
                    flags |= F_CRC if (has_c and cfg.c_split) else F_PURE
                elif cfg.joker_must:
                    flags |= F_CM_ONE * min(jk, 2)
                if has_c:
                    flags |= F_CM_ONE
                flags &= cfg.fmask
                row = core._join_row(flags) if flags else None
                out.append((taken, jk << 8, row, score, ("R", start + 1, length, mask)))
        if q > 13 or length >= 13:
            return
        if (rest0 >> (2 * q)) & 3:
            grow(q + 1, taken + (1 << (2 * q)), start, length + 1, nat + 1, jk, False,
                 score + run_nat[q], mask, has_c or q in c_places)
        if jk < jcap and (cfg.adjacent or not last_joker):
            grow(q + 1, taken, start, length + 1, nat, jk + 1, True, score + run_jok[q],
                 mask | (1 << (q - start)), has_c)

    for pre in range(min(cfg.max_pre, jcap, low) + 1):
        start = low - pre
        grow(low + 1, 0, start, pre + 1, 1, pre, False,
             sum(run_jok[start:low]) + run_nat[low], (1 << pre) - 1, low in c_places)
    return out


CONFIGS = {
    "indian penalty": lambda: api._config(INDIAN, "indian", False, 0, F_SEQ | F_PURE),
    "indian declaration": lambda: api._config(INDIAN, "count", False, api.BIG, F_SEQ | F_PURE),
    "indian penalty, no flags": lambda: api._config(INDIAN, "indian", False, 0, 0),
    "rummy penalty": lambda: api._config(RUMMY_MELDS, "rummy", False, 0, 0),
    "rummy opening, taken card": lambda: api._config(
        RUMMY_MELDS, "open", False, 0, 0x7F, True
    ),
    "rami71 opening": lambda: api._config(RUMMY_MELDS, "open", True, 0, 0x7F),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_run_shapes_are_every_run_kept(name: str) -> None:
    cfg = CONFIGS[name]()
    rng = random.Random(name)
    for _ in range(300):
        # A crowded stretch of one suit (the aces already split between the two ends).
        lo = rng.randint(0, 13)
        vec = 0
        for place in range(lo, min(14, lo + rng.randint(1, 9))):
            vec |= rng.choice((0, 1, 1, 2, 2)) << (2 * place)
        if not vec:
            continue
        low = ((vec & -vec).bit_length() - 1) >> 1
        rest0 = vec - (1 << (2 * low))
        jcap = rng.randint(0, 10)
        c_rank = rng.choice((0, 0, 1, low + 1, rng.randint(1, 13)))
        core.clear_all()
        got = core._run_shapes(cfg, rest0, low, jcap, c_rank)
        assert got == plain_shapes(cfg, rest0, low, jcap, c_rank), (name, hex(vec), jcap)
        # Tabled by the places held: another count of copies gives the same list.
        above = (rest0 | rest0 >> 1) & 0x5555555 & -(4 << (2 * low))
        more = above << 1 | rest0 & (3 << (2 * low))  # two copies of every place above
        assert core._run_shapes(cfg, more, low, jcap, c_rank) == got
