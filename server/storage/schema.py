"""The server database's tables, declared once for SQLite and PostgreSQL: their columns, keys and
indexes, the schema version and the version that brought each table and column. Each database's
statements, those that make a new database and those that bring an older one up to date, are
made from this declaration by a `Dialect`, the few words in which the two differ, so the two
schemas cannot drift apart (server/storage/sqlite_schema.py and pg_schema.py use them)."""

from __future__ import annotations

import enum
from collections.abc import Mapping

import attrs

from server.core.store import StorageError

SCHEMA_VERSION = 6

# "KaHu" in ASCII: SQLite's application id (its header says whose database a file is) and the
# PostgreSQL advisory lock of the serving server.
APPLICATION_ID = 0x4B614875


class Type(enum.Enum):
    TEXT = enum.auto()
    INTEGER = enum.auto()
    REAL = enum.auto()
    BLOB = enum.auto()  # bytes as data (msgpack)
    # bytes looked up by equality: SQLite must hold them as a BLOB, never as TEXT, to find them
    HASH = enum.auto()
    # the key numbering the rows in creation order (in SQLite the rowid, which VACUUM keeps)
    SEQ = enum.auto()
    # the same, and a number never given twice, even after the newest row is deleted
    SERIAL = enum.auto()


@attrs.frozen
class Column:
    name: str
    type: Type
    rest: str = ""  # what every dialect writes alike: NOT NULL, UNIQUE, CHECK, REFERENCES...
    note: str = ""  # the comment in the statement (no ';' in it)
    since: int = 1  # the schema version that added it


@attrs.frozen
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()  # a primary key of several columns
    indexes: tuple[tuple[str, str], ...] = ()  # (name, its columns)
    # indexes a later version added to the table: (name, its columns, that version)
    later_indexes: tuple[tuple[str, str, int], ...] = ()
    clustered: bool = False  # stored in its key's order, without a rowid (SQLite)
    since: int = 1


@attrs.frozen
class Dialect:
    """The words of one database: the columns' types, the checks it needs on a type, the
    clause of a clustered table, and the oldest schema version a database of it can have."""

    types: Mapping[Type, str]
    checks: Mapping[Type, str]  # `{name}` is the column's name
    clustered: str
    first_version: int
    name: str


SQLITE = Dialect(
    types={
        Type.TEXT: "TEXT",
        Type.INTEGER: "INTEGER",
        Type.REAL: "REAL",
        Type.BLOB: "BLOB",
        Type.HASH: "BLOB",
        Type.SEQ: "INTEGER PRIMARY KEY",
        Type.SERIAL: "INTEGER PRIMARY KEY AUTOINCREMENT",
    },
    checks={Type.HASH: "CHECK (typeof({name}) = 'blob')"},
    clustered=" WITHOUT ROWID",
    first_version=1,
    name="SQLite",
)

POSTGRESQL = Dialect(
    types={
        Type.TEXT: "TEXT",
        Type.INTEGER: "INTEGER",
        Type.REAL: "DOUBLE PRECISION",
        Type.BLOB: "BYTEA",
        Type.HASH: "BYTEA",
        Type.SEQ: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        Type.SERIAL: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    },
    checks={},
    clustered="",
    first_version=3,  # PostgreSQL came with schema version 3
    name="PostgreSQL",
)

_SEAT = "NOT NULL CHECK ({} IN ('white', 'black'))"
_FLAG = "NOT NULL CHECK ({} IN (0, 1))"
_TABLE_ID = "NOT NULL REFERENCES tables (id)"
_ACCOUNT = "REFERENCES accounts (name_key)"
_TOURNAMENT = "REFERENCES tournaments (id)"

# In the order they are made: a table comes after those its columns refer to.
TABLES: tuple[Table, ...] = (
    # Version 1: the tables, their seats, logs and chat, the finished games' results.
    Table(
        "tables",
        (
            Column("seq", Type.SEQ, note="creation order"),
            Column("id", Type.TEXT, "NOT NULL UNIQUE"),
            Column("options", Type.TEXT, "NOT NULL", note="JSON"),
            Column("first", Type.TEXT, _SEAT.format("first")),
            Column("vs_computer", Type.INTEGER, _FLAG.format("vs_computer")),
            Column(
                "status", Type.TEXT, "NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed'))"
            ),
            Column("created", Type.REAL, "NOT NULL"),
            Column("updated", Type.REAL, "NOT NULL"),
            Column("close_reason", Type.TEXT),
            Column(
                "state",
                Type.TEXT,
                "NOT NULL DEFAULT '{}'",
                note="JSON: clocks, offers, settings (TableStateOp)",
                since=2,
            ),
        ),
        indexes=(("tables_status", "status, seq"),),
    ),
    Table(
        "seats",
        (
            Column("table_id", Type.TEXT, _TABLE_ID),
            Column("seat", Type.TEXT, _SEAT.format("seat")),
            Column("name", Type.TEXT, "NOT NULL"),
            Column("token_hash", Type.HASH, "NOT NULL"),
            Column("computer", Type.INTEGER, _FLAG.format("computer")),
            Column(
                "account", Type.TEXT, note="the key of the account that holds the seat", since=3
            ),
        ),
        key=("table_id", "seat"),
        clustered=True,
        # version 6: an account's seats found at once when it is deleted (DeleteAccountOp)
        later_indexes=(("seats_account", "account", 6),),
    ),
    Table(
        "log",
        (
            Column("table_id", Type.TEXT, _TABLE_ID),
            Column("idx", Type.INTEGER, "NOT NULL CHECK (idx >= 0)"),
            Column("entry", Type.BLOB, "NOT NULL", note="msgpack"),
        ),
        key=("table_id", "idx"),
        clustered=True,
    ),
    Table(
        "chat",
        (
            Column("id", Type.SERIAL),
            Column("table_id", Type.TEXT, _TABLE_ID),
            Column("sender", Type.TEXT, "NOT NULL"),
            Column("text", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
            Column("role", Type.TEXT, since=2),
        ),
        indexes=(("chat_table", "table_id, id"),),
    ),
    Table(
        "finished",
        (
            Column("table_id", Type.TEXT, "PRIMARY KEY REFERENCES tables (id)"),
            Column("result", Type.TEXT, "NOT NULL", note="JSON"),
            Column("record", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
        ),
    ),
    # Version 3: the players (protocol version 3): accounts, their login tokens, challenges, the
    # archive of finished games with an account at a seat, the lobby's chat.
    Table(
        "accounts",
        (
            Column(
                "name_key",
                Type.TEXT,
                "PRIMARY KEY",
                note="server/core/names.py: one name in any spelling",
            ),
            Column("name", Type.TEXT, "NOT NULL"),
            Column(
                "password_hash", Type.TEXT, "NOT NULL", note="argon2id, never the password itself"
            ),
            Column("rating", Type.REAL, "NOT NULL"),
            Column("deviation", Type.REAL, "NOT NULL"),
            Column("volatility", Type.REAL, "NOT NULL"),
            Column("created", Type.REAL, "NOT NULL"),
            Column("last_seen", Type.REAL, "NOT NULL"),
            Column("disabled", Type.INTEGER, _FLAG.format("disabled")),
            Column(
                "data",
                Type.TEXT,
                "NOT NULL DEFAULT '{}'",
                note="JSON: statistics, the players ignored",
            ),
        ),
        clustered=True,
        since=3,
    ),
    Table(
        "login_tokens",
        (
            Column("token_hash", Type.HASH, "PRIMARY KEY"),
            Column("account", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("created", Type.REAL, "NOT NULL"),
        ),
        indexes=(("login_tokens_account", "account"),),
        clustered=True,
        since=3,
    ),
    Table(
        "challenges",
        (
            Column("seq", Type.SEQ),
            Column("id", Type.TEXT, "NOT NULL UNIQUE"),
            Column("sender", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("recipient", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("terms", Type.TEXT, "NOT NULL", note="JSON: protocol.messages.ChallengeTerms"),
            Column("created", Type.REAL, "NOT NULL"),
            Column(
                "answer",
                Type.TEXT,
                note="accept, decline, withdraw or lapse (NULL while it stands)",
            ),
            Column("answered", Type.REAL),
        ),
        indexes=(("challenges_standing", "answer, seq"),),
        since=3,
    ),
    Table(
        "archive",
        (
            Column("seq", Type.SEQ),
            Column("table_id", Type.TEXT, "NOT NULL UNIQUE REFERENCES tables (id)"),
            Column("white", Type.TEXT, "NOT NULL"),
            Column("black", Type.TEXT, "NOT NULL"),
            Column("white_account", Type.TEXT),
            Column("black_account", Type.TEXT),
            Column("winner", Type.TEXT, "CHECK (winner IN ('white', 'black'))"),
            Column("ending", Type.TEXT, "NOT NULL"),
            Column("rated", Type.INTEGER, _FLAG.format("rated")),
            Column("white_change", Type.INTEGER),
            Column("black_change", Type.INTEGER),
            Column("vs_computer", Type.INTEGER, _FLAG.format("vs_computer")),
            Column("level", Type.TEXT),
            Column("started", Type.REAL, "NOT NULL"),
            Column("finished", Type.REAL, "NOT NULL"),
            Column("tournament_id", Type.TEXT, note="the tournament's game, if one", since=5),
            Column("round", Type.INTEGER, since=5),
        ),
        # version 6: an account's games found at once when it is deleted (DeleteAccountOp)
        later_indexes=(
            ("archive_white", "white_account", 6),
            ("archive_black", "black_account", 6),
        ),
        since=3,
    ),
    Table(
        "lobby_chat",
        (
            Column("id", Type.SERIAL),
            Column("sender", Type.TEXT, "NOT NULL"),
            Column("text", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
        ),
        since=3,
    ),
    # Version 4: what keeps the accounts safe: the addresses each account logged in from
    # (hashed: server/core/store.py's hash_address), where and when each was registered, and
    # the operator's commands for a running server (server/cli/accounts_cli.py).
    Table(
        "login_addresses",
        (
            Column("account", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("address_hash", Type.HASH, "NOT NULL"),
            Column("last", Type.REAL, "NOT NULL"),
        ),
        key=("account", "address_hash"),
        clustered=True,
        since=4,
    ),
    Table(
        "registrations",
        (
            Column("account", Type.TEXT, f"PRIMARY KEY {_ACCOUNT}"),
            Column("address", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
        ),
        indexes=(("registrations_at", "at"),),
        clustered=True,
        since=4,
    ),
    Table(
        "account_actions",
        (
            Column("seq", Type.SEQ),
            Column("account", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("action", Type.TEXT, "NOT NULL CHECK (action IN ('disable', 'password'))"),
            Column("password_hash", Type.TEXT),
            Column("at", Type.REAL, "NOT NULL"),
            Column("done", Type.REAL, note="when a server applied it (NULL: not yet)"),
        ),
        indexes=(("account_actions_waiting", "done, seq"),),
        since=4,
    ),
    # Version 5: tournaments (protocol version 4): each with its entrants, its rounds and the
    # games of each round with their tables and results.
    Table(
        "tournaments",
        (
            Column("seq", Type.SEQ, note="creation order"),
            Column("id", Type.TEXT, "NOT NULL UNIQUE"),
            Column("name", Type.TEXT, "NOT NULL"),
            Column("director", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column(
                "format",
                Type.TEXT,
                "NOT NULL CHECK (format IN ('swiss', 'round_robin', 'double_round_robin'))",
            ),
            Column("terms", Type.TEXT, "NOT NULL", note="JSON: rounds, clock, options, start"),
            Column("created", Type.REAL, "NOT NULL"),
            Column(
                "status",
                Type.TEXT,
                "NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'started', 'finished'))",
            ),
            Column("standings", Type.TEXT, note="JSON: the final table, once finished"),
        ),
        since=5,
    ),
    Table(
        "tournament_entrants",
        (
            Column("tournament_id", Type.TEXT, f"NOT NULL {_TOURNAMENT}"),
            Column("account", Type.TEXT, f"NOT NULL {_ACCOUNT}"),
            Column("rating", Type.REAL, "NOT NULL", note="the seed: the rating at joining"),
            Column("position", Type.INTEGER, "NOT NULL", note="the order of joining"),
            Column("joined", Type.INTEGER, "NOT NULL", note="the first round they could play"),
            Column("left_after", Type.INTEGER, note="the last round they played, once out"),
            Column("removed", Type.INTEGER, _FLAG.format("removed")),
        ),
        key=("tournament_id", "account"),
        clustered=True,
        since=5,
    ),
    Table(
        "tournament_rounds",
        (
            Column("tournament_id", Type.TEXT, f"NOT NULL {_TOURNAMENT}"),
            Column("number", Type.INTEGER, "NOT NULL CHECK (number >= 1)"),
            Column("bye", Type.TEXT, note="the account with the bye"),
            Column("relaxed", Type.TEXT, "NOT NULL", note="JSON: the pairing rules broken"),
            Column("paired", Type.REAL, "NOT NULL"),
        ),
        key=("tournament_id", "number"),
        clustered=True,
        since=5,
    ),
    Table(
        "tournament_games",
        (
            Column("tournament_id", Type.TEXT, f"NOT NULL {_TOURNAMENT}"),
            Column("round", Type.INTEGER, "NOT NULL"),
            Column("board", Type.INTEGER, "NOT NULL CHECK (board >= 1)"),
            Column("white", Type.TEXT, "NOT NULL"),
            Column("black", Type.TEXT, "NOT NULL"),
            Column("table_id", Type.TEXT, "REFERENCES tables (id)", note="NULL: never played"),
            Column("outcome", Type.TEXT, note="NULL while it is played"),
        ),
        key=("tournament_id", "round", "board"),
        clustered=True,
        since=5,
    ),
    Table(
        "tournament_directors",
        (
            Column("account", Type.TEXT, f"PRIMARY KEY {_ACCOUNT}"),
            Column("at", Type.REAL, "NOT NULL"),
        ),
        clustered=True,
        since=5,
    ),
    # Version 6: the names of accounts their players deleted, reserved for the cooling time
    # (--deleted-name-cooling); the accounts' games went to stand-in rows of `accounts`
    # (server/core/store.py's DeleteAccountOp).
    Table(
        "deleted_names",
        (
            Column("name_key", Type.TEXT, "PRIMARY KEY", note="the deleted account's key"),
            Column("deleted", Type.REAL, "NOT NULL", note="unix time of the deletion"),
        ),
        clustered=True,
        since=6,
    ),
    # Version 6: moderation (protocol version 4's moderate and report_player). Accounts are
    # kept as keys and names without a reference, so that the log outlives what it names.
    Table(
        "moderators",
        (
            Column("account", Type.TEXT, "PRIMARY KEY"),
            Column("at", Type.REAL, "NOT NULL"),
        ),
        clustered=True,
        since=6,
    ),
    Table(
        "moderation_log",
        (
            Column("seq", Type.SEQ),
            Column("at", Type.REAL, "NOT NULL"),
            Column("moderator", Type.TEXT, "NOT NULL", note="a name, or operator"),
            Column("action", Type.TEXT, "NOT NULL"),
            Column("target", Type.TEXT, "NOT NULL"),
            Column("reason", Type.TEXT, "NOT NULL"),
            Column("until", Type.REAL, note="a mute's or ban's end"),
            Column("name", Type.TEXT, note="hand_tournament: the new director's name"),
        ),
        since=6,
    ),
    # The operator's commands on tournaments (kahuna-server tournaments), for the server that
    # holds them in memory to apply, as account_actions are for accounts.
    Table(
        "tournament_actions",
        (
            Column("seq", Type.SEQ),
            Column("tournament_id", Type.TEXT, f"NOT NULL {_TOURNAMENT}"),
            Column("action", Type.TEXT, "NOT NULL CHECK (action IN ('close', 'hand'))"),
            Column("director", Type.TEXT, note="hand: the new director's account key"),
            Column("reason", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
            Column("done", Type.REAL, note="when a server applied it (NULL: not yet)"),
        ),
        indexes=(("tournament_actions_waiting", "done, seq"),),
        since=6,
    ),
    Table(
        "sanctions",
        (
            Column("kind", Type.TEXT, "NOT NULL CHECK (kind IN ('mute', 'ban'))"),
            Column("target", Type.TEXT, "NOT NULL", note="an account key, or a network"),
            Column("until", Type.REAL, "NOT NULL"),
            Column("reason", Type.TEXT, "NOT NULL"),
            Column("moderator", Type.TEXT, "NOT NULL"),
            Column("at", Type.REAL, "NOT NULL"),
            Column("player", Type.TEXT, note="a ban by player: their account key"),
        ),
        key=("kind", "target"),
        clustered=True,
        since=6,
    ),
    Table(
        "reports",
        (
            Column("id", Type.INTEGER, "PRIMARY KEY"),
            Column("at", Type.REAL, "NOT NULL"),
            Column("reporter", Type.TEXT, "NOT NULL"),
            Column("account", Type.TEXT, "NOT NULL", note="the player reported"),
            Column("reason", Type.TEXT, "NOT NULL"),
            Column("table_id", Type.TEXT),
            Column("chat", Type.TEXT, "NOT NULL", note="JSON: the chat lines around it"),
            Column("closed", Type.REAL),
            Column("closed_by", Type.TEXT),
            Column("note", Type.TEXT),
        ),
        indexes=(("reports_open", "closed, id"),),
        since=6,
    ),
)


# Version 6's mail queue (server/core/mail.py decides, server/jobs/mail_sender.py sends): a
# mail stays until the relay took it, so that a restart or a relay that is down loses none.
TABLES += (
    Table(
        "mail_queue",
        (
            Column("seq", Type.SEQ, note="queueing order"),
            Column("id", Type.TEXT, "NOT NULL UNIQUE"),
            Column("recipient", Type.TEXT, "NOT NULL", note="an address: cleared once sent"),
            Column("kind", Type.TEXT, "NOT NULL"),
            Column("language", Type.TEXT, "NOT NULL"),
            Column("params", Type.TEXT, "NOT NULL", note="JSON: the text's values, a link's code"),
            Column("created", Type.REAL, "NOT NULL"),
            Column("attempts", Type.INTEGER, "NOT NULL DEFAULT 0"),
            Column("next_try", Type.REAL, "NOT NULL", note="unix time of the next try"),
            Column("sent", Type.REAL, note="when the relay took it (NULL: not yet)"),
        ),
        indexes=(("mail_queue_waiting", "sent, seq"),),
        since=6,
    ),
)


def table_names(version: int = SCHEMA_VERSION) -> frozenset[str]:
    """The tables a database of `version` has."""
    return frozenset(t.name for t in TABLES if t.since <= version)


def _column(column: Column, dialect: Dialect) -> str:
    words = [column.name, dialect.types[column.type], column.rest]
    if column.type in dialect.checks:
        words.append(dialect.checks[column.type].format(name=column.name))
    return " ".join(w for w in words if w)


def _create(table: Table, dialect: Dialect, version: int) -> tuple[str, ...]:
    """The statements that make `table` as a database of `version` has it, its indexes too."""
    parts = [(_column(c, dialect), c.note) for c in table.columns if c.since <= version]
    if table.key:
        parts.append((f"PRIMARY KEY ({', '.join(table.key)})", ""))
    lines = []
    for i, (text, note) in enumerate(parts):
        comma = "," if i < len(parts) - 1 else ""
        lines.append(f"    {text}{comma}" + (f"  -- {note}" if note else ""))
    body = "\n".join(lines)
    suffix = dialect.clustered if table.clustered else ""
    create = f"CREATE TABLE {table.name} (\n{body}\n){suffix}"
    indexes = [f"CREATE INDEX {name} ON {table.name} ({on})" for name, on in table.indexes]
    indexes += [_index(table, name, on) for name, on, since in table.later_indexes
                if since <= version]  # fmt: skip
    return (create, *indexes)


def _index(table: Table, name: str, on: str) -> str:
    return f"CREATE INDEX {name} ON {table.name} ({on})"


def statements(dialect: Dialect, version: int = SCHEMA_VERSION) -> tuple[str, ...]:
    """The statements that make the tables of a new database (of an older `version`: as a
    server of that version made them), in order."""
    return tuple(s for t in TABLES if t.since <= version for s in _create(t, dialect, version))


def _step(dialect: Dialect, version: int) -> tuple[str, ...]:
    """What `version` added to the one before: its columns and indexes, then its tables."""
    steps: list[str] = []
    for table in TABLES:
        if table.since == version:
            steps.extend(_create(table, dialect, version))
        elif table.since < version:
            steps.extend(
                f"ALTER TABLE {table.name} ADD COLUMN {_column(c, dialect)}"
                for c in table.columns
                if c.since == version
            )
            steps.extend(
                _index(table, name, on) for name, on, since in table.later_indexes
                if since == version
            )  # fmt: skip
    return tuple(steps)


def migration(dialect: Dialect, version: int) -> tuple[str, ...]:
    """The statements that bring a database of `version` up to SCHEMA_VERSION, in order."""
    if version < dialect.first_version:
        raise StorageError(
            f"no way from schema version {version} to {SCHEMA_VERSION} in {dialect.name}"
        )
    return tuple(s for step in range(version + 1, SCHEMA_VERSION + 1) for s in _step(dialect, step))
