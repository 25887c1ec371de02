"""The scoring rules (docs/rules.md R8-R11), on plain values: what a scoring gives and who wins
at the end. The game (shared.game) applies them and tells the events."""

from __future__ import annotations

from collections.abc import Sequence

from shared.board import TOKENS_PER_PLAYER
from shared.types import Seat, Termination


def token_counts(tokens: Sequence[int]) -> tuple[int, int]:
    """The tokens each seat scores with: those on the board (R8: an eleventh island has none to
    mark it)."""
    return (
        min(tokens[0].bit_count(), TOKENS_PER_PLAYER),
        min(tokens[1].bit_count(), TOKENS_PER_PLAYER),
    )


def interim_points(round: int, counts: tuple[int, int]) -> tuple[int, int]:
    """The points of the scoring that ends round `round` (not the last): 1 point in the first
    interim scoring, 2 in the second, to the seat with more tokens."""
    white, black = counts
    return (round, 0) if white > black else (0, round) if black > white else (0, 0)


def final_points(counts: tuple[int, int]) -> tuple[int, int]:
    """The points of the final scoring: the difference in tokens, to the seat with more."""
    diff = counts[0] - counts[1]
    return (diff, 0) if diff > 0 else (0, -diff)


def final_outcome(
    scores: tuple[int, int], points: tuple[int, int], bridges: Sequence[int]
) -> tuple[Seat | None, Termination]:
    """The winner and why, after the final scoring gave `points` and the totals are `scores`:
    the most points, else the final scoring, else the most bridges on the board, else a tie."""
    if scores[0] != scores[1]:
        return (Seat.WHITE if scores[0] > scores[1] else Seat.BLACK), Termination.POINTS
    if points[0] != points[1]:
        return (Seat.WHITE if points[0] > points[1] else Seat.BLACK), Termination.FINAL
    on_board = bridges[0].bit_count(), bridges[1].bit_count()
    if on_board[0] != on_board[1]:
        return (Seat.WHITE if on_board[0] > on_board[1] else Seat.BLACK), Termination.BRIDGES
    return None, Termination.TIE
