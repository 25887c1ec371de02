"""Round-robin rounds from Berger's tables (FIDE Handbook C.05, annex 1): players numbered 1 to
n (n made even with a dummy whose opponent has the round off), the last number fixed and the
others turning around the circle. Round r pairs a and b (both below n) when a + b = r + 1 modulo
n - 1, the lower number White when a + b is odd; number n meets the a with 2a = r + 1 modulo
n - 1, Black in odd rounds and White in even ones. A double round-robin plays the table again
with the seats swapped."""

from __future__ import annotations

import random
from collections.abc import Sequence


def cycle_length(players: int) -> int:
    """The rounds of one cycle: n - 1 for an even count, n for an odd one (a round off each)."""
    return players - 1 if players % 2 == 0 else players


def berger_round(players: int, number: int) -> list[tuple[int | None, int | None]]:
    """Round `number` (from 1; beyond one cycle, the second with the seats swapped) as (white,
    black) pairs of indices from 0 into the numbered players, the lowest table first; None is
    the odd count's dummy (its opponent has the round off)."""
    if players < 2:
        raise ValueError("a round-robin needs two players")
    n = players + players % 2
    cycle = n - 1
    swapped = number > cycle
    r = (number - 1) % cycle + 1
    if not 1 <= number <= 2 * cycle:
        raise ValueError(f"a round-robin of {players} has no round {number}")
    pairs: list[tuple[int, int]] = []
    fixed_opponent = next(a for a in range(1, n) if (2 * a - r - 1) % cycle == 0)
    pairs.append((n, fixed_opponent) if r % 2 == 0 else (fixed_opponent, n))
    # the others in table order: from the fixed player's opponent round the circle
    for step in range(1, n // 2):
        a = (fixed_opponent - 1 + step) % cycle + 1
        b = (fixed_opponent - 1 - step) % cycle + 1
        low, high = min(a, b), max(a, b)
        pairs.append((low, high) if (a + b) % 2 == 1 else (high, low))
    if swapped:
        pairs = [(black, white) for white, black in pairs]
    return [(_index(w, players), _index(b, players)) for w, b in pairs]


def _index(number: int, players: int) -> int | None:
    return None if number > players else number - 1


def draw_numbers(names: Sequence[str], rng: random.Random) -> list[str]:
    """The players in the order of their numbers, drawn by lot (the caller's randomness)."""
    order = list(names)
    rng.shuffle(order)
    return order
