"""After the game: where it was won and lost, and what was skill and what was luck. Each turn
of a record is judged from the view of the player who made it, at that moment (their cards, what
was public, what they could know of the opponent's hand: shared.views.seat_view), never from the
hidden cards the record reveals.

A player's chance of winning from a view is estimated by playing the game out many times from
samples of what that player could not see (shared.sampling), both sides greedy
(shared.replies), and counting the wins (a draw counts half); then read through a calibration
(`calibrated`, below) fitted by bench/calibration_bench.py so that a chance of 70% wins about 70%
of the time.

A turn ends by turning up a card (the draw, or the face-up card that replaces one taken), and
that card is luck, not skill. So a turn is judged as GNU Backgammon judges a play, before the
card is seen (shared.judging): its cost is the chance the best turn would have left less the
chance the turn played left, both averaged over the same samples of the cards they could turn
up (never below zero); the best turn is the normal level's whole plan from the view before the
turn (shared.ai.choose_plan, whose first action the hint gives; the client words it as the hint
does), the turn played among the plans it compares: a turn the search cannot tell from its
choice (by NOISE standard errors of its own estimate) costs nothing, for the search's doubt is
noise too (a turn played as the hint said is such a turn). The luck of the turn is then the chance
after its card was seen less that average; the chance as the turn began is the best turn's, so
that a turn's chance goes from `before` to `after` by its cost and its luck. The marks, by cost,
only where the better turn is better by more than NOISE standard errors of the estimate of the
cost:

    inaccuracy  >= 0.05      mistake  >= 0.10      blunder  >= 0.20

A player's luck is the sum of their turns' luck. Pure: the caller gives the seed, and runs it
off its event loop (analyse_turn is one turn's work, for a pool of workers).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import attrs

from shared.actions import PLAYS, TURN_ENDS, Action, Draw, Take, Undo
from shared.ai import choose_plan, plan_margin
from shared.events import CardDrawn, CardTaken, Reshuffled
from shared.game import Game
from shared.history import Chance, Ending, Move
from shared.judging import Shares, judge, won
from shared.playout import RandomSource, from_action
from shared.randomness import RecordedSource
from shared.record import ParsedRecord
from shared.sampling import Sampler
from shared.types import Seat
from shared.views import SeatView, seat_view

PLAYOUTS = 128  # samples a judged turn, at the default depth
DEEP_PLAYOUTS = 512
# The normal level's plan evaluations for the best turn: about what the hint's 0.2 s makes
# (shared.levels), so that a turn played as the hint said is the best turn here too (at 200,
# the search's choice between plans it finds near equal wavered, and a hint was charged).
SEARCH_ITERATIONS = 2000
MARKS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
# A turn is marked only when the better turn is better by more than NOISE standard errors of
# the estimate of the difference (about 1 in 40 turns as good as the best would pass by chance,
# before the thresholds above, which most such differences are far below). And a cost the
# samples see is one only if the search that chose the best turn finds it better than the turn
# played by as much, in new samples of its own (1 for MARGIN_SHARE of its plan evaluations),
# the turn played being among those it compared: its choice between turns it values
# alike is a toss (at 2000 plan evaluations, a turn played as a hint of the same level said was
# judged 14 points worse than the search's choice, which the search itself valued the same
# within a tenth of its error).
NOISE = 2.0
MARGIN_SHARE = 5
LUCK_NOTE = 0.05  # the luck of a turn is worth a note on its line from this much, either way
# The calibration of the raw share of greedy playouts won (`calibrated`): a logistic on the
# logit of the share, held within CLIP and 1 - CLIP, and on whether the view's seat is to move:
#     chance = 1 / (1 + exp(-(A * logit(share) + M)))    M for the seat to move, -M for the other
# The greedy playouts undervalue having the move (the players move better than greedy): from the
# view of the seat to move (as a turn begins) the raw share is a little short of the share won,
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
    kept: tuple[Action, ...]  # the actions that stood: the undone plays and the undos left out
    revealed: int | None  # the card its end turned up: drawn, or face up after a take
    reshuffled: bool  # its end emptied the pile and the row: the discards were reshuffled


@attrs.frozen
class TurnAnalysis:
    number: int
    seat: Seat
    actions: tuple[str, ...]
    step: int
    before: float  # the mover's chance as the turn began: the best turn's, before its card
    after: float  # and as it ended, the card it turned up seen: before - cost + luck
    cost: float  # the best turn's expected chance less this turn's (below), never below 0
    mark: str | None  # "inaccuracy", "mistake", "blunder"
    best: Action | None  # the normal level's choice as the turn began
    view: SeatView  # the view before the turn, for the words of `best`
    expected: float  # the chance the turn left, before its card was seen
    luck: float  # after - expected: what the card turned up gave (0 when none was)
    noise: float  # the standard error of `cost`


def turns(parsed: ParsedRecord) -> list[Turn]:
    """The record's turns, each with its mover's views (the record replayed with its shuffles)."""
    skip = 0 if parsed.position is not None else 1
    orders = [e.order for e in parsed.log[skip:] if isinstance(e, Chance)]
    game = parsed.start(source=RecordedSource(orders))
    out: list[Turn] = []
    current: list[Action] = []
    kept: list[Action] = []
    revealed: int | None = None
    reshuffled = False
    seat: Seat | None = None
    before: SeatView | None = None
    start_step = 0
    step = 0

    def close(game: Game) -> None:
        nonlocal current, kept, revealed, reshuffled, seat, before
        if seat is None or before is None or not current:
            return
        over: Seat | bool | None = False
        after = None
        if game.is_over:
            result = game.result
            over = None if result is None else result.winner
        else:
            after = seat_view(game, seat)
        number = len(out) + 1
        out.append(
            Turn(number, seat, tuple(current), before, after, start_step, over, tuple(kept),
                 revealed, reshuffled)
        )  # fmt: skip
        current, kept, revealed, reshuffled, seat, before = [], [], None, False, None, None

    for entry in parsed.log[skip:]:
        if isinstance(entry, Chance):
            continue
        if isinstance(entry, Move):
            if seat is None:
                seat, before, start_step = entry.seat, seat_view(game, entry.seat), step
            events = game.apply(entry.action)
            current.append(entry.action)
            if isinstance(entry.action, Undo):
                while kept and isinstance(kept[-1], PLAYS):
                    kept.pop()
                    if not entry.action.whole_turn:
                        break
            else:
                kept.append(entry.action)
            for event in events:
                if isinstance(event, CardDrawn) and event.card is not None:
                    revealed = event.card
                elif isinstance(event, CardTaken) and event.replacement is not None:
                    revealed = event.replacement
                elif isinstance(event, Reshuffled):
                    reshuffled = True
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
    return sum(won(sampler.sim(rng, RandomSource(rng)), me) for _ in range(playouts)) / playouts


def chance(view: SeatView, rng: random.Random, playouts: int = PLAYOUTS) -> float:
    return calibrated(raw_chance(view, rng, playouts), view.public.to_move is view.seat)


def mark_of(cost: float, noise: float = 0.0) -> str | None:
    """The mark of a turn that cost `cost`, estimated with the standard error `noise`."""
    if cost <= NOISE * noise:
        return None
    for threshold, mark in MARKS:
        if cost >= threshold:
            return mark
    return None


def cost_noise(shares: Shares) -> float:
    """The standard error of the cost, in chance: the error of the raw difference read through
    the calibration where the two shares lie."""
    middle = (shares.played + shares.best) / 2
    low = max(0.0, middle - shares.cost_error)
    high = min(1.0, middle + shares.cost_error)
    return (calibrated(high, False) - calibrated(low, False)) / 2


def analyse_turn(
    turn: Turn, seed: int, playouts: int = PLAYOUTS, search: int = SEARCH_ITERATIONS
) -> TurnAnalysis:
    """One turn's analysis: its mover's chances before and after, the chance it left before
    its card was seen, its cost against the search's turn (`search` plan evaluations) and the
    luck of its card."""
    whole = bool(turn.kept) and isinstance(turn.kept[-1], TURN_ENDS)  # not cut short
    best_plan: tuple[Action, ...] | None = None
    if turn.before.turn_context() is not None:
        best_plan = choose_plan(
            turn.before,
            random.Random(seed),
            level="normal",
            iterations=search,
            played=turn.kept if whole else None,
        )
    played = [from_action(a) for a in turn.kept]
    compared = None if best_plan is None else [from_action(a) for a in best_plan]
    if compared == played:
        compared = None  # the best turn: nothing to compare, no cost
    ends = turn.kept[-1] if turn.kept else None
    card = turn.revealed if isinstance(ends, Draw | Take) and not turn.reshuffled else None
    rng = random.Random(seed)
    shares = judge(turn.before, played, compared, card, rng, playouts)
    expected = calibrated(shares.played, False)
    cost = max(0.0, calibrated(shares.best, False) - expected)
    noise = cost_noise(shares)
    if best_plan is not None and whole and cost > NOISE * noise:
        # a cost the samples see: does the search that chose the best turn see it too?
        margin = plan_margin(
            turn.before,
            random.Random(seed + 1),
            level="normal",
            better=best_plan,
            worse=turn.kept,
            samples=max(2, search // MARGIN_SHARE),
        )
        if margin <= NOISE:
            cost = noise = 0.0  # it cannot tell them apart: no cost
    before = expected + cost  # the chance the best turn leaves: the chance as the turn began
    if turn.after is None:  # the game ended with the turn: its result
        after = 0.5 if turn.over_after is None else float(turn.over_after is turn.seat)
    elif turn.reshuffled:  # new cards face up and a new pile: the view after, sampled afresh
        after = chance(turn.after, rng, playouts)
    elif shares.revealed is not None:
        after = calibrated(shares.revealed, False)
    else:  # nothing turned up: the turn's own chance
        after = expected
    chanced = turn.revealed is not None or turn.reshuffled
    luck = after - expected if chanced else 0.0
    best = None if best_plan is None else best_plan[0]
    return TurnAnalysis(
        turn.number, turn.seat, tuple(str(a) for a in turn.actions), turn.step, before, after,
        cost, mark_of(cost, noise), best, turn.before, expected, luck, noise,
    )  # fmt: skip


def turn_seed(seed: int, turn: Turn) -> int:
    """The seed of one turn's work: the same analysis wherever the turn is done."""
    return seed * 100_003 + turn.number


def analyse(
    parsed: ParsedRecord,
    seed: int = 1,
    playouts: int = PLAYOUTS,
    progress: Callable[[int, int], None] | None = None,
    search: int = SEARCH_ITERATIONS,
) -> list[TurnAnalysis]:
    """Every turn of the record, in order, in this process (see client/screens/analysis_view.py for
    the turns shared among worker processes). `progress(done, total)` after each turn."""
    found = turns(parsed)
    out = []
    for i, turn in enumerate(found, start=1):
        out.append(analyse_turn(turn, turn_seed(seed, turn), playouts, search))
        if progress is not None:
            progress(i, len(found))
    return out


@attrs.frozen
class Summary:
    """A player's turns in sum: their skill (the average cost, the marks) and, apart, their
    luck (the sum of their turns' luck: what the cards they turned up gave them)."""

    seat: Seat
    average_cost: float
    marks: dict[str, int]
    luck: float


def summaries(analysis: Sequence[TurnAnalysis]) -> list[Summary]:
    out = []
    for seat in Seat:
        mine = [a for a in analysis if a.seat is seat]
        marks = {mark: sum(1 for a in mine if a.mark == mark) for _, mark in MARKS}
        average = sum(a.cost for a in mine) / len(mine) if mine else 0.0
        out.append(Summary(seat, average, marks, sum(a.luck for a in mine)))
    return out


def turning_points(analysis: Sequence[TurnAnalysis], count: int = 3) -> list[TurnAnalysis]:
    """The turns that cost the most (at least an inaccuracy), in the game's order."""
    costly = sorted((a for a in analysis if a.mark), key=lambda a: -a.cost)[:count]
    return sorted(costly, key=lambda a: a.number)


def white_chances(analysis: Sequence[TurnAnalysis]) -> list[float]:
    """White's chance after each turn, as the chart shows it (Black's turns read from Black's
    view: one minus Black's chance)."""
    return [a.after if a.seat is Seat.WHITE else 1 - a.after for a in analysis]
