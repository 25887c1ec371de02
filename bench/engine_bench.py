"""Engine speed: random full games per second on one core, and the time to list legal actions.

    .venv/bin/python bench/engine_bench.py [--games N] [--seed S]
    .venv/bin/python bench/engine_bench.py --fast [--games N]   # shared.playout alone
    .venv/bin/python bench/engine_bench.py --check 5000         # playout vs Game, N games

A random game picks uniformly among the legal actions at every decision, as a search playout
would. Targets: at least 1,000 random full games per second with the checked engine
(shared.game), at least 5,000 with the playout engine (shared.playout, --fast).
"""

from __future__ import annotations

import argparse
import copy
import random
import time

from shared.game import Game
from shared.playout import (
    RandomSource,
    Sim,
    from_action,
    held_mask,
    play_random,
    to_action,
)
from shared.randomness import SeededSource
from shared.types import GameOptions, Seat


def play_random_game(seed: int) -> tuple[int, Game]:
    game = Game.new(SeededSource(seed), Seat(seed % 2))
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        game.apply_legal(rng.choice(game.legal_actions()))
        actions += 1
    return actions, game


def fast(games: int, seed: int) -> None:
    """Random full games with the playout engine, from fresh deals (dealing not timed)."""
    sims = [
        Sim.from_game(Game.new(SeededSource(s), Seat(s % 2)), RandomSource(random.Random(s)))
        for s in range(seed, seed + games)
    ]
    rngs = [random.Random(s) for s in range(seed, seed + games)]
    start = time.perf_counter()
    total = 0
    for sim, rng in zip(sims, rngs, strict=True):
        total += play_random(sim, rng)
    elapsed = time.perf_counter() - start
    print(
        f"playout engine:     {games / elapsed:8.0f} games/s "
        f"({total / games:.0f} actions a game, {total / elapsed:,.0f} actions/s)"
    )


def check(games: int) -> None:
    """The differential check of tests/shared/test_playout.py over more games and every option."""
    options = [
        GameOptions(),
        GameOptions(variant1=True),
        GameOptions(variant2=True),
        GameOptions(variant1=True, variant2=True),
        GameOptions(handicap_seat=Seat.WHITE, handicap_bridges=3),
        GameOptions(variant1=True, handicap_seat=Seat.BLACK, handicap_bridges=2),
    ]
    actions = fast_actions = 0
    for n in range(games):
        game = Game.new(SeededSource(n), first=Seat(n % 2), options=options[n % len(options)])
        sim = Sim.from_game(game, copy.deepcopy(game.source))
        rng = random.Random(n)
        while not game.is_over:
            legal = game.legal_actions()
            assert sorted(sim.legal()) == sorted(from_action(a) for a in legal), n
            action = rng.choice(legal)
            game.apply(action)
            sim.apply(from_action(action))
            actions += 1
            assert sim.bridges == game.bridges and sim.tokens == game.tokens, n
            assert sim.hand == game.hand and sim.open == game.open, n
            assert sim.pile[::-1] == game.pile and sim.face_up == game.face_up, n
            assert sim.played == game.played and sim.face_down == game.face_down, n
            assert sim.points == game.round_points and sim.result == game.result, n
        # play_random's inlined loop on the same deal: every action legal in the checked
        # engine, and the same final state.
        game = Game.new(SeededSource(n), first=Seat(n % 2), options=options[n % len(options)])
        sim = Sim.from_game(game, copy.deepcopy(game.source))
        taken: list[int] = []
        play_random(sim, random.Random(n), taken)
        for code in taken:
            game.apply(to_action(code))
        fast_actions += len(taken)
        assert game.is_over and sim.result == game.result, n
        assert sim.bridges == game.bridges and sim.tokens == game.tokens, n
        assert sim.hand == game.hand and sim.points == game.round_points, n
        assert sim.to_move == game.to_move and sim.played == game.played, n
        assert sim.face_up == game.face_up and sim.face_down == game.face_down, n
        # What play_random keeps in locals and writes back at the end.
        assert sim.held == [held_mask(hand) for hand in game.hand], n
        assert sim.size == [sum(hand) for hand in game.hand], n
        assert sim.open == game.open and sim.abstained == game.opponent_abstained, n
    print(
        f"playout engine agrees with Game: {games} games, {actions} actions;"
        f" play_random: {games} games, {fast_actions} actions"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fast", action="store_true", help="the playout engine's figure only")
    parser.add_argument("--check", type=int, metavar="N", help="differential check, N games")
    args = parser.parse_args()
    if args.check:
        check(args.check)
        return
    if args.fast:
        fast(args.games, args.seed)
        return

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
