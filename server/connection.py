"""One client connection's transport: its outgoing queue and the task that writes it. What the
connection may do and where it sits is the core's business (server/core.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.config import ServerConfig

log = logging.getLogger(__name__)

CLOSE_GOING_AWAY = 1001  # the server shuts down
CLOSE_SLOW = 1008  # a policy close, as for a flood


class Connection:
    """Frames to send are queued and written by one task, so a slow client holds up no one."""

    def __init__(self, member: int, ws: ServerConnection, address: str, config: ServerConfig):
        self.member = member
        self.ws = ws
        self.address = address
        self.closing = False
        self._queue: asyncio.Queue[bytes | tuple[int, str]] = asyncio.Queue(config.send_queue)
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, data: bytes) -> None:
        if self.closing:
            return
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("connection %s from %s is too slow; closing it", self.member, self.address)
            self.abort(CLOSE_SLOW, "too slow to read its messages")

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

    async def drain(self, timeout: float) -> None:
        """Wait until everything queued before close_after_sending is written (or timeout)."""
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)

    async def stop(self) -> None:
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer
