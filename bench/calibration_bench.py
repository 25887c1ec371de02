"""Are the analysis's chances honest? A script, not a test.

    .venv/bin/python bench/calibration_bench.py                 # 1,000 positions
    .venv/bin/python bench/calibration_bench.py --positions 300 --playouts 64

Plays games between the computer's levels (easy against normal, each side both ways), takes the
position at the start of every turn, estimates the mover's chance from the mover's own view as
shared.analysis does (greedy playouts from samples of the hidden cards), and compares with who
won that game. Prints, for the raw share and for the calibrated chance: the positions grouped
in tenths of the estimate, how often those were won, and the Brier score. Then fits the logistic
on the raw share's logit (chance = 1 / (1 + exp(-(A*logit + B)))) by Newton's method and prints
A and B, to be written into shared/analysis.py (CALIBRATION_A, CALIBRATION_B).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared.ai import choose_action  # noqa: E402
from shared.analysis import PLAYOUTS, calibrated, raw_chance  # noqa: E402
from shared.game import Game  # noqa: E402
from shared.randomness import SeededSource  # noqa: E402
from shared.types import GameOptions, Seat  # noqa: E402
from shared.views import SeatView, seat_view  # noqa: E402

LEVEL_BUDGET = {"easy": None, "normal": 60}  # plan evaluations a decision, for speed


def play_game(seed: int, white: str, black: str) -> tuple[list[SeatView], Seat | None]:
    """A game between the levels; the views at the start of each turn, and the winner."""
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
    levels = {Seat.WHITE: white, Seat.BLACK: black}
    views = []
    mover = None
    for _ in range(2000):
        if game.is_over:
            break
        if game.to_move is not mover:
            mover = game.to_move
            views.append(seat_view(game, mover))
        level = levels[game.to_move]
        view = seat_view(game, game.to_move)
        game.apply(choose_action(view, rng, level=level, iterations=LEVEL_BUDGET[level]))
    result = game.result
    return views, None if result is None else result.winner


def table(estimates: list[float], outcomes: list[float], label: str) -> None:
    print(f"{label}:")
    print("  tenth      positions  mean estimate  share won")
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        picked = [
            (e, o)
            for e, o in zip(estimates, outcomes, strict=True)
            if low <= e < high or (tenth == 9 and e == 1.0)
        ]
        if not picked:
            continue
        mean = sum(e for e, _ in picked) / len(picked)
        won = sum(o for _, o in picked) / len(picked)
        print(f"  {low:.1f}-{high:.1f}   {len(picked):>9}  {mean:>13.3f}  {won:>9.3f}")
    brier = sum((e - o) ** 2 for e, o in zip(estimates, outcomes, strict=True)) / len(outcomes)
    print(f"  Brier score {brier:.4f} over {len(outcomes)} positions")


def fit(raws: list[float], outcomes: list[float]) -> tuple[float, float]:
    """A, B of the logistic on the raw share's logit, by Newton's method (log loss)."""
    xs = [math.log(min(max(r, 1e-3), 1 - 1e-3) / (1 - min(max(r, 1e-3), 1 - 1e-3))) for r in raws]
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, outcomes, strict=True):
            p = 1 / (1 + math.exp(-(a * x + b)))
            ga += (p - y) * x
            gb += p - y
            w = p * (1 - p)
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--per-game",
        type=int,
        default=10,
        help="positions taken from each game, spread over it (the positions of one game share"
        " its outcome: many games make the figures steadier than many positions)",
    )
    args = parser.parse_args()
    began = time.perf_counter()
    raws: list[float] = []
    outcomes: list[float] = []
    pairings = [("easy", "normal"), ("normal", "easy"), ("normal", "normal"), ("easy", "easy")]
    game_number = 0
    rng = random.Random(args.seed)
    while len(raws) < args.positions:
        white, black = pairings[game_number % len(pairings)]
        views, winner = play_game(args.seed + game_number, white, black)
        game_number += 1
        spread = max(1, len(views) // args.per_game)
        for view in views[::spread][: args.per_game]:
            if len(raws) >= args.positions:
                break
            raws.append(raw_chance(view, rng, args.playouts))
            outcomes.append(0.5 if winner is None else float(winner is view.seat))
    print(
        f"{len(raws)} positions from {game_number} games (easy and normal, both ways),"
        f" {args.playouts} playouts each, in {time.perf_counter() - began:.0f} s"
    )
    table(raws, outcomes, "raw share of greedy playouts won")
    table([calibrated(r) for r in raws], outcomes, "calibrated (shared.analysis as it is)")
    a, b = fit(raws, outcomes)
    print(f"fitted: CALIBRATION_A = {a:.4f}, CALIBRATION_B = {b:.4f}")
    refit = [1 / (1 + math.exp(-(a * math.log(max(min(r, 0.999), 0.001) /
             (1 - max(min(r, 0.999), 0.001))) + b))) for r in raws]  # fmt: skip
    table(refit, outcomes, "with the fitted calibration")


if __name__ == "__main__":
    main()
