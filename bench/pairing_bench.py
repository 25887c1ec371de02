"""Swiss pairing benchmark: a script, not a test.

    .venv/bin/python bench/pairing_bench.py                    # 200 players, round 5
    .venv/bin/python bench/pairing_bench.py --players 64 --rounds 7 --repeat 3
    .venv/bin/python bench/pairing_bench.py --black-wins --rounds 3   # whole groups float

A Swiss of --players is played to the round to be timed (the results drawn from a seeded
random, mostly decisive, a fifth drawn, a few forfeits), so that the round to pair has the
score groups, repeats to avoid and colour histories of a real one; then that round is paired
--repeat times and each time printed, with the round's score groups and what, if anything, was
relaxed. With --black-wins White loses every game instead, so that everyone of a score group
has the same colour history (the top group must be White, the bottom one Black) and whole
groups float: the first candidate pairs cannot pair that round (rounds 3 and 5 of 200 players).
The issue's target: a round of 200 players paired in under 1 s. The earlier rounds'
pairing times are printed too, and how long pairing every pair exactly (no candidate pairs
first) takes for comparison with --exact.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from server.core.tournaments.model import Format, Tournament
from server.core.tournaments.outcomes import Outcome
from server.core.tournaments.swiss import pair_round

OUTCOMES = [
    Outcome.WHITE_WON,
    Outcome.BLACK_WON,
    Outcome.DRAW,
    Outcome.WHITE_WON_BY_FORFEIT,
    Outcome.BLACK_WON_BY_FORFEIT,
]
WEIGHTS = [40, 37, 20, 2, 1]


def play_to(
    players: int, before: int, seed: int, black_wins: bool = False
) -> tuple[Tournament, list[float]]:
    """A Swiss of `players` with `before` rounds paired and played; each pairing's time."""
    rng = random.Random(seed)
    t = Tournament(Format.SWISS, rounds_planned=before + 1)
    for i in range(players):
        t = t.join(f"player{i:03}", rng.gauss(1500, 250))
    times = []
    for _ in range(before):
        start = time.perf_counter()
        t = t.pair_next_round()
        times.append(time.perf_counter() - start)
        for game in t.rounds[-1].games:
            outcome = Outcome.BLACK_WON if black_wins else rng.choices(OUTCOMES, WEIGHTS)[0]
            t = t.record(len(t.rounds), game.white, outcome)
    return t, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="the round to time (from 1)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact", action="store_true", help="also time the exact matching")
    parser.add_argument(
        "--black-wins", action="store_true", help="White loses every game before the round"
    )
    args = parser.parse_args()
    t, earlier = play_to(args.players, args.rounds - 1, args.seed, args.black_wins)
    number = args.rounds
    players = t.swiss_players(number)
    groups = Counter(p.score for p in players)
    results = "Black won every game" if args.black_wins else f"seed {args.seed}"
    print(f"{args.players} players, round {number} of a Swiss ({results})")
    print(
        "score groups (points: players):",
        ", ".join(
            f"{score / 2:g}: {count}" for score, count in sorted(groups.items(), reverse=True)
        ),
    )
    if earlier:
        print("rounds 1 to", number - 1, "paired in", ", ".join(f"{s:.3f}" for s in earlier), "s")
    times, cpu = [], []  # the processor's time too: on a shared machine the wall's is longer
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        pairing = pair_round(players)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    floats = sum(
        1
        for white, black in pairing.games
        if next(p.score for p in players if p.name == white)
        != next(p.score for p in players if p.name == black)
    )
    print(
        f"round {number}: {len(pairing.games)} games, bye {pairing.bye}, "
        f"{floats} across score groups, relaxed: {sorted(pairing.relaxed) or 'nothing'}"
    )
    print(
        f"paired in: median {statistics.median(times):.3f} s, max {max(times):.3f} s "
        f"({args.repeat} times; target under 1 s), processor median "
        f"{statistics.median(cpu):.3f} s"
    )
    if args.exact:
        start = time.perf_counter()
        pair_round(players, exact=True)
        print(f"every pair an edge (exact): {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
