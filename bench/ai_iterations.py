"""How many plan evaluations each searching level makes in its time budget: a script, not a
test.

    .venv/bin/python bench/ai_iterations.py               # 40 positions of 3 games
    nice -n 19 .venv/bin/python bench/ai_iterations.py --games 5 --positions 80

Plays a few games of the normal level (100 iterations a decision), picks positions of them at
random, and lets each searching level of shared.ai decide there at its real time budget,
counting the plans it played in samples (iterations). The medians are the fixed budgets that
stand for the time budgets in bench/ai_bench.py --iterations N --b-iterations M: a match at fixed
iterations does not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared import search
from shared.ai import choose_action
from shared.game import Game
from shared.levels import LEVEL_SECONDS
from shared.playout import Sim
from shared.randomness import SeededSource
from shared.types import Phase, Seat
from shared.views import SeatView, seat_view


def positions(games: int, count: int, seed: int) -> list[SeatView]:
    """`count` views of the seat to move, at random among the positions of `games` games."""
    views: list[SeatView] = []
    for g in range(games):
        game = Game.new(SeededSource(seed + g), Seat(g % 2))
        rng = random.Random(seed + g)
        while not game.is_over:
            view = seat_view(game, game.to_move)
            if view.public.phase is not Phase.HANDICAP:
                views.append(view)
            game.apply(choose_action(view, rng, level="normal", iterations=100))
    return random.Random(seed).sample(views, min(count, len(views)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    count = [0]
    outcome = search.PlanSearch._outcome

    def counted(self: search.PlanSearch, sim: Sim, plan: tuple[int, ...]) -> float:
        count[0] += 1
        return outcome(self, sim, plan)

    search.PlanSearch._outcome = counted  # type: ignore[method-assign]
    views = positions(args.games, args.positions, args.seed)
    for level, seconds in LEVEL_SECONDS.items():
        done: list[int] = []
        for view in views:
            count[0] = 0
            choose_action(view, random.Random(1), level=level)
            if count[0]:
                done.append(count[0])
        done.sort()
        n = len(done)
        print(
            f"{level} ({seconds} s): {n} searches, iterations median {done[n // 2]},"
            f" mean {sum(done) / n:.0f}, p10 {done[n // 10]}, p90 {done[9 * n // 10]}"
        )


if __name__ == "__main__":
    main()
