"""Scoring a deal and keeping the game's totals, for every variant's scoring rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.cards import format_cards
from rummykit.engine.state import DealState
from rummykit.melds import rummy_penalty
from rummykit.rules import Ruleset


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declaration of a deal: who made it, its melds (card texts), and whether it held."""

    seat: int
    melds: tuple[str, ...]
    valid: bool

    def to_json(self) -> dict[str, Any]:
        """The entry of a result's ``declarations`` (docs/engine.md, *Views*)."""
        return {"seat": self.seat, "melds": list(self.melds), "valid": self.valid}


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended. ``points`` is what the winner scored (``rummy``) or what the losers
    paid in all (Rami, Indian); ``penalties`` is what each seat's hand cost."""

    deal: int
    dealer: int
    winner: int | None
    how: str
    points: int
    double: bool
    blocked: bool
    penalties: tuple[int, ...]
    hands: tuple[str, ...]
    #: the game's totals once this deal was scored (:attr:`Game.scores` then: one per seat,
    #: one per side in 2 v 2 Rami); empty until the game has scored it
    totals: tuple[int, ...] = ()
    #: The rest is filled in by the game with ``totals``, so that a finished deal can be shown
    #: again whole from its result alone, once its events and view are gone. Why each seat was
    #: out of the deal when it ended: ``None`` (played to the end), ``"dropped"``,
    #: ``"wrong-declaration"``, or ``"eliminated"`` (out of the game before it: dealt nothing).
    out: tuple[str | None, ...] = ()
    #: the seats out of the game once this deal was scored (an Indian pool's limit passed),
    #: those it put out included
    eliminated: tuple[int, ...] = ()
    #: the deal's wild rank (Indian rummy: 1 for an ace … 13 for a king), 0 where none
    wild_rank: int = 0
    #: the deal's declarations (Indian rummy), in the order made: a wrong one and the winning
    #: one, each as the declarer laid its melds out
    declarations: tuple[Declaration, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The deal's entry of a view's ``results`` (docs/engine.md, *Views*): JSON-ready,
        with each hand as a list of card texts."""
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "winner": self.winner,
            "how": self.how,
            "points": self.points,
            "double": self.double,
            "blocked": self.blocked,
            "penalties": list(self.penalties),
            "hands": [h.split() for h in self.hands],
            "totals": list(self.totals),
            "out": list(self.out),
            "eliminated": list(self.eliminated),
            "wild_rank": self.wild_rank or None,
            "declarations": [dc.to_json() for dc in self.declarations],
        }


def score_deal(rules: Ruleset, d: DealState, winner: int | None, how: str) -> DealResult:
    n = rules.players
    hands = tuple(format_cards(h) for h in d.hands)
    if rules.scoring == "indian":
        return _score_indian(rules, d, winner, how, hands)
    pens = [sum(rummy_penalty(c) for c in h) for h in d.hands]
    if rules.scoring == "rummy":
        if winner is None and rules.blocked_deal == "void":
            return DealResult(d.number, d.dealer, None, "blocked", 0, False, True,
                              tuple(pens), hands)
        if winner is None:  # blocked: the lightest hand wins, ties to the lowest seat
            low = min(pens)
            winner = pens.index(low)
            points = sum(p - low for p in pens)
            return DealResult(d.number, d.dealer, winner, "blocked", points, False, True,
                              tuple(pens), hands)
        double = not d.opened_at_start
        points = sum(p for s, p in enumerate(pens) if s != winner) * (2 if double else 1)
        pens[winner] = 0
        return DealResult(d.number, d.dealer, winner, how, points, double, False,
                          tuple(pens), hands)
    # Rami family: only the winner's rivals pay.
    if winner is None:
        return DealResult(d.number, d.dealer, None, how, 0, False, False, (0,) * n, hands)
    side = rules.team_of(winner)
    paid = [
        0 if rules.team_of(s) == side else (rules.fixed_penalty or pens[s]) for s in range(n)
    ]
    return DealResult(d.number, d.dealer, winner, how, sum(paid), False, False,
                      tuple(paid), hands)


def _score_indian(
    rules: Ruleset, d: DealState, winner: int | None, how: str, hands: tuple[str, ...]
) -> DealResult:
    from rummykit.engine.indian import loser_penalty

    n = rules.players
    paid = [0] * n
    if how == "wrong-declaration":
        # The deal ended at the wrong declaration (a house rule): only the declarer pays.
        paid[d.turn] = rules.wrong_declaration
    elif winner is not None:
        for s in range(n):
            out = d.out[s]
            if s == winner or out == "eliminated":
                continue
            if out == "dropped":
                paid[s] = _drop_cost(d, s, rules)
            elif out == "wrong-declaration":
                paid[s] = rules.wrong_declaration
            else:
                paid[s] = min(
                    rules.cap, loser_penalty(d.hands[s], d.meld_rules, rules.loser_melds)
                )
    return DealResult(d.number, d.dealer, winner, how, sum(paid), False, False,
                      tuple(paid), hands)


def _drop_cost(d: DealState, seat: int, rules: Ruleset) -> int:
    for e in d.events:
        if e.get("seat") == seat and e.get("action") == "drop":
            return int(e["cost"])
    return rules.middle_drop


class GameScore:
    """Running totals, the dealer of the next deal, and when the game ends."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.totals = [0] * rules.sides
        self.dealer = rules.first_dealer
        self.eliminated: list[bool] = [False] * rules.players
        self.over = False
        self.winner: int | None = None
        self.deals_played = 0
        #: Indian deals that ended with the stock spent: they count for nothing (see
        #: :meth:`_add_indian`).
        self.void_deals = 0

    def active_seats(self) -> list[int]:
        return [s for s in range(self.rules.players) if not self.eliminated[s]]

    def _next_dealer(self, r: DealResult) -> None:
        n = self.rules.players
        if r.winner is None and r.blocked:
            s = self.dealer  # a void blocked deal is dealt again by the same dealer
        elif self.rules.dealer_after == "winner":
            s = self.dealer if r.winner is None else r.winner
        else:
            s = (self.dealer + 1) % n
        # A seat out of the game passes the deal on to the next seat still in it.
        for _ in range(n):
            if not self.eliminated[s]:
                break
            s = (s + 1) % n
        self.dealer = s

    def add(self, r: DealResult) -> None:
        rules = self.rules
        self.deals_played += 1
        if rules.scoring == "rummy":
            # No winner: a void blocked deal, which counts for nothing.
            if r.winner is not None:
                self.totals[r.winner] += r.points
                if rules.length == "one-deal" or self.totals[r.winner] >= rules.target:
                    self.over, self.winner = True, r.winner
        elif rules.scoring in ("rami", "simple"):
            for s, p in enumerate(r.penalties):
                self.totals[rules.team_of(s)] += p
            losers = [side for side in range(rules.sides) if self.totals[side] >= rules.limit]
            if losers:
                self.over = True
                # Only one side pays per deal, so only one side can reach its limit.
                self.winner = next(s for s in range(rules.sides) if s not in losers)
        else:
            self._add_indian(r)
        if not self.over:
            self._next_dealer(r)

    def _add_indian(self, r: DealResult) -> None:
        rules = self.rules
        if rules.length in ("pool101", "pool201"):
            for s, p in enumerate(r.penalties):
                self.totals[s] += p
            alive = self.active_seats()
            going = [s for s in alive if self.totals[s] > rules.limit]
            if len(going) == len(alive):
                # Everyone left would be eliminated at once: the lowest total wins.
                low = min(self.totals[s] for s in alive)
                self.over, self.winner = True, next(s for s in alive if self.totals[s] == low)
                return
            for s in going:
                self.eliminated[s] = True
            alive = self.active_seats()
            if len(alive) == 1:
                self.over, self.winner = True, alive[0]
            return
        if r.how == "no-winner":
            # The stock ran out with nothing to rebuild it (only a bounded max_restocks allows
            # it): nobody won or paid, and the deal counts for nothing: another is played in
            # its place. Counted, it would end a points game (or a deals game of such deals)
            # on totals all 0, the tie going to seat 0.
            self.void_deals += 1
            return
        if r.winner is not None:
            self.totals[r.winner] += r.points
        else:
            # Nobody collects (a deal ended by a wrong declaration): what a seat paid comes
            # off its own total.
            for s, p in enumerate(r.penalties):
                self.totals[s] -= p
        if self.deals_played - self.void_deals >= rules.deals:
            if rules.length == "points" and r.winner is not None:
                # The game is that one deal: its winner wins it, even when the losers' hands
                # cost nothing and every total is 0.
                self.over, self.winner = True, r.winner
                return
            best = max(self.totals)
            self.over, self.winner = True, self.totals.index(best)
