"""Fit the evaluation's weights to the outcomes of games (Texel tuning): a script, not a test.

    .venv/bin/python bench/tune_weights.py                      # 800 games, then the fit
    .venv/bin/python bench/tune_weights.py --games 40 --passes 2   # a quick look
    .venv/bin/python bench/tune_weights.py --save turns.pickle     # keep the games' turns
    .venv/bin/python bench/tune_weights.py --load turns.pickle --passes 20
    .venv/bin/python bench/tune_weights.py --leaf-plays --from-tuned   # as the search uses it

Plays the normal level against itself at a fixed iteration budget (both seats the same player,
so that nothing but the position tells who wins), keeps the position at the start of every turn
with the seat to move and who won the game, and fits the weights of shared.evaluation.Weights so
that a logistic of the search's leaf value (shared.sample_value.leaf_value, the opponent's cards
counted, as the strong level does) predicts the winner: the squared error of the prediction is
minimised by coordinate descent, one weight at a time, the step halved when no weight improves.
TOKEN fixes the scale; the logistic's own scale is fitted first. A quarter of the games is kept
out of the fit: the error on their turns, before and after, says whether the fit generalises.
Prints the fitted weights as the Weights(...) to paste into shared/evaluation.py (TUNED_WEIGHTS).
With --leaf-plays each position is valued after the greedy plays of the seat to move (not the
end of its turn), where the plan search values its samples (shared.search, LEAF_PLAYS); with
--from-tuned the fit starts from TUNED_WEIGHTS.

The games are deterministic (fixed budgets and seeds); the fit takes a few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pickle
import random
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.ai import choose_action
from shared.evaluation import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
from shared.game import Game
from shared.legality import TurnContext
from shared.playout import OVER, Sim
from shared.randomness import SeededSource
from shared.replies import reply_turn
from shared.sample_value import leaf_value
from shared.search import TurnPlans
from shared.types import Phase, Seat
from shared.views import seat_view

# The weights the fit moves: every field but these (a player without bridges loses at once:
# too rare in games for a fit to say what it is worth).
FIXED = ("few_bridges",)


class Turn(NamedTuple):
    ctx: TurnContext
    sim: Sim
    outcome: float  # for the seat to move: 1 won, 1/2 drawn, 0 lost


def play_game(deal: int, iterations: int) -> list[Turn]:
    """One game of the normal level against itself; the position at every turn's start."""
    game = Game.new(SeededSource(deal), first=Seat(deal % 2))
    rng = random.Random(deal)
    plans = {Seat.WHITE: TurnPlans(), Seat.BLACK: TurnPlans()}
    turns: list[tuple[TurnContext, Sim]] = []
    last: Seat | None = None
    while not game.is_over:
        seat = game.to_move
        ctx = game.turn_context()
        if ctx is not None and game.phase in (Phase.PLAY, Phase.FINAL) and seat != last:
            turns.append((ctx, Sim.from_game(game, None)))  # type: ignore[arg-type]
        last = seat
        view = seat_view(game, seat)
        if game.phase is Phase.HANDICAP:
            action = choose_action(view, rng)
        else:
            action = choose_action(
                view, rng, level="normal", iterations=iterations, plans=plans[seat]
            )
        game.apply(action)
    assert game.result is not None
    winner = game.result.winner
    return [
        Turn(ctx, sim, 0.5 if winner is None else float(int(winner) == sim.to_move))
        for ctx, sim in turns
    ]


def _play(args: tuple[int, int]) -> list[Turn]:
    return play_game(*args)


# ----- the fit --------------------------------------------------------------------------------

_TURNS: list[Turn] = []


def _keep(turns: list[Turn], leaf_plays: bool = False) -> None:
    global _TURNS
    _TURNS = [after_plays(t) for t in turns] if leaf_plays else turns
    _TURNS = [t for t in _TURNS if t.sim.phase != OVER]


def after_plays(turn: Turn) -> Turn:
    """The turn's position after the seat to move's greedy plays (no end of its turn): where
    the plan search scores its samples (shared.search, LEAF_PLAYS)."""
    sim = turn.sim.copy()
    reply_turn(sim, plays_only=True)
    return turn._replace(sim=sim)


def _values(weights: Weights) -> list[tuple[float, float]]:
    return [
        (leaf_value(t.ctx, t.sim, t.sim.to_move, weights, opponent_hand=True), t.outcome)
        for t in _TURNS
    ]


class Fitter:
    """The turns split over worker processes; each evaluates its share under given weights."""

    def __init__(self, turns: list[Turn], jobs: int, leaf_plays: bool = False) -> None:
        self.pools = [
            multiprocessing.Pool(1, initializer=_keep, initargs=(turns[i::jobs], leaf_plays))
            for i in range(jobs)
        ]

    def values(self, weights: Weights) -> list[tuple[float, float]]:
        parts = [pool.apply_async(_values, (weights,)) for pool in self.pools]
        return [v for part in parts for v in part.get()]

    def close(self) -> None:
        for pool in self.pools:
            pool.close()


def error(values: list[tuple[float, float]], scale: float) -> float:
    """Mean squared error of the logistic prediction of the outcomes."""
    total = 0.0
    for value, outcome in values:
        x = max(-50.0, min(50.0, value / scale))
        total += (outcome - 1.0 / (1.0 + math.exp(-x))) ** 2
    return total / len(values)


def fit_scale(values: list[tuple[float, float]]) -> float:
    scale = min((5.0 * 1.25**k for k in range(16)), key=lambda s: error(values, s))
    return min((scale * f for f in (0.9, 0.95, 1.0, 1.05, 1.1)), key=lambda s: error(values, s))


def _coordinates(weights: Weights) -> list[tuple[str, int | None]]:
    """Each weight the fit moves: a field, and for the progress tables an index in it."""
    out: list[tuple[str, int | None]] = []
    for name, value in weights._asdict().items():
        if name in FIXED:
            continue
        if isinstance(value, tuple):
            out += [(name, i) for i in range(1, len(value))]
        else:
            out.append((name, None))
    return out


def _get(weights: Weights, coord: tuple[str, int | None]) -> float:
    name, index = coord
    value = getattr(weights, name)
    return float(value[index]) if index is not None else float(value)


def _set(weights: Weights, coord: tuple[str, int | None], x: float) -> Weights:
    name, index = coord
    if index is None:
        return Weights(**{**weights._asdict(), name: x})
    table = list(getattr(weights, name))
    table[index] = x
    return Weights(**{**weights._asdict(), name: tuple(table)})


def fit(fitter: Fitter, start: Weights, scale: float, passes: int) -> Weights:
    weights = start
    best = error(fitter.values(weights), scale)
    coords = _coordinates(weights)
    steps = {c: abs(_get(weights, c)) * 0.25 or 0.2 for c in coords}
    began = time.monotonic()
    for done in range(passes):
        improved = False
        for coord in coords:
            for sign in (1.0, -1.0):
                x = max(0.0, _get(weights, coord) + sign * steps[coord])
                if x == _get(weights, coord):
                    continue
                trial = _set(weights, coord, x)
                e = error(fitter.values(trial), scale)
                if e < best - 1e-7:
                    weights, best, improved = trial, e, True
                    break
        if not improved:
            steps = {c: s / 2 for c, s in steps.items()}
        print(f"  pass {done + 1}: error {best:.5f} ({time.monotonic() - began:.0f} s)", flush=True)
    return weights


def _rounded(value: float | tuple[float, ...]) -> float | tuple[float, ...]:
    if isinstance(value, tuple):
        return tuple(round(v, 4) for v in value)
    return round(value, 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--iterations", type=int, default=400, help="normal's budget a decision")
    parser.add_argument("--seed", type=int, default=20000, help="the first deal")
    parser.add_argument("--passes", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", type=Path, help="keep the games' turns in this file")
    parser.add_argument("--load", type=Path, help="fit to turns saved before (no games)")
    parser.add_argument(
        "--leaf-plays",
        action="store_true",
        help="value each turn after the greedy plays of the seat to move, as the search does",
    )
    parser.add_argument(
        "--from-tuned", action="store_true", help="start from TUNED_WEIGHTS, not the defaults"
    )
    args = parser.parse_args()

    began = time.monotonic()
    games: list[list[Turn]]
    if args.load:
        if not args.load.is_file():
            parser.error(f"--load: no file {args.load}")
        with args.load.open("rb") as f:
            games = pickle.load(f)
    else:
        deals = [(args.seed + n, args.iterations) for n in range(args.games)]
        with multiprocessing.Pool(args.jobs) as pool:
            games = pool.map(_play, deals)
        if args.save:
            with args.save.open("wb") as f:
                pickle.dump(games, f)
    held_out = max(1, len(games) // 4)
    train = [t for game in games[:-held_out] for t in game]
    test = [t for game in games[-held_out:] for t in game]
    print(
        f"{len(games)} games ({time.monotonic() - began:.0f} s): {len(train)} turns to fit,"
        f" {len(test)} turns of {held_out} games left out",
        flush=True,
    )
    first = TUNED_WEIGHTS if args.from_tuned else DEFAULT_WEIGHTS
    name = "TUNED_WEIGHTS" if args.from_tuned else "the defaults"
    fitter = Fitter(train, args.jobs, args.leaf_plays)
    scale = fit_scale(fitter.values(first))
    print(f"  logistic scale {scale:.2f}; error {error(fitter.values(first), scale):.5f}")
    fitted = fit(fitter, first, scale, args.passes)
    fitter.close()
    checker = Fitter(test, args.jobs, args.leaf_plays)
    before = error(checker.values(first), scale)
    after = error(checker.values(fitted), scale)
    checker.close()
    print(f"left-out turns: error {before:.5f} with {name}, {after:.5f} fitted")
    fields = ",\n".join(
        f"    {name}={_rounded(value)!r}" for name, value in fitted._asdict().items()
    )
    print(f"Weights(\n{fields},\n)")


if __name__ == "__main__":
    main()
