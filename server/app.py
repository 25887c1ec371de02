"""The server: accepts WebSocket connections, decodes their frames and routes them to the lobby
and the tables, and delivers each table's outbox to connections and computer players."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
import unicodedata
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from protocol.codec import decode_client, encode, peek_type
from protocol.errors import MEANINGS, ErrorCode, ProtocolError
from protocol.messages import (
    PROTOCOL_VERSION,
    Chat,
    ClientMessage,
    Command,
    CreateTable,
    Error,
    Hello,
    Join,
    Leave,
    LobbySubscribe,
    LobbyUnsubscribe,
    Reclaim,
    Resync,
    ServerMessage,
    Spectate,
    Welcome,
)
from server.computer import ComputerPlayer
from server.config import ServerConfig
from server.connection import CLOSE_POLICY, CLOSE_TRY_AGAIN, Connection
from server.lobby import Lobby
from server.table import MemberId, Outbox, Table, TableError
from shared.game import Game
from shared.record import write_record
from shared.types import OptionsError, Seat

log = logging.getLogger(__name__)

LOBBY_COALESCE = 0.1  # seconds: lobby changes within this window go out as one listing


def clean_text(text: str) -> str:
    """Drop control and format characters (terminal escapes, bidi overrides) and trim."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()


class KahunaServer:
    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.lobby = Lobby(self.config.max_tables)
        self.connections: dict[MemberId, Connection] = {}
        self.computers: dict[MemberId, ComputerPlayer] = {}
        self.per_address: dict[str, int] = {}
        self._next_member = 1
        self._server: Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._lobby_flush: asyncio.TimerHandle | None = None

    # ----- life cycle ---------------------------------------------------------------------

    async def start(self, ssl_context: ssl.SSLContext | None = None) -> None:
        cfg = self.config
        self._server = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            ssl=ssl_context,
            max_size=cfg.hard_max_frame,
            ping_interval=cfg.ping_interval,
            ping_timeout=cfg.ping_timeout,
            compression=None,
            server_header=None,
        )
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    @property
    def port(self) -> int:
        assert self._server is not None
        port: int = next(iter(self._server.sockets)).getsockname()[1]
        return port

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._lobby_flush is not None:
            self._lobby_flush.cancel()
        for computer in self.computers.values():
            computer.cancel()
        if self._server is not None:
            self._server.close()  # closes every connection with 1001 going away
            await self._server.wait_closed()

    async def __aenter__(self) -> KahunaServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _new_member(self) -> MemberId:
        member = self._next_member
        self._next_member += 1
        return member

    # ----- connections --------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        cfg = self.config
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        if len(self.connections) >= cfg.max_connections:
            await self._refuse(ws, ErrorCode.SERVER_FULL, CLOSE_TRY_AGAIN)
            return
        if self.per_address.get(address, 0) >= cfg.max_per_address:
            await self._refuse(ws, ErrorCode.TOO_MANY_CONNECTIONS, CLOSE_POLICY)
            return
        conn = Connection(self._new_member(), ws, address, cfg)
        self.connections[conn.member] = conn
        self.per_address[address] = self.per_address.get(address, 0) + 1
        log.debug("connection %s from %s", conn.member, address)
        loop = asyncio.get_running_loop()
        watchdog = loop.call_later(cfg.hello_timeout, self._hello_timeout, conn)
        try:
            async for data in ws:
                await self._frame(conn, data)
        except ConnectionClosed:
            pass
        finally:
            watchdog.cancel()
            self._gone(conn)
            await conn.stop()

    async def _refuse(self, ws: ServerConnection, code: ErrorCode, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await ws.send(encode(Error(code.value, MEANINGS[code])))
            await ws.close(close_code, code.value)

    def _hello_timeout(self, conn: Connection) -> None:
        if not conn.greeted:
            self._error(conn, ErrorCode.HELLO_REQUIRED, "no hello in time")
            conn.close_after_sending(CLOSE_POLICY, "no hello")

    def _gone(self, conn: Connection) -> None:
        self.connections.pop(conn.member, None)
        left = self.per_address.get(conn.address, 1) - 1
        if left:
            self.per_address[conn.address] = left
        else:
            self.per_address.pop(conn.address, None)
        self.lobby.watchers.discard(conn.member)
        now = time.monotonic()
        for table_id in conn.tables:
            table = self.lobby.tables.get(table_id)
            if table is not None and not table.closed:
                self.deliver(table.disconnect(conn.member, now))
                self._lobby_changed()

    # ----- sending ------------------------------------------------------------------------

    def deliver(self, outbox: Outbox) -> None:
        """Send each message to its member; a message for many is encoded once."""
        encoded: dict[int, bytes] = {}
        for member, message in outbox:
            conn = self.connections.get(member)
            if conn is not None:
                data = encoded.get(id(message))
                if data is None:
                    data = encoded[id(message)] = encode(message)
                conn.send(data)
                continue
            computer = self.computers.get(member)
            if computer is not None:
                computer.receive(message)

    def _send(self, conn: Connection, message: ServerMessage) -> None:
        conn.send(encode(message))

    def _error(
        self,
        conn: Connection,
        code: ErrorCode,
        message: str,
        *,
        table_id: str | None = None,
        version: int | None = None,
        refused: str | None = None,
    ) -> None:
        self._send(conn, Error(code.value, message, table_id, version, refused))

    def _lobby_changed(self) -> None:
        self.lobby.dirty = True
        if self._lobby_flush is None and self.lobby.watchers:
            loop = asyncio.get_running_loop()
            self._lobby_flush = loop.call_later(LOBBY_COALESCE, self._flush_lobby)

    def _flush_lobby(self) -> None:
        self._lobby_flush = None
        if not self.lobby.dirty:
            return
        self.lobby.dirty = False
        if self.lobby.watchers:
            message = self.lobby.listing()
            self.deliver([(m, message) for m in self.lobby.watchers])

    # ----- receiving ----------------------------------------------------------------------

    async def _frame(self, conn: Connection, data: Any) -> None:
        if conn.closing:
            return
        if not conn.allow():
            if not conn.flood.take():
                log.warning("closing connection %s from %s: flood", conn.member, conn.address)
                self._error(conn, ErrorCode.RATE_LIMITED, "message flood; closing")
                conn.close_after_sending(CLOSE_POLICY, "message flood")
            elif conn.rate_error_due():
                self._error(conn, ErrorCode.RATE_LIMITED, "too many messages; slow down")
            return
        try:
            message = decode_client(data, self.config.max_frame)
        except ProtocolError as exc:
            small = isinstance(data, bytes) and exc.code is not ErrorCode.FRAME_TOO_LARGE
            refused = peek_type(data) if small else None
            self._error(conn, exc.code, exc.message, refused=refused)
            return
        try:
            await self._message(conn, message)
        except TableError as exc:
            self._error(
                conn,
                exc.code,
                exc.message,
                table_id=getattr(message, "table_id", None),
                version=exc.version,
                refused=message.TYPE,
            )
        except Exception:
            log.exception("failed on %s from connection %s", message.TYPE, conn.member)
            self._error(
                conn, ErrorCode.INTERNAL_ERROR, "the server failed; nothing changed",
                refused=message.TYPE,
            )  # fmt: skip

    async def _message(self, conn: Connection, message: ClientMessage) -> None:
        if isinstance(message, Hello):
            self._hello(conn, message)
            return
        if not conn.greeted:
            raise TableError(ErrorCode.HELLO_REQUIRED, "say hello first")
        match message:
            case LobbySubscribe():
                self.lobby.watchers.add(conn.member)
                self._send(conn, self.lobby.listing())
            case LobbyUnsubscribe():
                self.lobby.watchers.discard(conn.member)
            case CreateTable():
                self._create(conn, message)
            case Join(table_id, seat):
                table = self.lobby.get(table_id)
                if table_id not in conn.tables:
                    self._room_for_one_more(conn)
                assert conn.name is not None
                parsed = None if seat is None else Seat.parse(seat)
                async with table.lock:  # a full state waits for updates being sent
                    self.deliver(table.join(conn.member, conn.name, parsed, now=time.monotonic()))
                conn.tables.add(table_id)
                self._lobby_changed()
            case Spectate(table_id):
                table = self.lobby.get(table_id)
                if table_id not in conn.tables:
                    self._room_for_one_more(conn)
                assert conn.name is not None
                async with table.lock:
                    self.deliver(table.spectate(conn.member, conn.name))
                conn.tables.add(table_id)
                self._lobby_changed()
            case Reclaim(table_id, token):
                table = self.lobby.get(table_id)
                if table_id not in conn.tables:
                    self._room_for_one_more(conn)
                async with table.lock:
                    self.deliver(table.reclaim(conn.member, token, time.monotonic()))
                conn.tables.add(table_id)
                self._lobby_changed()
            case Leave(table_id):
                table = self.lobby.get(table_id)
                self.deliver(table.leave(conn.member, time.monotonic()))
                if table.role_of(conn.member) is None:
                    conn.tables.discard(table_id)
                if table.empty:
                    self.close_table(table, "nobody is seated")
                self._lobby_changed()
            case Command():
                await self._command(conn.member, message)
            case Resync(table_id):
                table = self.lobby.get(table_id)
                async with table.lock:
                    self.deliver(table.resync(conn.member))
            case Chat(table_id, text):
                self._chat(conn, table_id, text)

    def _room_for_one_more(self, conn: Connection) -> None:
        if len(conn.tables) >= self.config.tables_per_connection:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"one connection sits or watches at {self.config.tables_per_connection} tables"
                " at most; leave one first",
            )

    def _hello(self, conn: Connection, hello: Hello) -> None:
        cfg = self.config
        if conn.greeted:
            raise TableError(ErrorCode.ALREADY_GREETED, "hello was already sent")
        if hello.version != PROTOCOL_VERSION:
            self._error(
                conn,
                ErrorCode.VERSION_MISMATCH,
                f"this server speaks protocol version {PROTOCOL_VERSION}, not {hello.version}",
                version=PROTOCOL_VERSION,
                refused=hello.TYPE,
            )
            conn.close_after_sending(CLOSE_POLICY, "protocol version mismatch")
            return
        name = clean_text(hello.name)
        if not name or len(name) > cfg.name_max:
            raise TableError(ErrorCode.BAD_NAME, f"a name has 1 to {cfg.name_max} characters")
        conn.name = name
        self._send(conn, Welcome(PROTOCOL_VERSION, cfg.server_name, cfg.max_frame, cfg.chat_max))

    def _create(self, conn: Connection, create: CreateTable) -> None:
        cfg = self.config
        self._room_for_one_more(conn)
        try:
            options = create.options.to_game_options()
        except OptionsError as exc:
            raise TableError(ErrorCode.BAD_OPTIONS, str(exc)) from None
        table_id = self.lobby.new_table_id()
        if create.first == "random":
            first = cfg.rng.choice((Seat.WHITE, Seat.BLACK))
        else:
            first = Seat.parse(create.first)
        seat = Seat.WHITE if create.seat is None else Seat.parse(create.seat)
        now = time.monotonic()
        game = Game.new(cfg.source_factory(), first, options)
        table = Table(
            table_id,
            game,
            vs_computer=create.vs_computer,
            chat_history=cfg.chat_history,
            now=now,
        )
        self.lobby.add(table)
        if create.vs_computer:  # seated first, so that the creator's state says "playing"
            computer = ComputerPlayer(
                self._new_member(),
                table_id,
                self._computer_command,
                delay=cfg.computer_delay,
                rng=cfg.rng,
            )
            self.computers[computer.member] = computer
            self.deliver(table.join(computer.member, "Computer", seat.other, computer=True))
        assert conn.name is not None
        self.deliver(table.join(conn.member, conn.name, seat, now=now))
        conn.tables.add(table_id)
        log.info("table %s created by %s (%s)", table_id, conn.name, table.info().options)
        self._lobby_changed()

    async def _command(self, member: MemberId, command: Command) -> None:
        """The actions of a table are applied one at a time: its lock is held from the check
        of the command until every member has been handed its update."""
        table = self.lobby.get(command.table_id)
        async with table.lock:
            before = table.status
            mine, others = table.command(member, command.version, command.action)
            self.deliver(mine)
            try:
                await asyncio.sleep(0)  # the mover's update goes out before the others are made
            finally:  # even if this task is cancelled: nobody may miss an update
                if not table.closed:
                    self.deliver(others())
        if table.status != before:
            self._lobby_changed()
            if table.game.is_over:
                self._keep_record(table)

    def finished_record(self, table_id: str) -> str | None:
        """The complete record of a finished game at this server, for its host (the --local
        client is one): it holds every hidden card, so it never goes to a remote client."""
        table = self.lobby.tables.get(table_id)
        if table is None or not table.game.is_over:
            return None
        return write_record(table.game)

    def _keep_record(self, table: Table) -> None:
        directory = self.config.records_dir
        if directory is None:
            return
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = directory / f"kahuna-{table.table_id}-{stamp}.kahuna.txt"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path.write_text(write_record(table.game), encoding="utf-8")
        except OSError as exc:
            log.error("could not keep the record of table %s: %s", table.table_id, exc)
        else:
            log.info("table %s: game over, record kept in %s", table.table_id, path)

    async def _computer_command(self, member: MemberId, command: Command) -> None:
        try:
            await self._command(member, command)
        except TableError as exc:
            log.warning("computer command %r refused: %s", command.action, exc.message)

    def _chat(self, conn: Connection, table_id: str, text: str) -> None:
        table = self.lobby.get(table_id)
        if table.role_of(conn.member) is None:
            raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at this table")
        cleaned = clean_text(text)
        if not cleaned:
            raise TableError(ErrorCode.CHAT_EMPTY, "nothing to say")
        if len(cleaned) > self.config.chat_max:
            raise TableError(ErrorCode.CHAT_TOO_LONG, f"at most {self.config.chat_max} characters")
        if not conn.chat_bucket.take():
            raise TableError(ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a little")
        self.deliver(table.chat(conn.member, cleaned))

    # ----- tables -------------------------------------------------------------------------

    def close_table(self, table: Table, reason: str) -> None:
        if table.closed:
            return
        log.info("table %s closed: %s", table.table_id, reason)
        self.deliver(table.close(reason))
        self.lobby.remove(table.table_id)
        for holder in table.seats.values():
            if holder is not None and holder.computer and holder.member is not None:
                computer = self.computers.pop(holder.member, None)
                if computer is not None:
                    computer.cancel()
        for member in table.members():
            conn = self.connections.get(member)
            if conn is not None:
                conn.tables.discard(table.table_id)
        self._lobby_changed()

    async def _sweep(self) -> None:
        cfg = self.config
        while True:
            await asyncio.sleep(cfg.sweep_interval)
            now = time.monotonic()
            for table in list(self.lobby.tables.values()):
                reason = table.expired(now, cfg.abandon_timeout, cfg.over_linger)
                if reason is not None:
                    self.close_table(table, reason)
