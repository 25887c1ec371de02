"""The SQLite schema of the server's database: its tables, its version and the migrations from
the older ones, and the checks a file passes before the server writes into it."""

from __future__ import annotations

import sqlite3

from server.core.store import StorageError

SCHEMA_VERSION = 4

# Version 3: the players (protocol version 3): accounts, their login tokens, challenges, the
# archive of finished games with an account at a seat, the lobby's chat.
_PLAYERS_SCHEMA = """
CREATE TABLE accounts (
    name_key TEXT PRIMARY KEY,  -- server/core/names.py: one name in any spelling
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,  -- argon2id, never the password itself
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    created REAL NOT NULL,
    last_seen REAL NOT NULL,
    disabled INTEGER NOT NULL CHECK (disabled IN (0, 1)),
    data TEXT NOT NULL DEFAULT '{}'  -- JSON: statistics, the players ignored
) WITHOUT ROWID;

CREATE TABLE login_tokens (
    token_hash BLOB PRIMARY KEY CHECK (typeof(token_hash) = 'blob'),
    account TEXT NOT NULL REFERENCES accounts (name_key),
    created REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX login_tokens_account ON login_tokens (account);

CREATE TABLE challenges (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    sender TEXT NOT NULL REFERENCES accounts (name_key),
    recipient TEXT NOT NULL REFERENCES accounts (name_key),
    terms TEXT NOT NULL,  -- JSON: protocol.messages.ChallengeTerms
    created REAL NOT NULL,
    answer TEXT,  -- accept, decline, withdraw or lapse (NULL while it stands)
    answered REAL
);
CREATE INDEX challenges_standing ON challenges (answer, seq);

CREATE TABLE archive (
    seq INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL UNIQUE REFERENCES tables (id),
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_account TEXT,
    black_account TEXT,
    winner TEXT CHECK (winner IN ('white', 'black')),
    ending TEXT NOT NULL,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    white_change INTEGER,
    black_change INTEGER,
    vs_computer INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    level TEXT,
    started REAL NOT NULL,
    finished REAL NOT NULL
);

CREATE TABLE lobby_chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
)
"""


# Version 4: what keeps the accounts safe: the addresses each account logged in from (hashed:
# server/core/store.py's hash_address), where and when each was registered, and the operator's
# commands for a running server (server/cli/accounts_cli.py).
_SAFETY_SCHEMA = """
CREATE TABLE login_addresses (
    account TEXT NOT NULL REFERENCES accounts (name_key),
    address_hash BLOB NOT NULL CHECK (typeof(address_hash) = 'blob'),
    last REAL NOT NULL,
    PRIMARY KEY (account, address_hash)
) WITHOUT ROWID;

CREATE TABLE registrations (
    account TEXT PRIMARY KEY REFERENCES accounts (name_key),
    address TEXT NOT NULL,
    at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX registrations_at ON registrations (at);

CREATE TABLE account_actions (
    seq INTEGER PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (name_key),
    action TEXT NOT NULL CHECK (action IN ('disable', 'password')),
    password_hash TEXT,
    at REAL NOT NULL,
    done REAL  -- when a server applied it (NULL: not yet)
);
CREATE INDEX account_actions_waiting ON account_actions (done, seq)
"""


def _statements(script: str) -> tuple[str, ...]:
    # no ';' inside a statement or a comment of the scripts here
    return tuple(s.strip() for s in script.split(";") if s.strip())


# What each version added to the one before, applied in order to an older database at opening.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: (
        "ALTER TABLE tables ADD COLUMN state TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE chat ADD COLUMN role TEXT",
    ),
    3: ("ALTER TABLE seats ADD COLUMN account TEXT", *_statements(_PLAYERS_SCHEMA)),
    4: _statements(_SAFETY_SCHEMA),
}

# Stored in the SQLite header (PRAGMA application_id) so that a database of another program,
# which may well have user_version 1 too, is never taken for ours. "KaHu" in ASCII.
APPLICATION_ID = 0x4B614875


_SCHEMA = """
CREATE TABLE tables (
    seq INTEGER PRIMARY KEY,  -- creation order: a rowid alias, which VACUUM keeps
    id TEXT NOT NULL UNIQUE,
    options TEXT NOT NULL,  -- JSON
    first TEXT NOT NULL CHECK (first IN ('white', 'black')),
    vs_computer INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created REAL NOT NULL,
    updated REAL NOT NULL,
    close_reason TEXT,
    state TEXT NOT NULL DEFAULT '{}'  -- JSON: clocks, offers, settings (TableStateOp)
);
CREATE INDEX tables_status ON tables (status, seq);

CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat TEXT NOT NULL CHECK (seat IN ('white', 'black')),
    name TEXT NOT NULL,
    token_hash BLOB NOT NULL CHECK (typeof(token_hash) = 'blob'),
    computer INTEGER NOT NULL CHECK (computer IN (0, 1)),
    account TEXT,  -- the key of the account that holds the seat (version 3)
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx INTEGER NOT NULL CHECK (idx >= 0),
    entry BLOB NOT NULL,  -- msgpack
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;

CREATE TABLE chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL REFERENCES tables (id),
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    role TEXT
);
CREATE INDEX chat_table ON chat (table_id, id);

CREATE TABLE finished (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    result TEXT NOT NULL,  -- JSON
    record TEXT NOT NULL,
    at REAL NOT NULL
);
"""


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a database of an older schema up to this one, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in _MIGRATIONS[step]:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def probe(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """The database's application id, schema version and number of schema objects."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return int(app_id), int(version), int(objects)


def check_integrity(conn: sqlite3.Connection, path: str) -> None:
    # A truncated or damaged file often has an intact first page, so the header checks
    # pass; quick_check reads every page and finds it before the server writes into it.
    rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    if [r[0] for r in rows] != ["ok"]:
        problems = "; ".join(str(r[0]) for r in rows)
        raise StorageError(
            f"{path}: the database is damaged ({problems}); the file was left as it was"
        )


def create_schema(conn: sqlite3.Connection, path: str) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have created the schema between the probe and this lock.
        if probe(conn) != (0, 0, 0):
            raise StorageError(f"{path}: another process initialised the database")
        for statement in (
            *_statements(_SCHEMA),
            *_statements(_PLAYERS_SCHEMA),
            *_statements(_SAFETY_SCHEMA),
        ):
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
