"""A fingerprint of the computer's decisions: a script, not a test.

    .venv/bin/python bench/ai_fingerprint.py                 # 60 iterations a decision
    .venv/bin/python bench/ai_fingerprint.py --iterations 150

Plays four fixed-seed games (the variants and a handicap among them) for each level of
shared.ai.choose_action, and with shared.ismcts.search_action, at a fixed iteration budget (no
clock is read), half of them following the turn's plan (TurnPlans), and prints a SHA-1 of each
level's actions and results. A change meant to leave behaviour alone must leave every line as
it was: run it before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.ai import choose_action
from shared.game import Game
from shared.ismcts import search_action
from shared.levels import LEVEL_INFER, LEVELS
from shared.randomness import SeededSource
from shared.search import TurnPlans
from shared.seen import seen_turns
from shared.types import GameOptions, Seat
from shared.views import seat_view

OPTIONS = [
    GameOptions(),
    GameOptions(variant1=True),
    GameOptions(variant2=True),
    GameOptions(handicap_seat=Seat.BLACK, handicap_bridges=2),
]
GAMES = 4
MAX_ACTIONS = 400


def fingerprint(level: str, iterations: int) -> str:
    """The SHA-1 of the actions and results of GAMES games of `level` against itself."""
    digest = hashlib.sha1()
    for seed in range(GAMES):
        game = Game.new(SeededSource(seed), Seat(seed % 2), OPTIONS[seed % len(OPTIONS)])
        rng = random.Random(1000 + seed)
        plans = TurnPlans() if seed % 2 else None
        for _ in range(MAX_ACTIONS):
            if game.is_over:
                break
            view = seat_view(game, game.to_move)
            if level == "ismcts":
                action = search_action(view, rng, iterations=iterations)
            else:
                # The opponent's last turns, as the server hands them to a level that reads them.
                turns = seen_turns(game, game.to_move.other) if LEVEL_INFER.get(level) else None
                action = choose_action(
                    view, rng, level=level, iterations=iterations, plans=plans, opponent_turns=turns
                )
            digest.update(f"{action}|".encode())
            game.apply(action)
        digest.update(f"{game.result}|{game.scores}".encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=60, help="a decision's budget")
    args = parser.parse_args()
    total = hashlib.sha1()
    for level in (*LEVELS, "ismcts"):
        print(level, line := fingerprint(level, args.iterations))
        total.update(bytes.fromhex(line))
    print("all", total.hexdigest())


if __name__ == "__main__":
    main()
