"""The computer opponent: `choose_action(view, rng, level=...)` returns one legal action for the
seat to move, decided from that seat's view alone (its own hand and the public table; never the
opponent's hidden cards or the order of the draw pile).

The "easy" level is a greedy player that looks two plays ahead within its own turn
(shared.greedy). The "normal" and "strong" levels compare whole-turn plans in samples of the
hidden cards (shared.search), with the settings of shared.levels.

Pure: no I/O; the only randomness is the `rng` passed in (to break ties, and to sample). The
searching levels read a clock only when no iteration budget is given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from shared.actions import Action
from shared.evaluation import Weights
from shared.greedy import greedy_action
from shared.inference import OpponentTurn
from shared.levels import (
    LEVEL_CANDIDATES,
    LEVEL_FAST,
    LEVEL_INFER,
    LEVEL_OPPONENT_HAND,
    LEVEL_PARANOID,
    LEVEL_SECONDS,
    LEVEL_WEIGHTS,
    LEVELS,
)
from shared.playout import from_action, to_action
from shared.search import PlanSearch, TurnPlans, plan_action, searched_plan
from shared.types import Phase
from shared.views import SeatView

__all__ = ["LEVELS", "choose_action", "choose_plan", "plan_margin"]


def choose_action(
    view: SeatView,
    rng: random.Random,
    *,
    level: str = "easy",
    iterations: int | None = None,
    plans: TurnPlans | None = None,
    weights: Weights | None = None,
    opponent_turns: Sequence[OpponentTurn] | None = None,
) -> Action:
    """One legal action for the seat to move in `view`, decided from that view alone.

    `level` is one of LEVELS: "easy" is the greedy player of shared.greedy (the default: it is
    what the server and its tests use today, in about a millisecond); "normal" and "strong" compare
    whole-turn plans in samples of the hidden cards (shared.search.plan_action) for about
    0.2 s and 1 s a decision. With `iterations`, a searching level runs exactly that many plan
    evaluations and no clock is read: the decision is reproducible. With `plans` (one per
    computer player), a searching level's later decisions in a turn follow the plan chosen at
    its first (shared.search.TurnPlans): a turn takes one search, not one a card. `weights`
    replaces a searching level's evaluation (bench/ai_bench.py --a-weights tries new ones).
    `opponent_turns`: the opponent's last turns as the table saw them (shared.seen.seen_turns),
    read by the strong level for the cards the opponent holds (shared.inference).
    """
    if level not in LEVELS:
        raise ValueError(f"{level!r} is not a level; levels are {', '.join(LEVELS)}")
    if level != "easy" and view.public.phase is not Phase.HANDICAP:
        return plan_action(
            view, rng, plans=plans, **_settings(level, iterations, weights, opponent_turns)
        )
    return greedy_action(view, rng)


def choose_plan(
    view: SeatView,
    rng: random.Random,
    *,
    level: str,
    iterations: int,
    played: Sequence[Action] | None = None,
) -> tuple[Action, ...]:
    """The whole turn a searching level plans for the seat to move (its first action is
    choose_action's with the same arguments; in the handicap phase its one action), with
    `played` (a whole turn) among the turns it compares: what the analysis compares a turn with
    (shared.analysis)."""
    if level not in LEVELS or level == "easy":
        raise ValueError(f"{level!r} is not a searching level")
    if view.public.phase is Phase.HANDICAP:
        return (choose_action(view, rng, level=level, iterations=iterations),)
    extra = () if played is None else (tuple(from_action(a) for a in played),)
    settings = _settings(level, iterations, None, None)
    plan, _search = searched_plan(view, rng, extra=extra, **settings)
    return _actions(plan)


def plan_margin(
    view: SeatView,
    rng: random.Random,
    *,
    level: str,
    better: Sequence[Action],
    worse: Sequence[Action],
    samples: int,
) -> float:
    """How many standard errors of its own estimate a searching level finds the whole turn
    `better` better than `worse`, in `samples` samples (shared.search.PlanSearch.margin); in
    the handicap phase, where it does not search, infinite: the analysis's samples judge."""
    if view.public.phase is Phase.HANDICAP:
        return math.inf
    settings = _settings(level, None, None, None)
    del settings["iterations"], settings["seconds"]
    search = PlanSearch(view, **settings)
    codes = [tuple(from_action(a) for a in plan) for plan in (better, worse)]
    return search.margin(rng, codes[0], codes[1], samples)


def _actions(plan: Sequence[int]) -> tuple[Action, ...]:
    return tuple(to_action(code) for code in plan)


def _settings(
    level: str,
    iterations: int | None,
    weights: Weights | None,
    opponent_turns: Sequence[OpponentTurn] | None,
) -> dict[str, Any]:
    """The search's arguments for a searching level (shared.levels)."""
    return {
        "iterations": iterations,
        "seconds": None if iterations is not None else LEVEL_SECONDS[level],
        "candidates": LEVEL_CANDIDATES[level],
        "paranoid": LEVEL_PARANOID[level],
        "opponent_hand": LEVEL_OPPONENT_HAND[level],
        "weights": LEVEL_WEIGHTS[level] if weights is None else weights,
        "fast": LEVEL_FAST[level],
        "opponent_turns": opponent_turns if LEVEL_INFER[level] else None,
    }
