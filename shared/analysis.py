"""After the game: where it was won and lost. Each turn of a record is judged from the view of
the player who made it, at that moment (their cards, what was public, what they could know of the
opponent's hand: shared.views.seat_view), never from the hidden cards the record reveals.

A player's chance of winning from a view is estimated by playing the game out many times from
samples of what that player could not see (shared.sampling), both sides greedy
(shared.replies), and counting the wins (a draw counts half); then read through a calibration
(`calibrated`, below) fitted by bench/calibration_bench.py so that a chance of 70% wins about 70%
of the time. A turn's cost is the chance its player had before it less the chance
they had after it (never below zero); the marks, by cost:

    inaccuracy  >= 0.05      mistake  >= 0.10      blunder  >= 0.20

The turn the search prefers is the normal level's choice (shared.ai) from the view before the
turn; the client words it as the hint does. Pure: the caller gives the random generator, and
runs it off its event loop (analyse_turn is one turn's work, for a pool of workers).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import attrs

from shared.actions import Action
from shared.ai import choose_action
from shared.game import Game
from shared.history import Chance, Ending, Move
from shared.playout import OVER, RandomSource
from shared.randomness import RecordedSource
from shared.record import ParsedRecord
from shared.replies import reply_turn
from shared.sampling import Sampler
from shared.types import Seat
from shared.views import SeatView, seat_view

PLAYOUTS = 128  # per judged view, at the default depth
DEEP_PLAYOUTS = 512
MARKS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
# The calibration of the raw share of greedy playouts won (`calibrated`): a logistic on the
# logit of the share, held within CLIP and 1 - CLIP, and on whether the view's seat is to move:
#     chance = 1 / (1 + exp(-(A * logit(share) + M)))    M for the seat to move, -M for the other
# The greedy playouts undervalue having the move (the players move better than greedy): from the
# view of the seat to move (a turn's `before`) the raw share is a little short of the share won,
# from the waiting seat's (a turn's `after`) a little over, about 2.6 points each way at 50%; and
# a raw share of 0 or 1 overstates (128 playouts all alike still lose now and then): read as
# about 1.5% and 98.5%. Fitted by bench/calibration_bench.py (--fit) on 11,955 positions of
# 1,200 games between the levels (seeds 100000 and 200000, 600 games each: the commands in its
# docstring). Each half judged by the calibration fitted on the other half (--cross; the table
# is in the README's analysis part): every tenth of the chance within 2.4 points of the share
# won (raw share 2.5, the old calibration, a logistic without the move or the clip fitted on
# 1,000 positions, 5.1), within 2.6 for the views to move and waiting apart (raw 4.4 and 5.2);
# Brier score 0.1215 (raw 0.1215, old 0.1222), log loss 0.376 (raw 0.427, old 0.384).
CALIBRATION_CLIP = 0.02
CALIBRATION_A = 1.065
CALIBRATION_M = 0.103
TURN_LIMIT = 400  # greedy turns in one playout before it is called a draw (never reached)


@attrs.frozen
class Turn:
    """One turn of the record: who made it, its actions, and the views before and after."""

    number: int  # 1-based
    seat: Seat
    actions: tuple[Action, ...]
    before: SeatView  # the mover's view as the turn began
    after: SeatView | None  # the mover's view when it ended (None: the game ended with it)
    step: int  # the record's entries (moves and endings) played before the turn
    over_after: Seat | bool | None  # after the turn: the winner, None for a draw, False if not over


@attrs.frozen
class TurnAnalysis:
    number: int
    seat: Seat
    actions: tuple[str, ...]
    step: int
    before: float  # the mover's chance of winning as the turn began, from their view
    after: float  # and as it ended
    cost: float
    mark: str | None  # "inaccuracy", "mistake", "blunder"
    best: Action | None  # the normal level's choice as the turn began
    view: SeatView  # the view before the turn, for the words of `best`


def turns(parsed: ParsedRecord) -> list[Turn]:
    """The record's turns, each with its mover's views (the record replayed with its shuffles)."""
    skip = 0 if parsed.position is not None else 1
    orders = [e.order for e in parsed.log[skip:] if isinstance(e, Chance)]
    game = parsed.start(source=RecordedSource(orders))
    out: list[Turn] = []
    current: list[Action] = []
    seat: Seat | None = None
    before: SeatView | None = None
    start_step = 0
    step = 0

    def close(game: Game) -> None:
        nonlocal current, seat, before
        if seat is None or before is None or not current:
            return
        over: Seat | bool | None = False
        after = None
        if game.is_over:
            result = game.result
            over = None if result is None else result.winner
        else:
            after = seat_view(game, seat)
        out.append(Turn(len(out) + 1, seat, tuple(current), before, after, start_step, over))
        current, seat, before = [], None, None

    for entry in parsed.log[skip:]:
        if isinstance(entry, Chance):
            continue
        if isinstance(entry, Move):
            if seat is None:
                seat, before, start_step = entry.seat, seat_view(game, entry.seat), step
            game.apply(entry.action)
            current.append(entry.action)
            step += 1
            if game.is_over or game.to_move is not seat:
                close(game)
        elif isinstance(entry, Ending):
            game.end(entry.kind, entry.seat)
            step += 1
            close(game)
    return out


def calibrated(raw: float, to_move: bool) -> float:
    """The chance the raw share of playouts won stands for, from the view of a seat that is to
    move (`to_move`) or waiting for the other's turn."""
    share = min(max(raw, CALIBRATION_CLIP), 1 - CALIBRATION_CLIP)
    logit = math.log(share / (1 - share))
    move = CALIBRATION_M if to_move else -CALIBRATION_M
    return 1 / (1 + math.exp(-(CALIBRATION_A * logit + move)))


def raw_chance(view: SeatView, rng: random.Random, playouts: int = PLAYOUTS) -> float:
    """The share of greedy playouts, from samples of what the view hides, that its seat wins
    (a draw half)."""
    sampler = Sampler(view, view.public.known)
    me = int(view.seat)
    won = 0.0
    for _ in range(playouts):
        sim = sampler.sim(rng, RandomSource(rng))
        for _turn in range(TURN_LIMIT):
            if sim.phase == OVER:
                break
            reply_turn(sim)
        if sim.phase != OVER or sim.winner is None:
            won += 0.5
        elif sim.winner == me:
            won += 1.0
    return won / playouts


def chance(view: SeatView, rng: random.Random, playouts: int = PLAYOUTS) -> float:
    return calibrated(raw_chance(view, rng, playouts), view.public.to_move is view.seat)


def mark_of(cost: float) -> str | None:
    for threshold, mark in MARKS:
        if cost >= threshold:
            return mark
    return None


def analyse_turn(turn: Turn, seed: int, playouts: int = PLAYOUTS) -> TurnAnalysis:
    """One turn's analysis: its mover's chance before and after, its cost, the search's turn."""
    rng = random.Random(seed)
    before = chance(turn.before, rng, playouts)
    if turn.after is not None:
        after = chance(turn.after, rng, playouts)
    elif turn.over_after is None:
        after = 0.5
    else:
        after = 1.0 if turn.over_after is turn.seat else 0.0
    best: Action | None = None
    if turn.before.turn_context() is not None:
        best = choose_action(turn.before, random.Random(seed), level="normal", iterations=200)
    cost = max(0.0, before - after)
    return TurnAnalysis(
        turn.number, turn.seat, tuple(str(a) for a in turn.actions), turn.step, before, after,
        cost, mark_of(cost), best, turn.before,
    )  # fmt: skip


def turn_seed(seed: int, turn: Turn) -> int:
    """The seed of one turn's work: the same analysis wherever the turn is done."""
    return seed * 100_003 + turn.number


def analyse(
    parsed: ParsedRecord,
    seed: int = 1,
    playouts: int = PLAYOUTS,
    progress: Callable[[int, int], None] | None = None,
) -> list[TurnAnalysis]:
    """Every turn of the record, in order, in this process (see client/analysis_view.py for
    the turns shared among worker processes). `progress(done, total)` after each turn."""
    found = turns(parsed)
    out = []
    for i, turn in enumerate(found, start=1):
        out.append(analyse_turn(turn, turn_seed(seed, turn), playouts))
        if progress is not None:
            progress(i, len(found))
    return out


@attrs.frozen
class Summary:
    seat: Seat
    average_cost: float
    marks: dict[str, int]


def summaries(analysis: Sequence[TurnAnalysis]) -> list[Summary]:
    out = []
    for seat in Seat:
        mine = [a for a in analysis if a.seat is seat]
        marks = {mark: sum(1 for a in mine if a.mark == mark) for _, mark in MARKS}
        average = sum(a.cost for a in mine) / len(mine) if mine else 0.0
        out.append(Summary(seat, average, marks))
    return out


def turning_points(analysis: Sequence[TurnAnalysis], count: int = 3) -> list[TurnAnalysis]:
    """The turns that cost the most (at least an inaccuracy), in the game's order."""
    costly = sorted((a for a in analysis if a.mark), key=lambda a: -a.cost)[:count]
    return sorted(costly, key=lambda a: a.number)


def white_chances(analysis: Sequence[TurnAnalysis]) -> list[float]:
    """White's chance after each turn, as the chart shows it (Black's turns read from Black's
    view: one minus Black's chance)."""
    return [a.after if a.seat is Seat.WHITE else 1 - a.after for a in analysis]
