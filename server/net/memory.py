"""Memory given back to the system after many connections closed (docs/architecture.md, "Memory
under a barrage"). What a connection holds is bounded (a message in progress at most
hard_max_frame, what one read brings, its send queue at most send_queue_bytes), and it is all
freed after the connection closes; but part of it only at the collector's next full pass (it is
in reference cycles), and the C allocator (glibc's malloc) keeps freed memory in its heap for
later: a barrage of a few hundred connections left the process at three or four times its size
for good. Once the closes are over, a full collection, then glibc's malloc_trim(0), which hands
the free pages of its heaps back (about 10 ms, in a thread). Without glibc, the collection only."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

CLOSES = 64  # connections closed before memory is given back
DELAY = 2.0  # seconds without a close before memory is given back
MOST_DELAYED = 30.0  # seconds after the CLOSES-th close at most, while closes go on


def _malloc_trim() -> Callable[[int], int] | None:
    with contextlib.suppress(OSError, AttributeError):
        trim = ctypes.CDLL(None).malloc_trim  # the process's own C library: glibc on Linux
        trim.argtypes = [ctypes.c_size_t]
        trim.restype = ctypes.c_int
        return trim
    return None


GIVE_BACK = _malloc_trim()


class MemoryReturn:
    """Counts the connections closed; once CLOSES of them have, collects their cycles and gives
    the C heap's free memory back when DELAY seconds pass without a close (or MOST_DELAYED after
    the first); the giving back in a thread, while the event loop goes on."""

    def __init__(self, closes: int = CLOSES, delay: float = DELAY) -> None:
        self.closes = closes
        self.delay = delay
        self.closed_since = 0
        self.given_back = 0  # times, for the tests
        self._due: asyncio.TimerHandle | None = None
        self._first = 0.0  # when the close came that set the first _due
        self._task: asyncio.Task[None] | None = None

    def closed(self) -> None:
        self.closed_since += 1
        if self.closed_since < self.closes or self._task is not None:
            return
        # DELAY after the last close of a burst (a barrage's connections close over seconds),
        # but no later than MOST_DELAYED after the first, should the closes go on
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._due is None:
            self._first = now
        elif now - self._first < MOST_DELAYED - self.delay:
            self._due.cancel()
        else:
            return
        self._due = loop.call_later(self.delay, self._give_back)

    def _give_back(self) -> None:
        self._due = None
        self.closed_since = 0
        # A closed connection's objects are partly in reference cycles (its tasks, the
        # exception it ended with and that exception's frames, which hold its buffers): they
        # are freed by the collector, whose full pass may be far off; first that, then the heap.
        # (The objects restored at the start are frozen, out of the pass: it takes milliseconds.)
        began = time.perf_counter()
        found = gc.collect()
        log.debug("%d objects collected in %.3f s", found, time.perf_counter() - began)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            if GIVE_BACK is not None:
                await asyncio.to_thread(GIVE_BACK, 0)  # 0: keep no free pages at the top
                log.debug("freed memory given back to the system")
            self.given_back += 1
        finally:
            self._task = None

    async def stop(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
