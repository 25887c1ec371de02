"""What the messages of the Kahuna protocol are made of: the versions, the `since` marks of the
fields a version added, the names on the wire (seats, levels, roles) and the nested records
(TableOptions, PlayerInfo, ...), which go on the wire as maps of their fields."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from shared.types import GameOptions, Seat

PROTOCOL_VERSION = 4  # the newest version this code speaks
SUPPORTED_VERSIONS = (1, 2, 3, 4)  # a server answers hello with any of them; see docs/protocol.md
DEFAULT_PORT = 8765  # the TCP port a server listens on, and a client looks for, unless told
SINCE = "since"  # attrs metadata: the protocol version that added a field
# attrs metadata: {value: the version that added it} for a field's values (a Literal's) newer
# than the field; such a value is refused from an older peer and never encoded for one
VALUES_SINCE = "values_since"


def since(version: int, default: Any) -> Any:
    """A field added in `version`: never sent to an older peer, refused from one (as an extra
    field), optional on the wire from a newer one (absent means `default`)."""
    return attrs.field(default=default, metadata={SINCE: version})


def since_v2(default: Any) -> Any:
    return since(2, default)


def since_v3(default: Any) -> Any:
    return since(3, default)


def since_v4(default: Any) -> Any:
    return since(4, default)


LevelName = Literal["easy", "normal", "strong"]

SeatName = Literal["white", "black"]
FirstName = Literal["white", "black", "random"]
RoleName = Literal["white", "black", "spectator"]
StatusName = Literal["waiting", "playing", "over"]


# ----- nested records ---------------------------------------------------------------------


@attrs.frozen
class TableOptions:
    """GameOptions on the wire: handicap_seat is "white", "black" or nil."""

    variant1: bool = False
    variant2: bool = False
    handicap_seat: SeatName | None = None
    handicap_bridges: int = 0

    def to_game_options(self) -> GameOptions:
        """The engine's options; raises shared.types.OptionsError if they make no game."""
        return GameOptions.from_dict(attrs.asdict(self))

    @classmethod
    def from_game_options(cls, options: GameOptions) -> TableOptions:
        seat = options.handicap_seat
        return cls(
            options.variant1,
            options.variant2,
            None if seat is None else _seat_name(seat),
            options.handicap_bridges,
        )


def _seat_name(seat: Seat) -> SeatName:
    return "white" if seat is Seat.WHITE else "black"


def seat_name(seat: Seat) -> SeatName:
    """The wire name of a seat."""
    return _seat_name(seat)


@attrs.frozen
class TimeControl:
    """Version 2: a clock per player. `initial` seconds for the whole game plus `increment`
    seconds after each turn; or, with `per_turn` > 0, that many seconds for each turn."""

    initial: int = 0
    increment: int = 0
    per_turn: int = 0
    # version 3: a correspondence game, `days` for each move (then the others are 0); the time
    # runs on the wall clock, through restarts, and only while the mover is to move
    days: int = since_v3(0)


@attrs.frozen
class PlayerInfo:
    name: str
    connected: bool
    computer: bool
    rating: int | None = since_v3(None)  # version 3: a registered player's rating (else nil)


@attrs.frozen
class Players:
    white: PlayerInfo | None
    black: PlayerInfo | None

    def get(self, seat: Seat) -> PlayerInfo | None:
        return self.white if seat is Seat.WHITE else self.black


@attrs.frozen
class TableInfo:
    table_id: str
    options: TableOptions
    vs_computer: bool
    players: Players
    spectators: int
    status: StatusName
    clock: TimeControl | None = since_v2(None)
    level: LevelName = since_v2("easy")  # the computer's strength, at a table against it
    hints: bool = since_v2(True)  # whether the players agreed that hints may be used
    rated: bool = since_v3(False)  # version 3: the result changes the players' ratings


@attrs.frozen
class GameTournament:
    """Version 4: the tournament a game was played in, and its round (the tournament's round,
    not one of the game's own three), as a tournament's table says it (`table.tournament`)."""

    tournament_id: str
    name: str
    round: int


@attrs.frozen
class ChatEntry:
    sender: str
    text: str
    role: RoleName | None = since_v2(None)  # the sender's role at the table
