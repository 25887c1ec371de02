"""Where shuffles come from: seeded for tests, drawn from a given rng in play (the server core's,
which the server seeds from the operating system's CSPRNG), recorded for replays."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol


class CardSource(Protocol):
    def shuffled(self, cards: Sequence[int]) -> list[int]:
        """A new order of exactly these cards."""
        ...


class SeededSource:
    """Deterministic shuffles from a seed: tests, benchmarks, reproducible bug reports."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        out = list(cards)
        self._rng.shuffle(out)
        return out


class DrawnSource:
    """Shuffles drawn from the rng it is handed, shared with whoever else draws from it: the
    server core's, so that a game's cards follow from the core's seed like everything else it
    decides. The cards are as unpredictable as that rng: the server's is random.SystemRandom
    (the operating system's CSPRNG), so no client can predict the deck."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        out = list(cards)
        self._rng.shuffle(out)
        return out


class ShuffleMismatch(ValueError):
    """A recorded shuffle that is not an order of the cards being shuffled."""


class RecordedSource:
    """Replays the shuffles written in a game record, in order."""

    def __init__(self, orders: Sequence[Sequence[int]]) -> None:
        self._orders = [list(order) for order in orders]
        self.used = 0

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        if self.used >= len(self._orders):
            raise ShuffleMismatch("the record has no shuffle for this reshuffle")
        order = self._orders[self.used]
        if Counter(order) != Counter(cards):
            raise ShuffleMismatch("the recorded shuffle is not an order of the discard pile")
        self.used += 1
        return list(order)
