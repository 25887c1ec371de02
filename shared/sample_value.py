"""What a sampled position (shared.playout.Sim) is worth, by the evaluation of
shared.evaluation: the searches of shared.search and shared.ismcts score their samples with it,
and bench/tune_weights.py fits the evaluation's weights to it."""

from __future__ import annotations

from collections.abc import Sequence

from shared.board import CARDS_PER_ISLAND, NUM_ISLANDS
from shared.evaluation import DEFAULT_WEIGHTS, Evaluator, State, Weights
from shared.legality import TurnContext
from shared.playout import PHASES, Sim
from shared.types import Seat


def leaf_value(
    ctx: TurnContext,
    sim: Sim,
    me: int,
    weights: Weights = DEFAULT_WEIGHTS,
    opponent_hand: bool = False,
    base_points: int = 0,
) -> float:
    """What a sample's position (the game not over) is worth to seat `me`: the evaluation of
    its board and hand, the points it scored beyond `base_points` (its lead in points when the
    search began), and with `opponent_hand` the opponent's cards in hand against it. The
    search scores its samples with this; bench/tune_weights.py fits the weights to it."""
    w = weights
    points = points_lead(sim.points, me) - base_points
    value = sim_value(ctx, sim, me, w) + w.point * points
    if opponent_hand:
        # The evaluation values the searcher's cards in hand, not the opponent's: without
        # this, cards the opponent keeps for its next turn look harmless.
        value -= w.opp_hand * hand_value(ctx, sim, 1 - me, w)
    return value


def points_lead(points: Sequence[tuple[int, int]], me: int) -> int:
    """Seat `me`'s lead in the points of the scorings so far."""
    return sum(p[me] - p[1 - me] for p in points)


def sim_value(ctx: TurnContext, sim: Sim, me: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The greedy evaluation of a sample's position for seat `me` (it sees its own hand)."""
    opp = 1 - me
    hand = sim.hand[me]
    unknown = [CARDS_PER_ISLAND] * NUM_ISLANDS
    for i in range(NUM_ISLANDS):
        unknown[i] -= hand[i] + sim.open[opp][i]
    for card in sim.face_up:
        unknown[card] -= 1
    for card in sim.played:
        unknown[card] -= 1
    ev, state = _sample_evaluator(ctx, sim, me, unknown, weights)
    return ev.value(state)


def hand_value(ctx: TurnContext, sim: Sim, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What the cards in `seat`'s hand of a sample are worth to it on this board, valued as the
    evaluation values the searcher's own: the placements and removals they allow."""
    if not any(sim.hand[seat]):
        return 0.0
    # The unseen cards only value a draw, which a hand's worth leaves out.
    ev, state = _sample_evaluator(ctx, sim, seat, [0] * NUM_ISLANDS, weights)
    _, gains = ev.board(state)
    return ev.hand_value(state, ev.card_values(state, gains))


def _sample_evaluator(
    ctx: TurnContext,
    sim: Sim,
    seat: int,
    unknown: list[int],
    weights: Weights = DEFAULT_WEIGHTS,
) -> tuple[Evaluator, State]:
    """The greedy evaluator of a sample's position as `seat` sees it (its own hand, `unknown`
    the cards it cannot see), and that position as its state."""
    opp = 1 - seat
    hand = tuple(sim.hand[seat])
    sub = TurnContext(
        ctx.options,
        PHASES[sim.phase],
        Seat(seat),
        (sim.bridges[0], sim.bridges[1]),
        (sim.tokens[0], sim.tokens[1]),
        hand,
        sim.face_up,
        len(sim.pile),
        sim.abstained if sim.to_move == seat else False,
        0,
    )
    ev = Evaluator.from_parts(sub, sim.round, sim.final_left, unknown, weights)
    return ev, State(sim.bridges[seat], sim.bridges[opp], sim.tokens[seat], sim.tokens[opp], hand)
