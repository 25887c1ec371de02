"""Schema version 6 in both databases: an account deleted by its player (DeleteAccountOp)
leaves its games, challenges, chat and tournaments pointing to a stand-in row named "deleted
player N", with nothing stored under its name or its key but the name's reservation for the
cooling time, which NamesCooledOp ends; and the migration of a version-5 database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from server.core.store import (
    AccountOp,
    AccountRow,
    ArchivedGame,
    ArchiveOp,
    ChallengeGoneOp,
    ChallengeOp,
    ChallengeRow,
    ChatOp,
    CreateTableOp,
    DeleteAccountOp,
    DeletedName,
    DirectorOp,
    EntrantOp,
    EntrantRow,
    FinishOp,
    KnownAddressOp,
    LobbyChatOp,
    LoginTokenOp,
    NamesCooledOp,
    PairingRow,
    RegistrationOp,
    RoundOp,
    RoundRow,
    SetSeatOp,
    TournamentOp,
    TournamentRow,
    hash_address,
    hash_token,
)
from server.storage.sqlite_schema import SCHEMA_VERSION
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Backend
from tests.server.test_accounts_cli import make_db, run
from tests.server.test_storage_safety import VERSION_6_TABLES, to_version


def account_row(key: str) -> AccountRow:
    """A stored account of this key, its name the key titled, at the starting rating."""
    return AccountRow(key, key.title(), "$argon2id$x", 1500.0, 350.0, 0.06, 1.0, 1.0, False, {})


GAME = ArchivedGame(
    "tab1", "Ann", "Bob", "ann", "bob", "white", "points", True, 12, -12, False, None, 1.0, 2.0,
    "t1", 1,
)  # fmt: skip
RECORD = "kahuna-record 1\nfirst white\n"
DELETE = DeleteAccountOp("ann", "Ann", "#deleted 1", "deleted #1", 50.0)


def _ann_everywhere(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row("ann")), AccountOp(account_row("bob"))])
    storage.write(
        [
            LoginTokenOp(hash_token("tok"), "ann", 3.0),
            KnownAddressOp("ann", hash_address("ann", "10.0.0.1"), 3.0),
            RegistrationOp("ann", "10.0.0.1", 1.0),
            DirectorOp("ann", True, 3.0),
            ChallengeOp(ChallengeRow("c1", "ann", "bob", {}, 4.0)),
            ChallengeGoneOp("c1", "decline", 5.0),
            CreateTableOp("tab1", {}, "white", False, 1.0),
            SetSeatOp("tab1", "white", "Ann", hash_token("s1"), False, "ann"),
            SetSeatOp("tab1", "black", "Bob", hash_token("s2"), False, "bob"),
            ChatOp("tab1", "Ann", "good luck", 1.5, "white"),
            ChatOp("tab1", "Bob", "thanks Ann", 1.6, "black"),
            FinishOp("tab1", {"winner": "white"}, RECORD, 2.0),
            ArchiveOp(GAME),
            LobbyChatOp("Ann", "anyone for a game?", 6.0),
            TournamentOp(TournamentRow("t1", "Cup", "ann", "swiss", {"rounds": 1}, 1.0)),
            EntrantOp(EntrantRow("t1", "ann", 1500.0, 0)),
            EntrantOp(EntrantRow("t1", "bob", 1500.0, 1)),
            RoundOp(RoundRow("t1", 1, None, (), 1.0, (PairingRow(1, "ann", "bob", "tab1"),))),
        ]
    )
    storage.close()


def test_a_deleted_account_s_rows_point_to_its_stand_in(backend: Backend) -> None:
    _ann_everywhere(backend)
    storage = backend.open()
    storage.write([DELETE])
    storage.close()
    storage = backend.open()
    accounts = {a.key: a for a in storage.load_accounts()}
    assert set(accounts) == {"bob", "#deleted 1"}
    assert accounts["#deleted 1"].name == "deleted #1" and accounts["#deleted 1"].disabled
    assert storage.load_login_tokens() == []
    assert [k for k, _ in storage.load_known_addresses()] == []
    assert storage.load_directors() == []
    (game,) = storage.load_archive()
    assert (game.white, game.white_account, game.black) == ("deleted #1", "#deleted 1", "Bob")
    assert (game.white_change, game.black_change) == (12, -12)  # as they were
    assert storage.finished_record("tab1") == RECORD  # replayable, naming no one
    assert [line.sender for line in storage.load_lobby_chat(10)] == ["deleted #1"]
    (cup,) = storage.load_tournaments()
    assert cup.tournament.director == "#deleted 1"
    assert [e.account for e in cup.entrants] == ["#deleted 1", "bob"]
    assert cup.rounds[0].games[0].white == "#deleted 1"
    assert storage.load_deleted_names() == [DeletedName("ann", 50.0)]
    storage.write([NamesCooledOp(60.0)])
    assert storage.load_deleted_names() == []
    storage.close()
    # the name is nowhere, in any table, but in the words Bob said to her; the key nowhere
    values = [str(v) for row in every_row(backend) for v in row]
    assert [v for v in values if "Ann" in v] == ["thanks Ann"]
    assert "ann" not in values


def every_row(backend: Backend) -> list[tuple[object, ...]]:
    """Every row of every table of the database."""
    if backend.kind == "sqlite":
        db = sqlite3.connect(backend.db)
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        rows = [row for name in names for row in db.execute(f"SELECT * FROM {name}")]
        db.close()
        return rows
    with psycopg.connect(backend.db) as conn:
        names = [
            n
            for (n,) in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        ]
        return [tuple(row) for name in names for row in conn.execute(f"SELECT * FROM {name}")]


def test_a_version_5_database_gains_the_deleted_names(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row("ann"))])
    storage.close()
    to_version(backend, 5, VERSION_6_TABLES)
    storage = backend.open()
    assert storage.load_deleted_names() == []
    storage.write([DELETE])
    assert storage.load_deleted_names() == [DeletedName("ann", 50.0)]
    storage.close()
    assert SCHEMA_VERSION == 6


def test_the_operator_never_sees_a_stand_in_as_an_account(tmp_path: Path) -> None:
    """kahuna-server accounts: a deleted account's stand-in is listed as no one's account, and
    no command finds it by its name."""
    db = tmp_path / "server.sqlite3"
    make_db(db)
    storage = SqliteStorage(db)
    storage.write([DeleteAccountOp("bob", "Bob", "#deleted 1", "deleted #1", 50.0)])
    storage.close()
    listed = run("list", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert "Ann" in listed.stdout and "deleted" not in listed.stdout and "Bob" not in listed.stdout
    refused = run("disable", "deleted #1", "--db", str(db))
    assert refused.returncode == 1 and "no account is named" in refused.stderr
