"""What better sampling of the hidden cards could buy the strong level at most: a script, not a
test.

    .venv/bin/python bench/ai_clairvoyant.py -n 40              # sees the hand and the pile
    .venv/bin/python bench/ai_clairvoyant.py -n 40 --hand-only  # sees the opponent's hand only
    .venv/bin/python bench/ai_clairvoyant.py -n 200 --opponent easy    # against the easy level

The strong level plays the normal level, or with --opponent the easy one (real time budgets, the
deals, seats and random seeds of bench/ai_bench.py --a strong --b normal or easy, game for game)
but its samples are not dealt: they are the game's real hidden cards, the opponent's hand and the
draw pile's order; with --hand-only, the opponent's real hand with the pile and the face-down
cards dealt at random from the rest, as a perfect reading of the opponent's hand would leave
them. The normal level samples as always (the easy one does not sample).
Prints each game and the strong level's score.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shared.search
from shared.ai import choose_action
from shared.game import Game
from shared.randomness import SeededSource
from shared.sampling import Hidden, Sampler
from shared.search import TurnPlans
from shared.types import GameOptions, Seat
from shared.views import seat_view

# The real hidden cards for the decision being made, None while the normal level decides.
_truth: list[Hidden | None] = [None]
_hand_only = [False]


class SeeingSampler(Sampler):
    """A Sampler whose samples are the game's real hidden cards (see the module)."""

    def sample(self, rng: random.Random, dealt: Sequence[int] | None = None) -> Hidden:
        hidden = _truth[0]
        if hidden is None:
            return super().sample(rng, dealt)
        if not _hand_only[0]:
            return hidden
        rest = Counter(self.pool) + Counter(self.known_theirs) - Counter(hidden.hands[self.opp])
        cards = list(rest.elements())
        rng.shuffle(cards)
        size = self.view.public.pile_size
        return Hidden(hidden.hands, tuple(cards[:size]), tuple(cards[size:]))


def real_hidden(game: Game) -> Hidden:
    hands: list[tuple[int, ...]] = []
    for seat in (0, 1):
        held = game.hand[seat]
        opened = game.open[seat]
        hands.append(tuple(c for c in range(len(held)) for _ in range(held[c] - opened[c])))
    return Hidden((hands[0], hands[1]), tuple(game.pile), tuple(game.face_down))


def play(
    n: int, seed: int, hand_only: bool, opponent: str = "normal"
) -> tuple[int, Seat, Seat | None, tuple[int, int]]:
    """Game `n`: (its number from 1, the strong level's seat, the winner, the scores)."""
    shared.search.Sampler = SeeingSampler  # type: ignore[attr-defined]
    _hand_only[0] = hand_only
    deal = seed + n // 2
    strong = Seat(n % 2)
    game = Game.new(SeededSource(deal), first=Seat(deal % 2), options=GameOptions())
    rng = random.Random(seed * 1_000_003 + n)
    plans = {Seat.WHITE: TurnPlans(), Seat.BLACK: TurnPlans()}
    while not game.is_over:
        seat = game.to_move
        level = "strong" if seat == strong else opponent
        _truth[0] = real_hidden(game) if level == "strong" else None
        game.apply(choose_action(seat_view(game, seat), rng, level=level, plans=plans[seat]))
    assert game.result is not None
    return n + 1, strong, game.result.winner, (game.scores[0], game.scores[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hand-only", action="store_true", help="see the opponent's hand only")
    parser.add_argument("--opponent", choices=("normal", "easy"), default="normal")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("play at least one game")
    begin = time.monotonic()
    score = 0.0
    job = functools.partial(play, seed=args.seed, hand_only=args.hand_only, opponent=args.opponent)
    with multiprocessing.Pool(args.jobs) as pool:
        for n, strong, winner, scores in pool.imap(job, range(args.games)):
            outcome = 0.5 if winner is None else float(winner == strong)
            score += outcome
            print(f"  game {n}: strong plays {strong.label}: {scores[0]}-{scores[1]}", flush=True)
    seen = "the opponent's hand" if args.hand_only else "the opponent's hand and the pile"
    print(
        f"strong seeing {seen} vs {args.opponent}: {score:g} of {args.games}"
        f" ({100 * score / args.games:.1f}%), {time.monotonic() - begin:.0f} s"
    )


if __name__ == "__main__":
    main()
