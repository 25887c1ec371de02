"""The move journal (server/journal.py): its format, torn and damaged files, and the storage that
takes what a stopped server left in it into SQLite at the next opening."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import msgpack
import pytest

from server.journal import (
    HEADER,
    JournalError,
    JournalRecord,
    MoveJournal,
    encode_record,
    journal_path,
    read_journal,
)
from server.sqlite_store import SCHEMA_VERSION, SqliteStorage
from server.store import AppendLogOp, CreateTableOp, StorageError

ROOT = Path(__file__).resolve().parent.parent.parent


def packed(*entries: object) -> tuple[bytes, ...]:
    return tuple(msgpack.packb(e, use_bin_type=True) for e in entries)


def test_records_read_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j"
    journal = MoveJournal(path)
    journal.append("t1", 0, packed(["c", [1, 2]], ["m", "white", "draw"]))
    journal.append("t2", 4, packed(["m", "black", "take BARI"]))
    journal.close()
    assert read_journal(path) == [
        JournalRecord("t1", 0, packed(["c", [1, 2]], ["m", "white", "draw"])),
        JournalRecord("t2", 4, packed(["m", "black", "take BARI"])),
    ]


def test_no_file_is_no_record(tmp_path: Path) -> None:
    assert read_journal(tmp_path / "absent") == []


def test_an_emptied_journal_is_removed_at_close(tmp_path: Path) -> None:
    path = tmp_path / "j"
    journal = MoveJournal(path)
    journal.append("t", 0, packed(1))
    journal.clear()
    assert path.stat().st_size == 0
    journal.append("t", 1, packed(2))  # appends start again at the beginning
    assert read_journal(path) == [JournalRecord("t", 1, packed(2))]
    journal.clear()
    journal.close()
    assert not path.exists()


def test_a_journal_not_emptied_is_kept_at_close(tmp_path: Path) -> None:
    path = tmp_path / "j"
    journal = MoveJournal(path)
    journal.append("t", 0, packed(1))
    journal.close()
    assert read_journal(path) == [JournalRecord("t", 0, packed(1))]


GOOD = encode_record("t", 0, packed(["m", "white", "draw"]))
LAST = encode_record("t", 1, packed(["m", "black", "draw"]))


@pytest.mark.parametrize(
    "torn",
    [
        LAST[: HEADER.size - 3],  # the header cut short
        LAST[:-1],  # the payload cut short
        LAST[:-1] + bytes([LAST[-1] ^ 0xFF]),  # whole, but not what was written
    ],
)
def test_a_torn_last_record_is_dropped(tmp_path: Path, torn: bytes) -> None:
    path = tmp_path / "j"
    path.write_bytes(GOOD + torn)
    assert read_journal(path) == [JournalRecord("t", 0, packed(["m", "white", "draw"]))]


def test_a_damaged_record_before_the_last_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j"
    damaged = GOOD[:-1] + bytes([GOOD[-1] ^ 0xFF])
    path.write_bytes(damaged + LAST)
    with pytest.raises(JournalError, match=f"{path}: the move journal is damaged at byte 0"):
        read_journal(path)


def test_a_record_of_the_wrong_shape_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "j"
    payload = msgpack.packb(["t", -1, []])
    path.write_bytes(HEADER.pack(len(payload), zlib.crc32(payload)) + payload + LAST)
    with pytest.raises(JournalError, match="bad record at byte 0"):
        read_journal(path)


# ----- the storage and its journal ----------------------------------------------------------


STOPPED_WRITER = textwrap.dedent(
    """
    import os, sys
    from server.store import AppendLogOp, CreateTableOp
    from server.sqlite_store import SqliteStorage

    store = SqliteStorage(sys.argv[1])
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    store.write([AppendLogOp("t", 0, (["c", [1]],), 1.0)])
    for i in range(1, 6):
        store.write([AppendLogOp("t", i, (["m", "white", f"move {i}"],), 1.0 + i)])
    os._exit(0)  # no close: as a kill -9 leaves it
    """
)


def stopped_server(path: Path) -> None:
    """A storage whose process ended without closing it, after six log entries stored alone."""
    subprocess.run(
        [sys.executable, "-c", STOPPED_WRITER, str(path)], cwd=ROOT, check=True, timeout=60
    )


LOG = [["c", [1]], *(["m", "white", f"move {i}"] for i in range(1, 6))]


def test_moves_left_in_the_journal_are_taken_in_at_the_next_opening(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    assert len(read_journal(journal_path(path))) == 6
    store = SqliteStorage(path)
    assert read_journal(journal_path(path)) == []  # in SQLite now, and the journal emptied
    (table,) = store.load_open_tables(0)
    assert table.log == LOG
    store.write([AppendLogOp("t", 6, (["m", "black", "draw"],), 9.0)])  # and play goes on
    store.close()
    assert not journal_path(path).exists()
    again = SqliteStorage(path)
    assert again.load_open_tables(0)[0].log == [*LOG, ["m", "black", "draw"]]
    again.close()


def test_moves_sqlite_already_has_are_skipped(tmp_path: Path) -> None:
    """A server stopped between the transaction that took the journal in and its emptying."""
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    left = journal_path(path).read_bytes()
    SqliteStorage(path).close()  # takes them in
    journal_path(path).write_bytes(left)
    store = SqliteStorage(path)
    assert store.load_open_tables(0)[0].log == LOG
    store.close()


@pytest.mark.parametrize(
    "record",
    [
        encode_record("t", 7, packed(["m", "white", "a gap before it"])),
        encode_record("t", 2, packed(["m", "white", "not what is there"])),
        encode_record("nowhere", 0, packed(["m", "white", "an unknown table"])),
    ],
)
def test_a_journal_that_does_not_continue_the_log_is_refused_untouched(
    tmp_path: Path, record: bytes
) -> None:
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    SqliteStorage(path).close()
    journal_path(path).write_bytes(record)
    before = path.read_bytes()
    with pytest.raises(StorageError, match=f"{journal_path(path)}.*left as they were"):
        SqliteStorage(path)
    assert path.read_bytes() == before
    assert journal_path(path).read_bytes() == record
    journal_path(path).unlink()
    store = SqliteStorage(path)  # without it, the database opens as it was
    assert store.load_open_tables(0)[0].log == LOG
    store.close()


def test_a_damaged_journal_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    with contextlib.closing(sqlite3.connect(path)) as conn:  # SQLite's own log into the file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(journal_path(path).read_bytes())
    data[HEADER.size + 2] ^= 0xFF  # inside the first record's payload
    journal_path(path).write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(StorageError, match="damaged"):
        SqliteStorage(path)
    assert path.read_bytes() == before
    assert journal_path(path).read_bytes() == bytes(data)


def test_a_refused_database_gets_no_journal(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    SqliteStorage(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StorageError, match="newer"):
        SqliteStorage(path)
    assert not journal_path(path).exists()


def test_reading_the_tables_sees_the_journal(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "db")
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    store.write([AppendLogOp("t", 0, (["c", [1]],), 1.0)])
    store.write([AppendLogOp("t", 1, (["m", "white", "draw"],), 2.0)])
    assert store.load_open_tables(0)[0].log == [["c", [1]], ["m", "white", "draw"]]
    store.close()


def test_a_new_database_and_its_files_are_for_the_servers_user_alone(tmp_path: Path) -> None:
    """They hold the order of the deck of every running game."""
    path = tmp_path / "server.sqlite3"
    store = SqliteStorage(path)
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    store.write([AppendLogOp("t", 0, (["c", [1]],), 1.0)])
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm"), journal_path(path)]
    modes = {f.name: f.stat().st_mode & 0o777 for f in files}
    store.close()
    assert modes == {f.name: 0o600 for f in files}
