"""The writer thread of a database across a network (server/storage/writer.py), on a real storage:
the batches are committed in order and told back on the loop, several to a transaction when they
come together; a read sees the writes queued before it; after a failed write nothing more is
written, and the loop hears of it once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.core.store import AppendLogOp, CreateTableOp, StorageError
from server.storage.sqlite_store import SqliteStorage
from server.storage.writer import Writer
from tests.conftest import Backend

MOVE = ["m", "white", "draw"]


async def test_batches_are_committed_in_order_and_told_on_the_loop(backend: Backend) -> None:
    loop = asyncio.get_running_loop()
    written: list[int] = []
    failures: list[StorageError] = []
    everything = asyncio.Event()
    storage = backend.open()

    def on_written(number: int) -> None:
        written.append(number)
        if number == 101:
            everything.set()

    writer = Writer(storage, loop, on_written, failures.append)
    numbers = [writer.submit([CreateTableOp("t", {}, "white", False, 1.0)])]
    numbers += [writer.submit([AppendLogOp("t", i, (MOVE,), 2.0 + i)]) for i in range(100)]
    assert numbers == list(range(1, 102))
    log = await asyncio.wait_for(writer.read(lambda s: s.load_open_tables(0)[0].log), 10)
    assert log == [MOVE] * 100  # the read came after the writes queued before it
    await asyncio.wait_for(everything.wait(), 10)
    assert written == sorted(written) and written[-1] == 101 and not failures
    assert writer.transactions < 101  # the batches that waited went together
    await asyncio.to_thread(writer.close)
    again = backend.open()
    assert len(again.load_open_tables(0)[0].log) == 100
    again.close()


async def test_after_a_failed_write_nothing_more_is_written(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    written: list[int] = []
    failed = asyncio.Event()
    failures: list[StorageError] = []

    def on_failed(exc: StorageError) -> None:
        failures.append(exc)
        failed.set()

    path = tmp_path / "db.sqlite3"
    writer = Writer(SqliteStorage(path), loop, written.append, on_failed)
    writer.submit([CreateTableOp("t", {}, "white", False, 1.0)])
    await asyncio.wait_for(writer.read(lambda s: None), 10)  # the table is there
    writer.submit([AppendLogOp("t", 5, (MOVE,), 2.0)])  # a gap: refused
    writer.submit([AppendLogOp("t", 0, (MOVE,), 3.0)])
    await asyncio.wait_for(failed.wait(), 10)
    await asyncio.sleep(0.05)
    assert written == [1] and len(failures) == 1 and "continues at index 0" in str(failures[0])
    await asyncio.to_thread(writer.close)
    again = SqliteStorage(path)
    assert again.load_open_tables(0)[0].log == []
    again.close()
