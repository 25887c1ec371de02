"""What a table shows besides the game (protocol version 2, the view's "table" key): the clocks,
the offers standing, who may claim, the computer's level, whether hints are allowed; and the
time controls the client offers. Pure: no I/O; the time is always passed in.
"""

from __future__ import annotations

import math
import re
from typing import Any

import attrs

from client.language.i18n import _, ngettext, pgettext
from protocol.fields import LevelName, TimeControl
from shared.types import Seat

LOW_TIME = 30.0  # seconds: under this a clock is shown in the warning colour, with a "!"


@attrs.frozen
class ClockView:
    """The clocks as the server sent them: ms left at the moment the message was made."""

    left_ms: tuple[int, int]  # by seat
    running: Seat | None
    initial: int = 0
    increment: int = 0
    per_turn: int = 0
    days: int = 0  # version 3: a game of days, this many for each move

    @property
    def control(self) -> TimeControl:
        return TimeControl(self.initial, self.increment, self.per_turn, self.days)

    def left(self, seat: Seat, since: float, now: float) -> float:
        """Seconds left for the seat at `now`, counted down locally from `since` (when the
        message arrived) for the running clock; never below zero. Only the server decides."""
        left = self.left_ms[seat] / 1000
        if seat is self.running:
            left -= max(now - since, 0.0)
        return max(left, 0.0)


@attrs.frozen
class TableTournament:
    """Version 4: the tournament whose game the table plays, and its round (not the game's)."""

    tournament_id: str
    name: str
    round: int


@attrs.frozen
class TableView:
    clock: ClockView | None = None
    draw_offer: Seat | None = None
    rematch_offer: Seat | None = None
    rematch_table: str | None = None
    claim: Seat | None = None
    level: str | None = None
    hints: bool = True
    tournament: TableTournament | None = None  # a tournament's game: no rematch


def _tournament(value: Any) -> TableTournament | None:
    if not isinstance(value, dict):
        return None
    tournament_id, name, number = value.get("tournament_id"), value.get("name"), value.get("round")
    if not isinstance(tournament_id, str) or not isinstance(name, str):
        return None
    if not isinstance(number, int) or isinstance(number, bool):
        return None
    return TableTournament(tournament_id, name, number)


def _seat(value: Any) -> Seat | None:
    if not isinstance(value, str):
        return None
    try:
        return Seat.parse(value)
    except ValueError:
        return None


def table_from_view(view: dict[str, Any]) -> TableView | None:
    """The "table" key of a view (a seat's view or a spectator's), None when there is none
    (a version-1 server) or it cannot be read. Keys this client does not know are ignored."""
    data = view.get("table")
    if not isinstance(data, dict):
        return None
    clock = None
    raw = data.get("clock")
    if isinstance(raw, dict):
        try:
            clock = ClockView(
                (int(raw["white"]), int(raw["black"])),
                _seat(raw.get("running")),
                int(raw.get("initial", 0)),
                int(raw.get("increment", 0)),
                int(raw.get("per_turn", 0)),
                int(raw.get("days", 0)),
            )
        except (KeyError, TypeError, ValueError):
            clock = None
    level = data.get("level")
    rematch = data.get("rematch_table")
    return TableView(
        clock=clock,
        draw_offer=_seat(data.get("draw_offer")),
        rematch_offer=_seat(data.get("rematch_offer")),
        rematch_table=rematch if isinstance(rematch, str) else None,
        claim=_seat(data.get("claim")),
        level=level if isinstance(level, str) else None,
        hints=bool(data.get("hints", True)),
        tournament=_tournament(data.get("tournament")),
    )


def format_clock(seconds: float) -> str:
    """m:ss (h:mm:ss from an hour), rounded up: a clock shows 0:00 only when it is out."""
    whole = max(math.ceil(seconds - 1e-9), 0)
    if whole >= 86400:  # a game of days
        days, rest = divmod(whole, 86400)
        return _("{d}d {h}h").format(d=days, h=rest // 3600)  # as the lists say it
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02}:{secs:02}"
    return f"{minutes}:{secs:02}"


# ----- time controls -----------------------------------------------------------------------

# What the new-table form cycles through: none, totals with an increment, a time per turn.
CLOCK_CHOICES: tuple[TimeControl | None, ...] = (
    None,
    TimeControl(5 * 60, 3, 0),
    TimeControl(10 * 60, 5, 0),
    TimeControl(30 * 60, 0, 0),
    TimeControl(0, 0, 60),
    TimeControl(days=1),  # games of days (version 3): for players who are not there at once
    TimeControl(days=3),
    TimeControl(days=7),
)
LEVEL_CHOICES: tuple[LevelName, ...] = ("easy", "normal", "strong")


def describe_control(control: TimeControl | None) -> str:
    """'none', '5+3 (5 min, +3 s a turn)', '1 min per turn', ..."""
    if control is None:  # Italian: "nessuno" (il tempo), not a card's "nessuna"
        return pgettext("time control", "none")
    if control.days:
        return ngettext("{n} day a move", "{n} days a move", control.days).format(n=control.days)
    if control.per_turn:
        turn = control.per_turn
        if turn % 60 == 0:
            return _("{n} min per turn").format(n=turn // 60)
        return _("{n} s per turn").format(n=turn)
    total = control.initial
    minutes = f"{total // 60}" if total % 60 == 0 else f"{total / 60:g}"
    short = f"{minutes}+{control.increment}"
    if control.increment:
        return _("{short} ({minutes} min each, +{n} s a turn)").format(
            short=short, minutes=minutes, n=control.increment
        )
    return _("{short} ({minutes} min each)").format(short=short, minutes=minutes)


def short_control(control: TimeControl | None) -> str:
    """For the lobby's narrow column: '5+3', '60s/t', ''."""
    if control is None:
        return ""
    if control.days:
        return f"{control.days}d/t"
    if control.per_turn:
        return f"{control.per_turn}s/t"
    total = control.initial
    minutes = f"{total // 60}" if total % 60 == 0 else f"{total / 60:g}"
    return f"{minutes}+{control.increment}"


_TOTAL = re.compile(r"(\d+(?:\.\d+)?)\+(\d+)")
_TURN = re.compile(r"(\d+)\s*(s|m|min)?\s*/\s*(?:turn|t)")


def parse_control(text: str) -> TimeControl | None:
    """'none', 'M+S' (M minutes each, S seconds added after each turn: '5+3', '30+0') or
    'N/turn' (N seconds a turn; '1m/turn' a minute). ValueError with the reason otherwise,
    also for times outside the server's limits (10 s to 24 h total, increment up to 600 s,
    5 s to 24 h a turn)."""
    value = text.strip().lower()
    if value in ("", "none", "no", "off"):
        return None
    total = _TOTAL.fullmatch(value)
    if total is not None:
        seconds = round(float(total.group(1)) * 60)
        increment = int(total.group(2))
        if not 10 <= seconds <= 24 * 3600:
            raise ValueError(_("the total is from 10 seconds to 24 hours"))
        if increment > 600:
            raise ValueError(_("the increment is at most 600 seconds"))
        return TimeControl(seconds, increment, 0)
    turn = _TURN.fullmatch(value)
    if turn is not None:
        seconds = int(turn.group(1)) * (60 if turn.group(2) in ("m", "min") else 1)
        if not 5 <= seconds <= 24 * 3600:
            raise ValueError(_("a turn has 5 seconds to 24 hours"))
        return TimeControl(0, 0, seconds)
    raise ValueError(
        _(
            "{text} is not a time control: 'none', MINUTES+SECONDS like 5+3 (5 minutes each,"
            " 3 seconds more after each turn), or SECONDS/turn like 60/turn"
        ).format(text=repr(text))
    )
