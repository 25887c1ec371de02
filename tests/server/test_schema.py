"""The one declaration of the database's tables (server/storage/schema.py): a SQLite database
made as each older version made it and brought up to date holds the very tables, columns and
indexes of a new one, and PostgreSQL's statements name the same tables and columns as SQLite's."""

from __future__ import annotations

import re
import sqlite3

import pytest

from server.core.store import StorageError
from server.storage.schema import (
    POSTGRESQL,
    SCHEMA_VERSION,
    SQLITE,
    TABLES,
    migration,
    statements,
    table_names,
)


def shape(conn: sqlite3.Connection) -> dict[str, object]:
    """Each table's columns (name, type, not null, default, key), indexes and index columns."""
    found: dict[str, object] = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if name == "sqlite_sequence":
            continue
        columns = sorted(tuple(row[1:]) for row in conn.execute(f"PRAGMA table_info({name})"))
        indexes = sorted(
            (row[1], tuple(c[2] for c in conn.execute(f"PRAGMA index_info({row[1]})")))
            for row in conn.execute(f"PRAGMA index_list({name})")
            if row[3] == "c"  # made by CREATE INDEX, not by a key
        )
        found[name] = (columns, indexes)
    return found


def made(version: int) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    for statement in statements(SQLITE, version):
        conn.execute(statement)
    return conn


@pytest.mark.parametrize("version", range(SQLITE.first_version, SCHEMA_VERSION))
def test_an_older_sqlite_database_migrates_to_the_tables_of_a_new_one(version: int) -> None:
    old = made(version)
    assert {name for (name,) in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(shape(old)) == table_names(version)
    for statement in migration(SQLITE, version):
        old.execute(statement)
    assert shape(old) == shape(made(SCHEMA_VERSION))


def test_postgresql_makes_the_same_tables_and_columns() -> None:
    def columns(dialect_statements: tuple[str, ...]) -> dict[str, list[str]]:
        tables: dict[str, list[str]] = {}
        for statement in dialect_statements:
            if match := re.match(r"CREATE TABLE (\w+) \(\n(.*)\n\)", statement, re.S):
                lines = match.group(2).splitlines()
                tables[match.group(1)] = [line.split()[0] for line in lines]
        return tables

    assert columns(statements(POSTGRESQL)) == columns(statements(SQLITE))
    assert set(columns(statements(SQLITE))) == {table.name for table in TABLES}
    assert "BLOB" not in " ".join(statements(POSTGRESQL))


def test_postgresql_has_no_way_from_before_its_first_version() -> None:
    assert migration(POSTGRESQL, POSTGRESQL.first_version)
    with pytest.raises(StorageError, match="no way from schema version 2"):
        migration(POSTGRESQL, POSTGRESQL.first_version - 1)
