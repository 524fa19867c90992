"""A question's configuration and the count of the profile engine's table entries.

:class:`Config` holds a question's weights, meld limits and tracked flags, and its cached
tables; :func:`config` shares one per set of parameters, so the tables persist between calls.
:func:`_grow` counts every entry made, and :func:`rummykit.solver.core.solve` empties all the
tables, between two questions, once they hold more than :data:`TABLE_LIMIT`.

Apart because every part of the profile engine reads it (the runs of a suit, the sets of a
rank, the whole-hand search) and the fast path keys its own tables by it.
"""

from __future__ import annotations

from typing import Final

from rummykit.melds import MeldRules, lone_set_writable
from rummykit.solver.profiles import F_SET, Profile, Witness

#: Entries all the cached tables may hold together before they are emptied (about 30 MB).
TABLE_LIMIT: Final = 60_000
_CACHE_LIMIT: Final = TABLE_LIMIT
_stored = [0]


def _grow() -> None:
    """Count one more cached entry (:func:`solve` empties the tables past the limit)."""
    _stored[0] += 1


class Config:
    """Weights, meld limits and tracked flags of one question (shared, with its caches).

    ``run_nat[i]`` / ``run_jok[i]``: weight of a natural card / a joker at run place ``i + 1``
    (place 14 is the high ace); ``set_nat[r]`` / ``set_jok[r]``: weight of a natural card / a
    joker in a set of rank ``r``. ``fmask`` keeps only the flags the question needs;
    ``c_split`` makes a joker-free run holding the must-include card set :data:`F_CRC` instead
    of :data:`F_PURE`. ``joker_must``: the must-include card is a joker, so :data:`F_CM`
    counts the jokers melded: an entry with fewer jokers then never beats one that melds the
    taken joker (without the flag it would, at no less score, and the answer could be lost).
    """

    __slots__ = (
        "_join",
        "adjacent",
        "c_split",
        "fast",
        "fmask",
        "joker_must",
        "max_pre",
        "min_real",
        "partners",
        "rank_cache",
        "result_cache",
        "run_cache",
        "run_jok",
        "run_nat",
        "seg_cache",
        "set_cache",
        "set_jok",
        "set_min",
        "set_nat",
        "shape_cache",
        "singles",
        "suit_cache",
        "wrap_cache",
    )

    def __init__(
        self,
        min_real: int,
        adjacent: bool,
        run_nat: tuple[int, ...],
        run_jok: tuple[int, ...],
        set_nat: tuple[int, ...],
        set_jok: tuple[int, ...],
        fmask: int,
        c_split: bool,
        joker_must: bool = False,
    ) -> None:
        self.min_real = min_real
        self.adjacent = adjacent
        self.run_nat = run_nat
        self.run_jok = run_jok
        self.set_nat = set_nat
        self.set_jok = set_jok
        self.fmask = fmask
        self.c_split = c_split
        self.joker_must = joker_must
        self.singles = _singles(min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask)
        #: The fewest natural cards some set of this question needs.
        self.set_min = min_real if any(self.singles) else max(min_real, 2)
        self.fast = False
        #: Questions on the same hand whose answers seed this one's (fast path).
        self.partners: tuple[Config, ...] = ()
        self.max_pre = 13 if adjacent else 1
        self.run_cache: dict[tuple[int, int, int], Profile] = {}
        self.shape_cache: dict[tuple[int, int, int, int], list[_Shape]] = {}
        self.suit_cache: dict[tuple[int, int, int], Profile] = {}
        self.seg_cache: dict[tuple[int, int, int], Profile] = {}
        self.rank_cache: dict[tuple[int, tuple[int, ...], int, int, int], _RankOptions] = {}
        self.wrap_cache: dict[tuple[int, int, int, int], Profile] = {}
        self.set_cache: dict[tuple[int, tuple[int, ...], int, int], Profile] = {}
        self.result_cache: dict[tuple[object, ...], tuple[int, int, Witness] | None] = {}
        self._join: dict[tuple[int, int], int] = {}

    def clear(self) -> None:
        self.run_cache.clear()
        self.shape_cache.clear()
        self.suit_cache.clear()
        self.seg_cache.clear()
        self.rank_cache.clear()
        self.wrap_cache.clear()
        self.set_cache.clear()
        self.result_cache.clear()

    def table_entries(self) -> int:
        return (
            len(self.run_cache) + len(self.shape_cache) + len(self.suit_cache) + len(self.seg_cache)
            + len(self.set_cache) + len(self.rank_cache) + len(self.wrap_cache)
            + len(self.result_cache)
        )


def _singles(
    min_real: int,
    adjacent: bool,
    run_nat: tuple[int, ...],
    run_jok: tuple[int, ...],
    set_nat: tuple[int, ...],
    set_jok: tuple[int, ...],
    fmask: int,
) -> tuple[int, ...]:
    """Per rank (index ``r``), the joker counts ``m`` (bit ``m``) with which a set of one
    natural card and ``m`` jokers is worth searching (``min_real`` 1 only).

    Such a set is never needed when the same cards make a run at least as good: the card at
    its place and the jokers beside it (within the places 1 to 14 and the joker limits),
    weighing at least as much, with one more run and no worse flags -- unless the question
    tracks a set (:data:`F_SET`), which the run does not give. The search then leaves such
    sets out, so that a rank whose cards are all of one suit has no set choice at all; without
    that, with one real card a meld and two jokers or more, every card of a dense suit was a
    set choice and the search walked every subset of the suit (an 18-card rummy hand of one
    whole suit and four jokers took 13 s). A set every order of whose cards reads as a run
    (:func:`rummykit.melds.lone_set_writable`) is left out in every question: the engine
    reads its text as the run.
    """
    if min_real != 1:
        return (0,) * 14
    rules = MeldRules(min_real=1, adjacent_jokers=adjacent)
    out = [0]
    for r in range(1, 14):
        # A set that every order of its cards makes a run (make_meld reads those first) is
        # no set: the engine would read its text as the run.
        writable = 0
        for m in (2, 3):
            if lone_set_writable(r, m + 1, rules):
                writable |= 1 << m
        if fmask & F_SET:
            out.append(writable)
            continue
        mask = 0
        for m in (2, 3):
            if not writable >> m & 1:
                continue
            need = set_nat[r] + m * set_jok[r]
            best = None
            for p in ((1, 14) if r == 1 else (r,)):
                for start in range(p - m, p + 1):
                    if start < 1 or start + m > 14:
                        continue
                    jokers = [q for q in range(start, start + m + 1) if q != p]
                    if not adjacent and any(q + 1 in jokers for q in jokers):
                        continue
                    score = run_nat[p - 1] + sum(run_jok[q - 1] for q in jokers)
                    if best is None or score > best:
                        best = score
            if best is None or best < need:
                mask |= 1 << m
        out.append(mask)
    return tuple(out)


_CONFIGS: dict[tuple[object, ...], Config] = {}


def config(
    min_real: int,
    adjacent: bool,
    run_nat: tuple[int, ...],
    run_jok: tuple[int, ...],
    set_nat: tuple[int, ...],
    set_jok: tuple[int, ...],
    fmask: int,
    c_split: bool = False,
    joker_must: bool = False,
) -> Config:
    """The shared :class:`Config` of these parameters (its tables persist between calls)."""
    key = (min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split, joker_must)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = Config(
            min_real, adjacent, run_nat, run_jok, set_nat, set_jok, fmask, c_split, joker_must
        )
    return cfg


def all_configs() -> list[Config]:
    return list(_CONFIGS.values())


# What two of a question's tables hold (here, where :class:`Config` names them): the runs of
# the run tables (:mod:`rummykit.solver.runs`) and a rank's set choices
# (:mod:`rummykit.solver.sets`).

_Shape = tuple[int, int, tuple[int, ...] | None, int, tuple[str, int, int, int]]
"""A run from the lowest card: (the other natural cards it takes, ``jokers << 8``, the
row of :func:`rummykit.solver.runs._join_row` of its flags or None without flags, its score,
its witness leaf)."""

_RankOptions = tuple[Profile | None, list[tuple[tuple[int, int, int, int], Profile]] | None]
