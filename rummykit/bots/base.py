"""The bot interface, the levels, and running a bot against a game without ever crashing it."""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, runtime_checkable

from rummykit.bots.observation import Observation, observe
from rummykit.bots.policy import EASY, MEDIUM, Style, any_legal, choose_move
from rummykit.bots.world import build_world
from rummykit.engine.actions import Action
from rummykit.engine.game import Game
from rummykit.errors import InvalidArgument, RummyError, describe

log = logging.getLogger("rummykit.bots")

#: The levels, weakest first.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
#: Default thinking time of ``hard`` per move, in seconds.
DEFAULT_BUDGET = 1.0


class UnknownBot(RummyError):
    """A bot level that does not exist."""


@runtime_checkable
class Bot(Protocol):
    """A computer player: decides one action from an observation.

    ``choose`` returns the action text (``"draw"``, ``"discard 7H"``, ``"open …"``). It sees
    nothing but ``obs`` (a seat's view and the deal's public events) and draws randomness only
    from ``rng``. ``budget`` is its thinking time per move in seconds (None: no search).
    """

    name: str
    budget: float | None

    def choose(self, obs: Observation, rng: random.Random) -> str: ...


def _checked(obs: Observation, rng: random.Random, style: Style) -> str:
    """Play ``style`` on a world rebuilt from ``obs``; the move is checked on that world
    (legality depends only on what the seat knows) and replaced by a plain legal one if
    the policy found nothing."""
    world = build_world(obs, rng)
    style.rng = rng
    act = declared(obs) or choose_move(world, style)
    if act is None or not world.is_legal(act):
        act = any_legal(world)
    return str(act)


def declared(obs: Observation) -> Action | None:
    """Indian rummy: the view's own check says the hand declares now -- do it."""
    dec = obs.view.get("declaration")
    if obs.my_turn and isinstance(dec, Mapping) and dec.get("valid") and dec.get("action"):
        from rummykit.engine.actions import parse_action

        return parse_action(str(dec["action"]))
    return None


#: The fields of :class:`Style` an experiment may change on easy and medium (the rest are
#: the level's name, its randomness and what hard alone gives it).
STYLE_OPTIONS: tuple[str, ...] = tuple(
    f.name for f in fields(Style) if f.name not in ("level", "rng", "live", "danger")
)


def _styled(base: Style, options: Mapping[str, object], level: str) -> Style:
    for name, value in options.items():
        if name not in STYLE_OPTIONS:
            raise InvalidArgument(
                f"{level} has no option {name!r}: choose among {', '.join(STYLE_OPTIONS)}"
            )
        default = getattr(base, name)
        if type(value) is not type(default) and not (
            type(default) is float and type(value) is int
        ):
            raise InvalidArgument(
                f"{level}'s option {name} takes a {type(default).__name__}, "
                f"not {describe(value)}"
            )
    return Style(**{**base.__dict__, **options})


class EasyBot:
    """A beginner: never takes from the pile, opens when the meter says it can, lays its
    melds, lays off only once the stock has been rebuilt, never swaps, throws the heaviest card
    it cannot meld. ``options`` change its :class:`Style` for an experiment
    (:data:`STYLE_OPTIONS`; ``scripts/paired_bots.py``); the level is played without."""

    name = "easy"
    budget: float | None = None

    def __init__(self, **options: object) -> None:
        self.style = _styled(EASY, options, "easy")

    def choose(self, obs: Observation, rng: random.Random) -> str:
        return _checked(obs, rng, Style(**{**self.style.__dict__, "rng": rng}))


class MediumBot:
    """Greedy and solid: see :mod:`rummykit.bots.policy`. ``options`` change its
    :class:`Style` for an experiment, as :class:`EasyBot`'s do."""

    name = "medium"
    budget: float | None = None

    def __init__(self, **options: object) -> None:
        self.style = _styled(MEDIUM, options, "medium")

    def choose(self, obs: Observation, rng: random.Random) -> str:
        return _checked(obs, rng, Style(**{**self.style.__dict__, "rng": rng}))


def make_bot(level: str, budget: float | None = None) -> Bot:
    """The bot of a level (``easy``, ``medium``, ``hard``); ``budget`` is hard's seconds per
    move (default 1)."""
    if budget is not None and (
        type(budget) not in (int, float) or not 0 < budget < math.inf
    ):
        raise InvalidArgument(
            f"budget must be a number of seconds above 0 or None, not {describe(budget)}"
        )
    key = level.strip().lower() if isinstance(level, str) else level
    if key == "easy":
        return EasyBot()
    if key == "medium":
        return MediumBot()
    if key == "hard":
        from rummykit.bots.hard import HardBot

        return HardBot(DEFAULT_BUDGET if budget is None else budget)
    raise UnknownBot(f"unknown bot {level!r}: choose one of {', '.join(LEVELS)}")


def choose_action(
    view: dict[str, Any],
    history: list[dict[str, Any]],
    level: str,
    seed: int | random.Random | None = None,
    budget: float | None = None,
) -> str:
    """The action (text) a bot of ``level`` plays for the seat whose ``view`` this is.

    - ``view``: ``game.view(seat)`` of the seat to move (a JSON-ready dict).
    - ``history``: ``game.history()``, the public events of the current deal.
    - ``level``: ``"easy"``, ``"medium"`` or ``"hard"`` (:data:`LEVELS`); others raise
      :class:`UnknownBot`.
    - ``seed``: makes the choice reproducible (None: fresh randomness). A ``random.Random``
      is accepted too.
    - ``budget``: seconds ``hard`` may think (default 1 s); ignored by the other levels.

    A pure function of its arguments (all picklable): it reads no game, no clock but its own
    time budget, and with a seed returns the same action for the same arguments (for
    ``hard``, given the same number of samples fit in the budget). The answer is legal for
    that view; it is never ``timeout``.
    """
    if not (seed is None or type(seed) is int or isinstance(seed, random.Random)):
        raise InvalidArgument(
            f"seed must be a whole number (int), a random.Random or None, not {describe(seed)}"
        )
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    bot = make_bot(level, budget)
    obs = Observation.from_view(view, history)
    return bot.choose(obs, rng)


# -- running bots against a real game ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What :func:`play_turn` did: the action applied, the seconds the bot took, and why the
    medium move replaced the bot's (None when it did not)."""

    action: str
    seconds: float
    fallback: str | None = None


def time_limit(bot: Bot) -> float:
    """How long a bot may take for one move before its answer is thrown away."""
    b = getattr(bot, "budget", None)
    if b is None:
        return 2.0
    if type(b) not in (int, float) or not 0 < b < math.inf:
        raise InvalidArgument(f"a bot's budget must be seconds above 0 or None, not {describe(b)}")
    return float(b) * 1.5 + 0.5


def _check_run(game: object, rng: object) -> None:
    """The arguments :func:`play_turn` and :func:`play_deal` share."""
    if not isinstance(game, Game):
        raise InvalidArgument(f"game must be a Game, not {describe(game)}")
    if rng is not None and not isinstance(rng, random.Random):
        raise InvalidArgument(f"rng must be a random.Random or None, not {describe(rng)}")


def play_turn(
    game: Game,
    seat: int,
    bot: Bot,
    rng: random.Random | None = None,
    *,
    limit: float | None = None,
    on_fallback: Callable[[TurnReport], None] | None = None,
) -> TurnReport:
    """Let ``bot`` play one action for ``seat`` (the seat to move) and apply it.

    The bot gets only :func:`observe` of the seat. If it raises, answers an illegal action
    or ``timeout``, or works longer than ``limit`` seconds of processor time (default:
    :func:`time_limit`), the ``medium`` move is applied instead and the event is logged (and
    passed to ``on_fallback``); the game never crashes because of a bot.
    """
    _check_run(game, rng)
    if not isinstance(bot, Bot):
        raise InvalidArgument(
            f"bot must have a name, a budget and a choose method (make_bot), not {describe(bot)}"
        )
    if limit is not None and (type(limit) not in (int, float) or not 0 < limit < math.inf):
        raise InvalidArgument(f"limit must be a number of seconds above 0 or None, not "
                              f"{describe(limit)}")
    players = game.rules.players
    # Checked as the engine checks a seat: "1" or 5 is no seat at all, not a seat off its turn
    # (and a bool is an int to Python).
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidArgument(
            f"seat must be a seat number from 0 to {players - 1}, not {describe(seat)}"
        )
    if game.to_move != seat:
        raise RummyError(f"it is not seat {seat}'s turn")
    rng = rng or random.Random()
    obs = observe(game, seat)
    limit = time_limit(bot) if limit is None else limit
    reason: str | None = None
    start, cpu = time.perf_counter(), time.thread_time()
    text = ""
    try:
        text = str(bot.choose(obs, rng))
    # A broken bot must never break the game; sys.exit() in a bot is one of its bugs too
    # (Ctrl-C, KeyboardInterrupt, still stops the program).
    except (Exception, SystemExit) as exc:
        reason = f"raised {type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    # The limit is on the processor time the bot used: on a loaded machine the wall clock
    # also counts the time other work held the processor, which is no fault of the bot's
    # (and replacing its moves then would change what a tournament measures).
    worked = time.thread_time() - cpu
    if reason is None:
        if worked > limit:
            reason = f"took {worked:.3f} s of processor time (limit {limit:.3f} s)"
        elif text.strip().lower() == "timeout" or not game.is_legal(text):
            reason = f"answered an illegal action {text!r}"
    if reason is not None:
        try:
            # A fresh observation: the bot may have altered the one it was given.
            text = MediumBot().choose(observe(game, seat), rng)
        except Exception:  # the fallback itself must not break the game either
            log.exception("the medium fallback failed")
            text = ""
        if not text or not game.is_legal(text):
            text = str(any_legal_real(game))
        report = TurnReport(text, seconds, reason)
        log.warning("bot %s at seat %d %s; played the medium move %r instead",
                    getattr(bot, "name", bot), seat, reason, text)
        if on_fallback is not None:
            on_fallback(report)
    else:
        report = TurnReport(text, seconds, None)
    game.apply(text)
    return report


def any_legal_real(game: Game) -> Action:
    for act in game.iter_legal_actions():
        if act.verb != "timeout":
            return act
    from rummykit.engine.actions import Timeout

    return Timeout()


def play_deal(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    timings: Mapping[int, list[float]] | None = None,
    on_fallback: Callable[[int, TurnReport], None] | None = None,
    max_actions: int = 3000,
) -> bool:
    """Play the current deal of ``game`` to its end, ``bots[seat]`` at each seat. Returns
    False when the deal is still going after ``max_actions`` actions (a Rami deal reshuffles
    its stock without limit and can go on for ever if nobody manages to lay down)."""
    _check_run(game, rng)
    if (
        not isinstance(bots, Sequence)
        or len(bots) != game.players
        or not all(isinstance(b, Bot) for b in bots)
    ):
        raise InvalidArgument(
            f"bots must list one bot (make_bot) per seat, {game.players} here, not "
            f"{describe(bots)}"
        )
    if type(max_actions) is not int:
        raise InvalidArgument(f"max_actions must be a whole number, not {describe(max_actions)}")
    n = 0
    while game.to_move is not None and n < max_actions:
        seat = game.to_move
        report_to: Callable[[TurnReport], None] | None = None
        if on_fallback is not None:
            def report_to(r: TurnReport, s: int = seat) -> None:
                assert on_fallback is not None
                on_fallback(s, r)
        rep = play_turn(game, seat, bots[seat], rng, on_fallback=report_to)
        if timings is not None:
            timings[seat].append(rep.seconds)
        n += 1
    return game.to_move is None
