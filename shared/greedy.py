"""The easy level of shared.ai: a greedy player that looks two plays ahead within its own turn.

It plans the plays of the rest of its turn from the current position every time it is asked and
returns the first step of the best plan, scored by the evaluation of shared.evaluation. Its own
module because the strong level's search also runs it, as its model of what an opponent did
(shared.inference).
"""

from __future__ import annotations

import random

from shared.actions import Action, Discard, EndTurn, Place, Remove
from shared.board import HAND_LIMIT
from shared.evaluation import Evaluator, State, apply_action, initial_state, own_plays
from shared.legality import TurnContext, legal_actions
from shared.types import Phase
from shared.views import SeatView

__all__ = ["SEARCH_BUDGET", "greedy_action", "greedy_would"]

SEARCH_BUDGET = 2000  # positions the greedy player looks at two plays deep, per decision


# What the greedy player makes of a decision: the value of ending the turn now (minus infinity
# if it cannot), each play it considered with the value it found for it (in the order it looked
# at them), and each legal way to end the turn with its value.
Appraisal = tuple[float, list[tuple[float, Action]], list[tuple[float, Action]]]

TIE = 1e-4  # values closer than this are the same to the greedy player (its noise is 1e-6)


def greedy_action(view: SeatView, rng: random.Random) -> Action:
    """The greedy player's action for the seat to move in `view` (ties broken by `rng`)."""
    ctx = _context(view)
    if ctx.phase is Phase.HANDICAP:
        ev = Evaluator(ctx, view)
        start = initial_state(ctx)
        return max(legal_actions(ctx), key=lambda a: ev.value(apply_action(start, a)) + _noise(rng))
    stop, plays, enders = _appraise(view, ctx, rng)
    best, best_action = stop, None
    for v, action in plays:
        if v > best:
            best, best_action = v, action
    if best_action is not None:
        return best_action
    # Stop playing: end the turn the best way.
    return max(enders, key=lambda o: o[0] + _noise(rng))[1]


def greedy_would(view: SeatView, action: Action) -> bool:
    """Whether the greedy player could have chosen `action` in `view`: it is one of the best
    by its values, up to ties (the play phase and final turns)."""
    ctx = _context(view)
    stop, plays, enders = _appraise(view, ctx, random.Random(0))
    best_play = max((v for v, _ in plays), default=-float("inf"))
    for v, ender in enders:
        if ender == action:
            return stop >= best_play - TIE and v >= max(o[0] for o in enders) - TIE
    for v, play in plays:
        if play == action:
            return v >= max(best_play, stop) - TIE
    return False


def _context(view: SeatView) -> TurnContext:
    ctx = view.turn_context()
    if ctx is None:
        raise ValueError(f"it is not {view.seat.label}'s turn")
    return ctx


def _noise(rng: random.Random) -> float:
    return rng.random() * 1e-6


def _appraise(view: SeatView, ctx: TurnContext, rng: random.Random) -> Appraisal:
    actions = legal_actions(ctx)
    if not actions:
        raise ValueError("there is no legal action: the game is over")
    ev = Evaluator(ctx, view)
    start = initial_state(ctx)
    stop = -float("inf")
    options: list[tuple[float, Action]] = []
    if ev.cards_matter:
        _, gains = ev.board(start)
        options = ev.draw_options(start, ev.card_values(start, gains))
    else:
        options = [(0.0, EndTurn())]
    legal_enders = [o for o in options if o[1] in actions]
    if legal_enders:
        stop = ev.value(start) + _noise(rng)
    candidates: list[Action] = [a for a in actions if isinstance(a, Place | Remove)]
    if ctx.phase is Phase.PLAY and sum(ctx.hand) >= HAND_LIMIT:
        candidates += [a for a in actions if isinstance(a, Discard)]
    # One play deep for every candidate, then a second play within a budget: removals first
    # (a removal pays off with the placement it frees), then the most promising plays.
    scored: list[tuple[float, Action, State]] = []
    for action in candidates:
        after = apply_action(start, action)
        scored.append((ev.value(after) + _noise(rng), action, after))
    order = sorted(
        range(len(scored)),
        key=lambda i: (not isinstance(scored[i][1], Remove), -scored[i][0]),
    )
    budget = SEARCH_BUDGET
    plays: list[tuple[float, Action]] = []
    for i in order:
        v, action, after = scored[i]
        if budget > 0 and not isinstance(action, Discard) and sum(after.hand) > 0:
            follows = own_plays(ev, after)
            budget -= len(follows)
            for follow in follows:
                v2 = ev.value(apply_action(after, follow)) + _noise(rng)
                if v2 > v:
                    v = v2
        plays.append((v, action))
    return stop, plays, legal_enders
