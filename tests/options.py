"""The option sets the engine's tests run through: each variant alone and together, handicaps for
either seat, and every option at once."""

from __future__ import annotations

from shared.types import GameOptions, Seat

OPTIONS = [
    GameOptions(),
    GameOptions(variant1=True),
    GameOptions(variant2=True),
    GameOptions(variant1=True, variant2=True),
    GameOptions(handicap_seat=Seat.WHITE, handicap_bridges=3),
    GameOptions(handicap_seat=Seat.BLACK, handicap_bridges=1),
    GameOptions(variant1=True, variant2=True, handicap_seat=Seat.BLACK, handicap_bridges=2),
]
