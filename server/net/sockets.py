"""How connections come in, before the core hears of them: the TCP socket counted against its
address from the moment it is accepted (SocketGate): one address holds at most
max_per_address + extra_sockets_per_address sockets, handshaking or open, and a socket over
that is closed at once, before any byte of it is read. Each whole message is handed on in the
callback that read it (FrameConnection). The process keeps a reserve of file descriptors so
that accept() never fails for want of one (EMFILE): asyncio accepts at most ACCEPT_BATCH sockets
a wake-up, and the gate closes at once every socket beyond a ceiling, the open-file limit less
the descriptors the process held at the start and a reserve (socket_ceiling). Should accept
fail anyway, asyncio's accept loop reports each failed accept; those reports become one log
line per accept_log_interval (AcceptErrors)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any, cast

from websockets.asyncio.connection import Connection as WsConnection
from websockets.asyncio.server import ServerConnection
from websockets.frames import DATA_OPCODES, CloseCode, Frame, Opcode
from websockets.protocol import Protocol, State
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C extension
    from websockets.utils import apply_mask

log = logging.getLogger(__name__)

MESSAGES_AT_ONCE = 4  # see FrameConnection
RECEIVE_BUFFER = 16 * 1024  # bytes of a client's socket's receive buffer (see gated_connection)
EARLY_MESSAGES = 64  # a connection's messages held before its session begins (the handler's start)
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's report of EMFILE & co.
HELD_MOST = 64 * 1024  # bytes a client may send after its request before the answer
# The first bytes of a whole masked text or binary frame (FIN, no RSV bits), for the fast path.
_WHOLE_TEXT = 0x81
_WHOLE_BINARY = 0x82
_MASKED = 0x80
# websockets' parser waiting for the first byte of a frame: its parse() (a generator) inside
# the reader's at_eof(), with nothing buffered (see FrameConnection._parser_idle)
_PARSE_CODE = Protocol.parse.__code__
_AT_EOF_CODE = StreamReader.at_eof.__code__
# Sockets asyncio accepts in one wake-up (its accept loop takes as many as the listen backlog,
# which the kernel's queue keeps larger: see KahunaServer.start). A socket over the ceiling is
# closed two turns of the loop after its accept, so at most three batches are open over it.
ACCEPT_BATCH = 64
# Descriptors kept free besides those three batches: the worker processes' pipes, a database
# connection, a record file, the logs, the resolver.
SPARE_DESCRIPTORS = 64


def socket_ceiling(soft_limit: int | None, open_now: int) -> int | None:
    """The TCP sockets the process may hold open at once without accept() ever failing for
    want of a descriptor: the open-file limit, less the descriptors open now (the database,
    the listening sockets, the event loop's), the batches accepted before the gate closes
    them, and a spare. None: no limit is known. At least 1, however low the limit."""
    if soft_limit is None:
        return None
    return max(1, soft_limit - open_now - 3 * ACCEPT_BATCH - SPARE_DESCRIPTORS)


def descriptor_limits() -> tuple[int | None, int]:
    """The soft limit on open files (None: unlimited or unknown), and how many are open."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None, 0
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        open_now = len(os.listdir("/proc/self/fd")) - 1  # the listing's own descriptor
    except OSError:
        open_now = 0
    return (None if soft == resource.RLIM_INFINITY else soft), open_now


class SocketGate:
    """TCP sockets open per address, counted from accept to close; and in all, under the
    ceiling that keeps accept() from running out of descriptors (None: none)."""

    def __init__(self, per_address: int, log_interval: float, ceiling: int | None = None) -> None:
        self.per_address = per_address
        self.log_interval = log_interval
        self.ceiling = ceiling
        self.open: dict[str, int] = {}
        self.total = 0  # sockets open, every address's
        self.refused: dict[str, int] = {}  # since the last log line
        self.refused_total = 0
        self.over_ceiling = 0  # sockets closed for want of descriptors, since the last line
        self._logged_at = -1e9
        self._ceiling_logged_at = -1e9

    def admit(self, address: str) -> bool:
        if self.ceiling is not None and self.total >= self.ceiling:
            self.refused_total += 1
            self.over_ceiling += 1
            self._log_ceiling()
            return False
        count = self.open.get(address, 0)
        if count >= self.per_address:
            self.refused_total += 1
            self.refused[address] = self.refused.get(address, 0) + 1
            self._log_refusals()
            return False
        self.open[address] = count + 1
        self.total += 1
        return True

    def release(self, address: str) -> None:
        self.total -= 1
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)

    def _log_ceiling(self) -> None:
        now = time.monotonic()
        if now - self._ceiling_logged_at < self.log_interval:
            return
        self._ceiling_logged_at = now
        log.warning(
            "refused %d socket(s) at %d open, the most the open-file limit leaves room for"
            " (ulimit -n)", self.over_ceiling, self.total,
        )  # fmt: skip
        self.over_ceiling = 0

    def _log_refusals(self) -> None:
        now = time.monotonic()
        if now - self._logged_at < self.log_interval:
            return
        self._logged_at = now
        worst = sorted(self.refused.items(), key=lambda item: -item[1])[:5]
        named = ", ".join(f"{count} from {address}" for address, count in worst)
        more = len(self.refused) - len(worst)
        log.warning(
            "refused sockets over the limit of %d per address: %s%s",
            self.per_address, named, f" and {more} more address(es)" if more > 0 else "",
        )  # fmt: skip
        self.refused.clear()


class QuietLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """websockets' logger for the server's connections, with its lines about each connection
    ("connection open", "connection closed", "HTTP response sent") at DEBUG rather than INFO: a
    client reconnecting in a loop must not fill the log (refusals are summed up by RefusalLog,
    and floods by the gate). Its own DEBUG lines, a dump of every header and frame (some twenty
    lines for each of the page's files, a thousand for one visit), are left out, and websockets
    does not even make them: the server says one line per request (server/net/web.py). Its
    warnings and errors stay as they are."""

    def __init__(self) -> None:
        super().__init__(logging.getLogger("websockets.server"), {})

    def isEnabledFor(self, level: int) -> bool:
        # websockets asks once per connection whether to dump at DEBUG
        if level <= logging.DEBUG:
            return False
        return super().isEnabledFor(logging.DEBUG if level == logging.INFO else level)

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        # websockets wraps this in an adapter of its own, which calls log()
        if level <= logging.DEBUG:
            return
        super().log(logging.DEBUG if level == logging.INFO else level, msg, *args, **kwargs)


class RefusalLog:
    """Connections refused (over an address's limit, a full server, a page of another site),
    logged as one line per address and reason each interval: the first at once, those after it
    in the interval counted and logged in one line when it is over."""

    def __init__(self, interval: float = 60.0, logger: logging.Logger = log) -> None:
        self.interval = interval
        self.log = logger
        self.counts: dict[tuple[str, str], int] = {}  # not yet logged, this interval
        self.quiet_until: dict[tuple[str, str], float] = {}
        self._flush: asyncio.TimerHandle | None = None

    def refused(self, address: str, reason: str) -> None:
        key = (address, reason)
        now = time.monotonic()
        if now >= self.quiet_until.get(key, 0.0):
            self.log.info("refused a connection from %s: %s", address, reason)
            self.quiet_until[key] = now + self.interval
        else:
            self.counts[key] = self.counts.get(key, 0) + 1
        if self._flush is None:
            with contextlib.suppress(RuntimeError):  # no loop: nothing to wait for
                loop = asyncio.get_running_loop()
                self._flush = loop.call_later(self.interval, self.flush)

    def flush(self, again: bool = True) -> None:
        """The counts of the interval, one line each; the keys heard from no more forgotten."""
        self._flush = None
        counts, self.counts = self.counts, {}
        for (address, reason), count in sorted(counts.items()):
            self.log.warning(
                "refused %d more connection(s) from %s in the last %g s: %s",
                count, address, self.interval, reason,
            )  # fmt: skip
        now = time.monotonic()
        for key in [k for k, until in self.quiet_until.items() if until <= now]:
            del self.quiet_until[key]
        if self.quiet_until and again:
            self._flush = asyncio.get_running_loop().call_later(self.interval, self.flush)

    def close(self) -> None:
        """The counts not yet logged are logged now (the server stops)."""
        if self._flush is not None:
            self._flush.cancel()
        self.flush(again=False)


class FrameConnection(ServerConnection):
    """A server connection that hands each whole message to a function as it arrives, in the
    callback that read it, instead of queueing it for a task to fetch (a task's turn for each
    message); the one turn between a command and its update is the shell's, which writes all
    of a turn's effects in one transaction (KahunaServer.carry_out). The messages that arrive
    before anyone is listening wait for deliver_to. Control frames are websockets' business, as
    before.

    Fairness: one read hands on at most MESSAGES_AT_ONCE messages at once. A read that brought
    more (a client that sends without waiting, a flood) keeps the rest in order and reads
    nothing more of that socket meanwhile; FairTurns hands such backlogs on MESSAGES_AT_ONCE
    at a time per address a turn of the event loop, behind whatever else the loop has to do:
    so that a crowd of connections, however many and from however many addresses, costs
    every other client one batch per address, not all of their frames, before its turn.

    The fast path: a read of whole, small, masked text or binary frames (the commands of a
    game, about 70 bytes each) while websockets' parser waits for the start of a frame is cut
    and unmasked here, each message handed on as websockets' own parsing would have (its
    checks, its limits, its order): that parsing, a generator and a Frame a message, was a
    fifth of what the server adds to the core for a command (py-spy, 2,000 tables). Anything
    else (a control frame, a fragment, a frame split between reads, a longer length) goes to
    websockets from its first byte on, as before."""

    _sink: Callable[[bytes | str], None] | None = None
    _early: list[bytes | str] | None = None
    _early_paused = False  # reading paused until deliver_to
    _fragments: list[Frame] | None = None
    _budget = 0  # messages this read may still hand on at once
    # websockets' parser known to wait for the start of a frame: the last read went whole
    # through the fast path (else _parser_idle asks it)
    _parser_waits = False
    _backlog: collections.deque[bytes | str] | None = None  # the rest, in order
    turns: FairTurns  # set by gated_connection: whose backlog goes next
    gate_address: str | None = None

    # The opening handshake reads one HTTP request; what the client sent after it (a second
    # request pipelined in the same packet, or early frames) waits here until the handshake is
    # over: websockets would read it as frames while it still answers the request, fail, and
    # then fail again sending its answer (an AssertionError in the log, and no answer at all).
    _head_seen = False  # the end of the request's head (CRLF CRLF) has been read
    _head_tail = b""  # the last bytes read before it, for an end split between two reads
    _held: bytearray | None = None

    def data_received(self, data: bytes) -> None:
        self._budget = MESSAGES_AT_ONCE
        if self._held is not None:
            self._held += data
            if len(self._held) > HELD_MOST:
                self.transport.abort()  # no honest client sends this much before an answer
            return
        if not self._head_seen:
            window = self._head_tail + data
            end = window.find(b"\r\n\r\n")
            if end < 0:
                self._head_tail = window[-3:]
            else:
                self._head_seen = True
                cut = end + 4 - len(self._head_tail)
                data, self._held = data[:cut], bytearray(data[cut:])
        elif self._sink is not None and self._whole_frames(data):
            self._parser_waits = True
            return
        self._parser_waits = False
        super().data_received(data)

    def _whole_frames(self, data: bytes) -> bool:
        """The fast path (see the class): whether `data` was whole small data frames and
        nothing else, now handed on; False: nothing was done, it is websockets' to read.
        All or nothing, so that websockets' order stays: it parses a whole read (and answers
        its pings, and refuses its faults) before it hands on any message of it."""
        protocol = self.protocol
        if (
            protocol.state is not State.OPEN
            or protocol.current_size is not None  # a fragmented message is coming
            or protocol.debug
            or self._fragments is not None
            or not (self._parser_waits or self._parser_idle())
        ):
            return False
        most = protocol.max_message_size
        if protocol.max_fragment_size is not None:
            most = (
                protocol.max_fragment_size
                if most is None
                else min(most, protocol.max_fragment_size)
            )
        end = len(data)
        at = 0
        frames: list[tuple[int, int, bool]] = []  # each one's mask, its end, text or not
        while at < end:
            if end - at < 6:
                return False
            first = data[at]
            second = data[at + 1]
            if (first != _WHOLE_BINARY and first != _WHOLE_TEXT) or not second & _MASKED:
                return False
            length = second & 0x7F
            mask = at + 2
            if length == 126:
                if end - at < 8:
                    return False
                length = (data[mask] << 8) | data[mask + 1]
                mask += 2
            elif length == 127:
                return False  # 64 KiB or more
            if most is not None and length > most:
                return False  # websockets closes the connection (1009) with its own words
            at = mask + 4 + length
            if at > end:
                return False  # a frame cut between reads
            frames.append((mask, at, first == _WHOLE_TEXT))
        for mask, stop, text in frames:
            if protocol.state is not State.OPEN:
                break  # failed on a message (bad UTF-8): websockets drops the rest too
            self._message(apply_mask(data[mask + 4 : stop], data[mask : mask + 4]), text)
        return True

    def _parser_idle(self) -> bool:
        """websockets' parser is at the start of a frame with nothing read of it: the bytes
        of a read may be cut into frames here instead, and it never knows. Asked of its
        generators (an internal of websockets'): anything else it finds means no."""
        protocol = self.protocol
        if protocol.reader.buffer:
            return False
        outer: Any = protocol.parser
        for _ in range(3):
            inner = getattr(outer, "gi_yieldfrom", None)
            if getattr(outer, "gi_code", None) is _PARSE_CODE:
                return getattr(inner, "gi_code", None) is _AT_EOF_CODE
            outer = inner
        return False

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        try:
            await super().handshake(*args, **kwargs)
        finally:
            held, self._held = self._held, None
        if held and self.protocol.state is State.OPEN:
            self.data_received(bytes(held))
        # else: an HTTP answer was sent, with Connection: close, and the connection closes; a
        # client that pipelined more requests sends them again on another (RFC 9112, 9.3.2)

    def process_event(self, event: Any) -> None:
        if not isinstance(event, Frame) or event.opcode not in DATA_OPCODES:
            super().process_event(event)
            return
        if self.protocol.state in (State.CLOSING, State.CLOSED):
            return  # failed or closing (frames parsed in the same read as the close)
        if event.opcode is not Opcode.CONT:
            self._fragments = []
        if self._fragments is None:
            return  # a continuation of nothing: the protocol layer refuses those first
        self._fragments.append(event)
        if not event.fin:
            return  # the protocol layer bounds the whole message (max_size)
        frames, self._fragments = self._fragments, None
        data = frames[0].data if len(frames) == 1 else b"".join(f.data for f in frames)
        self._message(bytes(data), frames[0].opcode is Opcode.TEXT)

    def _message(self, raw: bytes, text: bool) -> None:
        """One whole message, as its frames brought it."""
        message: bytes | str = raw
        if text:
            try:
                message = raw.decode()
            except UnicodeDecodeError:
                self.protocol.fail(CloseCode.INVALID_DATA, "invalid UTF-8")
                self.send_data()
                return
        if self._sink is not None:
            self._hand_on(message)
        elif self._early is None:
            self._early = [message]
            # nothing more is read until the session begins: what waits is one read's worth
            if not self.transport.is_closing():
                self.transport.pause_reading()
                self._early_paused = True
        elif len(self._early) < EARLY_MESSAGES:
            self._early.append(message)
        else:
            self.protocol.fail(CloseCode.POLICY_VIOLATION, "too many messages before the session")
            self.send_data()

    def _hand_on(self, message: bytes | str) -> None:
        assert self._sink is not None
        if self._backlog is None and self._budget > 0:
            self._budget -= 1
            self._sink(message)
            return
        if self._backlog is None:
            self._backlog = collections.deque()
            if not self.transport.is_closing():
                self.transport.pause_reading()
            self.turns.want(self)
        self._backlog.append(message)

    def hand_on_some(self, most: int) -> bool:
        """Hand on up to `most` of the backlog (FairTurns' turn): whether some is left."""
        backlog = self._backlog
        if backlog is None:
            return False
        open_ = self.protocol.state not in (State.CLOSING, State.CLOSED)
        while most and backlog and open_:
            assert self._sink is not None
            self._sink(backlog.popleft())
            most -= 1
            open_ = self.protocol.state not in (State.CLOSING, State.CLOSED)
        if backlog and open_:
            return True
        self._backlog = None
        if not self.transport.is_closing():
            self.transport.resume_reading()
        return False

    def deliver_to(self, sink: Callable[[bytes | str], None]) -> None:
        """From now on every message goes to `sink`, those that came before first."""
        early, self._early = self._early or [], None
        self._sink = sink
        for message in early:
            sink(message)
        if self._early_paused:
            self._early_paused = False
            if self._backlog is None and not self.transport.is_closing():
                self.transport.resume_reading()


class FairTurns:
    """The connections whose reads brought more than they could hand on at once, by address:
    each turn of the event loop, every address hands on MESSAGES_AT_ONCE messages of its first
    such connection, which then goes to the back of its address's line."""

    def __init__(self) -> None:
        self.waiting: dict[str, collections.deque[FrameConnection]] = {}
        self._due = False

    def want(self, conn: FrameConnection) -> None:
        self.waiting.setdefault(conn.gate_address or "?", collections.deque()).append(conn)
        if not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self.turn)

    def turn(self) -> None:
        self._due = False
        for address in list(self.waiting):
            line = self.waiting[address]
            conn = line.popleft()
            if conn.hand_on_some(MESSAGES_AT_ONCE):
                line.append(conn)
            if not line:
                del self.waiting[address]
        if self.waiting and not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self.turn)


def gated_connection(gate: SocketGate, turns: FairTurns) -> type[ServerConnection]:
    """A ServerConnection class that asks the gate before anything else happens."""

    class GatedConnection(FrameConnection):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if not gate.admit(address):
                # Only what connection_lost needs: no handler task, no handshake.
                WsConnection.connection_made(self, transport)
                cast(asyncio.Transport, transport).abort()
                return
            self.gate_address = address
            self.turns = turns
            sock = transport.get_extra_info("socket")
            if sock is not None:
                # a client's messages are small: a small window keeps what one read brings (and
                # a flooding client gets in ahead) small too; the kernel doubles the figure
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.gate_address is not None:
                gate.release(self.gate_address)
                self.gate_address = None
            super().connection_lost(exc)

    return GatedConnection


class AcceptErrors:
    """The loop's exception handler while the server runs: asyncio reports every accept that
    failed for want of file descriptors (EMFILE), up to a hundred per wake-up, each with its
    traceback. These become one line per interval, with their count; the rest goes on to the
    handler that was there before."""

    def __init__(self, interval: float, previous: Any) -> None:
        self.interval = interval
        self.previous = previous
        self.count = 0
        self._logged_at = -1e9

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, ValueError) and "_start_serving" in repr(context.get("handle")):
            # asyncio's retry of accept(), a second after a failure, once the server closed
            log.debug("an accept retry after the server closed: %s", exc)
            return
        if context.get("message") != ACCEPT_FAILED:
            if self.previous is not None:
                self.previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        self.count += 1
        now = time.monotonic()
        if now - self._logged_at >= self.interval:
            self._logged_at = now
            log.error(
                "cannot accept connections: %s (%d failed accept(s) since the last such line);"
                " retrying every second",
                exc, self.count,
            )  # fmt: skip
            self.count = 0
