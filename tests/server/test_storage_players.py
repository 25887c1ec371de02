"""The storage of version 3's players: accounts, login tokens, challenges, the archive and the
lobby chat round-trip through a reopened database, SQLite's and PostgreSQL's; a version-2 SQLite
file gains them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import attrs
import pytest

from server.core.store import (
    AccountOp,
    AccountRow,
    ArchivedGame,
    ArchiveOp,
    ChallengeGoneOp,
    ChallengeOp,
    ChallengeRow,
    CloseOp,
    CreateTableOp,
    DropLoginTokensOp,
    FinishOp,
    LobbyChatOp,
    LoginTokenOp,
    SetSeatOp,
    StorageError,
    StoredSeat,
    hash_token,
)
from server.storage.sqlite_schema import SCHEMA_VERSION
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Backend
from tests.server.test_storage_safety import VERSION_5_TABLES, VERSION_6_TABLES

ANN = AccountRow("ann", "Ann", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", 1500.0, 350.0, 0.06,
                 10.0, 11.0, False, {"rated": [0, 0, 0], "ignoring": []})  # fmt: skip
BOB = AccountRow("bob", "Bob", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaB", 1500.0, 350.0, 0.06,
                 12.0, 12.0, False, {})  # fmt: skip
GAME = ArchivedGame(
    "t1", "Ann", "Bob", "ann", "bob", "white", "scored", True, 62, -62, False, None, 20.0, 30.0
)


def test_the_players_round_trip_through_a_reopened_database(backend: Backend) -> None:
    store = backend.open()
    challenge = ChallengeRow("c1", "ann", "bob", {"seat": "black", "clock": {"days": 3}}, 13.0)
    store.write(
        [
            AccountOp(ANN),
            AccountOp(BOB),
            LoginTokenOp(hash_token("ann-1"), "ann", 11.0),
            LoginTokenOp(hash_token("ann-2"), "ann", 11.5),
            LoginTokenOp(hash_token("bob-1"), "bob", 12.0),
            ChallengeOp(challenge),
            ChallengeOp(ChallengeRow("c2", "bob", "ann", {}, 14.0)),
            CreateTableOp("t1", {}, "white", False, 20.0),
            SetSeatOp("t1", "white", "Ann", hash_token("seat"), False, "ann"),
        ]
    )
    store.write([LobbyChatOp("Ann", f"line {i}", 40.0 + i) for i in range(5)])
    store.write(
        [
            ChallengeGoneOp("c2", "decline", 15.0),
            DropLoginTokensOp("ann", hash_token("ann-1")),
            FinishOp("t1", {"winner": "white"}, "record", 30.0),
            ArchiveOp(GAME),
            AccountOp(attrs.evolve(ANN, rating=1562.0)),
        ]
    )
    store.close()

    again = backend.open()
    accounts = again.load_accounts()
    assert [a.key for a in accounts] == ["ann", "bob"]
    assert accounts[0].rating == 1562.0 and accounts[0].data == ANN.data
    assert accounts[1] == BOB
    assert sorted(again.load_login_tokens()) == sorted(
        [(hash_token("ann-2"), "ann"), (hash_token("bob-1"), "bob")]
    )
    assert again.load_challenges() == [challenge]
    assert again.load_archive() == [GAME]
    assert [line.text for line in again.load_lobby_chat(3)] == ["line 2", "line 3", "line 4"]
    (table,) = again.load_open_tables(0)
    assert table.seats == {"white": StoredSeat("Ann", hash_token("seat"), False, "ann")}
    again.write([CloseOp("t1", "over", 50.0)])
    assert again.load_archive() == [GAME]  # a closed table's game stays in the archive
    again.write([DropLoginTokensOp("ann", None)])
    assert again.load_login_tokens() == [(hash_token("bob-1"), "bob")]
    again.close()


def test_a_challenge_is_answered_once(backend: Backend) -> None:
    store = backend.open()
    store.write(
        [AccountOp(ANN), AccountOp(BOB), ChallengeOp(ChallengeRow("c1", "ann", "bob", {}, 1.0))]
    )
    store.write([ChallengeGoneOp("c1", "accept", 2.0)])
    with pytest.raises(StorageError, match="not standing"):
        store.write([ChallengeGoneOp("c1", "withdraw", 3.0)])
    with pytest.raises(StorageError, match="not standing"):
        store.write([ChallengeGoneOp("nope", "withdraw", 3.0)])
    assert store.load_challenges() == []
    store.close()


def test_a_password_is_never_what_is_stored(tmp_path: Path) -> None:
    """The account row holds the hash it was given; the table has no column for a password."""
    path = tmp_path / "db.sqlite3"
    store = SqliteStorage(path)
    store.write([AccountOp(ANN)])
    store.close()
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(accounts)")]
    db.close()
    assert "password" not in columns and "password_hash" in columns


def test_a_version_2_database_gains_the_players(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = SqliteStorage(path)
    store.write([CreateTableOp("t1", {}, "white", False, 1.0)])
    store.write([SetSeatOp("t1", "white", "Ann", hash_token("x"), False)])
    store.close()
    # back to how a version-2 server left it
    db = sqlite3.connect(path)
    for name in (*VERSION_6_TABLES, *VERSION_5_TABLES):
        db.execute(f"DROP TABLE {name}")
    for name in ("login_addresses", "registrations", "account_actions"):  # version 4's
        db.execute(f"DROP TABLE {name}")
    for name in ("accounts", "login_tokens", "challenges", "archive", "lobby_chat"):
        db.execute(f"DROP TABLE {name}")
    db.execute("ALTER TABLE seats DROP COLUMN account")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()

    store = SqliteStorage(path)
    (table,) = store.load_open_tables(0)
    assert table.seats["white"] == StoredSeat("Ann", hash_token("x"), False, None)
    store.write([AccountOp(ANN), SetSeatOp("t1", "black", "Ann", hash_token("y"), False, "ann")])
    assert store.load_accounts() == [ANN]
    store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    db.close()
