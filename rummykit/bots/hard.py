"""The ``hard`` bot: card memory, opponent inference, and determinized Monte Carlo.

In ``simple`` and Indian rummy it discards by medium's draws judgement (with its memory of
the live cards); the steps below are for the variants that lay melds as they go.

1. **Memory.** From the public events it knows every card taken from the pile (and whether
   the taker still holds it), every card thrown away, and so which cards are still *live*
   (unseen and not known to sit in a rival's hand). Partials only count when their missing
   cards are live.
2. **Inference and not feeding.** A card is dangerous to throw when a rival picked up cards
   of its rank or its suit next to it, when it lays off on the table for a rival who has
   opened, and safer when the rival threw its neighbours away. The next rival counts most.
3. **Racing once opened.** In the variants that lay melds as they go, an opened hand wins by
   going out first, whatever its points: its discards are judged by :func:`open_score` --
   the cards its best arrangement leaves out, less a share for the live cards that would
   meld them with a partner or bridge them to the end of a table run.
   Where a freed joker must be laid again in the same turn (``rummy``), the same judgement
   chooses which table joker to free by a swap (or none) and where the freed joker is laid
   (:func:`lay_value`: each choice followed by the policy's own lay moves); the policy would
   take the first swap and meld the joker with its heaviest pair.
4. **The next draw.** In the variants that lay melds as they go (``rummy``, Rami), the best
   few discards are also judged by the penalty the next draw from the stock is expected to
   take off the hand (:func:`draw_gains`, one points-only solver call per live card).
5. **Search** (``search=True``; off by default: measured, it did not win more deals). For a
   discard, the best few candidates by (1) and (2) are tried in sampled
   worlds: the hidden cards are dealt at random among the rivals (known pickups stay with
   their takers) and the stock, the discard is played, and every seat continues with the
   ``medium`` policy for a few rounds (or to the end of the deal), its discards made cheaper
   (``level="rollout"`` in :func:`.policy.discard_move`: the heaviest card left out of the
   best arrangement, half weight with live partners). The candidate with the best
   average outcome, shrunk towards the heuristic, is played. Candidates share the same
   samples (common random numbers). The search stops when its time budget is spent.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from rummykit.bots.base import declared
from rummykit.bots.observation import Observation
from rummykit.bots.policy import (
    FREE_RUMMY,
    MEDIUM,
    Style,
    any_legal,
    choose_move,
    discard_move,
    discard_scores,
    evaluate,
    lay_move,
    live_outs,
    want_take,
    without,
)
from rummykit.bots.world import build_world, deal_hidden
from rummykit.cards import ACE, Card, card
from rummykit.engine.actions import Action, Discard, Layoff, NewMeld, Swap
from rummykit.engine.game import Game
from rummykit.engine.scoring import DealResult
from rummykit.errors import InvalidArgument, describe
from rummykit.melds import Meld, MeldRules, rummy_penalty
from rummykit.rules import Ruleset
from rummykit.solver import least_penalty, penalty_points

#: Candidates the search compares.
CANDIDATES = 3
#: Weight of the heuristic as a prior, in samples.
PRIOR = 8.0
#: Candidates whose risk of feeding the next rival is estimated.
FEED_CANDIDATES = 5
#: Points a discard costs per unit of probability that the next rival takes it.
FEED_WEIGHT = 25.0
#: Share of the budget for the feeding estimate.
FEED_SHARE = 0.3
#: Candidates whose next draw is looked at, and the weight of its expected gain.
DRAW_CANDIDATES = 5
DRAW_WEIGHT = 2.0
#: Fraction of the budget the search may use (the rest covers the bookkeeping).
SEARCH_SHARE = 0.8


def deal_net(result: DealResult, rules: Ruleset) -> list[float]:
    """What each seat gained (+) or paid (-) in a deal, in the variant's points."""
    n = rules.players
    w = result.winner
    if w is None:
        return [0.0] * n
    pens = result.penalties
    if rules.scoring == "rummy":
        out = []
        low = min(pens) if result.blocked else 0
        for s in range(n):
            if s == w:
                out.append(float(result.points))
            else:
                lost = pens[s] - low if result.blocked else pens[s] * (2 if result.double else 1)
                out.append(-float(lost))
        return out
    side = rules.team_of(w)
    mates = [s for s in range(n) if rules.team_of(s) == side]
    total = float(sum(pens))
    return [total / len(mates) if rules.team_of(s) == side else -float(pens[s])
            for s in range(n)]


def _near(a: Card, b: Card) -> int:
    """2 for the same rank (a set partner), 1 for a run neighbour, else 0."""
    if a.is_joker or b.is_joker:
        return 0
    if a.rank == b.rank and a.suit != b.suit:
        return 2
    if a.suit == b.suit:
        ra = (a.rank, 14) if a.rank == ACE else (a.rank,)
        rb = (b.rank, 14) if b.rank == ACE else (b.rank,)
        if any(0 < abs(x - y) <= 2 for x in ra for y in rb):
            return 1
    return 0


def danger_of(obs: Observation) -> Callable[[Card], float]:
    """How much throwing a card may help the rivals (points, added to the hand score)."""
    mr = obs.meld_rules
    nxt = obs.next_seat()
    rivals = obs.opponents()
    table = []
    if obs.rules.layoffs:
        from rummykit.melds import make_meld

        for m in obs.table:
            try:
                table.append(make_meld(m, mr))
            except ValueError:
                continue

    def danger(c: Card) -> float:
        total = 0.0
        for o in rivals:
            weight = 1.0 if o == nxt else 0.4
            mem = obs.memory[o]
            d = 0.0
            for t in mem.took:
                k = _near(c, t)
                d += 5.0 if k == 2 else 3.5 if k == 1 else 0.0
            for t in mem.threw[-6:]:
                k = _near(c, t)
                d -= 2.0 if k == 2 else 1.0 if k == 1 else 0.0
                if t is c:
                    d -= 1.0
            if table and obs.opened(o) and any(m.layoff_ends(c, mr) for m in table):
                d += 6.0
            total += weight * max(d, -3.0)
        return total

    return danger


def draw_gains(hand: Sequence[Card], cands: Sequence[Card], live: Counter[Card] | None,
               mr: MeldRules, deadline: float = float("inf")) -> list[float] | None:
    """For each candidate discard, the expected penalty the next draw from the stock takes
    off the hand: every live card weighed by its live copies, a card that melds (or completes
    a partial) gaining its own points and whatever it lets meld besides. None when the
    deadline passes first."""
    if not live:
        return [0.0] * len(cands)
    total = sum(live.values())
    out = []
    for c in cands:
        rest = list(hand)
        rest.remove(c)
        base = penalty_points(rest, FREE_RUMMY, mr)
        gain = 0.0
        if time.perf_counter() > deadline:
            return None
        for x, n in live.items():
            if mr.is_joker(x):
                gain += n * 20.0  # a drawn joker always melds something
                continue
            after = penalty_points([*rest, x], FREE_RUMMY, mr)
            g = base + rummy_penalty(x) - after
            if g > 0:
                gain += n * g
        out.append(gain / total)
    return out


def table_outs(c: Card, table: Sequence[Meld], live: Counter[Card] | None) -> int:
    """Live cards that would let ``c`` be laid off with them: the card bridging ``c`` to the
    end of a table run of its suit two ranks away (each copy counted)."""
    n = 0
    ranks = (c.rank, 14) if c.rank == ACE else (c.rank,)
    for m in table:
        if m.kind != "run" or m.suit != c.suit:
            continue
        for r in ranks:
            gap = m.rank - 1 if r == m.rank - 2 else m.high + 1 if r == m.high + 2 else 0
            if gap:
                x = card(ACE if gap == 14 else gap, c.suit)
                n += live[x] if live is not None else 2
    return n


def open_score(cards: Sequence[Card], table: Sequence[Meld], live: Counter[Card] | None,
               mr: MeldRules) -> float:
    """How far an opened hand is from going out (lower is better): ten per card its best
    arrangement leaves out of melds (a joker lays off anywhere: none), less a share for the
    live cards that would meld it with a partner or bridge it to a table run; the points
    break ties."""
    arr = least_penalty(cards, FREE_RUMMY, mr)
    left = [c for c in arr.left if not mr.is_joker(c)]
    score = 10.0 * len(left) + 0.1 * arr.points
    for c in left:
        n = live_outs(c, left, live, mr) + table_outs(c, table, live)
        score -= 10.0 * min(0.7, 0.1 * n)
    return score


def lay_value(world: Game, act: Action | None, style: Style, steps: int = 30) -> float:
    """How far the seat to move is from going out after ``act`` (None: laying nothing
    more), the policy's own lay moves after it and then its best discard, by
    :func:`open_score` (lower is better; going out is -1000). ``world`` is not changed."""
    d = world.deal
    seat = d.turn
    if act is not None:
        w = world.copy()
        w.apply(act)
        for _ in range(steps):
            if w.deal.over or w.deal.turn != seat:
                break
            nxt = lay_move(w, style)
            if nxt is None or not w.is_legal(nxt):
                break
            w.apply(nxt)
        if w.deal.over:
            return -1000.0
        d = w.deal
    hand = d.hands[seat]
    mr = d.meld_rules
    real = sorted({c for c in hand if not mr.is_joker(c)})
    if len(hand) <= 1 and real:
        return -1000.0
    table = [tm.meld for tm in d.table]
    if not real:
        return open_score(hand, table, style.live, mr)
    return min(open_score(without(hand, c), table, style.live, mr) for c in real)


def _race_best(world: Game, act: Action, others: Sequence[Action],
               style: Style) -> tuple[float, Action]:
    """The move among ``act`` and ``others`` with the lowest :func:`lay_value`, and its value;
    ``act`` (the policy's own) wins ties, then the first of ``others``."""
    best, mine = lay_value(world, act, style), act
    for a in others:
        if a != act:
            v = lay_value(world, a, style)
            if v < best - 1e-9:
                best, mine = v, a
    return best, mine


def live_cards(obs: Observation) -> Counter[Card]:
    """Unseen cards not known to be in a rival's hand."""
    live = Counter(obs.unseen)
    for s in range(obs.players):
        if s != obs.seat:
            live.subtract(obs.memory[s].holds)
    return Counter({c: n for c, n in live.items() if n > 0})


def rollout_value(world: Game, seat: int, rounds: int, style: Style,
                  deadline: float = float("inf")) -> float | None:
    """Play on with the medium policy for ``rounds`` rounds (or to the end of the deal);
    the seat's net points, or the rivals' average hand score less its own."""
    rules = world.rules
    n = rules.players
    limit = rounds * n
    turns = 0
    last = world.deal.turn
    actions = 0
    while not world.deal.over and turns < limit and actions < 400:
        if time.perf_counter() > deadline:
            return None
        act = choose_move(world, style)
        if act is None or not world.is_legal(act):
            act = any_legal(world)
        world.apply(act)
        actions += 1
        if world.deal.turn != last:
            turns += 1
            last = world.deal.turn
    if world.deal.over:
        return deal_net(world.results[-1], rules)[seat] * 1.0
    d = world.deal
    indian = rules.lay_mode == "declare"
    count = rules.lay_mode == "close"
    mine = evaluate(d.hands[seat], d.meld_rules, indian, style, count)
    side = rules.team_of(seat)
    others = [evaluate(d.hands[s], d.meld_rules, indian, style, count)
              for s in range(n) if rules.team_of(s) != side and d.out[s] is None]
    theirs = sum(others) / len(others) if others else 0.0
    return theirs - mine


def _number(name: str, value: object, zero: bool, meaning: str) -> float:
    """``value`` as a finite float, above 0 (or 0 and more when ``zero``); a bool, text or
    an int too large for a float is refused."""
    number = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError):
            number = float(value)
    if not (math.isfinite(number) and (number >= 0 if zero else number > 0)):
        bound = "of 0 or more" if zero else "above 0"
        raise InvalidArgument(
            f"HardBot's {name} must be a number {bound} ({meaning}), not {describe(value)}"
        )
    return number


def _count(name: str, value: object, meaning: str, none: str = "") -> None:
    if type(value) is not int or value < 1:
        raise InvalidArgument(
            f"HardBot's {name} must be a whole number above 0 ({meaning}){none}, "
            f"not {describe(value)}"
        )


def _flag(name: str, value: object, meaning: str) -> None:
    if type(value) is not bool:
        raise InvalidArgument(
            f"HardBot's {name} must be True or False ({meaning}), not {describe(value)}"
        )


class HardBot:
    """Memory, inference and determinized Monte Carlo within ``budget`` seconds per move."""

    name = "hard"

    def __init__(self, budget: float = 1.0, rounds: int = 3, samples: int | None = None,
                 feed_weight: float = FEED_WEIGHT, search: bool = False,
                 draw_weight: float = DRAW_WEIGHT, count_open: bool = True,
                 swap_race: bool = True) -> None:
        # Checked before anything is kept: a wrong value would otherwise surface moves later,
        # deep inside a decision (play_turn would then quietly play medium's move instead).
        budget = _number("budget", budget, False, "its thinking time per move, in seconds")
        _count("rounds", rounds, "the rounds each rollout of the search plays")
        if samples is not None:
            _count("samples", samples, "a fixed number of samples per search",
                   " or None (as many as the budget allows)")
        feed_weight = _number("feed_weight", feed_weight, True,
                              "points per unit of probability that the next rival takes the "
                              "discard; 0 leaves the estimate out")
        draw_weight = _number("draw_weight", draw_weight, True,
                              "the weight of the next draw's expected gain; 0 leaves the "
                              "estimate out")
        _flag("search", search, "whether to run rollouts")
        _flag("count_open", count_open, "whether an opened hand counts its cards to go out")
        _flag("swap_race", swap_race,
              "whether an opened hand chooses its joker swaps and where a freed joker goes by "
              "the hand they leave")
        #: Choose which joker to free (or none) and where to lay a freed joker by the hand
        #: left (:func:`lay_value`) rather than the policy's first swap and its least-points
        #: arrangement. Measured in 2-player rummy: +27/-12 deals over 2,000 paired deals.
        self.swap_race = swap_race
        self.budget: float | None = budget
        #: Judge the discards of an opened hand by :func:`open_score` (cards to go out)
        #: rather than by the medium judgement (points).
        self.count_open = count_open
        #: Weight of the expected gain of the next draw from the stock (0: not used).
        self.draw_weight = draw_weight
        self.feed_weight = feed_weight
        #: Whether to run rollouts (the feeding estimate runs either way). Off by default:
        #: in 2-player rummy they did not win more deals (400 duplicate deals at 0.1 s with
        #: the opened-hand judgement: 50.2% with them, 54.0% without).
        self.search = search
        self.rounds = rounds
        #: A fixed number of samples per search instead of the time budget (reproducible
        #: answers for tests; the budget is then not watched).
        self.samples = samples
        #: Samples the last search used (for tests and measurements).
        self.last_samples = 0

    def choose(self, obs: Observation, rng: random.Random) -> str:
        start = time.perf_counter()
        budget = self.budget or 0.0
        deadline = start + budget * SEARCH_SHARE
        style = Style(level="hard", race=True, draws=True, live=live_cards(obs),
                      danger=danger_of(obs), rng=rng)
        world = build_world(obs, rng)
        act = declared(obs) or choose_move(world, style)
        if act is None or not world.is_legal(act):
            act = any_legal(world)
        self.last_samples = 0
        if self.samples is not None:
            deadline = float("inf")
        d = world.deal
        # Measured where a freed joker must be laid again in the same turn (rummy); Rami,
        # where it stays in hand, keeps the policy's swaps.
        if self.swap_race and obs.rules.lay_mode == "open" and obs.rules.freed_joker_duty \
                and d.phase != "draw" and d.opened[d.turn]:
            act = self._swap_race(world, act, style)
        # In ``simple`` and Indian rummy the policy's draws judgement (with hard's memory of
        # the live cards) picks the discard: re-scoring by the judgement of the variants that
        # lay as they go lost deals to medium there. The rollouts, when on, still run.
        by_draws = obs.rules.lay_mode != "open" and not self.search
        if isinstance(act, Discard) and not by_draws and time.perf_counter() < deadline:
            act = self._search(obs, world, act, style, rng, deadline)
        return str(act)

    def _swap_race(self, world: Game, act: Action, style: Style) -> Action:
        """Which joker to free (or none), and where to lay a freed joker, by the hand left
        (:func:`lay_value`); the policy's own move on ties."""
        d = world.deal
        mr = d.meld_rules
        if d.freed:
            # The policy melds the joker into its least-points arrangement (the heaviest
            # pair); the race asks which partial it should finish, or which table meld
            # should take it.
            lays: list[Action] = [
                a for a in world.iter_legal_actions()
                if (isinstance(a, Layoff) and mr.is_joker(a.card))
                or (isinstance(a, NewMeld) and any(mr.is_joker(c) for c in a.cards))]
            return _race_best(world, act, lays, style)[1]
        if not isinstance(act, Swap):
            return act
        swaps = [a for a in world.iter_legal_actions() if isinstance(a, Swap)]
        best, mine = _race_best(world, act, swaps, style)
        # Not swapping: the policy's next move without swaps, and none after it.
        plain = replace(style, swaps=False)
        other = lay_move(world, plain)
        if other is not None and (not isinstance(other, (NewMeld, Layoff))
                                  or not world.is_legal(other)):
            return mine
        v = lay_value(world, other, plain)
        if v < best - 1e-9:
            if other is not None:
                return other
            stop = discard_move(world, style)
            return stop if stop is not None else mine
        return mine

    def _search(self, obs: Observation, world: Game, act: Discard, style: Style,
                rng: random.Random, deadline: float) -> Discard:
        d = world.deal
        mr = d.meld_rules
        cands = sorted({c for c in d.hands[d.turn] if not mr.is_joker(c)})
        cands = [c for c in cands if world.is_legal(Discard(c))]
        if len(cands) < 2:
            return act
        if self.count_open and obs.rules.lay_mode == "open" and d.opened[d.turn]:
            table = [tm.meld for tm in d.table]
            hand = d.hands[d.turn]
            danger = style.danger
            scored = sorted(
                [(c, open_score(without(hand, c), table, style.live, mr)
                  + (danger(c) if danger else 0.0)) for c in cands],
                key=lambda t: t[1])
        else:
            scored = sorted(discard_scores(world, cands, style), key=lambda t: t[1])
        # The policy's own choice leads (ties in the score may be ordered differently).
        scored.sort(key=lambda t: t[0] is not act.card)
        nxt = obs.next_seat()
        if obs.rules.lay_mode != "declare" and nxt in obs.opponents():
            start = time.perf_counter()
            feed_deadline = start + (deadline - start) * FEED_SHARE
            if self.samples is not None:
                feed_deadline = float("inf")
            first = scored[:FEED_CANDIDATES]
            feed = self._feed(obs, [c for c, _ in first], nxt, style, rng, feed_deadline)
            scored = sorted(
                [(c, h + self.feed_weight * feed.get(c, 0.0)) for c, h in first],
                key=lambda t: t[1],
            ) + scored[FEED_CANDIDATES:]
        if self.draw_weight and obs.rules.lay_mode == "open":
            first = scored[:DRAW_CANDIDATES]
            gains = draw_gains(d.hands[d.turn], [c for c, _ in first], style.live, mr,
                               deadline if self.samples is None else float("inf"))
            if gains is not None:
                scored = sorted(
                    [(c, h - self.draw_weight * gains[i]) for i, (c, h) in enumerate(first)],
                    key=lambda t: t[1],
                ) + scored[DRAW_CANDIDATES:]
        top = scored[:CANDIDATES]
        act = Discard(top[0][0])
        if not self.search:
            return act
        best_h = top[0][1]
        sums = [0.0] * len(top)
        samples = 0
        roll_style = Style(**{**MEDIUM.__dict__, "level": "rollout",
                              "rng": random.Random(rng.getrandbits(32))})
        per_roll = 0.01  # seconds, a first guess refined as rollouts run
        rolls = 0
        spent = 0.0
        while time.perf_counter() + per_roll * len(top) < deadline:
            if self.samples is not None and samples >= self.samples:
                break
            t0 = time.perf_counter()
            hidden = deal_hidden(obs, rng)
            seed = rng.getrandbits(32)
            got: list[float] = []
            for c, _ in top:
                w = build_world(obs, random.Random(seed), hidden)
                w.apply(Discard(c))
                roll_style.rng = random.Random(seed)
                v = rollout_value(w, obs.seat, self.rounds, roll_style, deadline)
                if v is None or time.perf_counter() >= deadline:
                    break
                got.append(v)
            if len(got) < len(top):
                break
            for i, v in enumerate(got):
                sums[i] += v
            samples += 1
            rolls += len(got)
            spent += time.perf_counter() - t0
            per_roll = max(per_roll, spent / rolls) if rolls < 3 else spent / rolls
        self.last_samples = samples
        if samples == 0:
            return act
        values = [
            (sums[i] + PRIOR * (best_h - h)) / (samples + PRIOR) for i, (_, h) in enumerate(top)
        ]
        i = max(range(len(top)), key=lambda k: (values[k], -top[k][1]))
        return Discard(top[i][0])

    def _feed(self, obs: Observation, cards: list[Card], rival: int, style: Style,
              rng: random.Random, deadline: float) -> dict[Card, float]:
        """For each card, the share of sampled worlds in which ``rival`` would take it."""
        taken: Counter[Card] = Counter()
        n = 0
        limit = self.samples * 10 if self.samples is not None else 60
        while n < limit and time.perf_counter() < deadline:
            w = build_world(obs, rng)
            hand = w.deal.hands[rival]
            for c in cards:
                if want_take(w, hand, c, style, rival):
                    taken[c] += 1
            n += 1
        return {c: taken[c] / n for c in cards} if n else {}
