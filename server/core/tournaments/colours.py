"""Who takes which seat in a Swiss game: a player's colour history, what it forbids and what it
prefers, and the choice of seats for a pair (docs/tournaments.md, "Colours"). A tournament's
tables are dealt with White moving first, so balancing the seats balances the first move."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from shared.types import Seat

MAX_DIFFERENCE = 2  # |whites - blacks| never above this (FIDE's absolute colour criterion)
MAX_RUN = 2  # never the same seat more than twice in a row


@attrs.frozen
class ColourHistory:
    """The seats of a player's played games, in order (byes, forfeits and absences not counted,
    as FIDE counts only games played)."""

    seats: tuple[Seat, ...] = ()

    @property
    def difference(self) -> int:
        """Whites minus blacks."""
        return sum(1 if seat is Seat.WHITE else -1 for seat in self.seats)

    def allows(self, seat: Seat) -> bool:
        """Whether taking `seat` keeps the absolute rules: no third in a row, a difference of at
        most two."""
        after = self.difference + (1 if seat is Seat.WHITE else -1)
        if abs(after) > MAX_DIFFERENCE:
            return False
        return not (len(self.seats) >= MAX_RUN and all(s is seat for s in self.seats[-MAX_RUN:]))

    @property
    def preference(self) -> tuple[Seat | None, int]:
        """The seat this player should have next and how strongly: 2 where the other seat is
        forbidden (absolute), 1 to even out a difference (strong), 0 to alternate (mild), and
        (None, 0) with no game yet."""
        if not self.seats:
            return None, 0
        diff = self.difference
        wanted = Seat.BLACK if diff > 0 else Seat.WHITE if diff < 0 else self.seats[-1].other
        strength = 2 if not self.allows(wanted.other) else 1 if diff else 0
        return wanted, strength


def feasible(a: ColourHistory, b: ColourHistory) -> bool:
    """Whether a and b can meet with both keeping the absolute rules."""
    return any(a.allows(seat) and b.allows(seat.other) for seat in (Seat.WHITE, Seat.BLACK))


def same_wish(a: ColourHistory, b: ColourHistory) -> int:
    """What meeting costs the colour preferences: 0 where both can have their wish (or one has
    none), else 1 + how strong the weaker of the two same wishes is (1 or 2)."""
    return same_wish_of(*a.preference, *b.preference)


def same_wish_of(seat_a: Seat | None, strength_a: int, seat_b: Seat | None, strength_b: int) -> int:
    """`same_wish` of two preferences."""
    if seat_a is None or seat_b is None or seat_a is not seat_b:
        return 0
    return 1 + min(strength_a, strength_b, 1)


def seat_of_higher(higher: ColourHistory, lower: ColourHistory, board: int) -> Seat:
    """The seat of the higher-ranked player of a pair (`board` counts from 1): the absolute
    rules first, then the stronger preference, then the one whose histories differ last
    alternates, then the higher-ranked player's wish; with no wish on either side, the higher
    player is White on odd boards."""
    options = [s for s in (Seat.WHITE, Seat.BLACK) if higher.allows(s) and lower.allows(s.other)]
    if len(options) == 1:
        return options[0]
    if not options:  # a relaxed pairing: break fewer rules

        def broken(seat: Seat) -> int:
            return (not higher.allows(seat)) + (not lower.allows(seat.other))

        return min((Seat.WHITE, Seat.BLACK), key=broken)
    wish_h, strength_h = higher.preference
    wish_l, strength_l = lower.preference
    if wish_h is None and wish_l is None:
        return Seat.WHITE if board % 2 == 1 else Seat.BLACK
    if wish_l is None or (wish_h is not None and wish_h is not wish_l):
        return wish_h if wish_h is not None else Seat.WHITE
    if wish_h is None:
        return wish_l.other
    # both wish the same seat
    if strength_h != strength_l:
        return wish_h if strength_h > strength_l else wish_h.other
    last = _last_difference(higher.seats, lower.seats)
    if last is not None:
        return last.other
    return wish_h


def _last_difference(a: Sequence[Seat], b: Sequence[Seat]) -> Seat | None:
    """a's seat in the latest of the games (counted back from each one's last) where a and b
    had different seats."""
    for seat_a, seat_b in zip(reversed(a), reversed(b), strict=False):
        if seat_a is not seat_b:
            return seat_a
    return None
