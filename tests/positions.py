"""Compact set-up positions for rule tests: name what matters; the other cards are filled in."""

from __future__ import annotations

from collections import Counter
from typing import Any

from shared.board import ISLANDS, parse_island, parse_line
from shared.game import FULL_DECK, Game
from shared.position import Position
from shared.randomness import SeededSource
from shared.types import GameOptions, Phase, Seat


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_island(w) for w in text.split())


def lines(text: str) -> int:
    mask = 0
    for word in text.split():
        mask |= 1 << parse_line(word)
    return mask


def position(
    *,
    white: str = "",
    black: str = "",
    white_hand: str = "",
    black_hand: str = "",
    white_open: str = "",
    black_open: str = "",
    face_up: str | None = None,
    pile: str | None = None,
    face_down: str = "",
    to_move: Seat = Seat.WHITE,
    round: int = 1,
    round_points: tuple[tuple[int, int], ...] = (),
    options: GameOptions | None = None,
    phase: Phase = Phase.PLAY,
    final_turns_left: int = 0,
    opponent_abstained: bool = False,
) -> Position:
    """A position; unnamed cards go face up, then to the pile, then face up on the discard pile."""
    named = (
        cards(white_hand) + cards(black_hand) + cards(white_open) + cards(black_open)
        + cards(face_down) + cards(face_up or "") + cards(pile or "")
    )  # fmt: skip
    rest = list((Counter(FULL_DECK) - Counter(named)).elements())
    rest.sort(key=lambda c: ISLANDS[c])
    up = cards(face_up) if face_up is not None else tuple(rest[:3])
    if face_up is None:
        rest = rest[3:]
    drawn = cards(pile) if pile is not None else tuple(rest[:6])
    if pile is None:
        rest = rest[6:]
    return Position(
        options=options or GameOptions(),
        bridges=(lines(white), lines(black)),
        hands=(cards(white_hand), cards(black_hand)),
        open_cards=(cards(white_open), cards(black_open)),
        face_up=up,
        pile=drawn,
        played=tuple(rest),
        face_down=cards(face_down),
        round=round,
        round_points=round_points,
        to_move=to_move,
        phase=phase,
        final_turns_left=final_turns_left,
        opponent_abstained=opponent_abstained,
    )


def game(**kwargs: Any) -> Game:
    return Game.from_position(position(**kwargs), SeededSource(0))
