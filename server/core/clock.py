"""A game clock: each player's time left, the server's the only one that counts.

Pure: every method takes the time (the core's monotonic seconds). Three kinds of control:
a total per player plus an increment after each of the player's turns (Fischer), a fixed
time for each turn (`per_turn`), or (version 3) days for each move (`days`, correspondence). The
clock of the player to move runs; when the turn passes, the mover is charged and the other's
clock starts.

A live clock restarts at a server restart, so the time the server was down is charged to nobody.
A clock of days runs on the calendar: it is stored as the wall-clock deadline of the move, and a
restart changes nothing.
"""

from __future__ import annotations

from typing import Any

import attrs

from protocol.fields import TimeControl
from shared.types import Seat


class ClockError(ValueError):
    """A time control that makes no clock, or a stored clock that cannot be read."""


DAY = 86400
MAX_DAYS = 14


def check_control(control: TimeControl) -> None:
    if control.per_turn < 0 or control.initial < 0 or control.increment < 0 or control.days < 0:
        raise ClockError("clock times are not negative")
    if control.days:
        if control.per_turn or control.initial or control.increment:
            raise ClockError("a clock of days has no other time")
        if control.days > MAX_DAYS:
            raise ClockError(f"a move has 1 to {MAX_DAYS} days")
        return
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
    # version 3: a clock of days, which waits for its players however long; a field, not a
    # property, as every view and every turn asks it
    correspondence: bool = attrs.field(
        init=False, default=attrs.Factory(lambda clock: clock.control.days > 0, takes_self=True)
    )

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        check_control(control)
        start = float(control.days * DAY or control.per_turn or control.initial)
        return cls(control, [start, start])

    @property
    def per_move(self) -> float:
        """The time each move has afresh (0: a total for the game)."""
        return float(self.control.days * DAY or self.control.per_turn)

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
        if self.per_move:
            self.left[seat] = self.per_move
        self.running, self.since = seat, now

    def stop(self, now: float) -> None:
        if self.running is not None:
            self.left[self.running] = self.left_at(self.running, now)
            self.running = None

    def turn_passed(self, mover: Seat, now: float) -> None:
        """The mover ended its turn: charge it, add its increment, start the other clock."""
        self.stop(now)
        if not self.per_move:
            self.left[mover] += self.control.increment
        self.start(mover.other, now)

    def deadline(self, now: float, wall: float) -> float | None:
        """When the mover's time runs out, in unix time (None: no clock runs)."""
        if self.running is None:
            return None
        return wall + self.left_at(self.running, now)

    # ----- stored and shown -------------------------------------------------------------------

    def to_state(self, now: float, wall: float) -> dict[str, Any]:
        """What is stored: the times left now; the running seat restarts at a restore, so the
        time a server was down is charged to nobody; a clock of days also keeps its deadline
        on the calendar, which a restore goes by."""
        control = attrs.asdict(self.control)
        state: dict[str, Any] = {
            "control": control,
            "left": [self.left_at(seat, now) for seat in Seat],
            "running": None if self.running is None else self.running.name.lower(),
        }
        if not control["days"]:
            del control["days"]  # stored as before version 3 for every clock but one of days
        else:
            state["deadline"] = self.deadline(now, wall)
        return state

    @classmethod
    def from_state(cls, data: Any, now: float, wall: float) -> Clock:
        try:
            control = TimeControl(**data["control"])
            left = [float(x) for x in data["left"]]
            running = None if data["running"] is None else Seat.parse(data["running"])
            deadline = data.get("deadline")
            if control.days and running is not None and deadline is not None:
                left[running] = float(deadline) - wall  # the days ran on while it was down
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

    def to_view_at(self, now: float, wall: float) -> dict[str, Any]:
        """The view's clock; a clock of days also says its days and its deadline (keys that
        only tables of version 3 have)."""
        view = self.to_view(now)
        if self.control.days:
            view["days"] = self.control.days
            view["deadline"] = self.deadline(now, wall)
        return view
