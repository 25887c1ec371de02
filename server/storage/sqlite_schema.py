"""The SQLite schema of the server's database: its tables, made and migrated from
server/storage/schema.py's declaration in SQLite's words, its version and application id kept
in the file's header, and the checks a file passes before the server writes into it."""

from __future__ import annotations

import sqlite3

from server.core.store import StorageError

# SCHEMA_VERSION is PRAGMA user_version; APPLICATION_ID is PRAGMA application_id, so that a
# database of another program, which may well have user_version 1 too, is never taken for ours.
from server.storage.schema import APPLICATION_ID as APPLICATION_ID
from server.storage.schema import SCHEMA_VERSION as SCHEMA_VERSION
from server.storage.schema import SQLITE, migration, statements


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a database of an older schema up to this one, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in migration(SQLITE, version):
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
        for statement in statements(SQLITE):
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
