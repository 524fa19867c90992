"""The greedy policy shared by every level, played on a world (see :mod:`.world`).

The policy reads only the acting seat's own hand and public facts of the world it is given,
so it plays the same on any world that shares them. It is used as is by ``medium``, with
fewer skills by ``easy``, and as the rollout policy (and base) of ``hard``.

Hands are judged by :func:`evaluate`: the least penalty the solver can leave the cards with,
less a bonus for unmelded cards that already have a partner (a pair of a rank, or two cards
of one suit a rank or two apart) whose missing card is still live. Lower is better.
``medium`` judges its discards in ``simple`` and Indian rummy by :func:`.draws.draws_needed`
instead: the draws from the stock the hand still needs at best, then its live outs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from rummykit.bots.draws import (
    INDIAN_DRAWS,
    SIMPLE_CLEAN_DRAWS,
    SIMPLE_DRAWS,
    DrawsRule,
    draws_needed,
    live_count,
)
from rummykit.cards import ACE, FACES, JOKER, Card, card
from rummykit.engine.actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Drop,
    Layoff,
    NewMeld,
    Open,
    Return,
    Swap,
    Take,
)
from rummykit.engine.game import Game
from rummykit.engine.indian import loser_penalty
from rummykit.melds import MeldRules, indian_penalty, rummy_penalty
from rummykit.rules import Ruleset
from rummykit.solver import (
    OpeningRule,
    PenaltyRule,
    best_close,
    declaration,
    least_penalty,
    opening,
)
from rummykit.solver.api import Arrangement

FREE_RUMMY = PenaltyRule()
FREE_INDIAN = PenaltyRule(scoring="indian")


@dataclass
class Style:
    """What a level knows how to do."""

    level: str = "medium"
    take: bool = True
    layoffs: bool = True
    #: lay off once the stock has been rebuilt in the deal, even without ``layoffs``: a
    #: table of players who never lay off may never go out, and with no limit on restocks
    #: (Rami) the deal would go on for ever
    layoffs_after_restock: bool = False
    swaps: bool = True
    drops: bool = True
    partials: bool = True
    #: Live counts of cards (the unseen cards) for judging partials; None: assume live.
    live: Counter[Card] | None = None
    #: Extra cost of discarding a card (hard: feeding an opponent).
    danger: Callable[[Card], float] | None = None
    #: Bonus of a partial per live out, as a share of the card's weight, and its cap.
    outs_weight: float = 0.1
    outs_cap: float = 0.7
    #: Indian rummy: judge hands by how far they are from a declaration (cards still to
    #: meld, the pure and the second sequence) rather than by their points.
    race: bool = False
    #: The same for a partial in that judgement (less than elsewhere: measured faster).
    race_outs_weight: float = 0.03
    race_outs_cap: float = 0.3
    #: ``simple`` and Indian rummy: discard (and, in Indian rummy, take the pile's card) by
    #: the draws the hand still needs and its live outs (see :func:`.draws.draws_needed`).
    draws: bool = False
    rng: random.Random = field(default_factory=random.Random)


EASY = Style(
    level="easy", take=False, layoffs=False, layoffs_after_restock=True, swaps=False,
    drops=False, partials=False,
)
MEDIUM = Style(level="medium", race=True, draws=True)


def penalty(c: Card, mr: MeldRules, indian: bool) -> int:
    return indian_penalty(c, mr.wild_rank) if indian else rummy_penalty(c)


def _arrange(cards: Sequence[Card], mr: MeldRules, indian: bool) -> Arrangement:
    return least_penalty(cards, FREE_INDIAN if indian else FREE_RUMMY, mr)


def live_outs(c: Card, others: Sequence[Card], live: Counter[Card] | None, mr: MeldRules) -> int:
    """How many live cards would make a meld of ``c`` with one of ``others`` (every card of
    the double deck counted twice when live counts are unknown); 0 when ``c`` has no
    partner."""
    need: set[Card] = set()
    ranks = (c.rank, 14) if c.rank == ACE else (c.rank,)
    for o in others:
        if o is c or mr.is_joker(o):
            continue
        if o.rank == c.rank and o.suit != c.suit:
            need.update(card(c.rank, s) for s in range(4) if s not in (c.suit, o.suit))
        elif o.suit == c.suit:
            orks = (o.rank, 14) if o.rank == ACE else (o.rank,)
            for a in ranks:
                for b in orks:
                    lo, hi = min(a, b), max(a, b)
                    if hi - lo == 1:
                        need.update(card(r, c.suit) for r in (lo - 1, hi + 1) if 1 <= r <= 14)
                    elif hi - lo == 2:
                        need.add(card(lo + 1, c.suit))
    if not need:
        return 0
    if live is None:
        return 2 * len(need)
    return sum(live[x] for x in need)


def unseen_by(g: Game, seat: int) -> Counter[Card]:
    """Cards seat ``seat`` of world ``g`` cannot see (the other hands and the stock)."""
    from rummykit.cards import make_deck

    d = g.deal
    left = Counter(make_deck(g.rules.jokers))
    left.subtract(d.hands[seat])
    left.subtract(d.pile)
    for tm in d.table:
        left.subtract(tm.meld.cards)
    if d.indicator is not None and not g.rules.indicator_in_stock:
        left[d.indicator] -= 1
    return Counter({c: n for c, n in left.items() if n > 0})


def evaluate(cards: Sequence[Card], mr: MeldRules, indian: bool, style: Style,
             count: bool = False) -> float:
    """How bad a hand is (lower is better): least penalty less partial bonuses. With
    ``count`` (``simple``), unmelded cards weigh by number rather than by points."""
    if indian:
        return _evaluate_race(cards, mr, style)
    arr = _arrange(cards, mr, False)
    left = arr.left
    score = float(arr.points)
    if count:
        score = 10.0 * len(left) + 0.1 * score
    jokers = sum(1 for c in left if mr.is_joker(c))
    score -= 25 * jokers
    if style.partials:
        live = style.live
        for c in left:
            if mr.is_joker(c):
                continue
            n = live_outs(c, left, live, mr)
            if n:
                share = min(style.outs_cap, style.outs_weight * n)
                score -= (10 if count else rummy_penalty(c)) * share
    return score


_NATURAL = MeldRules(min_real=1, adjacent_jokers=True, wild_rank=0)


def _evaluate_race(cards: Sequence[Card], mr: MeldRules, style: Style) -> float:
    """Indian hands judged by distance to a declaration: every card not in a meld (after
    the jokers fill the best partials) costs 10, a missing pure sequence or second sequence
    costs what it takes to make one, partials with live outs cost less; points break ties."""
    jokers = sum(1 for c in cards if mr.is_joker(c))
    naturals = [c for c in cards if not mr.is_joker(c)]
    arr = least_penalty(naturals, FREE_INDIAN, _NATURAL)
    left = list(arr.left)
    runs = sum(1 for m in arr.melds if m.kind == "run")
    pure = runs > 0
    live = style.live
    pen = {c: indian_penalty(c, mr.wild_rank) for c in left}
    # Partials by position in ``left`` (two copies of a card are the same object).
    pairs: list[tuple[float, int, int, bool]] = []
    for i, a in enumerate(left):
        for k in range(i + 1, len(left)):
            b = left[k]
            if a.suit == b.suit and 0 < abs(a.rank - b.rank) <= 2:
                pairs.append((1.0, i, k, True))
            elif a.rank == b.rank and a.suit != b.suit:
                pairs.append((0.0, i, k, False))
    # Jokers go to run partials first while sequences are missing.
    want_runs = runs < 2
    pairs.sort(key=lambda p: (-(p[0] if want_runs else 0.0),
                              -(pen[left[p[1]]] + pen[left[p[2]]])))
    used: set[int] = set()
    j = jokers
    pure_partial = any(p[3] for p in pairs)
    for _, x, y, is_run in pairs:
        if not j:
            break
        if x in used or y in used:
            continue
        used.update((x, y))
        j -= 1
        runs += is_run
    rest = [c for i, c in enumerate(left) if i not in used]
    rest.sort(key=lambda c: -pen[c])
    while j >= 2 and rest:
        rest.pop(0)
        j -= 2
    score = 10.0 * len(rest) + 0.2 * sum(pen[c] for c in rest) - 6.0 * j
    if not pure:
        score += 12.0 if pure_partial else 22.0
    if runs < 2:
        score += 8.0
    if style.partials:
        for c in rest:
            n = live_outs(c, left, live, mr)
            if n:
                score -= 10.0 * min(style.race_outs_cap, style.race_outs_weight * n)
    return score


def unmelded_estimate(cards: Sequence[Card], mr: MeldRules) -> int:
    """A quick bound-like guess of how many Indian cards stay out of melds."""
    jokers = sum(1 for c in cards if mr.is_joker(c))
    naturals = [c for c in cards if not mr.is_joker(c)]
    arr = least_penalty(naturals, FREE_INDIAN, _NATURAL)
    return max(0, len(arr.left) - jokers)


def without(cards: Sequence[Card], c: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(c)
    return rest


def _draws_rule(g: Game) -> DrawsRule:
    if _indian(g):
        return INDIAN_DRAWS
    # House rule clean_run_and_set: the close's run must be pure too (its joker-free set is
    # not judged; the close itself comes from the exact solver).
    return SIMPLE_DRAWS if not g.rules.clean_run_and_set else SIMPLE_CLEAN_DRAWS


def draws_discard(hand: Sequence[Card], cands: Sequence[Card], mr: MeldRules,
                  rule: DrawsRule, live: Counter[Card] | None, indian: bool) -> Card:
    """The discard leaving the fewest draws needed, then the most live outs, then the
    heaviest card. Only cards some best split of the whole hand leaves out are tried (the
    others cost a draw)."""
    live = live if live is not None else Counter({c: 2 for c in FACES[:52]})
    live_jokers = sum(n for c, n in live.items() if mr.is_joker(c))
    _, _, loose = draws_needed(hand, mr, rule, spare=1)
    tried = [c for c in cands if loose >> c.index & 1] or list(cands)
    scores = {}
    for c in tried:
        need, mask, _ = draws_needed(without(hand, c), mr, rule)
        scores[c] = (need, -live_count(mask, live, mr, live_jokers), -penalty(c, mr, indian),
                     c.index)
    return min(tried, key=lambda c: scores[c])


# -- the policy -----------------------------------------------------------------------------


def choose_move(g: Game, style: Style) -> Action | None:
    """The move of the seat to move in world ``g`` (None when the policy finds nothing)."""
    d = g.deal
    if d.over:
        return None
    if style.partials and style.live is None and style.level != "hard":
        style = replace(style, live=unseen_by(g, d.turn))
    if d.phase == "draw":
        return draw_move(g, style)
    if g.rules.lay_mode == "declare":
        hand = d.hands[d.turn]
        found = None
        if unmelded_estimate(hand, d.meld_rules) <= 1:
            found = declaration(hand, d.meld_rules, keep=g.kept_card())
        if found is not None:
            act: Action = Declare(tuple(m.cards for m in found.melds))
            if g.is_legal(act):
                return act
        return discard_move(g, style)
    act2 = lay_move(g, style)
    if act2 is not None:
        return act2
    return discard_move(g, style)


def _indian(g: Game) -> bool:
    return g.rules.lay_mode == "declare"


def draw_move(g: Game, style: Style) -> Action:
    d = g.deal
    seat = d.turn
    hand = d.hands[seat]
    mr = d.meld_rules
    indian = _indian(g)
    if indian and style.drops and g.is_legal(Drop()) and should_drop(g, style):
        return Drop()
    if not style.take or not d.pile or not g.is_legal(Take()):
        return Draw()
    top = d.pile[-1]
    if want_take(g, hand, top, style):
        return Take()
    del mr
    return Draw()


def lost_deal_cost(hand: Sequence[Card], mr: MeldRules, rules: Ruleset) -> int:
    """What ``hand`` would pay if the deal were lost now: the engine's own count of a
    loser's hand under the table's ``loser_melds``, capped as the engine caps it."""
    return min(rules.cap, loser_penalty(hand, mr, rules.loser_melds))


def should_drop(g: Game, style: Style) -> bool:
    """Drop at once with a hopeless opening hand, when losing with it would cost more than
    the drop (:func:`lost_deal_cost` against the table's ``first_drop``); never later."""
    d = g.deal
    seat = d.turn
    hand = d.hands[seat]
    mr = d.meld_rules
    if d.drew[seat]:
        return False
    # The threshold was set with these weights of the partials.
    score = evaluate(hand, mr, True, replace(style, race_outs_weight=0.1, race_outs_cap=0.7))
    # race: about one hand in fifty (no joker, hardly a partial); else one in twenty. The
    # hand is judged by its chances; the table's stakes only say whether a drop saves points.
    # At the default ones it always does for a hand past the threshold (without two
    # sequences every card counts, a dozen loose cards at least 2 each, against a drop of
    # 20), and the solver is asked only then.
    if score < (135 if style.race else 82):
        return False
    return lost_deal_cost(hand, mr, g.rules) > g.rules.first_drop


def want_take(g: Game, hand: Sequence[Card], top: Card, style: Style,
              seat: int | None = None) -> bool:
    """Whether the seat (default: the seat to move) holding ``hand`` takes ``top``."""
    d = g.deal
    rules = g.rules
    mr = d.meld_rules
    seat = d.turn if seat is None else seat
    more = [*hand, top]
    if rules.lay_mode == "declare" and style.draws:
        # The card is worth a turn exactly when it takes a draw off the hand (or declares:
        # the solver has the last word on shapes the judgement does not split, like two
        # sets of one rank).
        need = draws_needed(more, mr, INDIAN_DRAWS, spare=1)[0]
        if need < draws_needed(hand, mr, INDIAN_DRAWS)[0]:
            return True
        keep = g.kept_after_take(more, top)
        return need <= 1 and declaration(more, mr, keep=keep) is not None
    if rules.lay_mode == "declare":
        before = evaluate(hand, mr, True, style)
        after = min(
            (evaluate(without(more, c), mr, True, style) for c in set(hand) if c is not top),
            default=before,
        )
        return after < before - 3
    if not d.opened[seat]:
        rule = g.opening_rule(seat)
        if rules.lay_mode == "close":
            return best_close(more, rule, mr, top) is not None
        return opening(more, rule, mr, top).valid
    for tm in d.table:
        if tm.meld.layoff_ends(top, mr):
            return True
    arr = _arrange(more, mr, False)
    return any(top in m.cards for m in arr.melds)


def _opening_acts(arr: Arrangement) -> Iterable[Action]:
    melds = [m.cards for m in arr.melds]
    if not melds:
        return
    yield Open(tuple(melds))
    if len(melds) > 1:
        order = sorted(range(len(melds)), key=lambda i: len(melds[i]))
        for i in order:
            yield Open(tuple(m for j, m in enumerate(melds) if j != i))


def _lay_downs(rules: Ruleset, hand: Sequence[Card], rule: OpeningRule, mr: MeldRules,
               must: Card | None, kept: Card | None) -> list[Arrangement]:
    """The first lay-downs to try, best first: the close, then the best opening when it
    reaches the minimum; none of them leaving ``kept`` alone in hand (see the solver's
    ``keep``)."""
    arrs: list[Arrangement] = []
    if rules.lay_mode == "close":
        cl = best_close(hand, rule, mr, must, kept)
        if cl is not None:
            arrs.append(cl)
    else:
        res = opening(hand, rule, mr, must, kept)
        if res.close is not None:
            arrs.append(res.close)
        if res.valid and res.best is not None:
            arrs.append(res.best)
    return [arr for arr in arrs if arr.melds]


def lay_move(g: Game, style: Style) -> Action | None:
    d = g.deal
    rules = g.rules
    seat = d.turn
    hand = d.hands[seat]
    mr = d.meld_rules
    if not d.opened[seat]:
        must = d.owed
        rule = g.opening_rule(seat)
        arrs = _lay_downs(rules, hand, rule, mr, must, None)
        kept = g.kept_card()
        if kept is not None and kept is not must and not any(
            g.is_legal(Open(tuple(m.cards for m in arr.melds))) for arr in arrs
        ):
            # Without the taken card's duty the card just taken may not be thrown, so a
            # lay-down leaving it alone in hand is refused: the best lay-downs that do not
            # (the opening meter's) come before the smaller lay-downs of the refused ones.
            arrs = _lay_downs(rules, hand, rule, mr, must, kept) + arrs
        for arr in arrs:
            for opening_act in _opening_acts(arr):
                if g.is_legal(opening_act):
                    return opening_act
        if must is not None and g.is_legal(Return()):
            return Return()
        return None
    act: Action | None
    if d.owed is not None:
        act = lay_card(g, d.owed)
        if act is not None:
            return act
        # Any other move first (a lay-off of a card the taken one needed) could leave it
        # with no way to be laid, and the turn with no move but the clock's.
        if g.is_legal(Return()):
            return Return()
    if d.freed:
        act = lay_card(g, JOKER)
        if act is not None:
            return act
    if style.swaps and rules.swap != "none":
        act = swap_move(g)
        if act is not None:
            return act
    if rules.lay_mode == "open":
        arr = _arrange(hand, mr, False)
        for m in sorted(arr.melds, key=len, reverse=True):
            act = NewMeld(m.cards)
            if g.is_legal(act):
                return act
    if rules.layoffs and (style.layoffs or (style.layoffs_after_restock and d.restocks)):
        real = [c for c in hand if not mr.is_joker(c)]
        only_jokers = len(real) <= 1
        order = sorted(set(hand), key=lambda c: -rummy_penalty(c))
        for c in order:
            if mr.is_joker(c) and not only_jokers:
                continue
            act = _layoff(g, c)
            if act is not None:
                return act
    return None


def _layoff(g: Game, c: Card, skip: int | None = None) -> Action | None:
    d = g.deal
    mr = d.meld_rules
    for i, tm in enumerate(d.table):
        if i == skip:
            continue
        for end in tm.meld.layoff_ends(c, mr):
            act = Layoff(i + 1, c, end)
            if g.is_legal(act):
                return act
    return None


def lay_card(g: Game, c: Card) -> Action | None:
    """Lay card ``c`` (a taken card, a freed joker): in a meld of the hand, or laid off."""
    d = g.deal
    hand = d.hands[d.turn]
    mr = d.meld_rules
    arr = _arrange(hand, mr, False)
    for m in arr.melds:
        if c in m.cards:
            act: Action = NewMeld(m.cards)
            if g.is_legal(act):
                return act
    act2 = _layoff(g, c)
    if act2 is not None:
        return act2
    from rummykit.engine.legal import candidate_melds

    for grp in sorted(candidate_melds(list(hand), mr), key=len):
        if c in grp:
            act = NewMeld(grp)
            if g.is_legal(act):
                return act
    return None


def swap_move(g: Game) -> Action | None:
    d = g.deal
    hand = d.hands[d.turn]
    mr = d.meld_rules
    duty = g.rules.freed_joker_duty
    for i, tm in enumerate(d.table):
        if not any(tm.meld.jokers):
            continue
        for c in sorted(set(hand)):
            if mr.is_joker(c):
                continue
            act = Swap(i + 1, c)
            if not g.is_legal(act):
                continue
            if duty and not _joker_placeable(g, i, c):
                continue
            return act
    return None


def _joker_placeable(g: Game, swapped: int, c: Card) -> bool:
    d = g.deal
    mr = d.meld_rules
    for i, tm in enumerate(d.table):
        if i != swapped and tm.meld.layoff_ends(JOKER, mr):
            return True
    rest = [*without(d.hands[d.turn], c), JOKER]
    arr = _arrange(rest, mr, False)
    return any(JOKER in m.cards for m in arr.melds)


def discard_move(g: Game, style: Style) -> Action | None:
    d = g.deal
    hand = d.hands[d.turn]
    mr = d.meld_rules
    indian = _indian(g)
    cands = [c for c in sorted(set(hand)) if g.is_legal(Discard(c))]
    if not cands:
        return None
    plain = [c for c in cands if not mr.is_joker(c)] or cands
    if len(plain) == 1:
        return Discard(plain[0])
    if style.level == "easy":
        left = set(_arrange(hand, mr, indian).left)
        pool = [c for c in plain if c in left] or plain
        top = max(penalty(c, mr, indian) for c in pool)
        return Discard(style.rng.choice([c for c in pool if penalty(c, mr, indian) == top]))
    if style.level == "rollout":
        arr = _arrange(hand, mr, indian)
        unmelded = [c for c in plain if c in arr.left]
        if unmelded:
            live = style.live

            def weight(c: Card) -> float:
                bonus = 0.5 if live_outs(c, arr.left, live, mr) else 0.0
                return penalty(c, mr, indian) * (1 - bonus)

            return Discard(max(unmelded, key=lambda c: (weight(c), c.index)))
    if style.draws and g.rules.lay_mode in ("close", "declare"):
        return Discard(draws_discard(hand, plain, mr, _draws_rule(g), style.live, indian))
    scored = discard_scores(g, plain, style)
    best = min(scored, key=lambda t: (t[1], -penalty(t[0], mr, indian), t[0].index))
    return Discard(best[0])


def discard_scores(g: Game, cands: Sequence[Card], style: Style) -> list[tuple[Card, float]]:
    """Each candidate discard and how bad the hand is after it (lower is better)."""
    d = g.deal
    hand = d.hands[d.turn]
    mr = d.meld_rules
    indian = _indian(g)
    out = []
    for c in cands:
        s = evaluate(without(hand, c), mr, indian, style, g.rules.lay_mode == "close")
        if style.danger is not None:
            s += style.danger(c)
        out.append((c, s))
    return out


def any_legal(g: Game) -> Action:
    """A legal move when the policy has none: draw, a discard, else the first listed."""
    if g.is_legal(Draw()):
        return Draw()
    d = g.deal
    for c in sorted(set(d.hands[d.turn]), key=lambda c: -rummy_penalty(c)):
        if g.is_legal(Discard(c)):
            return Discard(c)
    for act in g.iter_legal_actions():
        if act.verb != "timeout":
            return act
    from rummykit.engine.actions import Timeout

    return Timeout()
