"""A game's outcome in a tournament, and what it is worth to each seat, in half-points."""

from __future__ import annotations

from enum import StrEnum

from shared.types import Seat

WIN = 2  # half-points: a win is worth 1, a draw 1/2, a loss 0
DRAW = 1
LOSS = 0


class Outcome(StrEnum):
    """How a tournament game ended. The forfeits are games not played: they give the points of a
    win or a loss, and the tie-breaks treat them as unplayed (docs/tournaments.md)."""

    WHITE_WON = "white_won"
    BLACK_WON = "black_won"
    DRAW = "draw"
    WHITE_WON_BY_FORFEIT = "white_won_by_forfeit"  # Black did not play
    BLACK_WON_BY_FORFEIT = "black_won_by_forfeit"  # White did not play
    DOUBLE_FORFEIT = "double_forfeit"  # neither played: both lose

    @property
    def played(self) -> bool:
        return self in _PLAYED

    def half_points(self, seat: Seat) -> int:
        return _HALF_POINTS[self][seat]

    @classmethod
    def forfeit_against(cls, seat: Seat) -> Outcome:
        """The forfeit that `seat`'s absence gives."""
        return cls.BLACK_WON_BY_FORFEIT if seat is Seat.WHITE else cls.WHITE_WON_BY_FORFEIT


_PLAYED = frozenset({Outcome.WHITE_WON, Outcome.BLACK_WON, Outcome.DRAW})
_HALF_POINTS = {
    Outcome.WHITE_WON: {Seat.WHITE: WIN, Seat.BLACK: LOSS},
    Outcome.BLACK_WON: {Seat.WHITE: LOSS, Seat.BLACK: WIN},
    Outcome.DRAW: {Seat.WHITE: DRAW, Seat.BLACK: DRAW},
    Outcome.WHITE_WON_BY_FORFEIT: {Seat.WHITE: WIN, Seat.BLACK: LOSS},
    Outcome.BLACK_WON_BY_FORFEIT: {Seat.WHITE: LOSS, Seat.BLACK: WIN},
    Outcome.DOUBLE_FORFEIT: {Seat.WHITE: LOSS, Seat.BLACK: LOSS},
}
