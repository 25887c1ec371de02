"""How strong and how fast the computer opponent is: a script, not a test.

    .venv/bin/python bench/ai_bench.py                 # 200 games against a random player
    .venv/bin/python bench/ai_bench.py -n 100 --opponent greedy --variant1

Prints the AI's win rate (it plays each seat in half of the games, and each seat moves first in
half of them) and the time per decision.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.actions import Action, Place, Remove, Take
from shared.ai import choose_action
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import GameOptions, Seat
from shared.views import seat_view

Player = Callable[[Game, random.Random], Action]


def random_player(game: Game, rng: random.Random) -> Action:
    """Uniformly random among the legal actions."""
    return rng.choice(game.legal_actions())


def greedy_player(game: Game, rng: random.Random) -> Action:
    """A simple baseline: take what wins tokens at once, else build a little, then draw."""
    seat = game.to_move
    actions = game.legal_actions()

    def diff(g: Game) -> int:
        return g.tokens[seat].bit_count() - g.tokens[1 - seat].bit_count()

    base = diff(game)
    best: Action | None = None
    best_gain = 0
    plays = [a for a in actions if isinstance(a, Place | Remove)]
    for action in plays:
        trial = game.clone()
        trial.apply(action)
        gain = diff(trial) - base
        if gain > best_gain:
            best, best_gain = action, gain
    if best is not None:
        return best
    places = [a for a in plays if isinstance(a, Place)]
    if places and game.hand_size(seat) >= 3:
        return rng.choice(places)
    enders = [a for a in actions if isinstance(a, Take) or str(a) in ("draw", "end")]
    if enders:
        return rng.choice(enders)
    return rng.choice(actions)


def ai_player(game: Game, rng: random.Random) -> Action:
    return choose_action(seat_view(game, game.to_move), rng)


OPPONENTS: dict[str, Player] = {"random": random_player, "greedy": greedy_player, "ai": ai_player}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--variant1", action="store_true")
    parser.add_argument("--variant2", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = GameOptions(variant1=args.variant1, variant2=args.variant2)
    opponent = OPPONENTS[args.opponent]

    wins = losses = draws = 0
    reasons: Counter[str] = Counter()
    decisions = 0
    spent = 0.0
    worst = 0.0
    actions = 0
    for n in range(args.games):
        seed = args.seed + n
        ai_seat = Seat(n % 2)
        first = Seat(n // 2 % 2)
        game = Game.new(SeededSource(seed), first=first, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            if game.to_move == ai_seat:
                view = seat_view(game, ai_seat)
                start = time.perf_counter()
                action = choose_action(view, rng)
                took = time.perf_counter() - start
                spent += took
                worst = max(worst, took)
                decisions += 1
            else:
                action = opponent(game, rng)
            game.apply(action)
            actions += 1
        assert game.result is not None
        winner = game.result.winner
        if winner is None:
            draws += 1
        elif winner == ai_seat:
            wins += 1
            reasons[game.result.reason] += 1
        else:
            losses += 1
    total = args.games
    print(
        f"AI vs {args.opponent} ({options.to_dict()}): {total} games,"
        f" won {wins} ({100 * wins / total:.1f}%), lost {losses}, drawn {draws}"
    )
    print("  wins by: " + ", ".join(f"{r} {c}" for r, c in reasons.most_common()))
    print(
        f"  {decisions} decisions, {1000 * spent / decisions:.3f} ms per decision on average,"
        f" worst {1000 * worst:.2f} ms; {actions / total:.0f} actions per game"
    )


if __name__ == "__main__":
    main()
