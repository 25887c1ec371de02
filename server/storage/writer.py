"""Writes to a database across a network (PostgreSQL) from a thread of their own, several
batches to a transaction, so that the event loop never waits for a commit.

A commit to PostgreSQL waits for a round trip and for its write-ahead log to reach the disk:
about 350 µs here (bench/storage_bench.py --postgresql), which at 4,000 actions a second is more
than a whole event loop's time. So the shell hands each `Effects`' writes to this writer and
carries out the rest of the effects (the messages above all) only once the writer says they are
committed: the promise "stored before told" holds as with SQLite, and while one transaction
commits, the writes that come meanwhile gather for the next (a group commit).

Every other use of the storage goes through the same thread (the record reads, the look at the
connection when idle), so the connection is never used by two threads at once.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from server.core.store import Storage, StorageError, StorageOp

log = logging.getLogger(__name__)

MOST_OPS = 2000  # operations one transaction takes at most; the rest go to the next
IDLE_CHECK = 1.0  # seconds without writes after which the writer looks at the connection

Read = Callable[[Storage], Any]


@attrs.frozen
class _Writes:
    number: int
    ops: Sequence[StorageOp]


@attrs.frozen
class _Reading:
    read: Read
    future: asyncio.Future[Any]


class Writer:
    """The storage's own thread. `submit` queues a batch of writes and gives its number;
    `on_written(n)` is called on the loop once every batch up to n is committed, `on_failed`
    once a write failed (nothing more is written after it)."""

    def __init__(
        self,
        storage: Storage,
        loop: asyncio.AbstractEventLoop,
        on_written: Callable[[int], None],
        on_failed: Callable[[StorageError], None],
    ) -> None:
        self.storage = storage
        self._loop = loop
        self._on_written = on_written
        self._on_failed = on_failed
        self._numbers = itertools.count(1)
        self._queue: collections.deque[_Writes | _Reading] = collections.deque()
        self._wake = threading.Condition()
        self._closing = False
        self._failed = False
        self.transactions = 0  # committed (for tests and curious hosts)
        self._thread = threading.Thread(target=self._run, name="kahuna-writer", daemon=True)
        self._thread.start()

    def submit(self, ops: Sequence[StorageOp]) -> int:
        number = next(self._numbers)
        with self._wake:
            self._queue.append(_Writes(number, ops))
            self._wake.notify()
        return number

    def read(self, what: Read) -> asyncio.Future[Any]:
        """Run `what(storage)` on the writer's thread, after the writes queued before it."""
        future: asyncio.Future[Any] = self._loop.create_future()
        with self._wake:
            self._queue.append(_Reading(what, future))
            self._wake.notify()
        return future

    def close(self) -> None:
        """Write what is queued, then close the storage; blocks until done."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join()

    # ----- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                with self._wake:
                    if not self._queue and not self._closing:
                        self._wake.wait(IDLE_CHECK)
                    if not self._queue:
                        if self._closing:
                            return
                        self._check()
                        continue
                    first = self._queue[0]
                    if isinstance(first, _Reading):
                        self._queue.popleft()
                        batch: list[_Writes] = []
                    else:
                        batch = self._take_writes()
                if isinstance(first, _Reading):
                    self._read(first)
                else:
                    self._write(batch)
        finally:
            try:
                self.storage.close()  # after a failure too: it lets go of the database
            except StorageError as exc:
                log.error("closing the database: %s", exc)

    def _take_writes(self) -> list[_Writes]:
        """The writes at the head of the queue, up to the first read or MOST_OPS."""
        batch: list[_Writes] = []
        count = 0
        while self._queue:
            head = self._queue[0]
            if isinstance(head, _Reading) or (batch and count + len(head.ops) > MOST_OPS):
                break
            self._queue.popleft()
            batch.append(head)
            count += len(head.ops)
        return batch

    def _write(self, batch: list[_Writes]) -> None:
        if self._failed:
            return
        ops = batch[0].ops if len(batch) == 1 else [op for w in batch for op in w.ops]
        try:
            self.storage.write(ops)
        except StorageError as exc:
            self._fail(exc)
            return
        self.transactions += 1
        self._loop.call_soon_threadsafe(self._on_written, batch[-1].number)

    def _read(self, job: _Reading) -> None:
        try:
            result = job.read(self.storage)
        except Exception as exc:
            self._loop.call_soon_threadsafe(_settle, job.future, None, exc)
        else:
            self._loop.call_soon_threadsafe(_settle, job.future, result, None)

    def _check(self) -> None:
        if self._failed:
            return
        try:
            self.storage.alive()
        except StorageError as exc:
            self._fail(exc)

    def _fail(self, exc: StorageError) -> None:
        self._failed = True
        try:
            self._loop.call_soon_threadsafe(self._on_failed, exc)
        except RuntimeError:  # the loop is closed: nobody left to tell
            log.critical("storage failed after the server stopped: %s", exc)


def _settle(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)
