"""One client connection: its outgoing queue and writer, its limits, and what it has joined."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.config import ServerConfig
from server.ratelimit import TokenBucket

log = logging.getLogger(__name__)

CLOSE_POLICY = 1008  # flood, version mismatch, too many connections, no hello
CLOSE_TRY_AGAIN = 1013  # the server is full
CLOSE_GOING_AWAY = 1001  # the server shuts down


class Connection:
    """Frames to send are queued and written by one task, so a slow client holds up no one."""

    def __init__(self, member: int, ws: ServerConnection, address: str, config: ServerConfig):
        self.member = member
        self.ws = ws
        self.address = address
        self.name: str | None = None
        self.tables: set[str] = set()
        self.lobby = False
        self.bucket = TokenBucket(config.rate, config.burst)
        self.chat_bucket = TokenBucket(config.chat_rate, config.chat_burst)
        self.flood = TokenBucket(config.rate, config.flood_limit)  # drops allowed before closing
        self.last_rate_error = 0.0
        self.closing = False
        self._queue: asyncio.Queue[bytes | tuple[int, str]] = asyncio.Queue(config.send_queue)
        self._writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def greeted(self) -> bool:
        return self.name is not None

    def send(self, data: bytes) -> None:
        if self.closing:
            return
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("connection %s from %s is too slow; closing it", self.member, self.address)
            self.abort(CLOSE_POLICY, "too slow to read its messages")

    def close_after_sending(self, code: int, reason: str) -> None:
        """Close once the frames already queued are written."""
        if self.closing:
            return
        self.closing = True
        try:
            self._queue.put_nowait((code, reason))
        except asyncio.QueueFull:
            self.abort(code, reason)

    def abort(self, code: int, reason: str) -> None:
        self.closing = True
        self._writer.cancel()
        asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def _write(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, tuple):
                    await self._close(*item)
                    return
                await self.ws.send(item)
        except ConnectionClosed:
            pass

    def allow(self) -> bool:
        """Take one message against the rate limit."""
        return self.bucket.take()

    def rate_error_due(self) -> bool:
        """At most one rate_limited reply a second, so a flood does not become one."""
        now = time.monotonic()
        if now - self.last_rate_error >= 1.0:
            self.last_rate_error = now
            return True
        return False

    async def stop(self) -> None:
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer
