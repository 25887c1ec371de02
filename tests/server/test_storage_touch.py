"""A table's `updated` time is written at most every TOUCH_EVERY seconds, not with every stored
action: the storage reports the latest time all the same, a close writes it, and so does a
table's CloseOp."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.core.store import AppendLogOp, CloseOp, CreateTableOp, StorageError
from server.storage import sql_store as storage
from server.storage.sqlite_store import SqliteStorage

MOVE = ["m", "white", "draw"]


def stored_updated(path: Path, table_id: str) -> float:
    with sqlite3.connect(path) as conn:
        (updated,) = conn.execute("SELECT updated FROM tables WHERE id = ?", (table_id,)).fetchone()
    return float(updated)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "server.sqlite3"


@pytest.fixture
def store(path: Path, monkeypatch: pytest.MonkeyPatch) -> SqliteStorage:
    """A new database at `path` whose tables' times wait an hour to be written: longer than any
    test, so that only a close, a CloseOp or a test's own `_touch_due` writes them."""
    monkeypatch.setattr(storage, "TOUCH_EVERY", 3600.0)
    return SqliteStorage(path)


def test_updated_is_written_in_batches_and_read_back_whole(
    path: Path, store: SqliteStorage
) -> None:
    store.write([CreateTableOp("t1", {}, "white", False, 1000.0)])
    for index in range(4):
        store.write([AppendLogOp("t1", index, (MOVE,), 1001.0 + index)])
    assert stored_updated(path, "t1") == 1000.0  # the later times wait in memory
    (table,) = store.load_open_tables(chat_limit=10)
    assert table.updated == 1004.0 and len(table.log) == 4
    store.close()
    assert stored_updated(path, "t1") == 1004.0  # written at close


def test_a_batch_is_written_once_due(
    path: Path, store: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.write([CreateTableOp("t1", {}, "white", False, 1000.0)])
    store.write([CreateTableOp("t2", {}, "white", False, 1000.0)])
    store.write([AppendLogOp("t1", 0, (MOVE,), 1001.0)])
    assert stored_updated(path, "t1") == 1000.0
    monkeypatch.setattr(storage, "TOUCH_EVERY", 0.0)
    store._touch_due = 0.0  # as if the interval had passed
    store.write([AppendLogOp("t2", 0, (MOVE,), 1002.0)])  # t1's time goes along
    assert (stored_updated(path, "t1"), stored_updated(path, "t2")) == (1001.0, 1002.0)
    store.close()


def test_a_close_carries_the_time_not_yet_written(path: Path, store: SqliteStorage) -> None:
    store.write([CreateTableOp("t1", {}, "white", False, 1000.0)])
    store.write([AppendLogOp("t1", 0, (MOVE,), 1001.0)])
    store.write([AppendLogOp("t1", 1, (MOVE,), 1005.0)])
    assert stored_updated(path, "t1") == 1000.0
    store.write([CloseOp("t1", "over", 1003.0)])  # a clock behind the last action's
    assert stored_updated(path, "t1") == 1005.0
    assert store.load_open_tables(chat_limit=10) == []
    store.close()
    assert stored_updated(path, "t1") == 1005.0


def test_a_failed_write_leaves_no_time_behind(path: Path, store: SqliteStorage) -> None:
    store.write([CreateTableOp("t1", {}, "white", False, 1000.0)])
    store.write([AppendLogOp("t1", 0, (MOVE,), 1001.0)])
    with pytest.raises(StorageError):  # the log continues at 1, not 5
        store.write([AppendLogOp("t1", 5, (MOVE,), 1009.0)])
    (table,) = store.load_open_tables(chat_limit=10)
    assert table.updated == 1001.0
    store.close()
    assert stored_updated(path, "t1") == 1001.0


def test_once_due_the_times_go_a_batch_to_a_write_longest_waiting_first(
    path: Path, store: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of rows in one commit would stall the server: at most TOUCH_BATCH a write."""
    monkeypatch.setattr(storage, "TOUCH_BATCH", 2)
    for name in ("t1", "t2", "t3", "t4"):
        store.write([CreateTableOp(name, {}, "white", False, 1000.0)])
    for index, name in enumerate(("t3", "t1", "t4")):
        store.write([AppendLogOp(name, 0, (MOVE,), 1001.0 + index)])
    store._touch_due = 0.0  # as if the interval had passed
    store.write([AppendLogOp("t2", 0, (MOVE,), 1004.0)])
    assert [stored_updated(path, t) for t in ("t1", "t2", "t3", "t4")] == [
        1002.0, 1000.0, 1001.0, 1000.0
    ]  # fmt: skip
    store.write([AppendLogOp("t3", 1, (MOVE,), 1005.0)])  # the longest waiting next
    assert [stored_updated(path, t) for t in ("t1", "t2", "t3", "t4")] == [
        1002.0, 1004.0, 1001.0, 1003.0
    ]  # fmt: skip
    store.write([AppendLogOp("t1", 1, (MOVE,), 1006.0)])  # the last ones: no longer due
    assert (stored_updated(path, "t1"), stored_updated(path, "t3")) == (1006.0, 1005.0)
    assert store._touch_due > 0.0
    store.write([AppendLogOp("t2", 1, (MOVE,), 1007.0)])  # stored alone, its time waits
    assert stored_updated(path, "t2") == 1004.0
    assert [t.updated for t in store.load_open_tables(chat_limit=0)] == [
        1006.0, 1007.0, 1005.0, 1003.0
    ]  # fmt: skip
    store.close()
    assert stored_updated(path, "t2") == 1007.0
