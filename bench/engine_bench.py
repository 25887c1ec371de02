"""Engine speed: random full games per second on one core, and the time to list legal actions.

    .venv/bin/python bench/engine_bench.py [--games N] [--seed S]

A random game picks uniformly among the legal actions at every decision, as a search playout
would. Target (issue 2): at least 1,000 random full games per second.
"""

from __future__ import annotations

import argparse
import random
import time

from shared.game import Game
from shared.randomness import SeededSource
from shared.types import Seat


def play_random_game(seed: int) -> tuple[int, Game]:
    game = Game.new(SeededSource(seed), Seat(seed % 2))
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        game.apply_legal(rng.choice(game.legal_actions()))
        actions += 1
    return actions, game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    start = time.perf_counter()
    total_actions = 0
    for seed in range(args.seed, args.seed + args.games):
        actions, _ = play_random_game(seed)
        total_actions += actions
    elapsed = time.perf_counter() - start
    print(
        f"random full games:  {args.games / elapsed:8.0f} games/s "
        f"({total_actions / args.games:.0f} actions a game,"
        f" {total_actions / elapsed:,.0f} actions/s)"
    )

    # Legal-action listing on positions sampled from random games.
    samples: list[Game] = []
    rng = random.Random(args.seed)
    for seed in range(200):
        game = Game.new(SeededSource(seed))
        steps = rng.randrange(1, 120)
        while not game.is_over and steps:
            game.apply_legal(rng.choice(game.legal_actions()))
            steps -= 1
        if not game.is_over:
            samples.append(game)
    reps = 50
    start = time.perf_counter()
    for _ in range(reps):
        for game in samples:
            game.legal_actions()
    per_call = (time.perf_counter() - start) / (reps * len(samples))
    print(f"legal_actions():    {per_call * 1e6:8.1f} µs a call over {len(samples)} positions")

    # Checked apply (what the server uses) against the fast path, on the same games.
    start = time.perf_counter()
    games = 300
    for seed in range(games):
        game = Game.new(SeededSource(seed), Seat(seed % 2))
        r = random.Random(seed)
        while not game.is_over:
            game.apply(r.choice(game.legal_actions()))
    elapsed = time.perf_counter() - start
    print(f"with checked apply: {games / elapsed:8.0f} games/s")


if __name__ == "__main__":
    main()
