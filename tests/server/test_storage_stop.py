"""A storage whose process stopped without closing it (a kill -9, a crash): every move stored
alone is in the database at the next opening; the move journal an earlier version kept beside
the database is refused while it holds moves and removed when empty; the files are for the
server's user alone."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from server.core.store import AppendLogOp, CreateTableOp, StorageError
from server.storage.sqlite_store import OLD_JOURNAL_SUFFIX, SqliteStorage

ROOT = Path(__file__).resolve().parent.parent.parent

STOPPED_WRITER = textwrap.dedent(
    """
    import os, sys
    from server.core.store import AppendLogOp, CreateTableOp
    from server.storage.sqlite_store import SqliteStorage

    store = SqliteStorage(sys.argv[1])
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    store.write([AppendLogOp("t", 0, (["c", [1]],), 1.0)])
    for i in range(1, 6):
        store.write([AppendLogOp("t", i, (["m", "white", f"move {i}"],), 1.0 + i)])
    os._exit(0)  # no close: as a kill -9 leaves it
    """
)

LOG = [["c", [1]], *(["m", "white", f"move {i}"] for i in range(1, 6))]


def stopped_server(path: Path) -> None:
    """A storage whose process ended without closing it, after six log entries stored alone."""
    subprocess.run(
        [sys.executable, "-c", STOPPED_WRITER, str(path)], cwd=ROOT, check=True, timeout=60
    )


def test_moves_stored_alone_are_there_after_a_stop_without_close(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    store = SqliteStorage(path)
    (table,) = store.load_open_tables(0)
    assert table.log == LOG
    store.write([AppendLogOp("t", 6, (["m", "black", "draw"],), 9.0)])  # and play goes on
    store.close()
    again = SqliteStorage(path)
    assert again.load_open_tables(0)[0].log == [*LOG, ["m", "black", "draw"]]
    again.close()


def test_an_old_journal_holding_moves_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    stopped_server(path)
    journal = Path(f"{path}{OLD_JOURNAL_SUFFIX}")
    journal.write_bytes(b"\0\0\0\5moves")
    before = path.read_bytes()
    with pytest.raises(StorageError, match=r"earlier kahuna server version.*left as they were"):
        SqliteStorage(path)
    assert path.read_bytes() == before
    assert journal.read_bytes() == b"\0\0\0\5moves"
    journal.unlink()
    store = SqliteStorage(path)  # without it, the database opens as it was
    assert store.load_open_tables(0)[0].log == LOG
    store.close()


def test_an_empty_old_journal_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    SqliteStorage(path).close()
    journal = Path(f"{path}{OLD_JOURNAL_SUFFIX}")
    journal.touch()
    SqliteStorage(path).close()
    assert not journal.exists()


def test_a_new_database_and_its_files_are_for_the_servers_user_alone(tmp_path: Path) -> None:
    """They hold the order of the deck of every running game."""
    path = tmp_path / "server.sqlite3"
    store = SqliteStorage(path)
    store.write([CreateTableOp("t", {}, "white", False, 0.0)])
    store.write([AppendLogOp("t", 0, (["c", [1]],), 1.0)])
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    modes = {f.name: f.stat().st_mode & 0o777 for f in files}
    store.close()
    assert modes == {f.name: 0o600 for f in files}
