"""The draws a hand still needs before it can close or declare: medium's judgement in
``simple`` and Indian rummy.

In ``simple`` and Indian rummy the hand must be melded whole, so the game is a race: the
judgement counts the draws from the stock a hand still needs at best (its *deficiency*),
and among the discards that need the fewest, keeps the hand with the most live *outs*
(cards whose draw would take one draw off). A hand is split into *blocks*: runs of one
suit with at most two gaps, and sets (a rank in two to four suits); a block of ``u`` cards
in a template of ``t`` cards misses ``t - u``. With ``R`` cards outside the blocks and
``E`` missing cards not covered by jokers, the hand fits its size only if ``E <= R``; the
slack ``S = R - E`` is filled by extending blocks or by starting new ones from single
cards (one card and two draws each), so ``R - S // 3`` draws remain. Cards beyond three
in a block may come off it at no cost when the hand needs a card to throw. The jokers
keep the variant's meld limits: in ``simple`` (two real cards a meld, no two jokers side
by side) a gap of two ranks takes one joker at most, and so does a block started from a
single card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, product

from rummykit.cards import ACE, FACES, Card
from rummykit.melds import MeldRules


@dataclass(frozen=True)
class DrawsRule:
    """What a finished hand needs besides every card melded."""

    runs: int
    sets: int
    #: One run must be pure (Indian rummy: no joker; its missing cards must be drawn).
    pure: bool


SIMPLE_DRAWS = DrawsRule(runs=1, sets=1, pure=False)
#: ``simple`` with the house rule ``clean_run_and_set``.
SIMPLE_CLEAN_DRAWS = DrawsRule(runs=1, sets=1, pure=True)
INDIAN_DRAWS = DrawsRule(runs=2, sets=0, pure=True)

#: A suit's ways to split into run blocks, each ``(R, M, runs, least missing of a run,
#: chains missing two ranks side by side, cards the blocks may give up at no cost, missing
#: cards, extending cards, cards outside blocks)``, the card masks by rank (bit ``rank -
#: 1``; a high ace is the ace's bit).
_Entry = tuple[int, int, int, int, int, int, int, int, int]
_NO_RUN = 9
_FRONTS: dict[tuple[int, ...], list[_Entry]] = {}
_FRONTS_LIMIT = 200_000
#: Hands already judged (a hand comes back: the one kept after a discard is the one judged
#: at the next draw, and a card taken from the pile was judged before it was taken).
_NEEDED: dict[tuple[tuple[int, ...], MeldRules, DrawsRule, int], tuple[int, int, int]] = {}
_NEEDED_LIMIT = 20_000


def _rank_bit(r: int) -> int:
    return 1 << ((r - 1) % 13) if 1 <= r <= 14 else 0


def _keep_best(opts: Iterable[_Entry]) -> list[_Entry]:
    """Splits that no other split beats on every count; equal counts pool their cards."""
    by: dict[tuple[int, int, int, int, int, int], list[int]] = {}
    for r, m, n, p, d, g, a, b, u in opts:
        got = by.get((r, m, n, p, d, g))
        if got is None:
            by[(r, m, n, p, d, g)] = [a, b, u]
        else:
            got[0] |= a
            got[1] |= b
            got[2] |= u
    out: list[_Entry] = []
    for k in sorted(by):
        if any(q[0] <= k[0] and q[1] <= k[1] and q[2] >= k[2] and q[3] <= k[3]
               and q[4] <= k[4] and q[5] >= k[5] for q in out):
            continue
        a, b, u = by[k]
        out.append((*k, a, b, u))
    return out


def _chains(ranks: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Runs of distinct ranks starting at ``ranks[0]``, at most two ranks missing inside."""
    first = ranks[0]
    later = sorted(set(ranks[1:]) - {first})
    out: list[tuple[int, ...]] = []

    def grow(chain: list[int], gaps: int, start: int) -> None:
        for i in range(start, len(later)):
            x = later[i]
            g = gaps + x - chain[-1] - 1
            if g > 2:
                break
            chain.append(x)
            out.append(tuple(chain))
            grow(chain, g, i + 1)
            chain.pop()

    grow([first], 0, 0)
    return out


def _front(ranks: tuple[int, ...]) -> list[_Entry]:
    got = _FRONTS.get(ranks)
    if got is not None:
        return got
    if not ranks:
        out = [(0, 0, 0, _NO_RUN, 0, 0, 0, 0, 0)]
    else:
        bit = _rank_bit(ranks[0])
        opts = [(r + 1, m, n, p, d, g, a, b, u | bit)
                for r, m, n, p, d, g, a, b, u in _front(ranks[1:])]
        for chain in _chains(ranks):
            lo, hi = chain[0], chain[-1]
            span = hi - lo + 1
            missing = max(3, span) - len(chain)
            # Two ranks missing side by side take one joker at most where two jokers may
            # not touch; a chain of four cards or more gives up end cards at no cost.
            double = int(any(b - a == 3 for a, b in pairwise(chain)))
            spare = max(0, len(chain) - 3)
            if span == 2:
                miss = _rank_bit(lo - 1) | _rank_bit(hi + 1)
                ext = _rank_bit(lo - 2) | _rank_bit(hi + 2)
            else:
                miss = 0
                for x in range(lo + 1, hi):
                    if x not in chain:
                        miss |= _rank_bit(x)
                ext = _rank_bit(lo - 1) | _rank_bit(hi + 1)
            rest = list(ranks[1:])
            for x in chain[1:]:
                rest.remove(x)
            for r, m, n, p, d, g, a, b, u in _front(tuple(rest)):
                opts.append((r, m + missing, min(2, n + 1), min(p, missing), d + double,
                             min(3, g + spare), a | miss, b | ext, u))
        out = _keep_best(opts)
    if len(_FRONTS) >= _FRONTS_LIMIT:
        _FRONTS.clear()
    _FRONTS[ranks] = out
    return out


def _suit_front(ranks: tuple[int, ...]) -> list[_Entry]:
    """The splits of one suit's ranks (ascending, aces as 1): every ace low or high."""
    aces = ranks.count(ACE)
    if not aces:
        return _front(ranks)
    key = (0, *ranks)  # no suit holds a rank 0: a separate key for the merged splits
    got = _FRONTS.get(key)
    if got is not None:
        return got
    rest = ranks[aces:]
    opts: list[_Entry] = []
    for high in range(aces + 1):
        opts.extend(_front((ACE,) * (aces - high) + rest + (14,) * high))
    out = _keep_best(opts)
    _FRONTS[key] = out
    return out


def _near(ranks: int) -> int:
    """Ranks at most two away from a rank of the mask (the ace at both ends)."""
    wide = ranks | ((ranks & 1) << 13)
    near = ((wide << 1) | (wide << 2) | (wide >> 1) | (wide >> 2)) & 0x3FFF
    return (near | (near >> 13)) & 0x1FFF


def _set_choices(suits: list[list[int]]) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Per rank held in two suits or more: the sets it may form (or none). A card with no
    run neighbour in its suit is always in its rank's set when there is one."""
    by_rank: dict[int, list[int]] = {}
    for s in range(4):
        for r in suits[s]:
            held = by_rank.setdefault(r, [])
            if s not in held:
                held.append(s)
    out = []
    for r, held in by_rank.items():
        if len(held) < 2:
            continue
        fixed: list[int] = []
        free: list[int] = []
        for s in held:
            linked = any(x != r and (abs(x - r) <= 2 or (r == ACE and x >= 12)
                                     or (x == ACE and r >= 12)) for x in suits[s])
            (free if linked else fixed).append(s)
        choices: list[tuple[int, tuple[int, ...]]] = [(r, ())]
        for k in range(len(free) + 1):
            for sub in combinations(free, k):
                if len(fixed) + k >= 2:
                    choices.append((r, (*fixed, *sub)))
        out.append(choices)
    return out


def draws_needed(cards: Sequence[Card], mr: MeldRules, rule: DrawsRule,
                 spare: int = 0) -> tuple[int, int, int]:
    """The draws ``cards`` still need at best before every card but ``spare`` melds, the
    cards (a mask of card indexes) whose draw would take one draw off, and the cards left
    out of the blocks by a best split (the natural discards)."""
    key = (tuple(sorted(c.index for c in cards)), mr, rule, spare)
    known = _NEEDED.get(key)
    if known is not None:
        return known
    suits: list[list[int]] = [[], [], [], []]
    jokers = 0
    wild: list[Card] = []
    for x in sorted(cards):
        if mr.is_joker(x):
            jokers += 1
            if not x.is_joker and x not in wild:
                wild.append(x)
        else:
            suits[x.suit].append(x.rank)
    best, free, outs, loose = _split(suits, jokers, rule, spare, mr)
    if best > free:
        # The pure sequence is what is missing: a wild card may stand as itself in it.
        for x in wild:
            alt = [sorted([*ranks, x.rank]) if s == x.suit else ranks
                   for s, ranks in enumerate(suits)]
            got = _split(alt, jokers - 1, rule, spare, mr)
            if got[0] < best:
                best, outs, loose = got[0], got[2], got[3]
            elif got[0] == best:
                outs |= got[2]
                loose |= got[3]
    if len(_NEEDED) >= _NEEDED_LIMIT:
        _NEEDED.clear()
    _NEEDED[key] = (best, outs, loose)
    return best, outs, loose


def _split(suits: list[list[int]], jokers: int, rule: DrawsRule, spare: int,
           mr: MeldRules) -> tuple[int, int, int, int]:
    """:func:`draws_needed` of the natural ranks per suit and the jokers, also giving the
    draws needed were no sequence required to be pure."""
    # ``simple``: a meld holds two real cards at least and no two jokers side by side.
    per = min(2, 3 - mr.min_real)
    apart = not mr.adjacent_jokers
    best = 99
    free = 99
    outs = 0
    loose = 0
    for combo in product(*_set_choices(suits)):
        cur = [list(x) for x in suits]
        set_missing = 0
        sets = 0
        set_miss = 0
        set_ext = 0
        set_spare = 0
        for r, sub in combo:
            if not sub:
                continue
            sets += 1
            set_missing += max(0, 3 - len(sub))
            others = 0
            for s in range(4):
                if s not in sub:
                    others |= 1 << (s * 13 + r - 1)
            if len(sub) == 2:
                set_miss |= others
            elif len(sub) == 3:
                set_ext |= others
            else:
                set_spare += 1
            for s in sub:
                cur[s].remove(r)
        for f in product(*[_suit_front(tuple(x)) for x in cur]):
            a, b, c, d = f
            left = a[0] + b[0] + c[0] + d[0] - spare
            missing = a[1] + b[1] + c[1] + d[1] + set_missing
            runs = a[2] + b[2] + c[2] + d[2]
            pure = min(a[3], b[3], c[3], d[3])
            # A missing run or set starts from a single card (two draws).
            lacking = max(0, rule.runs - runs) + max(0, rule.sets - sets)
            if rule.pure and runs < rule.runs:
                pure = min(pure, 2)
            left -= lacking
            # The jokers fill missing cards where the meld rules let them (``per``: how many
            # a block started from one card may take); the rest are extra.
            fill = missing - (a[4] + b[4] + c[4] + d[4] if apart else 0) + per * lacking
            used = min(jokers, fill)
            extra = jokers - used
            short = missing + 2 * lacking - used
            # Cards that must go while every card is in a block (the spare, the start of a
            # missing block, or cards drawn for missing ones when the blocks hold more than
            # the hand) come off long blocks, else are extra jokers, else leave a block short.
            surplus = a[5] + b[5] + c[5] + d[5] + set_spare
            if left < 0:
                off = min(surplus, -left)
                surplus -= off
                left += off
                off = min(extra, -left)
                extra -= off
                short -= left + off
                left = 0
            real = left - short
            if real < 0:
                off = min(surplus + extra, -real)
                extra -= max(0, off - surplus)
                left += off
                real += off
                if real < 0:
                    continue
            slack = real + extra
            # Each single card kept as a new block saves a draw and takes two more cards.
            need = left - (min(real // 2, slack // 3) if per == 1 else slack // 3)
            free = min(free, need)
            bound = rule.pure and need < pure
            if bound:
                need = pure
            if need > best:
                continue
            mask = a[6] | (b[6] << 13) | (c[6] << 26) | (d[6] << 39) | set_miss
            if not bound:
                if slack % 3:
                    mask |= a[7] | (b[7] << 13) | (c[7] << 26) | (d[7] << 39) | set_ext
                if slack >= 3:
                    for s, e in enumerate(f):
                        if e[8]:
                            mask |= _near(e[8]) << (13 * s)
                            for t in range(4):
                                if t != s:
                                    mask |= e[8] << (13 * t)
            out_of = a[8] | (b[8] << 13) | (c[8] << 26) | (d[8] << 39)
            if need < best:
                best, outs, loose = need, mask, out_of
            else:
                outs |= mask
                loose |= out_of
    return best, free, outs, loose


def live_count(mask: int, live: Counter[Card], mr: MeldRules, jokers: int) -> int:
    """How many live cards a mask of outs holds, with the live jokers (always an out)."""
    total = jokers
    while mask:
        low = mask & -mask
        c = FACES[low.bit_length() - 1]
        if not mr.is_joker(c):
            total += live[c]
        mask ^= low
    return total
