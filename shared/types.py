"""Seats, phases and the options a game is created with."""

from __future__ import annotations

from enum import IntEnum, StrEnum

import attrs


class Seat(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Seat:
        # A dict look-up: Seat(1 - self) goes through the enum machinery, and the engine asks
        # this at every turn.
        return _OTHER[self]

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"{text!r} is not a seat; use white or black") from None


_OTHER = {Seat.WHITE: Seat.BLACK, Seat.BLACK: Seat.WHITE}


class Phase(StrEnum):
    HANDICAP = "handicap"  # the handicapped player places free bridges before the first turn
    PLAY = "play"  # play, remove and discard cards, then draw or abstain
    FINAL = "final"  # a last turn after the third depletion: play cards, then end without drawing
    OVER = "over"


class Termination(StrEnum):
    """How a game ended: the code in results, GameOver events and the wire (see
    shared/results.py for the English sentence of each)."""

    POINTS = "points"  # more points
    FINAL = "final"  # tied on points, more in the final scoring
    BRIDGES = "bridges"  # tied on points and final scoring, more bridges on the board
    TIE = "tie"  # tied on points and bridges: no winner
    NO_BRIDGES = "no_bridges"  # R12/R13: a player (or both) without a bridge in round 2 or 3
    RESIGNED = "resigned"  # a player resigned: the other wins
    AGREED = "agreed"  # a draw by agreement: no winner
    TIME = "time"  # a player's clock ran out: the other wins
    FORFEIT = "forfeit"  # a player abandoned the game: the other wins
    ABANDONED = "abandoned"  # a moderator closed the table: no winner, unrated


# The endings that are not a move (Game.end, the log's Ending entries); the others come from
# the rules at the end of an action.
DECLARED_ENDINGS = frozenset(
    {
        Termination.RESIGNED, Termination.AGREED, Termination.TIME, Termination.FORFEIT,
        Termination.ABANDONED,
    }
)  # fmt: skip
# The declared endings that name no seat: a draw agreed, a game a moderator closed.
SEATLESS_ENDINGS = frozenset({Termination.AGREED, Termination.ABANDONED})


class OptionsError(ValueError):
    """Game options that do not make a game."""


@attrs.frozen
class GameOptions:
    """How a game is played. Defaults are the Kosmos rules without variants."""

    variant1: bool = False
    variant2: bool = False
    handicap_seat: Seat | None = None
    handicap_bridges: int = 0

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.handicap_bridges <= 3:
            raise OptionsError("a handicap is one, two or three bridges")
        if (self.handicap_seat is None) != (self.handicap_bridges == 0):
            raise OptionsError("a handicap names both the seat and the number of bridges")

    def to_dict(self) -> dict[str, object]:
        return {
            "variant1": self.variant1,
            "variant2": self.variant2,
            "handicap_seat": None
            if self.handicap_seat is None
            else self.handicap_seat.name.lower(),
            "handicap_bridges": self.handicap_bridges,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameOptions:
        seat = data.get("handicap_seat")
        bridges = data.get("handicap_bridges", 0)
        v1, v2 = data.get("variant1", False), data.get("variant2", False)
        if not isinstance(v1, bool) or not isinstance(v2, bool):
            raise OptionsError("variant1 and variant2 are true or false")
        if not isinstance(bridges, int) or isinstance(bridges, bool):
            raise OptionsError("handicap_bridges is a number from 0 to 3")
        if seat is not None and not isinstance(seat, str):
            raise OptionsError("handicap_seat is white, black or nil")
        try:
            parsed_seat = None if seat is None else Seat.parse(seat)
        except ValueError as exc:
            raise OptionsError(str(exc)) from None
        return cls(v1, v2, parsed_seat, bridges)
