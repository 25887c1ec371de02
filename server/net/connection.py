"""One client connection's transport: its outgoing queue and the task that writes it. What the
connection may do and where it sits is the core's business (server/core/core.py).

The queue is bounded in bytes (`send_queue_bytes`) as well as in frames (`send_queue`): the
frame being written counts until it is written. A connection whose queue would go over either
bound is closed (1008) and its queue dropped, so a client that does not read costs the server
a bounded amount of memory. A lobby listing waiting in the queue is replaced by a newer one
(`send(data, lobby=True)`): a listing is a snapshot, and a reader slower than the lobby's
changes needs only the newest.

A frame for an idle connection (nothing queued, nothing being written, and the socket's own
kernel queue short of the byte bound) is handed to the socket at once, not to the writer task:
waiting for the task's turn would put a cycle of the event loop between a player's command and
its update. Whatever the socket does not take at once goes through the queue as before, and
so does every frame once the peer's unread bytes reach the bound, so a peer that does not read
meets the same limits. The kernel is asked for the unread bytes only when what was written at
once since it last answered could have brought them near the bound: the unread bytes never
grow by more than what was written, so until then the answer is known to be "short of it"
(an ioctl a frame was about a twentieth of the server's time under load). Such a frame is
made here, its header before the data as websockets makes it (a server's frames are not
masked), and written to the transport in one call: websockets' Frame, its serialization
through a BytesIO and its list of writes were a seventh of what the server adds to the core
for a command (py-spy, 2,000 tables), for the same bytes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
from collections import deque
from types import ModuleType

from websockets.asyncio.connection import Connection as WsConnection
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from server.core.config import ServerConfig

fcntl: ModuleType | None
try:
    import fcntl
    import termios
except ImportError:  # pragma: no cover - Windows: every frame goes through the queue
    fcntl = None
    _OUTQ: int | None = None
else:
    # the bytes a socket holds unsent or unacknowledged (Linux); elsewhere, the queue
    _OUTQ = getattr(termios, "TIOCOUTQ", None)

log = logging.getLogger(__name__)

CLOSE_GOING_AWAY = 1001  # the server shuts down
CLOSE_SLOW = 1008  # a policy close, as for a flood
# A frame's bytes beyond its data (header), and room for the control frames websockets writes
# by itself (pongs, pings): counted against the bound as if written.
FRAME_OVERHEAD = 64
_BINARY = 0x82  # the first byte of a whole binary frame (FIN, no RSV bits, opcode 2)


def binary_frame(data: bytes) -> bytes:
    """A whole unmasked binary frame of `data`, as websockets' Frame.serialize makes it."""
    length = len(data)
    if length < 126:
        return bytes((_BINARY, length)) + data
    if length < 65536:
        return struct.pack("!BBH", _BINARY, 126, length) + data
    return struct.pack("!BBQ", _BINARY, 127, length) + data


class _Frame:
    """One queued frame; `data` None once a newer lobby listing replaced it."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data: bytes | None = data


class Connection:
    """Frames to send are queued and written by one task, so a slow client holds up no one."""

    def __init__(self, member: int, ws: ServerConnection, address: str, config: ServerConfig):
        self.member = member
        self.ws = ws
        self.address = address
        self.closing = False
        self.max_frames = config.send_queue
        self.max_bytes = config.send_queue_bytes
        self.queued_bytes = 0  # queued and not yet written, the frame being written included
        self._queue: deque[_Frame | tuple[int, str]] = deque()
        self._lobby: _Frame | None = None  # the lobby listing waiting in the queue, if any
        self._ready = asyncio.Event()
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._fd = -1  # the socket's, once looked up
        # a frame may go straight to the socket (see _write_now); else always through the queue
        self._direct = fcntl is not None and _OUTQ is not None and isinstance(ws, WsConnection)
        # at most this many bytes are unread in the kernel (None: unknown, ask the kernel)
        self._unread_at_most: int | None = None

    def send(self, data: bytes, *, lobby: bool = False) -> None:
        """Queue a frame; `lobby`: a lobby listing, which replaces one still waiting."""
        if self.closing:
            return
        if not self._queue and not self.queued_bytes and self._write_now(data):
            return
        if lobby and self._lobby is not None and self._lobby.data is not None:
            self.queued_bytes -= len(self._lobby.data)
            self._lobby.data = None  # the writer skips it
        # A single frame larger than the whole bound still goes to an idle connection.
        too_many = len(self._queue) >= self.max_frames
        too_big = self.queued_bytes > 0 and self.queued_bytes + len(data) > self.max_bytes
        if too_many or too_big:
            log.warning(
                "connection %s from %s is too slow (%d frames, %d bytes waiting); closing it",
                self.member, self.address, len(self._queue), self.queued_bytes,
            )  # fmt: skip
            self.abort(CLOSE_SLOW, "too slow to read its messages")
            return
        frame = _Frame(data)
        if lobby:
            self._lobby = frame
        self._queue.append(frame)
        self.queued_bytes += len(data)
        self._ready.set()

    def _write_now(self, data: bytes) -> bool:
        """Hand the frame to the socket now if the connection is idle (see the module's
        docstring); False: it is to be queued."""
        if not self._direct:
            return False
        ws = self.ws
        transport = ws.transport
        protocol = ws.protocol
        if protocol.state is not State.OPEN or transport.is_closing():
            return False
        if protocol.writes or protocol.expect_continuation_frame or protocol.debug:
            return False  # websockets' own frames go first (never so: each is sent at once)
        if transport.get_write_buffer_size():
            return False  # asyncio holds bytes the socket did not take: the writer waits
        unread = self._unread_at_most
        if unread is None or unread + len(data) + FRAME_OVERHEAD > self.max_bytes:
            assert fcntl is not None and _OUTQ is not None  # see _direct
            try:
                if self._fd < 0:
                    self._fd = transport.get_extra_info("socket").fileno()
                outq = fcntl.ioctl(self._fd, _OUTQ, b"\0\0\0\0")
                unread = struct.unpack("i", outq)[0]
            except (OSError, AttributeError, ValueError):
                return False
            if unread + len(data) > self.max_bytes:
                self._unread_at_most = None
                return False
        transport.write(binary_frame(data))
        self._unread_at_most = unread + len(data) + FRAME_OVERHEAD
        return True

    def close_after_sending(self, code: int, reason: str) -> None:
        """Close once the frames already queued are written."""
        if self.closing:
            return
        self.closing = True
        self._queue.append((code, reason))
        self._ready.set()

    def abort(self, code: int, reason: str) -> None:
        """Close now, dropping whatever is queued."""
        self.closing = True
        self._writer.cancel()
        self._queue.clear()
        self._lobby = None
        self.queued_bytes = 0
        asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def _write(self) -> None:
        try:
            while True:
                while not self._queue:
                    self._ready.clear()
                    await self._ready.wait()
                item = self._queue.popleft()
                if isinstance(item, tuple):
                    await self._close(*item)
                    return
                if item is self._lobby:
                    self._lobby = None  # being written: no longer replaceable
                data = item.data
                if data is not None:
                    try:
                        await self.ws.send(data)
                    finally:
                        self.queued_bytes = max(0, self.queued_bytes - len(data))
                        self._unread_at_most = None  # written past the count: ask again
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
