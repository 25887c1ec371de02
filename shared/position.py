"""Set-up positions, as a chess FEN: everything needed to continue a game from a point that was
not reached by playing (Game.from_position), and the checks that it could arise in a game."""

from __future__ import annotations

import attrs

from shared.board import (
    BRIDGES_PER_PLAYER,
    CARDS_PER_ISLAND,
    FACE_UP_SIZE,
    HAND_LIMIT,
    ISLAND_MASK,
    ISLANDS,
    NEEDED,
    NUM_ISLANDS,
    ROUNDS,
    iter_bits,
)
from shared.control import majority_mask
from shared.types import GameOptions, Phase, Seat


class PositionError(ValueError):
    """A set-up position that cannot arise in a game."""


@attrs.frozen
class Position:
    """A set-up position, as a chess FEN: everything needed to continue from it.

    Tokens are not given: they follow from the bridges.
    """

    options: GameOptions = attrs.Factory(GameOptions)
    bridges: tuple[int, int] = (0, 0)
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    open_cards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    face_up: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    played: tuple[int, ...] = ()
    face_down: tuple[int, ...] = ()
    round: int = 1
    round_points: tuple[tuple[int, int], ...] = ()
    to_move: Seat = Seat.WHITE
    phase: Phase = Phase.PLAY
    final_turns_left: int = 0
    opponent_abstained: bool = False

    def validate(self) -> None:
        """Raise PositionError if this position cannot arise in a game."""
        if self.bridges[0] & self.bridges[1]:
            raise PositionError("a line cannot carry a white and a black bridge")
        for seat in Seat:
            if self.bridges[seat].bit_count() > BRIDGES_PER_PLAYER:
                raise PositionError(f"{seat.label} has more than {BRIDGES_PER_PLAYER} bridges")
            size = len(self.hands[seat]) + len(self.open_cards[seat])
            if size > HAND_LIMIT:
                raise PositionError(f"{seat.label} holds {size} cards; at most {HAND_LIMIT}")
        if self.open_cards != ((), ()) and not self.options.variant2:
            raise PositionError("open cards exist only in Variant 2")
        everywhere = (
            *self.hands[0], *self.hands[1], *self.open_cards[0], *self.open_cards[1],
            *self.face_up, *self.pile, *self.played, *self.face_down,
        )  # fmt: skip
        for island in range(NUM_ISLANDS):
            count = everywhere.count(island)
            if count != CARDS_PER_ISLAND:
                raise PositionError(
                    f"{ISLANDS[island]} appears on {count} cards; every island has exactly"
                    f" {CARDS_PER_ISLAND}"
                )
        if len(self.face_up) > FACE_UP_SIZE:
            raise PositionError(f"at most {FACE_UP_SIZE} cards lie face up")
        if self.pile and len(self.face_up) < FACE_UP_SIZE:
            raise PositionError("the face-up row is refilled while the draw pile has cards")
        if self.phase is Phase.PLAY and not self.pile and not self.face_up:
            raise PositionError("the draw pile and the face-up row are both empty")
        if not 1 <= self.round <= ROUNDS:
            raise PositionError("the round is 1, 2 or 3")
        if len(self.round_points) != self.round - 1:
            raise PositionError(f"round {self.round} follows {self.round - 1} interim scoring(s)")
        for number, points in enumerate(self.round_points, start=1):
            if points not in ((0, 0), (number, 0), (0, number)):
                raise PositionError(f"scoring {number} gives {number} point(s) to one player")
        if self.phase in (Phase.HANDICAP, Phase.OVER):
            raise PositionError("a position starts in the play phase or a final turn")
        if (self.phase is Phase.FINAL) != (self.final_turns_left in (1, 2)):
            raise PositionError("final turns (1 or 2 left) belong to the final phase")
        if self.phase is Phase.FINAL and (self.round != ROUNDS or self.pile or self.face_up):
            raise PositionError("the final turns come after the third depletion")
        for seat in Seat:
            theirs = majority_mask(self.bridges[seat])
            for island in iter_bits(theirs):
                bad = self.bridges[seat.other] & ISLAND_MASK[island]
                # Bridges placed after control was won are fine; only a double majority is not.
                if (bad & ISLAND_MASK[island]).bit_count() >= NEEDED[island]:
                    raise PositionError(f"both players hold a majority on {ISLANDS[island]}")
        if self.round >= 2:
            for seat in Seat:
                if not self.bridges[seat]:
                    # R12: the game ended the moment this player was left without a bridge.
                    raise PositionError(
                        f"{seat.label} has no bridge on the board in round {self.round}:"
                        " that game is already over"
                    )
