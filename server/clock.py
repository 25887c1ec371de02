"""A game clock: each player's time left, the server's the only one that counts.

Pure: every method takes the time (the core's monotonic seconds). Two kinds of control:
a total per player plus an increment after each of the player's turns (Fischer), or a fixed
time for each turn (`per_turn`). The clock of the player to move runs; when the turn passes, the
mover is charged and the other's clock starts.
"""

from __future__ import annotations

from typing import Any

import attrs

from protocol.messages import TimeControl
from shared.types import Seat


class ClockError(ValueError):
    """A time control that makes no clock, or a stored clock that cannot be read."""


def check_control(control: TimeControl) -> None:
    if control.per_turn < 0 or control.initial < 0 or control.increment < 0:
        raise ClockError("clock times are not negative")
    if control.per_turn:
        if control.initial or control.increment:
            raise ClockError("a clock is either per turn or a total with an increment")
        if not 5 <= control.per_turn <= 24 * 3600:
            raise ClockError("a turn has 5 seconds to 24 hours")
    elif not 10 <= control.initial <= 24 * 3600 or control.increment > 600:
        raise ClockError("a total of 10 seconds to 24 hours, and at most 600 s increment")


@attrs.define
class Clock:
    control: TimeControl
    left: list[float]  # seconds, by seat, as of `since` for the running one
    running: Seat | None = None
    since: float = 0.0

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        check_control(control)
        start = float(control.per_turn or control.initial)
        return cls(control, [start, start])

    def left_at(self, seat: Seat, now: float) -> float:
        if seat is self.running:
            return self.left[seat] - (now - self.since)
        return self.left[seat]

    def flag_at(self) -> float | None:
        """When the running clock reaches zero."""
        return None if self.running is None else self.since + self.left[self.running]

    def start(self, seat: Seat, now: float) -> None:
        """The seat's turn begins."""
        self.stop(now)
        if self.control.per_turn:
            self.left[seat] = float(self.control.per_turn)
        self.running, self.since = seat, now

    def stop(self, now: float) -> None:
        if self.running is not None:
            self.left[self.running] = self.left_at(self.running, now)
            self.running = None

    def turn_passed(self, mover: Seat, now: float) -> None:
        """The mover ended its turn: charge it, add its increment, start the other clock."""
        self.stop(now)
        if not self.control.per_turn:
            self.left[mover] += self.control.increment
        self.start(mover.other, now)

    def deadline_wall(self) -> float | None:
        """Version 3: when the mover's time runs out, in unix time, for a clock of days."""
        return None

    # ----- stored and shown -------------------------------------------------------------------

    def to_state(self, now: float) -> dict[str, Any]:
        """What is stored: the times left now; the running seat restarts at a restore, so the
        time a server was down is charged to nobody."""
        control = attrs.asdict(self.control)
        if not control["days"]:
            del control["days"]  # stored as before version 3 for every clock but one of days
        return {
            "control": control,
            "left": [self.left_at(seat, now) for seat in Seat],
            "running": None if self.running is None else self.running.name.lower(),
        }

    @classmethod
    def from_state(cls, data: Any, now: float) -> Clock:
        try:
            control = TimeControl(**data["control"])
            left = [float(x) for x in data["left"]]
            running = None if data["running"] is None else Seat.parse(data["running"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ClockError(f"unreadable clock {data!r}: {exc}") from None
        if len(left) != 2:
            raise ClockError(f"unreadable clock {data!r}")
        return cls(control, left, running, now)

    def to_view(self, now: float) -> dict[str, Any]:
        """For every view: each player's time left at this moment, in milliseconds, and whose
        clock runs; clients count down from it without trusting their own time."""
        return {
            "white": max(0, round(self.left_at(Seat.WHITE, now) * 1000)),
            "black": max(0, round(self.left_at(Seat.BLACK, now) * 1000)),
            "running": None if self.running is None else self.running.name.lower(),
            "initial": self.control.initial,
            "increment": self.control.increment,
            "per_turn": self.control.per_turn,
        }
