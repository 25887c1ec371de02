"""The PostgreSQL schema of the server's database: the tables of server/storage/schema.py's
declaration in PostgreSQL's words, beside a kahuna_schema table that says whose database it is
and at which version, with the checks a database passes before the server writes into it.
PostgreSQL came with schema version 3: a database here was never of an older version."""

from __future__ import annotations

from typing import Any

from server.core.store import StorageError
from server.storage import schema
from server.storage.schema import POSTGRESQL, SCHEMA_VERSION

APPLICATION = "kahuna"

# One row: whose database this is and at which version. A database with tables but without this
# one is another program's.
_META = """CREATE TABLE kahuna_schema (
    application TEXT NOT NULL,
    version INTEGER NOT NULL
)"""


def statements() -> tuple[str, ...]:
    """The statements that make a new database, in order."""
    return (_META, *schema.statements(POSTGRESQL))


def migration(version: int) -> tuple[str, ...]:
    """The statements that bring a database of `version` up to SCHEMA_VERSION."""
    return schema.migration(POSTGRESQL, version)


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
    missing = schema.table_names(version) - tables
    if missing:
        raise StorageError(
            f"{name}: the database is damaged (missing tables: {', '.join(sorted(missing))});"
            " it was left as it was"
        )
    return version
