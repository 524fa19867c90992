"""Per-seat views: built from what a seat may know, never by hiding fields afterwards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummykit.cards import format_cards

if TYPE_CHECKING:
    from rummykit.engine.game import Game
    from rummykit.solver import OpeningRule

_VERBS = ("draw", "take", "return", "open", "meld", "layoff", "swap", "discard", "declare",
          "drop")


def _texts(cards: Any) -> list[str]:
    return [c.text for c in cards]


def build_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator). Only the seat's own hand is read."""
    rules = game.rules
    d = game.deal
    live = not d.over
    view: dict[str, Any] = {
        "variant": rules.variant,
        "options": rules.options(),
        "players": rules.players,
        "seat": seat,
        "deal": d.number,
        "dealer": d.dealer,
        "version": game.version,
        "seats": [
            {
                "seat": s,
                "cards": len(d.hands[s]),
                "opened": d.opened[s],
                "team": rules.team_of(s),
                "out": d.out[s],
            }
            for s in range(rules.players)
        ],
        "table": [
            {
                "number": i + 1,
                "cards": _texts(tm.meld.cards),
                "kind": tm.meld.kind,
                "owner": tm.owner,
            }
            for i, tm in enumerate(d.table)
        ],
        "pile": _texts(d.pile),
        "stock": len(d.stock),
        "restocks": d.restocks,
        "turn": None,
        "scores": list(game.score.totals),
        # out of the game (a pool's limit passed): public, and known as soon as the deal that
        # put them out is scored, before the next deal deals them no more
        "eliminated": [s for s, out in enumerate(game.score.eliminated) if out],
        "results": [r.to_json() for r in game.results],
        "over": game.over,
        "winner": game.winner,
        "indicator": d.indicator.text if d.indicator is not None else None,
        "wild_rank": d.wild_rank or None,
        # Under indicator_in_stock the indicator lies face up under the first stock until the
        # draw that empties it takes it, in sight of everyone: from then on it is in a hand (or
        # the pile, or a new stock) and no longer on the table, though it still names the wild
        # rank. A page showing the card on the table showed one card in two places.
        "indicator_drawn": bool(
            d.indicator is not None and rules.indicator_in_stock and (d.restocks or not d.stock)
        ),
    }
    if rules.scoring in ("rami", "simple"):
        # the total at which a side loses the game (251, 351 in pairs, or a house rule's): at
        # the table nothing said it, and the lobby's blurb, the only words of it, is not seen
        # by a friend who opens the table's link, and is wrong under a house rule
        view["limit"] = rules.limit
    elif rules.variant == "indian" and rules.length in ("pool101", "pool201"):
        # the total above which a pool player is out (101, 201, or a house rule's): the format's
        # name in the options is not the limit under a house rule, and a page says it from here
        view["limit"] = rules.limit
    elif rules.variant == "indian":
        # deals and points end after a count of deals: how many there are and how many have
        # counted (one ended by a spent stock is void and played again, so `deal` runs ahead)
        score = game.score
        view["deal_count"] = {
            "played": score.deals_played - score.void_deals,
            "total": rules.deals,
        }
    if rules.scoring == "rummy" and rules.length == "to-200":
        # the total that ends the game (200, or a house rule's): nothing at the table said it
        view["target"] = rules.target
    if rules.lay_mode == "declare":
        # what a wrong declaration costs its declarer (a ruleset value): a page warning before
        # one says it from here rather than knowing the rules' number itself
        view["wrong_declaration"] = rules.wrong_declaration
    if rules.lay_mode == "declare" and live:
        # Who has drawn this deal is public (everyone saw it), so what dropping costs is too.
        for entry in view["seats"]:
            s = entry["seat"]
            if d.out[s] is None:
                entry["drop_cost"] = rules.middle_drop if d.drew[s] else rules.first_drop
    if live:
        view["turn"] = {
            "seat": d.turn,
            "phase": d.phase,
            "drawn": d.drawn,
            "taken": d.took.text if d.took is not None else None,
            "owes": ([d.owed.text] if d.owed is not None else []) + ["X"] * d.freed,
            "can": _verbs(game) if seat == d.turn else [],
        }
    if seat is not None:
        view["hand"] = _texts(d.hands[seat])
        view["opening"] = _opening(game, seat) if rules.lay_mode != "declare" else None
        view["declaration"] = _declaration(game, seat) if rules.lay_mode == "declare" else None
        if rules.lay_mode == "declare" and live and d.out[seat] is None:
            view["drop_cost"] = view["seats"][seat]["drop_cost"]
    return view


def _verbs(game: Game) -> list[str]:
    from rummykit.engine.legal import iter_legal

    found = {act.verb for act in iter_legal(game, one_open=True)}
    if game.rules.lay_mode == "declare" and game.deal.phase == "play":
        found.add("declare")  # any 13 of the 14 cards may be declared; a wrong one costs 80
    return [v for v in _VERBS if v in found]


def _opening(game: Game, seat: int) -> dict[str, Any]:
    from rummykit.engine.meter import opening_meter

    d = game.deal
    # Once a partner has laid down (Rami 2 v 2) the seat needs no minimum: the meter counts
    # against that, and a page showing the table's minimum beside an `enough` meter would
    # give the wrong reason for it.
    freed = game.opening_freed(seat)
    rule = game.opening_rule(seat)
    must = d.owed.text if d.owed is not None and seat == d.turn else None
    info: dict[str, Any] = {
        "minimum": rule.minimum,
        "partner_opened": freed,
        "opened": d.opened[seat],
        "must_include": must,
        "needs": _needs(rule, must),
        "meter": None,
    }
    if not d.opened[seat] and not d.over:
        info["meter"] = opening_meter(game, seat)
    return info


def _needs(rule: OpeningRule, must: str | None) -> str | None:
    """What the first lay-down needs besides its points: a page can say it only from here. The
    meter counts only lay-downs of that shape, so in ``rami71`` a hand of runs worth 90 and no
    joker-free set showed *0 / 71*, and nothing said why; a seat freed of the minimum by its
    partner still needs the shape."""
    if rule.clean_run_and_set:
        if must is not None and rule.clean_run_without_taken:
            return "clean-run-and-set-without-taken"
        return "clean-run-and-set"
    if rule.close_run_and_set:
        return "run-and-set"
    return None


def _declaration(game: Game, seat: int) -> dict[str, Any] | None:
    from rummykit.engine.indian import find_declaration

    d = game.deal
    if d.over or seat != d.turn or d.phase != "play" or d.out[seat] is not None:
        return None
    found = find_declaration(d.hands[seat], d.meld_rules, game.kept_card())
    if found is None:
        return {
            "valid": False,
            "reason": "these cards cannot be declared yet: they do not all fit in melds with "
            "two sequences, one of them pure",
            "action": None,
        }
    discard, groups = found
    return {
        "valid": True,
        "reason": None,
        "discard": discard.text,
        "action": "declare " + " / ".join(format_cards(g) for g in groups),
    }
