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

import random
from collections.abc import Sequence

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
from shared.search import TurnPlans, plan_action
from shared.types import Phase
from shared.views import SeatView

__all__ = ["LEVELS", "choose_action"]


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
        seconds = None if iterations is not None else LEVEL_SECONDS[level]
        return plan_action(
            view,
            rng,
            iterations=iterations,
            seconds=seconds,
            candidates=LEVEL_CANDIDATES[level],
            paranoid=LEVEL_PARANOID[level],
            opponent_hand=LEVEL_OPPONENT_HAND[level],
            weights=LEVEL_WEIGHTS[level] if weights is None else weights,
            plans=plans,
            fast=LEVEL_FAST[level],
            opponent_turns=opponent_turns if LEVEL_INFER[level] else None,
        )
    return greedy_action(view, rng)
