"""Every message of the Kahuna protocol as a frozen attrs class.

On the wire each message is one binary WebSocket frame holding a msgpack map: the key "type"
(the message's TYPE) plus one key per field. Nested records (TableOptions, PlayerInfo, ...) are
maps of their fields. Views and events are the plain maps built by shared.views; the codec
checks only that they are maps. See docs/protocol.md for who sends what and when.

This module holds the messages of versions 1 and 2 and the registries of every type; what they
are made of is in protocol.fields, version 3's messages in protocol.player_messages and
protocol.analysis_messages, version 4's in protocol.tournament_messages and
protocol.account_messages.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import attrs

from protocol.account_messages import DeleteAccount, GameRecords, GetGameRecords
from protocol.analysis_messages import (
    Analyse,
    Analysis,
    AnalysisProgress,
)
from protocol.fields import (
    VALUES_SINCE,
    ChatEntry,
    FirstName,
    GameTournament,
    LevelName,
    Players,
    RoleName,
    SeatName,
    StatusName,
    TableInfo,
    TableOptions,
    TimeControl,
    since_v2,
    since_v3,
    since_v4,
)
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    MailNote,
    MailSettings,
    ResetPassword,
    SetEmail,
    SetMailSettings,
)
from protocol.moderation_messages import (
    CloseReport,
    GetModeration,
    Moderate,
    Moderation,
    ModerationNote,
    ReportPlayer,
)
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChangePassword,
    GameEntry,
    Games,
    GetGames,
    GetRatings,
    Ignore,
    Ignoring,
    LobbyChat,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PasswordChanged,
    PlayerNote,
    Ratings,
    Register,
    Resume,
    Watchers,
)
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    GetTournaments,
    JoinTournament,
    StartTournament,
    Tournaments,
    TournamentState,
    WatchTournament,
    WithdrawTournament,
)

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
    # version 4: whether the server sends e-mail (its operator named a relay): a client offers
    # nothing about e-mail without it
    mail: bool = since_v4(False)


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
    "claim_available", "claim_withdrawn", "not_rated",
]  # fmt: skip
# the notes newer than table_note itself: version 4's not_rated (a rated table's game over too
# soon to count), which the peers before it neither get nor accept
TABLE_NOTE_SINCE: dict[str, int] = {"not_rated": 4}


@attrs.frozen
class TableNote:
    """Version 2: something happened at the table that is not a game action. `seat` is who did
    it (or whom it concerns); `detail` is the new table's id for rematch_started, why for
    not_rated (version 4: "too_short")."""

    TYPE: ClassVar[str] = "table_note"
    table_id: str
    note: NoteName = attrs.field(metadata={VALUES_SINCE: TABLE_NOTE_SINCE})
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
    # version 4: a tournament's game, its tournament and round (the record names no one, so
    # a replay opened on its own, from a shared link, would not know it otherwise)
    tournament: GameTournament | None = since_v4(None)
    # version 4: the game as a games list gives it: its players, result and rating changes,
    # which the record's text does not say either (nil: a game the server has no entry of)
    game: GameEntry | None = since_v4(None)


ClientMessage = (
    Hello | LobbySubscribe | LobbyUnsubscribe | CreateTable | Join | Spectate | Reclaim | Leave
    | Command | Resync | Chat | GetRecord | Resign | OfferDraw | DeclineDraw | Claim | Rematch
    | Register | Login | Logout | ChangePassword | GetRatings | GetGames | Challenge
    | AnswerChallenge | LobbyChat | Ignore | Resume | Analyse | GetTournaments | CreateTournament
    | JoinTournament | WithdrawTournament | StartTournament | WatchTournament | DirectTournament
    | SetEmail | ConfirmEmail | GetMailSettings | SetMailSettings | ForgotPassword | ResetPassword
    | DeleteAccount | GetGameRecords
    | Moderate | ReportPlayer | GetModeration | CloseReport
)  # fmt: skip
ServerMessage = (
    Welcome | Error | Lobby | Joined | Spectating | Left | State | Update | PlayersChanged
    | ChatMessage | TableClosed | History | Record | TableNote | LoggedIn | LoggedOut
    | PasswordChanged | Ratings | Games | Challenges | PlayerNote | LobbyChatMessage | Ignoring
    | Watchers | AnalysisProgress | Analysis | Tournaments | TournamentState | MailSettings
    | MailNote | GameRecords | Moderation | ModerationNote
)  # fmt: skip
Message = ClientMessage | ServerMessage

CLIENT_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        Hello, LobbySubscribe, LobbyUnsubscribe, CreateTable, Join, Spectate, Reclaim, Leave,
        Command, Resync, Chat, GetRecord, Resign, OfferDraw, DeclineDraw, Claim, Rematch,
        Register, Login, Logout, ChangePassword, GetRatings, GetGames, Challenge,
        AnswerChallenge, LobbyChat, Ignore, Resume, Analyse, GetTournaments, CreateTournament,
        JoinTournament, WithdrawTournament, StartTournament, WatchTournament, DirectTournament,
        SetEmail, ConfirmEmail, GetMailSettings, SetMailSettings, ForgotPassword, ResetPassword,
        DeleteAccount, GetGameRecords,
        Moderate, ReportPlayer, GetModeration, CloseReport,
    )
}  # fmt: skip
SERVER_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        Welcome, Error, Lobby, Joined, Spectating, Left, State, Update, PlayersChanged,
        ChatMessage, TableClosed, History, Record, TableNote, LoggedIn, LoggedOut,
        PasswordChanged, Ratings, Games, Challenges, PlayerNote, LobbyChatMessage, Ignoring,
        Watchers, AnalysisProgress, Analysis, Tournaments, TournamentState, MailSettings,
        MailNote, GameRecords, Moderation, ModerationNote,
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

# Messages that exist only from version 4 on: the tournaments, e-mail, the player's own
# account, moderation.
V4_ONLY: frozenset[str] = frozenset(
    cls.TYPE
    for cls in (
        GetTournaments, CreateTournament, JoinTournament, WithdrawTournament, StartTournament,
        WatchTournament, DirectTournament, Tournaments, TournamentState,
        # e-mail (protocol/mail_messages.py)
        SetEmail, ConfirmEmail, GetMailSettings, SetMailSettings, ForgotPassword, ResetPassword,
        MailSettings, MailNote,
        # the player's own account (protocol/account_messages.py)
        DeleteAccount, GetGameRecords, GameRecords,
        # moderation (protocol/moderation_messages.py)
        Moderate, ReportPlayer, GetModeration, CloseReport, Moderation, ModerationNote,
    )
)  # fmt: skip

# The version that added each message type (1 for those not listed).
MESSAGE_SINCE: dict[str, int] = {
    **dict.fromkeys(V2_ONLY, 2),
    **dict.fromkeys(V3_ONLY, 3),
    **dict.fromkeys(V4_ONLY, 4),
}
