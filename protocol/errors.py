"""Every error code of the protocol, with its meaning, and the typed error that carries one.

The codes are stable: clients may switch on them. docs/protocol.md lists the same table.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    # ----- the frame itself (protocol.codec) -----
    FRAME_TOO_LARGE = "frame_too_large"
    TEXT_FRAME = "text_frame"
    BAD_MSGPACK = "bad_msgpack"
    NOT_A_MAP = "not_a_map"
    MISSING_TYPE = "missing_type"
    UNKNOWN_TYPE = "unknown_type"
    MISSING_FIELD = "missing_field"
    EXTRA_FIELD = "extra_field"
    BAD_FIELD = "bad_field"
    # ----- the session -----
    HELLO_REQUIRED = "hello_required"
    ALREADY_GREETED = "already_greeted"
    VERSION_MISMATCH = "version_mismatch"
    BAD_NAME = "bad_name"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    SERVER_FULL = "server_full"
    INTERNAL_ERROR = "internal_error"
    # ----- the lobby and tables -----
    BAD_OPTIONS = "bad_options"
    NO_SUCH_TABLE = "no_such_table"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    ALREADY_AT_TABLE = "already_at_table"
    NOT_AT_TABLE = "not_at_table"
    BAD_TOKEN = "bad_token"
    TOO_MANY_TABLES = "too_many_tables"
    # ----- commands -----
    SPECTATOR_CANNOT_ACT = "spectator_cannot_act"
    GAME_NOT_STARTED = "game_not_started"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    BAD_NOTATION = "bad_notation"
    ILLEGAL_ACTION = "illegal_action"
    # ----- chat -----
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_RATE_LIMITED = "chat_rate_limited"
    # version 2
    GAME_NOT_OVER = "game_not_over"
    NO_OFFER = "no_offer"
    CANNOT_CLAIM = "cannot_claim"
    # version 3
    NO_ACCOUNTS = "no_accounts"
    NAME_REGISTERED = "name_registered"
    BAD_ACCOUNT_NAME = "bad_account_name"
    BAD_PASSWORD = "bad_password"
    BAD_LOGIN = "bad_login"
    LOGIN_THROTTLED = "login_throttled"
    LOGIN_REQUIRED = "login_required"
    ALREADY_LOGGED_IN = "already_logged_in"
    NO_SUCH_PLAYER = "no_such_player"
    NO_SUCH_CHALLENGE = "no_such_challenge"
    BAD_CHALLENGE = "bad_challenge"
    TOO_MANY_CHALLENGES = "too_many_challenges"
    NO_SUCH_GAME = "no_such_game"
    BUSY = "busy"
    # version 4
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    BAD_TOURNAMENT = "bad_tournament"
    # version 4's e-mail
    NO_MAIL = "no_mail"
    BAD_EMAIL = "bad_email"
    BAD_CODE = "bad_code"
    # version 4's own account
    CANNOT_DELETE = "cannot_delete"
    # version 4: moderation (protocol/moderation_messages.py)
    NOT_MODERATOR = "not_moderator"
    BAD_MODERATION = "bad_moderation"
    MUTED = "muted"
    ADDRESS_BANNED = "address_banned"


MEANINGS: dict[ErrorCode, str] = {
    ErrorCode.FRAME_TOO_LARGE: "the frame is longer than the server's frame limit; it was ignored",
    ErrorCode.TEXT_FRAME: "a text frame was sent; every message is a binary msgpack frame",
    ErrorCode.BAD_MSGPACK: "the bytes are not one complete msgpack value",
    ErrorCode.NOT_A_MAP: "the msgpack value is not a map with string keys",
    ErrorCode.MISSING_TYPE: "the map has no string 'type' key",
    ErrorCode.UNKNOWN_TYPE: "'type' names no message that this side accepts",
    ErrorCode.MISSING_FIELD: "a field the message requires is absent",
    ErrorCode.EXTRA_FIELD: "the message has a field it does not define",
    ErrorCode.BAD_FIELD: "a field has the wrong type or a value outside its range",
    ErrorCode.HELLO_REQUIRED: "the first message of a connection must be hello",
    ErrorCode.ALREADY_GREETED: "hello was sent twice on one connection",
    ErrorCode.VERSION_MISMATCH: "the client speaks another protocol version; the server closes",
    ErrorCode.BAD_NAME: "the player name is empty, too long or has control characters",
    ErrorCode.RATE_LIMITED: "too many messages per second; this one was dropped",
    ErrorCode.TOO_MANY_CONNECTIONS: "too many connections from this address; the server closes",
    ErrorCode.SERVER_FULL: "the server holds its maximum number of connections; it closes",
    ErrorCode.INTERNAL_ERROR: (
        "the server failed to handle the message; if it changed the table, everyone there gets"
        " a new state"
    ),
    ErrorCode.BAD_OPTIONS: "the table options do not make a game",
    ErrorCode.NO_SUCH_TABLE: "no open table has this id",
    ErrorCode.TABLE_FULL: "both seats of the table are taken",
    ErrorCode.SEAT_TAKEN: "the requested seat is taken",
    ErrorCode.ALREADY_AT_TABLE: "this connection already plays or watches at this table",
    ErrorCode.NOT_AT_TABLE: "this connection neither plays nor watches at this table",
    ErrorCode.BAD_TOKEN: "the token does not claim a seat of this table",
    ErrorCode.TOO_MANY_TABLES: (
        "the server holds its maximum number of tables, or this connection is at as many"
        " tables as one connection may be"
    ),
    ErrorCode.SPECTATOR_CANNOT_ACT: "a spectator sent a command",
    ErrorCode.GAME_NOT_STARTED: "a command before both seats are taken",
    ErrorCode.GAME_OVER: "a command after the game ended",
    ErrorCode.NOT_YOUR_TURN: "a command while the other seat is to move",
    ErrorCode.STALE_VERSION: "the command names another state version than the table's",
    ErrorCode.BAD_NOTATION: "the action is not in the engine's notation",
    ErrorCode.ILLEGAL_ACTION: "the rules do not allow this action now; 'message' says why",
    ErrorCode.CHAT_EMPTY: "the chat text is empty after removing control characters",
    ErrorCode.CHAT_TOO_LONG: "the chat text is longer than the limit",
    ErrorCode.CHAT_RATE_LIMITED: "too many chat messages; this one was dropped",
    ErrorCode.NO_OFFER: (
        "version 2: there is no offer to answer, the sender's own offer stands, or the"
        " opponent cannot take it up ('message' says which)"
    ),
    ErrorCode.CANNOT_CLAIM: (
        "version 2: the opponent is neither gone nor idle long enough to claim the win;"
        " 'message' says when"
    ),
    ErrorCode.GAME_NOT_OVER: "version 2: get_record before the game ended (the record holds"
    " every hidden card)",
    ErrorCode.NO_ACCOUNTS: "version 3: this server keeps no accounts (it runs without a database)",
    ErrorCode.NAME_REGISTERED: (
        "version 3: register: the name (in any spelling) has an account; version 4: or had one,"
        " deleted less than the server's cooling time ago (reason deleted_recently, 'params'"
        " days: the days until it is free)"
    ),
    ErrorCode.BAD_ACCOUNT_NAME: (
        "version 3: the name cannot be registered; 'reason' says why (too_short, too_long,"
        " bad_characters, only_digits, mixed_scripts, reserved)"
    ),
    ErrorCode.BAD_PASSWORD: (
        "version 3: the new password is refused; 'reason' says why (too_short, too_long,"
        " too_simple), or the old one given to change_password is wrong (wrong_password)"
    ),
    ErrorCode.BAD_LOGIN: (
        "version 3: no account has this name and password (or token); the same answer whether"
        " the name exists or not"
    ),
    ErrorCode.LOGIN_THROTTLED: (
        "version 3: too many failed logins from this address or for this name; 'params'"
        " holds the seconds to wait"
    ),
    ErrorCode.LOGIN_REQUIRED: "version 3: the message needs an account: register or log in",
    ErrorCode.ALREADY_LOGGED_IN: "version 3: register or login on a connection already logged in",
    ErrorCode.NO_SUCH_PLAYER: "version 3: no account has this name",
    ErrorCode.NO_SUCH_CHALLENGE: "version 3: no standing challenge has this id for the sender",
    ErrorCode.BAD_CHALLENGE: (
        "version 3: the challenge cannot be made or accepted; 'reason' says why (self, ignored,"
        " bad_terms, away: a live game's challenger is not connected)"
    ),
    ErrorCode.TOO_MANY_CHALLENGES: (
        "version 3: the sender has as many challenges out as allowed, or (reason wait)"
        " challenged and withdrew too often in a short time"
    ),
    ErrorCode.NO_SUCH_GAME: "version 3: no finished game of the archive has this id",
    ErrorCode.BUSY: (
        "version 3: analyse: the connection's analysis under way has not ended (your_analysis),"
        " or the server runs as many analyses as it allows (too_many: ask again later)"
    ),
    ErrorCode.NO_SUCH_TOURNAMENT: "version 4: no tournament has this id",
    ErrorCode.BAD_TOURNAMENT: (
        "version 4: the tournament cannot be made, joined, left or started; 'reason' says why"
        " (docs/protocol.md, Tournaments)"
    ),
    ErrorCode.NO_MAIL: "version 4: this server sends no e-mail (its operator named no relay)",
    ErrorCode.BAD_EMAIL: "version 4: set_email: the address is no e-mail address",
    ErrorCode.BAD_CODE: (
        "version 4: confirm_email or reset_password: no such code, or it expired or was used"
    ),
    ErrorCode.CANNOT_DELETE: (
        "version 4: delete_account: the account cannot be deleted now; 'reason' says why"
        " (playing: a game of theirs is under way; tournament: they are in, or direct, a"
        " tournament not finished)"
    ),
    ErrorCode.NOT_MODERATOR: "version 4: only the server's moderators may do that",
    ErrorCode.BAD_MODERATION: (
        "version 4: the moderator's action or the report cannot be made; 'reason' says why"
        " (docs/protocol.md, Moderation)"
    ),
    ErrorCode.MUTED: (
        "version 4: a moderator muted the sender's chat; 'params' holds until when (unix time)"
    ),
    ErrorCode.ADDRESS_BANNED: (
        "the address is banned by a moderator; the server closes (sent before hello, in any"
        " version)"
    ),
}


class ProtocolError(Exception):
    """A message that could not be accepted, with a stable code; the only error the codec raises."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
