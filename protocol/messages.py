"""Every message of the Kahuna protocol as a frozen attrs class.

On the wire each message is one binary WebSocket frame holding a msgpack map: the key "type"
(the message's TYPE) plus one key per field. Nested records (TableOptions, PlayerInfo, ...) are
maps of their fields. Views and events are the plain maps built by shared.views; the codec
checks only that they are maps. See docs/protocol.md for who sends what and when.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import attrs

from shared.types import GameOptions, Seat

PROTOCOL_VERSION = 3  # the newest version this code speaks
SUPPORTED_VERSIONS = (1, 2, 3)  # a server answers hello with any of them; see docs/protocol.md
DEFAULT_PORT = 8765  # the TCP port a server listens on, and a client looks for, unless told
SINCE = "since"  # attrs metadata: the protocol version that added a field


def since(version: int, default: Any) -> Any:
    """A field added in `version`: never sent to an older peer, refused from one (as an extra
    field), optional on the wire from a newer one (absent means `default`)."""
    return attrs.field(default=default, metadata={SINCE: version})


def since_v2(default: Any) -> Any:
    return since(2, default)


def since_v3(default: Any) -> Any:
    return since(3, default)


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
class ChatEntry:
    sender: str
    text: str
    role: RoleName | None = since_v2(None)  # the sender's role at the table


# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class Hello:
    TYPE: ClassVar[str] = "hello"
    version: int
    name: str


@attrs.frozen
class LobbySubscribe:
    TYPE: ClassVar[str] = "lobby_subscribe"


@attrs.frozen
class LobbyUnsubscribe:
    TYPE: ClassVar[str] = "lobby_unsubscribe"


@attrs.frozen
class CreateTable:
    TYPE: ClassVar[str] = "create_table"
    options: TableOptions = TableOptions()
    vs_computer: bool = False
    seat: SeatName | None = None  # nil: the server picks (white)
    first: FirstName = "white"
    clock: TimeControl | None = since_v2(None)  # nil: no clock
    level: LevelName = since_v2("normal")  # version 1 tables get "easy", as they always did
    hints: bool = since_v2(True)
    # version 3: rated when both seats come to hold accounts (never against the computer)
    rated: bool = since_v3(True)


@attrs.frozen
class Join:
    TYPE: ClassVar[str] = "join"
    table_id: str
    seat: SeatName | None = None  # nil: whichever seat is free


@attrs.frozen
class Spectate:
    TYPE: ClassVar[str] = "spectate"
    table_id: str


@attrs.frozen
class Reclaim:
    TYPE: ClassVar[str] = "reclaim"
    table_id: str
    token: str


@attrs.frozen
class Leave:
    TYPE: ClassVar[str] = "leave"
    table_id: str


@attrs.frozen
class Command:
    TYPE: ClassVar[str] = "command"
    table_id: str
    version: int  # the state version the action was chosen against
    action: str  # engine notation, see shared/actions.py


@attrs.frozen
class Resync:
    TYPE: ClassVar[str] = "resync"
    table_id: str


@attrs.frozen
class Chat:
    TYPE: ClassVar[str] = "chat"
    table_id: str
    text: str


@attrs.frozen
class Resign:
    """Version 2: the sender's seat gives up the game."""

    TYPE: ClassVar[str] = "resign"
    table_id: str


@attrs.frozen
class OfferDraw:
    """Version 2: offer a draw, or accept the opponent's offer."""

    TYPE: ClassVar[str] = "offer_draw"
    table_id: str


@attrs.frozen
class DeclineDraw:
    TYPE: ClassVar[str] = "decline_draw"
    table_id: str


@attrs.frozen
class Claim:
    """Version 2: claim the win of an opponent who is gone (or idle) past the limit."""

    TYPE: ClassVar[str] = "claim"
    table_id: str


@attrs.frozen
class Rematch:
    """Version 2: after the game, offer a rematch, or accept the opponent's offer."""

    TYPE: ClassVar[str] = "rematch"
    table_id: str


@attrs.frozen
class GetRecord:
    """Version 2: the full record of a finished game at a table the sender sits or watches at."""

    TYPE: ClassVar[str] = "get_record"
    table_id: str


# ----- version 3: players -------------------------------------------------------------------


@attrs.frozen
class Register:
    """Version 3: make an account of this name and password, and log in to it."""

    TYPE: ClassVar[str] = "register"
    name: str
    password: str = attrs.field(repr=False)


@attrs.frozen
class Login:
    """Version 3: log in with a password, or with the login token a `logged_in` gave."""

    TYPE: ClassVar[str] = "login"
    name: str
    password: str | None = attrs.field(default=None, repr=False)
    token: str | None = attrs.field(default=None, repr=False)


@attrs.frozen
class Logout:
    """Version 3: forget the account on this connection and the login token it used."""

    TYPE: ClassVar[str] = "logout"


@attrs.frozen
class ChangePassword:
    """Version 3: a new password, given the old one; every other login token is revoked."""

    TYPE: ClassVar[str] = "change_password"
    old: str = attrs.field(repr=False)
    new: str = attrs.field(repr=False)


@attrs.frozen
class GetRatings:
    """Version 3: the server's leaderboard."""

    TYPE: ClassVar[str] = "get_ratings"


@attrs.frozen
class GetGames:
    """Version 3: a player's games (nil: the sender's own, running ones included)."""

    TYPE: ClassVar[str] = "get_games"
    name: str | None = None


@attrs.frozen
class ChallengeTerms:
    """Version 3: the table a challenge proposes; `seat` is the challenger's (nil: white)."""

    options: TableOptions = TableOptions()
    seat: SeatName | None = None
    first: FirstName = "white"
    clock: TimeControl | None = None
    hints: bool = True
    rated: bool = True


@attrs.frozen
class Challenge:
    """Version 3: challenge a registered player, online or not."""

    TYPE: ClassVar[str] = "challenge"
    name: str
    terms: ChallengeTerms = ChallengeTerms()


ChallengeAnswer = Literal["accept", "decline", "withdraw"]


@attrs.frozen
class AnswerChallenge:
    """Version 3: accept or decline a challenge received, withdraw one sent."""

    TYPE: ClassVar[str] = "answer_challenge"
    challenge_id: str
    answer: ChallengeAnswer


@attrs.frozen
class LobbyChat:
    """Version 3: say something to everyone in the lobby (needs an account)."""

    TYPE: ClassVar[str] = "lobby_chat"
    text: str


@attrs.frozen
class Ignore:
    """Version 3: stop (or, with ignore false, resume) seeing a player's chat and challenges."""

    TYPE: ClassVar[str] = "ignore"
    name: str
    ignore: bool = True


@attrs.frozen
class Resume:
    """Version 3: take back the seat the sender's account holds at a table (no token needed)."""

    TYPE: ClassVar[str] = "resume"
    table_id: str


@attrs.frozen
class Analyse:
    """Version 3: the analysis of a finished game the sender may see (as with get_record: one it
    plays or watches at, or one of the archive), turn by turn (docs/protocol.md, Analysis)."""

    TYPE: ClassVar[str] = "analyse"
    table_id: str


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class Welcome:
    TYPE: ClassVar[str] = "welcome"
    version: int
    server: str
    max_frame: int  # the largest frame the server accepts, in bytes
    max_chat: int  # the longest chat text, in characters
    # version 3: the name the server knows the connection by: the one asked for, or another
    # when that one is registered to an account (`name_note` is then "name_registered")
    name: str | None = since_v3(None)
    name_note: str | None = since_v3(None)
    accounts: bool = since_v3(False)  # whether the server keeps accounts (it has a database)
    # version 3: the addresses of this service (ws:// or wss:// URLs), a standby's among them,
    # for a client to try when the connection is lost; empty when the host named none
    servers: list[str] = since_v3(attrs.Factory(list))


@attrs.frozen
class Error:
    TYPE: ClassVar[str] = "error"
    code: str  # an ErrorCode value
    message: str  # for people
    table_id: str | None = None  # the table the refused message named, if any
    version: int | None = None  # with stale_version: the table's current version
    refused: str | None = None  # the type of the refused message, when it was decoded
    # version 2: with illegal_action, no_offer and cannot_claim, why, as a code and its
    # parameters (docs/protocol.md, Refusal codes)
    reason: str | None = since_v2(None)
    params: dict[str, Any] | None = since_v2(None)


@attrs.frozen
class Lobby:
    TYPE: ClassVar[str] = "lobby"
    tables: list[TableInfo]


@attrs.frozen
class Joined:
    TYPE: ClassVar[str] = "joined"
    table_id: str
    seat: SeatName
    token: str


@attrs.frozen
class Spectating:
    TYPE: ClassVar[str] = "spectating"
    table_id: str


@attrs.frozen
class Left:
    TYPE: ClassVar[str] = "left"
    table_id: str
    reason: str  # in English
    # version 2: why, as a code: reclaimed_elsewhere, stopped_watching, gave_up_seat, stepped_away
    code: str | None = since_v2(None)


@attrs.frozen
class State:
    TYPE: ClassVar[str] = "state"
    table_id: str
    version: int
    role: RoleName
    status: StatusName
    view: dict[str, Any]  # seat_view_to_dict for a seat, public_to_dict for a spectator
    players: Players
    chat: list[ChatEntry]


@attrs.frozen
class Update:
    TYPE: ClassVar[str] = "update"
    table_id: str
    version: int
    events: list[dict[str, Any]]  # event_to_dict, filtered for the recipient
    view: dict[str, Any]


@attrs.frozen
class PlayersChanged:
    TYPE: ClassVar[str] = "players"
    table_id: str
    status: StatusName
    players: Players


@attrs.frozen
class ChatMessage:
    TYPE: ClassVar[str] = "chat_message"
    table_id: str
    sender: str
    text: str
    role: RoleName | None = since_v2(None)


NoteName = Literal[
    "draw_offered", "draw_declined", "rematch_offered", "rematch_declined", "rematch_started",
    "claim_available", "claim_withdrawn",
]  # fmt: skip


@attrs.frozen
class TableNote:
    """Version 2: something happened at the table that is not a game action. `seat` is who did
    it (or whom it concerns); `detail` is the new table's id for rematch_started."""

    TYPE: ClassVar[str] = "table_note"
    table_id: str
    note: NoteName
    seat: SeatName | None
    detail: str | None


@attrs.frozen
class TableClosed:
    TYPE: ClassVar[str] = "table_closed"
    table_id: str
    reason: str  # in English
    # version 2: why, as a code (nobody_seated, left_before_start, abandoned, over_and_left,
    # over, server_failed) and its parameters ({"player": name} where a player is named)
    code: str | None = since_v2(None)
    params: dict[str, Any] | None = since_v2(None)


@attrs.frozen
class History:
    """Version 2: the game's log so far, sent just before every `state`. events[i] holds the
    events of the action that made version i + 1, filtered for the recipient like an update."""

    TYPE: ClassVar[str] = "history"
    table_id: str
    version: int
    events: list[list[dict[str, Any]]]


@attrs.frozen
class Record:
    """Version 2: answer to get_record: the game's full record (docs/records.md)."""

    TYPE: ClassVar[str] = "record"
    table_id: str
    text: str


# ----- version 3: players -------------------------------------------------------------------


@attrs.frozen
class LoggedIn:
    """Version 3: the connection plays as this account; keep `token` to log in again without
    the password (nil when the login used a token, which stays valid)."""

    TYPE: ClassVar[str] = "logged_in"
    name: str
    rating: int
    deviation: int
    games: int  # rated games played
    token: str | None = attrs.field(repr=False)
    ignoring: list[str]
    created: bool  # true after register


@attrs.frozen
class LoggedOut:
    TYPE: ClassVar[str] = "logged_out"
    name: str  # the guest name the connection has now


@attrs.frozen
class PasswordChanged:
    TYPE: ClassVar[str] = "password_changed"
    token: str = attrs.field(repr=False)  # the new login token (the others are revoked)


@attrs.frozen
class RatingEntry:
    name: str
    rating: int
    deviation: int
    games: int  # rated games
    wins: int
    losses: int
    draws: int
    online: bool


@attrs.frozen
class Ratings:
    TYPE: ClassVar[str] = "ratings"
    players: list[RatingEntry]  # best first


GameStatusName = Literal["playing", "over"]


@attrs.frozen
class GameEntry:
    """One game of a player's list. `winner` is "white", "black" or nil (a draw, or running);
    `ending` the result's reason code; times are unix times."""

    table_id: str
    white: str
    black: str
    status: GameStatusName
    to_move: SeatName | None  # while running
    winner: SeatName | None
    ending: str | None
    rated: bool
    white_change: int | None  # rating changes of a rated game
    black_change: int | None
    started: float
    finished: float | None
    deadline: float | None  # a running correspondence game: when the mover's time runs out
    vs_computer: bool
    level: LevelName | None  # the computer's, against it


@attrs.frozen
class PlayerStats:
    """A player's record: rated wins, losses, draws, and against the computer per level."""

    rated: list[int]  # [wins, losses, draws]
    computer: dict[str, list[int]]  # level -> [wins, losses, draws], unrated


@attrs.frozen
class Games:
    """Answer to get_games: the player's games, newest first (running ones first of all)."""

    TYPE: ClassVar[str] = "games"
    name: str
    rating: int | None
    games: list[GameEntry]
    stats: PlayerStats


@attrs.frozen
class ChallengeInfo:
    challenge_id: str
    sender: str
    recipient: str
    terms: ChallengeTerms
    created: float  # unix time


@attrs.frozen
class Challenges:
    """Version 3: every standing challenge to and from the player, sent after login and on
    every change."""

    TYPE: ClassVar[str] = "challenges"
    challenges: list[ChallengeInfo]


PlayerNoteName = Literal[
    "challenge_accepted", "challenge_declined", "challenge_withdrawn", "challenge_received",
    "your_move", "time_low",
]  # fmt: skip


@attrs.frozen
class PlayerNote:
    """Version 3: something for the player that is not at a table they are watching: a
    challenge answered (`table_id`: the new game's), a move awaited, a clock running low."""

    TYPE: ClassVar[str] = "player_note"
    note: PlayerNoteName
    table_id: str | None
    name: str | None  # the other player


@attrs.frozen
class LobbyChatEntry:
    sender: str
    text: str
    at: float  # unix time


@attrs.frozen
class LobbyChatMessage:
    """Version 3: the lobby's chat: one new line, or (with `history`) the latest lines, sent to a
    version-3 lobby watcher when they subscribe."""

    TYPE: ClassVar[str] = "lobby_chat_message"
    entries: list[LobbyChatEntry]
    history: bool


@attrs.frozen
class Ignoring:
    TYPE: ClassVar[str] = "ignoring"
    names: list[str]


@attrs.frozen
class Watchers:
    """Version 3: who watches a table (its spectators' names there, in the order they came),
    sent to the table's members when it changes, and to one who comes to the table while
    someone watches."""

    TYPE: ClassVar[str] = "watchers"
    table_id: str
    names: list[str]


@attrs.frozen
class AnalysisProgress:
    """Version 3: how far the analysis asked for has come: `done` of `total` turns."""

    TYPE: ClassVar[str] = "analysis_progress"
    table_id: str
    done: int
    total: int


MarkName = Literal["inaccuracy", "mistake", "blunder"]


@attrs.frozen
class AnalysedTurn:
    """One turn of an analysis (shared.analysis.TurnAnalysis on the wire). The chances are the
    mover's, from the mover's own view, between 0 and 1; `white` is White's after the turn, as
    the chart draws it. `best` is the play the search prefers as the turn began (the notation;
    nil when there was none to choose), `reason` and `params` why, as a code of
    shared.reasons (nil with `best` nil)."""

    number: int  # 1-based
    seat: SeatName
    played: list[str]  # the turn's actions, in the notation
    before: float
    after: float
    white: float
    cost: float  # before - after, never below 0
    mark: MarkName | None
    best: str | None
    reason: str | None
    params: dict[str, Any] | None


@attrs.frozen
class PlayerAnalysis:
    """A player's turns in sum: the average cost of a turn and the count of each mark."""

    seat: SeatName
    average_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int


@attrs.frozen
class Analysis:
    """Version 3: the answer to analyse: every turn, each player's sum, and the turning points
    (the numbers of the two or three turns that cost the most, in the game's order)."""

    TYPE: ClassVar[str] = "analysis"
    table_id: str
    turns: list[AnalysedTurn]
    players: list[PlayerAnalysis]
    turning_points: list[int]
    playouts: int  # the playouts that judged each view (the depth)


ClientMessage = (
    Hello | LobbySubscribe | LobbyUnsubscribe | CreateTable | Join | Spectate | Reclaim | Leave
    | Command | Resync | Chat | GetRecord | Resign | OfferDraw | DeclineDraw | Claim | Rematch
    | Register | Login | Logout | ChangePassword | GetRatings | GetGames | Challenge
    | AnswerChallenge | LobbyChat | Ignore | Resume | Analyse
)  # fmt: skip
ServerMessage = (
    Welcome | Error | Lobby | Joined | Spectating | Left | State | Update | PlayersChanged
    | ChatMessage | TableClosed | History | Record | TableNote | LoggedIn | LoggedOut
    | PasswordChanged | Ratings | Games | Challenges | PlayerNote | LobbyChatMessage | Ignoring
    | Watchers | AnalysisProgress | Analysis
)  # fmt: skip
Message = ClientMessage | ServerMessage

CLIENT_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        Hello, LobbySubscribe, LobbyUnsubscribe, CreateTable, Join, Spectate, Reclaim, Leave,
        Command, Resync, Chat, GetRecord, Resign, OfferDraw, DeclineDraw, Claim, Rematch,
        Register, Login, Logout, ChangePassword, GetRatings, GetGames, Challenge,
        AnswerChallenge, LobbyChat, Ignore, Resume, Analyse,
    )
}  # fmt: skip
SERVER_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        Welcome, Error, Lobby, Joined, Spectating, Left, State, Update, PlayersChanged,
        ChatMessage, TableClosed, History, Record, TableNote, LoggedIn, LoggedOut,
        PasswordChanged, Ratings, Games, Challenges, PlayerNote, LobbyChatMessage, Ignoring,
        Watchers, AnalysisProgress, Analysis,
    )
}  # fmt: skip
ALL_TYPES: dict[str, type[Any]] = {**CLIENT_TYPES, **SERVER_TYPES}

# Messages that exist only from version 2 on: a version-1 connection never receives one, and one
# it sends is refused as unknown_type, as a version-1 server would.
V2_ONLY: frozenset[str] = frozenset(
    cls.TYPE
    for cls in (
        GetRecord, History, Record, Resign, OfferDraw, DeclineDraw, Claim, Rematch, TableNote,
    )
)  # fmt: skip

# Messages that exist only from version 3 on, likewise unknown to versions 1 and 2.
V3_ONLY: frozenset[str] = frozenset(
    cls.TYPE
    for cls in (
        Register, Login, Logout, ChangePassword, GetRatings, GetGames, Challenge,
        AnswerChallenge, LobbyChat, Ignore, Resume, LoggedIn, LoggedOut, PasswordChanged,
        Ratings, Games, Challenges, PlayerNote, LobbyChatMessage, Ignoring, Watchers, Analyse,
        AnalysisProgress, Analysis,
    )
)  # fmt: skip

# The version that added each message type (1 for those not listed).
MESSAGE_SINCE: dict[str, int] = {**dict.fromkeys(V2_ONLY, 2), **dict.fromkeys(V3_ONLY, 3)}
