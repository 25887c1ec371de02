"""Schema version 4 in both databases: the accounts' login addresses (hashed), the registrations,
the operator's commands; the shared opening beside a server that holds the database; and the
migration of a version-3 database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.core.store import (
    AccountActionDoneOp,
    AccountActionOp,
    AccountOp,
    AccountRow,
    DatabaseInUse,
    KnownAddressOp,
    LoginTokenOp,
    Registration,
    RegistrationOp,
    StorageError,
    hash_address,
    hash_token,
)
from server.storage.schema import table_names
from server.storage.sqlite_schema import SCHEMA_VERSION
from server.storage.storage_open import open_storage
from tests.conftest import Backend
from tests.server.test_storage_postgresql import run_sql

# what schema version 5 added (tests/server/test_storage_tournaments.py)
VERSION_5_TABLES = (
    "tournament_directors",
    "tournament_games",
    "tournament_rounds",
    "tournament_entrants",
    "tournaments",
)
VERSION_5_ARCHIVE = ("tournament_id", "round")
# what schema version 6 added (the mail queue: tests/server/test_mail_queue.py; the deleted
# names and the indexes: tests/server/test_account_storage.py; moderation:
# tests/server/test_storage_moderation.py)
VERSION_6_TABLES = (
    "mail_queue", "deleted_names", "moderators", "moderation_log", "sanctions", "reports",
    "tournament_actions",
)  # fmt: skip
VERSION_6_INDEXES = ("seats_account", "archive_white", "archive_black")
ANN = AccountRow("ann", "Ann", "$argon2id$x", 1500.0, 350.0, 0.06, 10.0, 10.0, False, {})
BOB = AccountRow("bob", "Bob", "$argon2id$y", 1500.0, 350.0, 0.06, 20.0, 20.0, False, {})


def test_login_addresses_registrations_and_commands_are_kept(backend: Backend) -> None:
    storage = backend.open()
    first, second = hash_address("ann", "10.0.0.1"), hash_address("ann", "10.0.0.2")
    storage.write([AccountOp(ANN), AccountOp(BOB), LoginTokenOp(hash_token("t"), "ann", 1.0)])
    storage.write([KnownAddressOp("ann", first, 1.0), RegistrationOp("ann", "10.0.0.1", 10.0)])
    storage.write([KnownAddressOp("ann", second, 2.0), RegistrationOp("bob", "10.0.0.9", 20.0)])
    storage.write([KnownAddressOp("ann", first, 3.0, dropped=(second,))])
    storage.write([AccountActionOp("bob", "disable", None, 30.0)])
    storage.close()
    storage = backend.open()
    assert storage.load_known_addresses() == [("ann", first)]
    assert storage.load_registrations(15.0) == [Registration("bob", "10.0.0.9", 20.0)]
    assert len(storage.load_registrations(0.0)) == 2
    (action,) = storage.load_account_actions()
    assert (action.key, action.action, action.password_hash) == ("bob", "disable", None)
    assert [a.disabled for a in storage.load_accounts()] == [False, True]  # at once
    storage.write([AccountActionOp("ann", "password", "$argon2id$new", 31.0)])
    assert storage.load_login_tokens() == []  # its clients log in again
    assert next(a for a in storage.load_accounts() if a.key == "ann").password_hash == (
        "$argon2id$new"
    )
    storage.write([AccountActionDoneOp(action.seq, 32.0)])
    assert [a.key for a in storage.load_account_actions()] == ["ann"]
    storage.close()


def test_the_operator_opens_the_database_beside_its_server(backend: Backend) -> None:
    held = backend.open()
    held.write([AccountOp(ANN)])
    try:
        with pytest.raises(DatabaseInUse):
            backend.open()
        beside = open_storage(backend.db, shared=True)
        try:
            assert [a.key for a in beside.load_accounts()] == ["ann"]
            beside.write([AccountActionOp("ann", "disable", None, 5.0)])
        finally:
            beside.close()
        assert [a.key for a in held.load_account_actions()] == ["ann"]
        held.write([AccountOp(BOB)])  # the server writes on as before
    finally:
        held.close()


def test_a_shared_opening_needs_a_database_of_this_version(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no such database"):
        open_storage(str(tmp_path / "none.sqlite3"), shared=True)
    old = tmp_path / "old.sqlite3"
    open_storage(str(old)).close()
    db = sqlite3.connect(old)
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()
    with pytest.raises(StorageError, match=f"schema version {SCHEMA_VERSION}"):
        open_storage(str(old), shared=True)


def to_version(backend: Backend, version: int, tables: tuple[str, ...]) -> None:
    """The database made as an older version would have left it: without the tables named and
    version 5's columns of the archive, at the version given; the tables of versions after it
    that `tables` leaves out go too."""
    newer = sorted(table_names() - table_names(version) - set(tables))
    tables = (*tables, *newer)
    columns = VERSION_5_ARCHIVE if version < 5 else ()
    indexes = VERSION_6_INDEXES if version < 6 else ()
    if backend.kind == "sqlite":
        db = sqlite3.connect(backend.db)
        for name in indexes:
            db.execute(f"DROP INDEX {name}")
        for name in tables:
            db.execute(f"DROP TABLE {name}")
        for column in columns:
            db.execute(f"ALTER TABLE archive DROP COLUMN {column}")
        db.execute(f"PRAGMA user_version={version}")
        db.commit()
        db.close()
    else:
        for name in indexes:
            run_sql(backend.db, f"DROP INDEX {name}")
        for name in tables:
            run_sql(backend.db, f"DROP TABLE {name}")
        for column in columns:
            run_sql(backend.db, f"ALTER TABLE archive DROP COLUMN {column}")
        run_sql(backend.db, f"UPDATE kahuna_schema SET version = {version}")


def test_a_version_3_database_gains_the_new_tables(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(ANN)])
    storage.close()
    to_version(
        backend,
        3,
        (
            *VERSION_6_TABLES,
            *VERSION_5_TABLES,
            "account_actions",
            "registrations",
            "login_addresses",
        ),
    )
    storage = backend.open()
    assert [a.key for a in storage.load_accounts()] == ["ann"]
    assert storage.load_known_addresses() == []
    storage.write([KnownAddressOp("ann", hash_address("ann", "10.0.0.1"), 1.0)])
    storage.close()
    storage = open_storage(backend.db, shared=True)  # now of this version
    assert len(storage.load_known_addresses()) == 1
    storage.close()


def test_an_unknown_command_is_refused_and_writes_nothing(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(ANN)])
    with pytest.raises(StorageError):
        storage.write([AccountActionOp("ann", "delete everything", None, 1.0)])
    assert storage.load_account_actions() == []
    assert [a.disabled for a in storage.load_accounts()] == [False]
    storage.close()
