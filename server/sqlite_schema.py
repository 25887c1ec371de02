"""The SQLite schema of the server's database: its tables, its version and the migrations from
the older ones, and the checks a file passes before the server writes into it."""

from __future__ import annotations

import sqlite3

from server.store import StorageError

SCHEMA_VERSION = 2
# What each version added to the one before, applied in order to an older database at opening.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    2: (
        "ALTER TABLE tables ADD COLUMN state TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE chat ADD COLUMN role TEXT",
    ),
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
        for statement in _SCHEMA.split(";"):  # no ';' inside a statement or comment
            if statement.strip():
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
