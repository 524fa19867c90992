"""The variant table and the list of decisions in ``docs/rules.md``, generated from the
rulesets themselves so the documentation cannot drift from the code.

Regenerate with ``python -m rummykit.rules_table > docs/rules.md``; a test fails when the file
is stale.
"""

from __future__ import annotations

from typing import Any

from rummykit.rules import (
    VARIANTS,
    Ruleset,
    by_name,
    decisions,
    field_docs,
    make_rules,
    option_schema,
)

#: Columns of the variant table: (title, function of a 1 v 1 / 2-player ruleset).
_TABLES: list[tuple[str, str, int]] = [
    ("rummy", "rummy", 4),
    ("rami51", "rami51", 2),
    ("rami51 2 v 2", "rami51", 4),
    ("rami71", "rami71", 2),
    ("rami71 2 v 2", "rami71", 4),
    ("simple", "simple", 2),
    ("simple 2 v 2", "simple", 4),
    ("indian", "indian", 4),
]

#: Decisions that are fixed behaviour of the engine rather than ruleset fields.
FIXED_DECISIONS: list[tuple[str, str]] = [
    ("all", "The automatic play (`timeout`): undo the turn if a card is owed, draw if not drawn, "
     "discard (which card: `timeout_discard`); it never lays, declares or drops."),
    ("all", "A player whose clock ran out twice in a row is away: the server plays their turns "
     "with `timeout` at once until they act again (server option `--away-after`, default 2; "
     "0 never marks a seat away)."),
    ("all", "The time the server is down is nobody's turn: after a restart a turn goes on with "
     "the time it had left when the server last ran (noted every 5 s; docs/server.md)."),
    ("all", "An empty stock is rebuilt (or the deal ends) at the start of the turn that needs "
     "it, as soon as the previous turn ends."),
    ("rummy, Rami", "While a card taken from the pile is owed, or a freed joker must go back on "
     "the table (`freed_joker_duty`), a meld, lay-off or swap is refused when no sequence of "
     "legal moves could then lay what is owed and still end the turn: laying the hand's cards "
     "between it and a run of its suit first, jokers from the hand or freed by swaps within the "
     "joker limits, a set with room, a swap for a joker, a new meld of the hand's cards, and, "
     "where a card must stay to discard (Rami), keeping one that may be thrown. The engine "
     "searches those moves; a taken card with no way at all leaves only `return`. A move that "
     "would leave only a taken card that need not be laid (`taken_card_duty` off) but may not "
     "be thrown that turn is refused where a card must stay to discard, and elsewhere unless "
     "that card can then be laid. Under `layoffs` off the table is no place for what is owed: "
     "it goes only into a new meld from the hand."),
    ("rummy, Rami", "The two decks' copies of a face look alike: a card of the taken card's "
     "face laid that turn lays the taken card (its duty is met), and a copy of that face still "
     "in hand is then the player's own and may be discarded, with `taken_card_duty` or "
     "without it."),
    ("rummy", "Jokers may be laid off within the joker limits; when a card fits both ends of a "
     "run (a joker, an ace on a 2-to-K run) the action must name the end."),
    ("Rami", "Partners sit opposite; the ace is low or high; the joker limits of `rummy` apply; "
     "card values for the thresholds and the penalties are those of `rummy`."),
    ("Rami", "A joker in a set is freed only when the set has four cards with one joker, "
     "whatever order it was laid in; the freed joker goes to the hand with no duty."),
    ("Rami", "An empty stock with nothing to reshuffle ends the deal with no winner; nobody "
     "pays."),
    ("Rami", "`rami71`: every first lay-down (an opening, a partner's lay-down, a lay-everything "
     "close) needs a joker-free run and a joker-free set."),
    ("Rami", "`rami71`: the joker-free run must do without the card taken from the pile only "
     "while that card is owed to the table; under `taken_card_duty` off nothing is owed and "
     "the run may hold it (the engine, the meter, the solver's opening rule and the bots)."),
    ("indian", "An empty stock with nothing to reshuffle ends the deal with no winner; nobody "
     "pays, and the deal counts for nothing: in the deals and points formats another deal is "
     "played in its place (a pool adds nothing to anyone and goes on). Only house rules reach "
     "it: between turns every seat holds its hand size and the indicator lies aside, so an "
     "empty stock finds every other card in the pile (27 or more, its top card staying) unless "
     "`max_restocks` is bounded or the hands leave a single card out (6 hands of 17, no "
     "printed jokers, no starter card)."),
    ("indian", "Any number of jokers may stand in a meld, but every meld needs one card that is "
     "not a joker."),
    ("indian", "A player left alone after the others dropped wins the deal and pays 0."),
    ("indian", "Penalties: 2–10 face value, J Q K A 10, jokers 0; at most 80 a deal (which "
     "melds of a loser count: `loser_melds`)."),
    ("indian", "Pool: if every remaining player would be eliminated in the same deal, the lowest "
     "total wins. Deals: each deal's winner collects the losers' points; the most collected "
     "after the last deal wins (ties: lowest seat). Points: one deal, whose winner wins the "
     "game and collects (a deal ended by a wrong declaration under `wrong_declaration_ends` "
     "ends it too: the highest total wins, ties to the lowest seat)."),
]

#: Readings with no switch on purpose: (game, reading, why it has none).
FIXED_READINGS: list[tuple[str, str, str]] = [
    ("rummy, Rami", "The opening action lays new melds only; lay-offs and swaps are later "
     "actions of the same turn.",
     "They may follow at once in the same turn, so a switch would change only whether they "
     "count towards the minimum; the opening search that the meter, the one-tap open, the "
     "legal actions and the bots share builds new melds from the hand only, and would have "
     "to search the table's melds as well."),
    ("indian", "A wild-rank card used as its own natural card (the 7♦ in 6♦ 7♦ 8♦ when sevens "
     "are wild) keeps a sequence pure.",
     "Purity is decided where a meld is read, and the solver's declarations, the losers' "
     "least penalty and the bots all rest on that one reading; a switch would need a second "
     "reading of every meld throughout the solver."),
]


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def render() -> str:
    """The whole of ``docs/rules.md``."""
    rulesets: list[tuple[str, Ruleset]] = [
        (title, make_rules(v, n)) for title, v, n in _TABLES
    ]
    docs = field_docs()
    lines = [
        "# The variants and our decisions",
        "",
        "Generated from `rummykit/rules.py` by `python -m rummykit.rules_table > docs/rules.md`"
        " (a test fails when this file is stale).",
        "",
        "Each variant is one `Ruleset`. Room options choose among the values a table may set;"
        " the engine also takes a ruleset field by name as a house rule "
        "(`Game.new(\"rummy\", 4, options={\"max_restocks\": 3})`) where the field means "
        "something in the variant and keeps it the same game (see *Fields set by name*). A "
        "server room offers only the decisions among them.",
        "",
        "## Room options",
        "",
        "| variant | players | option | values | default |",
        "|---|---|---|---|---|",
    ]
    from rummykit.rules import players_allowed

    for v in VARIANTS:
        schema = option_schema(v)
        seats = ", ".join(map(str, players_allowed(v)))
        for name, spec in schema.items():
            values = spec["values"]
            shown = ", ".join(map(str, values)) if isinstance(values, list) else values
            if spec.get("max") is not None:
                shown = f"{spec['min']}–{spec['max']}"
            for other, used in spec.get("only_with", {}).items():
                shown += f" (only with `{other}` {', '.join(map(str, used))})"
            lines.append(f"| `{v}` | {seats} | `{name}` | {shown} | {_value(spec['default'])} |")
    lines += [
        "",
        "## The variants side by side",
        "",
        "| field | " + " | ".join(t for t, _ in rulesets) + " | meaning |",
        "|---|" + "---|" * len(rulesets) + "---|",
    ]
    skip = {"variant", "players", "house"}
    for name, doc in docs.items():
        if name in skip:
            continue
        cells = " | ".join(_value(getattr(r, name)) for _, r in rulesets)
        lines.append(f"| `{name}` | {cells} | {doc} |")
    lines += [
        "",
        "## Fields set by name",
        "",
        "The engine's Python API (`make_rules`, `Game.new`) takes these fields by name. A field "
        "that makes another game (how cards are laid down, how a deal is scored, a wild rank, "
        "how the game ends, partners) is refused, and so is a field the variant has no use for "
        "(an Indian cost at a rummy table, an opening minimum where the only lay-down is the "
        "close): both with a reason, rather than a table that plays differently from what the "
        "variant's solver, meter and bots assume, or silently ignores the rule. Giving a field "
        "its variant's own value is always taken. Whole numbers are bounded where others "
        "cannot be played (docs/engine.md says why). `python scripts/hunt_fields.py` plays "
        "every field alone and random pairs.",
        "",
        "| field | set by name |",
        "|---|---|",
    ]
    for name in docs:
        if name not in skip:
            lines.append(f"| `{name}` | {by_name(name)} |")
    lines += [
        "",
        "## Decisions",
        "",
        "Where the sources are silent we decided. Decisions that are ruleset fields can be "
        "changed per table as house rules (option = field name); the default is the value in "
        "the table above.",
        "",
        "| option | decision |",
        "|---|---|",
    ]
    for name, doc in decisions():
        lines.append(f"| `{name}` | {doc} |")
    lines += [
        "",
        "Decisions built into the engine and the server (no house-rule switch; the server's "
        "is one of its options):",
        "",
        "| game | decision |",
        "|---|---|",
    ]
    for game, text in FIXED_DECISIONS:
        lines.append(f"| {game} | {text} |")
    lines += [
        "",
        "Readings with no switch on purpose:",
        "",
        "| game | reading | why no switch |",
        "|---|---|---|",
    ]
    for game, text, why in FIXED_READINGS:
        lines.append(f"| {game} | {text} | {why} |")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
