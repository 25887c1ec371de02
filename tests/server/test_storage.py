"""The server's storage: round trips, refusals that leave files untouched, durability against
kill -9, and the bug guards of `write`; in SQLite and in PostgreSQL alike where a test takes
`backend` (tests/conftest.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from server.core.store import (
    AppendLogOp,
    ChatOp,
    ClearSeatOp,
    CloseOp,
    CreateTableOp,
    FinishOp,
    SetSeatOp,
    Storage,
    StorageError,
    StorageOp,
    StoredSeat,
    StoredTable,
    TableStateOp,
    hash_token,
)
from server.storage.sqlite_schema import SCHEMA_VERSION
from server.storage.sqlite_store import SqliteStorage, default_db_path
from server.storage.storage_open import START_GRACE, open_storage
from tests.conftest import Backend

OPTIONS = {"variant1": True, "variant2": False, "handicap": {"white": 2}}
RECORD = "# kahuna record\nplace BARI-DUDA\n"


def create(table_id: str, created: float = 1000.0) -> CreateTableOp:
    return CreateTableOp(table_id, OPTIONS, "white", False, created)


def every_op(table_id: str) -> list[StorageOp]:
    return [
        create(table_id),
        SetSeatOp(table_id, "white", "Ann", hash_token("tok-ann"), False),
        SetSeatOp(table_id, "black", "Bob", hash_token("tok-bob"), False),
        AppendLogOp(table_id, 0, (["c", [1, 2, 3]], ["m", "white", "place BARI-DUDA"]), 1001.0),
        ChatOp(table_id, "Ann", "hello", 1002.0),
        ClearSeatOp(table_id, "black"),
        SetSeatOp(table_id, "black", "Cid", hash_token("tok-cid"), False),
        AppendLogOp(table_id, 2, (["m", "black", "draw"],), 1003.0),
        ChatOp(table_id, "Cid", "hi", 1004.0, "spectator"),
        TableStateOp(table_id, {"clock": {"white": 3.5}}, 1004.5),
        FinishOp(
            table_id, {"winner": "white", "reason": "points", "points": [5, 3]}, RECORD, 1005.0
        ),
    ]


def expected(table_id: str) -> StoredTable:
    return StoredTable(
        table_id=table_id,
        options=OPTIONS,
        first="white",
        vs_computer=False,
        created=1000.0,
        updated=1005.0,
        seats={
            "white": StoredSeat("Ann", hash_token("tok-ann"), False),
            "black": StoredSeat("Cid", hash_token("tok-cid"), False),
        },
        log=[["c", [1, 2, 3]], ["m", "white", "place BARI-DUDA"], ["m", "black", "draw"]],
        chat=[("Ann", "hello", None), ("Cid", "hi", "spectator")],
        finished=True,
        state={"clock": {"white": 3.5}},
    )


def test_every_op_round_trips_through_a_reopened_database(backend: Backend) -> None:
    store = backend.open()
    store.write(every_op("t1"))
    store.write(
        [
            CreateTableOp("t2", {}, "black", True, 2000.0),
            SetSeatOp("t2", "black", "Computer", b"", True),
        ]
    )
    before = store.load_open_tables(chat_limit=10)
    store.close()

    again = backend.open()
    tables = again.load_open_tables(chat_limit=10)
    again.close()
    assert tables == before
    assert tables == [
        expected("t1"),
        StoredTable(
            table_id="t2",
            options={},
            first="black",
            vs_computer=True,
            created=2000.0,
            updated=2000.0,
            seats={"black": StoredSeat("Computer", b"", True)},
            log=[],
            chat=[],
            finished=False,
        ),
    ]


def test_open_tables_come_in_creation_order_not_id_order(backend: Backend) -> None:
    store = backend.open()
    store.write([create("zz", 5.0), create("aa", 5.0), create("mm", 4.0)])
    assert [t.table_id for t in store.load_open_tables(0)] == ["zz", "aa", "mm"]
    store.close()


def test_closed_tables_are_not_loaded_but_their_record_is_kept(backend: Backend) -> None:
    store = backend.open()
    store.write(every_op("done"))
    store.write([create("left"), CloseOp("left", "abandoned", 1010.0)])
    store.write([create("open")])
    store.write([CloseOp("done", "over", 1020.0)])
    store.close()

    store = backend.open()
    assert [t.table_id for t in store.load_open_tables(5)] == ["open"]
    assert store.finished_record("done") == RECORD
    assert store.finished_record("left") is None
    assert store.finished_record("nowhere") is None
    assert store.table_ids() == {"done", "left", "open"}
    store.close()


def test_a_finished_table_stays_loaded_until_closed(backend: Backend) -> None:
    store = backend.open()
    store.write(every_op("t"))
    [table] = store.load_open_tables(5)
    assert table.finished
    assert store.finished_record("t") == RECORD
    store.close()


def test_chat_limit_keeps_the_last_messages_in_order(backend: Backend) -> None:
    store = backend.open()
    store.write([create("a"), create("b")])
    # Interleaved so that a limit applied across tables, not per table, would show.
    for i in range(8):
        store.write([ChatOp("a", "Ann", f"a{i}", float(i)), ChatOp("b", "Bob", f"b{i}", float(i))])
    a, b = store.load_open_tables(chat_limit=3)
    assert a.chat == [("Ann", "a5", None), ("Ann", "a6", None), ("Ann", "a7", None)]
    assert b.chat == [("Bob", "b5", None), ("Bob", "b6", None), ("Bob", "b7", None)]
    assert [t.chat for t in store.load_open_tables(chat_limit=0)] == [[], []]
    assert len(store.load_open_tables(chat_limit=100)[0].chat) == 8
    store.close()


def test_tokens_are_stored_only_hashed(tmp_path: Path) -> None:
    path = tmp_path / "db"
    token = "Zq8xV3-very-secret-seat-token"
    store = SqliteStorage(path)
    store.write([create("t"), SetSeatOp("t", "white", "Ann", hash_token(token), False)])
    store.close()  # checkpoints the WAL into the main file
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert token.encode() not in data
    assert hash_token(token) in data


def test_a_raw_token_in_place_of_its_hash_is_refused(backend: Backend) -> None:
    store = backend.open()
    store.write([create("t")])
    raw: object = "raw-token"
    with pytest.raises(StorageError):
        store.write([SetSeatOp("t", "white", "Ann", raw, False)])  # type: ignore[arg-type]
    assert store.load_open_tables(0)[0].seats == {}
    store.close()


def test_hash_token_is_sha256_of_utf8() -> None:
    assert hash_token("abc").hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    # The UTF-8 bytes, not Latin-1 (de2e331d...), are what is hashed.
    assert hash_token("é").hex() == (
        "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"
    )


def test_memory_database_creates_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = SqliteStorage(":memory:")
    store.write(every_op("t"))
    assert store.load_open_tables(10) == [expected("t")]
    store.close()
    assert list(tmp_path.iterdir()) == []


def test_a_new_path_in_missing_directories_is_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "server.sqlite3"
    store = SqliteStorage(path)
    assert store.table_ids() == set()
    store.close()
    assert path.is_file()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_a_database_of_a_newer_server_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = SqliteStorage(path)
    store.write([create("t")])
    store.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StorageError) as info:
        SqliteStorage(path)
    message = str(info.value)
    assert str(path) in message
    assert f"schema version {SCHEMA_VERSION + 1}" in message
    assert f"version {SCHEMA_VERSION})" in message
    assert path.read_bytes() == before


def test_garbage_file_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    garbage = bytes(range(256)) * 40
    path.write_bytes(garbage)
    with pytest.raises(StorageError) as info:
        SqliteStorage(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["server.sqlite3"]


def test_truncated_database_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "db"
    store = SqliteStorage(path)
    store.write([create("t")])
    for i in range(0, 2000, 100):
        store.write(
            [AppendLogOp("t", i, tuple(["m", "white", "x" * 200] for _ in range(100)), 1.0)]
        )
    store.close()
    data = path.read_bytes()
    assert len(data) > 100_000
    cut = data[: len(data) // 2]
    path.write_bytes(cut)
    with pytest.raises(StorageError) as info:
        SqliteStorage(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == cut


def test_a_sqlite_database_of_another_program_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StorageError, match="not a kahuna server database"):
        SqliteStorage(path)
    assert path.read_bytes() == before


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as info:
        SqliteStorage(tmp_path)
    assert str(tmp_path) in str(info.value)
    assert "directory" in str(info.value)


def test_a_parent_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StorageError) as info:
        SqliteStorage(tmp_path / "file" / "db")
    assert str(tmp_path / "file") in str(info.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db"
    SqliteStorage(path).close()
    path.chmod(0)
    try:
        with pytest.raises(StorageError) as info:
            SqliteStorage(path)
        assert str(path) in str(info.value)
    finally:
        path.chmod(0o600)


def test_default_db_path_honours_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_db_path() == tmp_path / "state" / "kahuna" / "server.sqlite3"


@pytest.mark.parametrize("xdg", [None, ""])
def test_default_db_path_falls_back_to_local_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xdg: str | None
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    if xdg is None:
        monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_STATE_HOME", xdg)
    assert default_db_path() == tmp_path / ".local" / "state" / "kahuna" / "server.sqlite3"


@pytest.mark.parametrize(
    "bad",
    [
        AppendLogOp("t", 4, (["m", "white", "late"],), 9.0),  # a gap: the batch ends at 3
        AppendLogOp("t", 1, (["m", "white", "again"],), 9.0),  # overwrites an entry
        AppendLogOp("t", 2, (object(),), 9.0),  # not msgpack-able
        ChatOp("nowhere", "Ann", "hi", 9.0),
        ClearSeatOp("nowhere", "white"),
        CloseOp("nowhere", "gone", 9.0),
        create("t"),  # the id is taken
        FinishOp("t", {"winner": "white"}, RECORD, 9.0),  # finished twice
        SetSeatOp("t", "green", "Ann", b"h", False),
    ],
)
def test_a_failing_op_rolls_back_the_whole_transaction(backend: Backend, bad: StorageOp) -> None:
    store = backend.open()
    store.write(
        [
            create("t"),
            AppendLogOp("t", 0, (["c", [1]], ["m", "white", "a"]), 2.0),
            FinishOp("t", {"winner": "white"}, RECORD, 3.0),
        ]
    )
    before = store.load_open_tables(10)
    with pytest.raises(StorageError):
        store.write(
            [
                create("u"),
                ChatOp("t", "Ann", "lost", 8.0),
                AppendLogOp("t", 2, (["m", "black", "lost"],), 8.0),
                SetSeatOp("t", "white", "Ann", hash_token("x"), False),
                bad,
            ]
        )
    assert store.load_open_tables(10) == before
    assert store.table_ids() == {"t"}
    # The connection is usable after the rollback.
    store.write([AppendLogOp("t", 2, (["m", "black", "kept"],), 8.0)])
    store.close()
    again = backend.open()
    assert again.load_open_tables(10)[0].log[-1] == ["m", "black", "kept"]
    again.close()


def test_ops_on_a_closed_table_are_refused(backend: Backend) -> None:
    store = backend.open()
    store.write([create("t"), CloseOp("t", "gone", 2.0)])
    with pytest.raises(StorageError, match="closed table t"):
        store.write([AppendLogOp("t", 0, (["m", "white", "a"],), 3.0)])
    store.close()


def test_an_empty_write_is_a_no_op(backend: Backend) -> None:
    store = backend.open()
    store.write([])
    assert store.table_ids() == set()
    store.close()


CRASH_WRITER = textwrap.dedent(
    """
    import sys
    from server.core.store import AppendLogOp, CreateTableOp
    from server.storage.storage_open import open_storage

    store = open_storage(sys.argv[1])
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    for i in range(100_000):
        store.write([AppendLogOp("t", i, (["m", "white", f"entry {i}"],), float(i))])
        print(i, flush=True)
    """
)


def test_every_acknowledged_write_survives_kill_9(backend: Backend) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_WRITER, backend.db],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parent.parent.parent,
    )
    assert proc.stdout is not None
    printed: list[int] = []
    deadline = time.monotonic() + 20.0
    try:
        while len(printed) < 300 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            printed.append(int(line))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert len(printed) >= 300, "the writer stopped before it was killed"
    store = reopened_after_kill(backend)
    [table] = store.load_open_tables(0)
    store.close()
    # The writer may have committed a few more than it printed before the kill, never fewer.
    assert len(table.log) >= len(printed)
    assert table.log[: len(printed)] == [["m", "white", f"entry {i}"] for i in printed]


def test_one_database_belongs_to_one_server(backend: Backend) -> None:
    first = backend.open()
    with pytest.raises(StorageError, match="another kahuna server"):
        backend.open()
    first.close()
    backend.open().close()  # free again once the first is closed


def test_checkpoints_happen_off_the_writing_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import server.storage.sqlite_store

    monkeypatch.setattr(server.storage.sqlite_store, "CHECKPOINT_EVERY", 0.01)
    path = tmp_path / "server.sqlite3"
    storage = SqliteStorage(path)
    assert storage._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    storage.write([CreateTableOp("t1", {}, "white", False, 1.0)])
    for _ in range(500):  # bounded: the thread runs every 10 ms
        if storage.checkpoints >= 2:
            break
        time.sleep(0.01)
    assert storage.checkpoints >= 2
    storage.close()
    again = SqliteStorage(path)
    assert again.load_open_tables(5)[0].table_id == "t1"
    again.close()


def test_a_version_1_database_is_brought_up_to_date(tmp_path: Path) -> None:
    """A database as the first persistent release wrote it (schema 1) opens, keeps its tables
    and gains the columns of schema 2."""
    import sqlite3

    from server.storage.sqlite_schema import APPLICATION_ID

    path = tmp_path / "server.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE tables (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
            options TEXT NOT NULL, first TEXT NOT NULL, vs_computer INTEGER NOT NULL,
            status TEXT NOT NULL DEFAULT 'open', created REAL NOT NULL, updated REAL NOT NULL,
            close_reason TEXT);
        CREATE TABLE seats (table_id TEXT NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL,
            token_hash BLOB NOT NULL, computer INTEGER NOT NULL, PRIMARY KEY (table_id, seat));
        CREATE TABLE log (table_id TEXT NOT NULL, idx INTEGER NOT NULL, entry BLOB NOT NULL,
            PRIMARY KEY (table_id, idx));
        CREATE TABLE chat (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL,
            sender TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL);
        CREATE TABLE finished (table_id TEXT PRIMARY KEY, result TEXT NOT NULL,
            record TEXT NOT NULL, at REAL NOT NULL);
        INSERT INTO tables (id, options, first, vs_computer, created, updated)
            VALUES ('old', '{}', 'white', 0, 1.0, 1.0);
        INSERT INTO chat (table_id, sender, text, at) VALUES ('old', 'Ann', 'hi', 1.0);
        """
    )
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = SqliteStorage(path)
    (table,) = store.load_open_tables(5)
    assert table.table_id == "old" and table.chat == [("Ann", "hi", None)] and table.state == {}
    store.write([TableStateOp("old", {"x": 1}, 2.0), ChatOp("old", "Bo", "yo", 2.0, "black")])
    assert store.load_open_tables(5)[0].state == {"x": 1}
    store.close()
    again = SqliteStorage(path)
    assert again.load_open_tables(5)[0].chat[-1] == ("Bo", "yo", "black")
    again.close()


def statements(store: SqliteStorage) -> list[str]:
    """The SQL statements the storage runs from now on, as SQLite reports them."""
    seen: list[str] = []
    store._conn.set_trace_callback(seen.append)
    return seen


@pytest.mark.parametrize("count", [1, 2, 7])
def test_a_move_stored_alone_is_one_statement_and_reads_back(tmp_path: Path, count: int) -> None:
    """One INSERT in autocommit, its own transaction; the table's time is written at close."""
    path = tmp_path / "db"
    store = SqliteStorage(path)
    store.write([create("t"), AppendLogOp("t", 0, (["c", [1]],), 2.0)])
    entries = tuple(["m", "white", f"move {i}"] for i in range(count))
    seen = statements(store)
    store.write([AppendLogOp("t", 1, entries, 1003.0)])
    assert len(seen) == 1 and seen[0].startswith("INSERT INTO log")
    store.write([AppendLogOp("t", 1 + count, (["m", "black", "draw"],), 1004.0)])
    store.close()
    again = SqliteStorage(path)
    (table,) = again.load_open_tables(10)
    assert table.log == [["c", [1]], *entries, ["m", "black", "draw"]]
    assert table.updated == 1004.0  # written at close
    again.close()


@pytest.mark.parametrize("count", [1, 3])
def test_a_move_stored_alone_in_memory_is_one_statement(count: int) -> None:
    store = SqliteStorage(":memory:")
    store.write([create("t"), AppendLogOp("t", 0, (["c", [1]],), 2.0)])
    entries = tuple(["m", "white", f"move {i}"] for i in range(count))
    seen = statements(store)
    store.write([AppendLogOp("t", 1, entries, 1003.0)])
    assert len(seen) == 1 and seen[0].startswith("INSERT INTO log")
    assert store.load_open_tables(10)[0].log == [["c", [1]], *entries]
    store.close()


@pytest.mark.parametrize(
    "bad",
    [
        AppendLogOp("t", 3, (["m", "white", "late"],), 9.0),
        AppendLogOp("t", 0, (["m", "white", "again"],), 9.0),
        AppendLogOp("t", 1, (["m", "white", "fine"], object()), 9.0),
    ],
)
def test_a_move_stored_alone_is_all_or_nothing(backend: Backend, bad: AppendLogOp) -> None:
    store = backend.open()
    store.write([create("t"), AppendLogOp("t", 0, (["c", [1]],), 2.0)])
    with pytest.raises(StorageError, match="nothing written"):
        store.write([bad])
    assert store.load_open_tables(10)[0].log == [["c", [1]]]
    store.write([AppendLogOp("t", 1, (["m", "white", "kept"],), 3.0)])  # and it goes on
    assert store.load_open_tables(10)[0].log == [["c", [1]], ["m", "white", "kept"]]
    store.close()


def reopened_after_kill(backend: Backend) -> Storage:
    """The database opened again after its writer was killed, as a server's start opens it:
    PostgreSQL frees the killed session's advisory lock (the one-server-per-database lock) only
    once its backend has seen the client's socket closed, a moment after the kill on a busy
    machine, and the start asks for it again for START_GRACE (server/storage/storage_open.py)."""
    return open_storage(backend.db, grace=START_GRACE)
