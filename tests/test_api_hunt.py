"""What a developer building on the engine as a library runs into: values whose ``repr`` does
not paste back, comparisons that half work, and public constructors that take what the rest of
the API refuses."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any

import pytest

from rummykit.cards import Card, make_deck, parse_cards
from rummykit.engine import Declare, Game, Layoff, Open, Swap
from rummykit.errors import InvalidArgument, InvalidHand
from rummykit.rules import make_rules

# -- repr pastes back as code equal to the value ---------------------------------------------

EVAL_NAMES: dict[str, Any] = {
    "Card": Card, "Declare": Declare, "Layoff": Layoff, "Open": Open, "Swap": Swap,
    "parse_cards": parse_cards,
}


@pytest.mark.parametrize("action", [
    Open(()),
    Declare(()),
    Open((parse_cards("7S 7H X"),)),
    Declare((parse_cards("5H 6H 7H"), parse_cards("KS KH KD"))),
    # A number of the wrong type is refused by check, but its repr must still show it.
    Layoff("1", Card("7H")),  # type: ignore[arg-type]
    Swap(True, Card("7H")),
], ids=repr)
def test_an_actions_repr_pastes_back_equal(action: Any) -> None:
    text = repr(action)
    assert eval(text, dict(EVAL_NAMES)) == action
    assert type(eval(text, dict(EVAL_NAMES))) is type(action)


def test_declare_reads_like_open() -> None:
    melds = (parse_cards("5H 6H 7H"), parse_cards("KS KH KD"))
    assert repr(Declare(melds)) == repr(Open(melds)).replace("Open", "Declare", 1)


def test_a_layoff_numbered_by_text_does_not_show_as_a_number() -> None:
    assert repr(Layoff("1", Card("7H"))) == "Layoff('1', Card('7H'))"  # type: ignore[arg-type]


# -- cards compare under every operator ------------------------------------------------------

OPS: list[Callable[[Any, Any], bool]] = [operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.__name__)
def test_cards_compare_by_their_order(op: Callable[[Any, Any], bool]) -> None:
    cards = list(parse_cards("2S 7H 7H AC X"))
    for a in cards:
        for b in cards:
            assert op(a, b) == op(a.index, b.index), (a, b)


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.__name__)
@pytest.mark.parametrize("other", [5, "7H", None, [1]], ids=repr)
def test_a_card_compared_with_no_card_is_a_type_error(
    op: Callable[[Any, Any], bool], other: Any
) -> None:
    with pytest.raises(TypeError, match="not supported"):
        op(Card("7H"), other)
    with pytest.raises(TypeError, match="not supported"):
        op(other, Card("7H"))


# -- Game(rules, deck=...) takes only what Game.new and a replay take ------------------------


@pytest.mark.parametrize("change", [
    {"hand_size": 60},          # was an IndexError
    {"players": 9},             # was an IndexError
    {"hand_size": "13"},        # was a TypeError
    {"jokers": 20},             # dealt a game whose record did not replay
    {"lay_mode": "declare"},    # another game under rummy's name
    {"max_restocks": 0},        # a fair house rule, but the record lost it
    {"variant": "poker"},
    {"house": [1]},             # unhashable
], ids=repr)
def test_game_refuses_a_ruleset_make_rules_would_not_build(change: dict[str, Any]) -> None:
    rules = dataclasses.replace(make_rules("rummy", 2), **change)
    with pytest.raises(InvalidArgument, match="rules must be a Ruleset as make_rules"):
        Game(rules, seed=1)


def test_the_refusal_says_how_to_ask_for_the_house_rule() -> None:
    rules = dataclasses.replace(make_rules("rummy", 2), max_restocks=0)
    with pytest.raises(InvalidArgument) as info:
        Game(rules, seed=1)
    message = str(info.value)
    assert "max_restocks=0" in message
    asked = make_rules("rummy", 2, {"opening": 40, "clock": 45, "length": "one-deal",
                                    "max_restocks": 0})
    assert repr(asked.options()) in message or "'max_restocks': 0" in message
    game = Game(asked, seed=1)
    assert Game.from_record(game.record()).rules == game.rules


def test_game_takes_every_ruleset_make_rules_builds() -> None:
    cases: list[tuple[str, int, dict[str, Any]]] = [
        ("rummy", 3, {"opening": 30, "max_restocks": 0}),
        ("rami51", 4, {"partner_opens_free": False}),
        ("indian", 2, {"format": "deals", "deals": 3, "cap": 60}),
        ("simple", 2, {"fixed_penalty": 50}),
    ]
    for variant, players, options in cases:
        rules = make_rules(variant, players, options)
        game = Game(rules, seed=2)
        assert Game.from_record(game.record()).rules == rules


@pytest.mark.parametrize("deck", [
    [Card("7H")] * 10,          # was an IndexError
    make_deck(4)[:50],          # dealt a game whose record did not replay
    make_deck(8),
    [Card("7H")] * 108,
], ids=lambda d: f"{len(d)} cards")
def test_game_refuses_a_deck_that_is_not_the_variants(deck: list[Card]) -> None:
    with pytest.raises(InvalidHand, match="the deck must hold the 108 cards of rummy"):
        Game(make_rules("rummy", 2), deck=deck)


def test_game_takes_a_deck_as_game_new_does() -> None:
    deck = make_deck(4)
    by_text = Game(make_rules("rummy", 2), deck=[c.text for c in deck])
    assert by_text.record() == Game.new("rummy", 2, deck=deck).record()


# -- every public method taking a seat checks it ---------------------------------------------


@pytest.mark.parametrize("seat", [9, 4, -1, "1", None, True], ids=repr)
@pytest.mark.parametrize("method", ["opening_freed", "opening_rule", "view", "hand", "team_of"])
def test_a_seat_that_is_none_is_refused_by_every_method(method: str, seat: Any) -> None:
    # opening_freed(9) answered for seat 1's partner (9 % 4), opening_freed("1") raised a
    # TypeError from "1" + 2; Ruleset.team_of(9) answered 1 and team_of("1") a TypeError.
    game = Game.new("rami51", 4, seed=1)
    owner = game.rules if method == "team_of" else game
    with pytest.raises(InvalidArgument, match="seat must be a seat number from 0 to 3"):
        getattr(owner, method)(seat)


# -- help() answers for every public name ----------------------------------------------------


def _undocumented() -> list[str]:
    import inspect

    import rummykit.analysis
    import rummykit.cards
    import rummykit.engine
    import rummykit.melds
    import rummykit.rules
    import rummykit.solver

    missing = []
    for module in (rummykit.engine, rummykit.solver, rummykit.analysis, rummykit.rules,
                   rummykit.cards, rummykit.melds):
        names = getattr(module, "__all__", None) or [n for n in dir(module) if n[0] != "_"]
        for name in names:
            value = getattr(module, name)
            if not str(getattr(value, "__module__", "")).startswith("rummykit"):
                continue
            if not (inspect.isfunction(value) or inspect.isclass(value)):
                continue
            if not (value.__doc__ or "").strip():
                missing.append(f"{module.__name__}.{name}")
            if not inspect.isclass(value):
                continue
            for member, attr in vars(value).items():
                if member.startswith("_"):
                    continue
                f = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
                if callable(f) and not (getattr(f, "__doc__", None) or "").strip():
                    missing.append(f"{module.__name__}.{name}.{member}")
    return missing


def test_every_public_function_class_method_and_property_has_a_docstring() -> None:
    # Game.scores (what the totals mean in each variant), Game.iter_legal_actions (which
    # legal_actions' docstring sends the reader to), phase, over, ... had none.
    assert _undocumented() == []


def test_seed_and_rng_together_are_refused() -> None:
    # Game.new(seed=1, rng=Random(2)) dealt from the rng and recorded seed 1, whose deals are
    # other cards: the record named a seed its shuffles did not come from.
    import random

    with pytest.raises(InvalidArgument, match="give seed or rng, not both"):
        Game.new("rummy", 2, seed=1, rng=random.Random(2))
    with pytest.raises(InvalidArgument, match="give seed or rng, not both"):
        Game(make_rules("rummy", 2), seed=1, rng=random.Random(2))


# -- a game can be copied to try moves on ----------------------------------------------------


def _played(**kw: Any) -> Game:
    game = Game.new("rummy", 2, {"length": "to-200"}, **kw)
    for _ in range(5):
        game.apply("timeout")
    return game


def _play_on(game: Game, steps: int = 150) -> None:
    for _ in range(steps):
        if game.over:
            return
        if game.phase == "deal-over":
            game.next_deal()
            continue
        game.apply(game.legal_actions()[-1])


@pytest.mark.parametrize("how", ["copy", "copy.copy", "copy.deepcopy", "pickle"])
@pytest.mark.parametrize("shuffle", ["seed", "rng", "secure"])
def test_a_copied_game_plays_on_alone(how: str, shuffle: str) -> None:
    # copy.copy(game) shared the deal (a move on the copy changed the game), and a game with
    # a secure shuffle could not be copied or pickled at all (SystemRandom's
    # NotImplementedError).
    import copy
    import json
    import pickle
    import random

    kw: dict[str, Any] = {"seed": 1} if shuffle == "seed" else (
        {"rng": random.Random(1)} if shuffle == "rng" else {})
    game = _played(**kw)
    before = json.dumps([game.record(), game.view(0), game.view(1), game.version])
    make: dict[str, Callable[[Game], Game]] = {
        "copy": lambda g: g.copy(),
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    }
    twin = make[how](game)
    assert twin.record() == game.record() and twin.view(0) == game.view(0)
    _play_on(twin)
    assert twin.version > game.version
    assert json.dumps([game.record(), game.view(0), game.view(1), game.version]) == before
    _play_on(game, 3)  # the original still plays


# -- an unknown option names what is taken, and the name meant -------------------------------


@pytest.mark.parametrize(("name", "meant"), [
    ("max_restock", "max_restocks"), ("Opening", "opening"), ("jokers_zeros", "jokers_zero"),
])
def test_an_option_misspelled_names_the_one_meant(name: str, meant: str) -> None:
    # The message listed only the room options (opening, clock, length), as if the ruleset
    # fields taken as house rules did not exist, and left the slip to be found by eye.
    from rummykit.errors import RummyError

    with pytest.raises(RummyError, match=f"did you mean '{meant}'") as info:
        make_rules("rummy", 2, {name: 1})
    assert "a ruleset field is also taken by name as a house rule" in str(info.value)


# -- an action of no kind the engine plays ---------------------------------------------------


def test_an_action_of_no_engine_kind_is_an_invalid_argument() -> None:
    # Action() raised AttributeError ('Action' object has no attribute 'verb') from check,
    # is_legal and apply; a subclass of Discard was told "discard 7H is not an action of this
    # game", which it is.
    from rummykit.engine import Action, Discard

    class MyDiscard(Discard):
        pass

    game = Game.new("rummy", 2, seed=1)
    game.apply("draw")
    card = game.hand(1)[0]
    before = game.record()
    for action in (Action(), MyDiscard(card)):
        for method in (game.check, game.is_legal, game.apply):
            with pytest.raises(InvalidArgument, match="one of the engine's kinds") as info:
                method(action)
            assert type(action).__name__ in str(info.value)
    assert game.record() == before
    game.apply(Discard(card))


# The engine's classes, untyped: values of the wrong type on purpose (what a type checker
# refuses, and the engine does).
E: Any = __import__("rummykit.engine", fromlist=["Game"])


@pytest.mark.parametrize("make", [
    lambda: E.Discard("7H"), lambda: E.Discard(None), lambda: E.Layoff(1, "7H"),
    lambda: E.Swap(1, None), lambda: E.NewMeld([None]), lambda: E.Open(([None],)),
    lambda: E.Declare("x"),
], ids=["Discard-text", "Discard-None", "Layoff-text", "Swap-None", "NewMeld-None",
        "Open-None", "Declare-text"])
def test_an_action_made_with_wrong_values_prints_and_is_refused(make: Callable[[], Any]) -> None:
    # str() of these raised AttributeError ('str' object has no attribute 'text'), and so
    # did repr() of a meld of them: printing what one built, to see why it is refused, failed.
    action = make()
    assert isinstance(str(action), str) and isinstance(repr(action), str)
    assert "None" in str(action) or "'" in str(action)  # the wrong value shows as itself
    game = Game.new("rummy", 2, seed=1)
    game.apply("draw")
    with pytest.raises(InvalidArgument):
        game.check(action)


def test_timeout_discard_with_no_turn_on_is_refused() -> None:
    # After a player went out by laying every card, timeout_discard() raised a bare
    # ValueError ("max() arg is an empty sequence"); after other ends it named a card the
    # automatic play would never throw.
    from rummykit.errors import IllegalAction
    from tests.helpers import build_deck

    deck = build_deck("rummy", 2, {1: "5H 6H 7H 8H KS KH KD QS QH QD 2C 3C 4C"},
                      starter="2S", stock=["9H"])
    game = Game.new("rummy", 2, deck=deck)
    game.apply("draw")
    game.apply("open 5H 6H 7H 8H 9H / KS KH KD / QS QH QD / 2C 3C 4C")
    assert game.hand(1) == [] and game.to_move is None
    with pytest.raises(IllegalAction, match="no turn is on"):
        game.timeout_discard()


def test_timeout_discard_before_the_draw_is_refused() -> None:
    # Before the draw it named the heaviest card of the hand as it was, a card the automatic
    # play (which draws first) may well not throw.
    from rummykit.errors import IllegalAction

    game = Game.new("rummy", 2, seed=3)
    assert game.phase == "draw"
    before = game.record()
    with pytest.raises(IllegalAction, match="has not drawn yet"):
        game.timeout_discard()
    assert game.record() == before
    game.apply("timeout")  # the automatic play itself draws, then throws
    game.apply("draw")
    game.timeout_discard()


# -- check, is_legal, apply and legal_actions agree on every one-card action -----------------

_HOUSE: list[tuple[str, int, dict[str, Any]]] = [
    ("rummy", 3, {"swap": "fourth", "freed_joker_duty": False, "min_real": 1}),
    ("rummy", 2, {"taken_card_duty": False, "out_by_laying": False, "jokers": 8}),
    ("rami51", 4, {"partner_opens_free": False, "swap": "any", "adjacent_jokers": True}),
    ("rami71", 2, {"layoffs": False, "max_restocks": 1, "lay_all_close": False}),
    ("simple", 4, {"discard_taken": True, "take_jokers": False}),
    ("indian", 3, {"format": "pool201", "discard_taken": True, "hand_size": 10}),
]


def _one_card_actions(game: Game) -> list[str]:
    """Every draw-like verb, and every discard, lay-off (each end) and swap of every card in
    hand on every table meld (and on the numbers just outside the table)."""
    seat = game.to_move
    assert seat is not None
    table = len(game.view(seat)["table"])
    out = ["draw", "take", "return", "drop", "timeout"]
    for c in sorted(set(game.hand(seat))):
        out.append(f"discard {c}")
        for n in range(table + 2):
            out.append(f"swap {n} {c}")
            out.extend(f"layoff {n} {c}{end}" for end in ("", " low", " high"))
    return out


@pytest.mark.parametrize(("variant", "players", "options"), _HOUSE,
                         ids=[f"{v}-{p}" for v, p, _ in _HOUSE])
def test_every_one_card_action_is_judged_alike_by_every_form(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    import json
    import random

    from rummykit.engine import parse_action
    from rummykit.errors import IllegalAction, RummyError

    game = Game.new(variant, players, options, seed=11)
    rng = random.Random(11)
    lay_offs = 0
    for _ in range(120):
        if game.over:
            break
        if game.phase == "deal-over":
            game.next_deal()
            continue
        legal = game.legal_actions()
        listed = set(legal)
        before = json.dumps([game.record(), game.public_view(), game.version])
        for text in _one_card_actions(game):
            try:
                action = parse_action(text)
            except RummyError:
                continue  # a number 0 is no notation: refused by the parser, not the rules
            yes = game.is_legal(action)
            try:
                game.check(action)
                checked = True
            except IllegalAction:
                checked = False
            assert yes == checked, text
            assert yes == (action in listed), (text, yes)
            lay_offs += yes and action.verb in ("layoff", "swap")
            if not yes:
                with pytest.raises(IllegalAction):
                    game.apply(action)
        assert json.dumps([game.record(), game.public_view(), game.version]) == before
        laying = [a for a in legal if a.verb in ("open", "meld", "layoff", "swap", "declare")]
        plain = [a for a in legal if a.verb not in ("timeout", "drop")] or legal
        game.apply(rng.choice(laying if laying and rng.random() < 0.7 else plain))
    if game.rules.layoffs:
        assert lay_offs, "the game never reached a legal lay-off or swap: judge a longer one"


def test_kept_after_take_needs_the_taken_card_in_the_hand() -> None:
    # kept_after_take([], 7H) answered None: "the card may be thrown", of a hand without it.
    game = Game.new("rummy", 2, seed=1)
    with pytest.raises(InvalidHand, match="must include the card taken, 7H"):
        game.kept_after_take(parse_cards("8H 9H"), Card("7H"))
    assert game.kept_after_take(parse_cards("7H 8H 9H"), Card("7H")) == Card("7H")
    assert game.kept_after_take(parse_cards("7H 7H 9H"), Card("7H")) is None  # its twin


@pytest.mark.parametrize("kw", [
    {"min_real": 0}, {"min_real": -1}, {"min_real": 4}, {"max_set": 0}, {"max_set": 5},
    {"max_run": 0}, {"max_run": 99},
], ids=repr)
def test_meld_rules_the_solver_cannot_follow_are_refused(kw: dict[str, Any]) -> None:
    # MeldRules(min_real=0) made the solver lay X KS X (min_real read as 1) while make_meld
    # refused X X X; max_set=0 or max_run=0 made make_meld refuse every set or run while the
    # solver laid them: an Arrangement held melds make_meld refuses.
    from rummykit.melds import MeldRules

    with pytest.raises(InvalidArgument, match="MeldRules"):
        MeldRules(**kw)


def test_meld_rules_of_every_variant_are_taken() -> None:
    from rummykit.melds import MeldRules

    for variant in ("rummy", "rami51", "rami71", "simple", "indian"):
        for min_real in (1, 2, 3):
            mr = make_rules(variant, 2, {"min_real": min_real}).meld_rules
            assert MeldRules(mr.min_real, mr.adjacent_jokers, mr.max_set, mr.max_run, 7) != mr


# -- an opening of no meld -------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("rummy", 2, {"opening_minimum": 0}), ("rami51", 2, {"opening_minimum": 0}),
], ids=["rummy", "rami51"])
def test_an_opening_of_no_meld_is_refused(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    # Open(()) was legal wherever the minimum was 0 (a house rule, or a Rami partner's
    # lay-down): the seat opened with nothing laid, and the record, which wrote it "open ",
    # no longer replayed.
    from rummykit.errors import IllegalAction

    game = Game.new(variant, players, options, seed=1)
    if game.phase == "draw":
        game.apply("draw")
    before = game.record()
    assert not game.is_legal(Open(()))
    with pytest.raises(IllegalAction, match="no cards"):
        game.apply(Open(()))
    assert game.record() == before
    assert Open(()) not in game.legal_actions()


def test_a_partner_freed_rami_seat_cannot_open_with_no_meld() -> None:
    # The same under the default rules of Rami 2 v 2, once a partner has laid down.
    from rummykit.engine import parse_action
    from tests.helpers import build_deck

    deck = build_deck("rami51", 4, {
        1: "KS KH KD QS QH QD JS JH JD 2C 3C 4C 9D 8S 5H",
        3: "2S 6D 9H",
    })
    game = Game.new("rami51", 4, deck=deck)
    game.apply(parse_action("open KS KH KD / QS QH QD / JS JH JD"))
    game.apply("discard 5H")
    game.apply("draw")  # seat 2 draws and discards; seat 3, seat 1's partner, is next
    game.apply(f"discard {game.hand(2)[0]}")
    assert game.to_move == 3 and game.opening_freed(3)
    game.apply("draw")
    assert not game.is_legal(Open(()))
    game.apply(f"discard {game.hand(3)[0]}")
    assert Game.from_record(game.record()).record() == game.record()


@pytest.mark.parametrize("text", ["7H 8H", "7H,8H", "10♠ 9♠", "X X"])
def test_several_cards_read_as_one_say_so(text: str) -> None:
    # Card("7H 8H") was told "unknown rank '7H 8'".
    from rummykit.cards import parse_card
    from rummykit.errors import InvalidNotation

    with pytest.raises(InvalidNotation, match=r"it holds 2 cards \(parse_cards reads several\)"):
        parse_card(text)
    with pytest.raises(InvalidNotation, match="it holds 2 cards"):
        Card(text)
    assert len(parse_cards(text)) == 2
