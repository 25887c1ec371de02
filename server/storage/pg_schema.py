"""The PostgreSQL schema of the server's database: the same tables, columns and schema version as
SQLite's (server/storage/sqlite_schema.py), in PostgreSQL's types, with the checks a database passes
before the server writes into it. PostgreSQL came with schema version 3: a database here was
never of an older version; version 4's steps are in _MIGRATIONS, as SQLite's are."""

from __future__ import annotations

from typing import Any

from server.core.store import StorageError
from server.storage.sqlite_schema import SCHEMA_VERSION

APPLICATION = "kahuna"

# One row: whose database this is and at which version. A database with tables but without this
# one is another program's.
_META = """
CREATE TABLE kahuna_schema (
    application TEXT NOT NULL,
    version INTEGER NOT NULL
)
"""

_SCHEMA = """
CREATE TABLE tables (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- creation order
    id TEXT NOT NULL UNIQUE,
    options TEXT NOT NULL,  -- JSON
    first TEXT NOT NULL CHECK (first IN ('white', 'black')),
    vs_computer INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    close_reason TEXT,
    state TEXT NOT NULL DEFAULT '{}'  -- JSON: clocks, offers, settings (TableStateOp)
);
CREATE INDEX tables_status ON tables (status, seq);

CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat TEXT NOT NULL CHECK (seat IN ('white', 'black')),
    name TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    computer INTEGER NOT NULL CHECK (computer IN (0, 1)),
    account TEXT,  -- the key of the account that holds the seat
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE log (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx INTEGER NOT NULL CHECK (idx >= 0),
    entry BYTEA NOT NULL,  -- msgpack
    PRIMARY KEY (table_id, idx)
);

CREATE TABLE chat (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables (id),
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    role TEXT
);
CREATE INDEX chat_table ON chat (table_id, id);

CREATE TABLE finished (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    result TEXT NOT NULL,  -- JSON
    record TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);

CREATE TABLE accounts (
    name_key TEXT PRIMARY KEY,  -- server/core/names.py: one name in any spelling
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,  -- argon2id, never the password itself
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    last_seen DOUBLE PRECISION NOT NULL,
    disabled INTEGER NOT NULL CHECK (disabled IN (0, 1)),
    data TEXT NOT NULL DEFAULT '{}'  -- JSON: statistics, the players ignored
);

CREATE TABLE login_tokens (
    token_hash BYTEA PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (name_key),
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX login_tokens_account ON login_tokens (account);

CREATE TABLE challenges (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    sender TEXT NOT NULL REFERENCES accounts (name_key),
    recipient TEXT NOT NULL REFERENCES accounts (name_key),
    terms TEXT NOT NULL,  -- JSON: protocol.messages.ChallengeTerms
    created DOUBLE PRECISION NOT NULL,
    answer TEXT,  -- accept, decline, withdraw or lapse (NULL while it stands)
    answered DOUBLE PRECISION
);
CREATE INDEX challenges_standing ON challenges (answer, seq);

CREATE TABLE archive (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
    started DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION NOT NULL
);

CREATE TABLE lobby_chat (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sender TEXT NOT NULL,
    text TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
)
"""

# Version 4: the accounts' login addresses (hashed), registrations, the operator's commands.
_SAFETY = """
CREATE TABLE login_addresses (
    account TEXT NOT NULL REFERENCES accounts (name_key),
    address_hash BYTEA NOT NULL,
    last DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, address_hash)
);

CREATE TABLE registrations (
    account TEXT PRIMARY KEY REFERENCES accounts (name_key),
    address TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX registrations_at ON registrations (at);

CREATE TABLE account_actions (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts (name_key),
    action TEXT NOT NULL CHECK (action IN ('disable', 'password')),
    password_hash TEXT,
    at DOUBLE PRECISION NOT NULL,
    done DOUBLE PRECISION  -- when a server applied it (NULL: not yet)
);
CREATE INDEX account_actions_waiting ON account_actions (done, seq)
"""


def _split(script: str) -> tuple[str, ...]:
    # no ';' inside a statement or a comment of the scripts here
    return tuple(s.strip() for s in script.split(";") if s.strip())


# the tables a database of this version has; one missing is a damaged database
TABLES = frozenset(
    {"kahuna_schema", "tables", "seats", "log", "chat", "finished", "accounts", "login_tokens"}
    | {"challenges", "archive", "lobby_chat"}
    | {"login_addresses", "registrations", "account_actions"}
)
ADDED_IN_4 = frozenset({"login_addresses", "registrations", "account_actions"})

# What each version added to the one before (PostgreSQL began at version 3).
_MIGRATIONS: dict[int, tuple[str, ...]] = {4: _split(_SAFETY)}


def statements() -> tuple[str, ...]:
    """The statements that make a new database, in order."""
    return _split(f"{_META};{_SCHEMA};{_SAFETY}")


def migration(version: int) -> tuple[str, ...]:
    """The statements that bring a database of `version` up to SCHEMA_VERSION."""
    steps: list[str] = []
    for step in range(version + 1, SCHEMA_VERSION + 1):
        if step not in _MIGRATIONS:
            raise StorageError(
                f"no way from schema version {version} to {SCHEMA_VERSION} in PostgreSQL"
            )
        steps.extend(_MIGRATIONS[step])
    return tuple(steps)


def check(name: str, tables: set[str], meta: list[tuple[Any, ...]]) -> int | None:
    """What the database's tables and its kahuna_schema rows say: None for an empty database,
    else its schema version; a StorageError for a database that is not ours, newer, or
    damaged."""
    if "kahuna_schema" not in tables:
        if not tables:
            return None
        some = ", ".join(sorted(tables)[:5])
        raise StorageError(
            f"{name}: not a kahuna server database (it holds tables of another program: {some});"
            " refusing to use it"
        )
    if len(meta) != 1 or meta[0][0] != APPLICATION:
        raise StorageError(
            f"{name}: not a kahuna server database (its kahuna_schema table says {meta!r});"
            " refusing to use it"
        )
    version = int(meta[0][1])
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{name}: written by a newer kahuna server (schema version {version}; this server"
            f" knows version {SCHEMA_VERSION}); refusing to use it"
        )
    missing = TABLES - tables - (ADDED_IN_4 if version < 4 else frozenset())
    if missing:
        raise StorageError(
            f"{name}: the database is damaged (missing tables: {', '.join(sorted(missing))});"
            " it was left as it was"
        )
    return version
