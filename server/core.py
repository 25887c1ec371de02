"""The server's session logic, free of I/O: hello and names, limits per connection, the lobby and
its coalescing, seats and tables, the computer players, chat, records and abandonment.

The core is fed every event the server sees, each with the time it happened: a connection
opened (`connect`), a frame received (`frame`), a connection gone (`disconnect`), a computer's
chosen action (`computer_command`) and the passing of time (`tick`). Each call returns the
Effects to carry out, in this order: storage writes, then messages, then closes. The I/O layer
(server/app.py) must finish the writes before it sends a single message, so that no client is
ever told of an action that is not on disk.

One rule makes locks unnecessary: the core (and every Table it holds) is only ever called from
one thread, the event loop's, and each call runs to its end without awaiting anything.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import random
import secrets
import unicodedata
from collections.abc import Callable
from typing import Any

import attrs

from protocol.codec import decode_client, peek_type
from protocol.errors import ErrorCode, ProtocolError
from protocol.messages import (
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    V2_ONLY,
    Chat,
    ChatEntry,
    Claim,
    ClientMessage,
    Command,
    CreateTable,
    DeclineDraw,
    Error,
    GetRecord,
    Hello,
    Join,
    Leave,
    LobbySubscribe,
    LobbyUnsubscribe,
    NoteName,
    OfferDraw,
    Reclaim,
    Record,
    Rematch,
    Resign,
    Resync,
    RoleName,
    ServerMessage,
    Spectate,
    State,
    TableNote,
    Update,
    Welcome,
    seat_name,
)
from server.clock import Clock, ClockError
from server.config import ServerConfig
from server.lobby import Lobby
from server.ratelimit import TokenBucket
from server.store import (
    AppendLogOp,
    ChatOp,
    ClearSeatOp,
    CloseOp,
    CreateTableOp,
    FinishOp,
    SetSeatOp,
    StorageOp,
    StoredTable,
    TableStateOp,
)
from server.table import (
    COMPUTER_NAME,
    Closing,
    MemberId,
    Outbox,
    SeatHolder,
    Table,
    TableError,
)
from shared.events import Event
from shared.game import Game
from shared.history import entry_from_wire, entry_to_wire
from shared.legality import Refusal
from shared.record import write_record
from shared.types import GameOptions, OptionsError, Seat, Termination
from shared.views import seat_view, seat_view_to_dict

log = logging.getLogger(__name__)

LOBBY_COALESCE = 0.1  # seconds: lobby changes within this window go out as one listing
CLOSE_POLICY = 1008  # flood, version mismatch, too many connections, no hello
CLOSE_TRY_AGAIN = 1013  # the server is full


def clean_text(text: str) -> str:
    """Drop control and format characters (terminal escapes, bidi overrides) and trim."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()


# ----- what the core asks the I/O layer to do ------------------------------------------------


@attrs.frozen
class CloseConnection:
    member: MemberId
    code: int
    reason: str


@attrs.frozen
class ComputerTurn:
    """The computer at this seat is to move: decide from this view, after `delay` seconds, and
    hand the action to ServerCore.computer_command. A newer turn for the same member replaces
    any older one not yet decided."""

    member: MemberId
    table_id: str
    version: int
    view: dict[str, Any]
    delay: float
    level: str = "easy"


@attrs.frozen
class KeepRecord:
    """A finished game's record for the host's --records directory."""

    table_id: str
    text: str


@attrs.define
class Effects:
    writes: list[StorageOp] = attrs.Factory(list)
    sends: Outbox = attrs.Factory(list)
    closes: list[CloseConnection] = attrs.Factory(list)
    computer_turns: list[ComputerTurn] = attrs.Factory(list)
    records: list[KeepRecord] = attrs.Factory(list)


# ----- the core ----------------------------------------------------------------------------


@attrs.define
class Session:
    """What the core knows of one connection."""

    member: MemberId
    address: str
    opened: float
    bucket: TokenBucket
    chat_bucket: TokenBucket
    flood: TokenBucket  # messages dropped for the rate before the connection is closed
    name: str | None = None
    version: int = 0  # the protocol version agreed in hello
    tables: set[str] = attrs.Factory(set)
    closing: bool = False
    last_rate_error: float = -1e9

    @property
    def greeted(self) -> bool:
        return self.name is not None


class ServerCore:
    def __init__(
        self,
        config: ServerConfig,
        *,
        wall_clock: Callable[[], float],
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.lobby = Lobby(config.max_tables)
        self.sessions: dict[MemberId, Session] = {}
        self.computers: dict[MemberId, str] = {}  # computer member -> its table
        self.per_address: dict[str, int] = {}
        self.used_table_ids: set[str] = set()
        # the open tables each address created (one address holds at most what its
        # connections could: max_per_address * tables_per_connection, left or not)
        self.tables_by_address: dict[str, set[str]] = {}
        self.creators: dict[str, str] = {}  # table -> the address that created it
        self.wall_clock = wall_clock  # timestamps for storage; the core's own clock is `now`
        self.rng = rng or config.rng
        self._next_member = 1
        self._lobby_flush_at: float | None = None
        self._next_sweep: float | None = None
        # (when, order, table id, what): clock flags and claims coming due; stale ones are
        # checked again when they come and dropped
        self._timers: list[tuple[float, int, str, str]] = []
        self._timer_order = itertools.count()
        self._now = 0.0  # the time of the call being handled, for what a send must show
        self._effects = Effects()

    # ----- what happens ---------------------------------------------------------------------

    def restore(self, stored: list[StoredTable], used_ids: set[str], now: float) -> Effects:
        """Rebuild the tables of a previous run from storage: never reshuffled, seats shown
        disconnected until reclaimed, computers playing on, abandonment clocks restarted.
        `used_ids` are every table id ever stored, so that no new table takes an old id."""
        self.used_table_ids |= used_ids
        for row in stored:
            try:
                self._restore_table(row, now)
            except Exception:
                log.exception("table %s could not be rebuilt from storage; left out", row.table_id)
        return self._take()

    def connect(self, address: str, now: float) -> MemberId | ErrorCode:
        """A new connection: its member id, or the reason to refuse it."""
        cfg = self.config
        if len(self.sessions) >= cfg.max_connections:
            return ErrorCode.SERVER_FULL
        if self.per_address.get(address, 0) >= cfg.max_per_address:
            return ErrorCode.TOO_MANY_CONNECTIONS
        member = self._new_member()
        self.sessions[member] = Session(
            member,
            address,
            now,
            TokenBucket(cfg.rate, cfg.burst, now),
            TokenBucket(cfg.chat_rate, cfg.chat_burst, now),
            TokenBucket(cfg.rate, cfg.flood_limit, now),
        )
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self._wake_for_sweep(now)
        return member

    def frame(self, member: MemberId, data: Any, now: float) -> Effects:
        """One frame from a connection, as received."""
        self._now = now
        session = self.sessions.get(member)
        if session is None or session.closing:
            return self._take()
        if not session.bucket.take(now):
            if not session.flood.take(now):
                log.warning("closing connection %s from %s: flood", member, session.address)
                self._error(member, ErrorCode.RATE_LIMITED, "message flood; closing")
                self._close(session, CLOSE_POLICY, "message flood")
            elif now - session.last_rate_error >= 1.0:  # so that a flood does not become one
                session.last_rate_error = now
                self._error(member, ErrorCode.RATE_LIMITED, "too many messages; slow down")
            return self._take()
        try:
            # before hello (version 0) the newest rules: whatever it is, it gets hello_required
            version = session.version or PROTOCOL_VERSION
            message = decode_client(data, self.config.max_frame, version)
        except ProtocolError as exc:
            small = isinstance(data, bytes) and exc.code is not ErrorCode.FRAME_TOO_LARGE
            self._error(member, exc.code, exc.message, refused=peek_type(data) if small else None)
            return self._take()
        try:
            self._message(session, message, now)
        except TableError as exc:
            self._error(
                member,
                exc.code,
                exc.message,
                table_id=getattr(message, "table_id", None),
                version=exc.version,
                refused=message.TYPE,
                refusal=exc.refusal,
            )
        except Exception:
            log.exception("failed on %s from connection %s", message.TYPE, member)
            self._reconcile(getattr(message, "table_id", None), now)
            self._error(
                member, ErrorCode.INTERNAL_ERROR, "the server failed on this message",
                refused=message.TYPE,
            )  # fmt: skip
        return self._take()

    def disconnect(self, member: MemberId, now: float) -> Effects:
        """The connection is gone: its seats wait for their tokens."""
        self._now = now
        session = self.sessions.pop(member, None)
        if session is None:
            return self._take()
        left = self.per_address.get(session.address, 1) - 1
        if left:
            self.per_address[session.address] = left
        else:
            self.per_address.pop(session.address, None)
        self.lobby.watchers.discard(member)
        for table_id in session.tables:
            table = self.lobby.tables.get(table_id)
            if table is not None and not table.closed:
                seat = table.seat_of(member)
                self._send_all(table.disconnect(member, now))
                self._lobby_changed(now)
                if seat is not None:
                    self._seat_gone(table, seat, now)
        return self._take()

    def computer_command(
        self, member: MemberId, table_id: str, version: int, action: str | None, now: float
    ) -> Effects:
        """The action a computer player chose for the turn it was given (None: its code
        failed)."""
        self._now = now
        if self.computers.get(member) != table_id:
            return self._take()  # its table closed while it thought
        if action is None:
            table = self.lobby.tables.get(table_id)
            if table is not None and table.version == version:  # else a newer turn is coming
                self._fallback_move(member, table_id, now)
            return self._take()
        try:
            self._command(member, Command(table_id, version, action), now)
        except TableError as exc:
            if exc.code is ErrorCode.STALE_VERSION:
                return self._take()  # a newer turn is already on its way to it
            log.error("the computer's %r at table %s was refused: %s", action, table_id, exc)
            self._fallback_move(member, table_id, now)
        except Exception:
            log.exception("failed on the computer's %r at table %s", action, table_id)
            self._reconcile(table_id, now)
        return self._take()

    def tick(self, now: float) -> Effects:
        """Time passed: flush the lobby, drop silent connections, close abandoned tables, flag
        clocks that ran out, tell players they may claim."""
        self._now = now
        while self._timers and self._timers[0][0] <= now:
            _, _, table_id, what = heapq.heappop(self._timers)
            table = self.lobby.tables.get(table_id)
            if table is not None and not table.closed:
                self._timer_due(table, what, now)
        if self._lobby_flush_at is not None and now >= self._lobby_flush_at:
            self._lobby_flush_at = None
            self._flush_lobby()
        if self._next_sweep is not None and now >= self._next_sweep:
            self._next_sweep = None
            self._sweep(now)
        return self._take()

    def next_wake(self) -> float | None:
        """When tick() next has something to do."""
        times = [t for t in (self._lobby_flush_at, self._next_sweep) if t is not None]
        if self._timers:
            times.append(self._timers[0][0])
        return min(times) if times else None

    def slow_reader(self, member: MemberId) -> None:
        """The I/O layer closed a connection that did not read its messages."""
        session = self.sessions.get(member)
        if session is not None:
            session.closing = True

    # ----- internals: effects -----------------------------------------------------------------

    def _take(self) -> Effects:
        effects, self._effects = self._effects, Effects()
        return effects

    def _new_member(self) -> MemberId:
        member = self._next_member
        self._next_member += 1
        return member

    def _write(self, op: StorageOp) -> None:
        self._effects.writes.append(op)

    def _send(self, member: MemberId, message: ServerMessage) -> None:
        self._send_all([(member, message)])

    def _send_all(self, outbox: Outbox) -> None:
        """Messages for connections are sent; computers only learn from them when it is their
        turn (see _computers_to_move). A version-2 connection gets the game's log with every
        full state."""
        sends = self._effects.sends
        overlays: dict[str, dict[str, Any]] = {}
        shown: dict[int, ServerMessage] = {}
        for member, message in outbox:
            session = self.sessions.get(member)
            if session is None:
                continue
            if session.version < 2:
                if message.TYPE not in V2_ONLY:
                    sends.append((member, message))
                continue
            if isinstance(message, State | Update):
                table = self.lobby.tables.get(message.table_id)
                if table is not None:
                    if isinstance(message, State):
                        sends.append((member, table.history_for(member)))
                    # one message object per original, so that it is still encoded once
                    extended = shown.get(id(message))
                    if extended is None:
                        overlay = overlays.get(table.table_id)
                        if overlay is None:
                            overlay = overlays[table.table_id] = self._overlay(table)
                        extended = attrs.evolve(message, view={**message.view, "table": overlay})
                        shown[id(message)] = extended
                    message = extended
            sends.append((member, message))

    def _overlay(self, table: Table) -> dict[str, Any]:
        """Version 2: what every view of a table also shows, besides the game: the clocks at
        this moment, the offers standing, the settings."""

        def seat(value: Seat | None) -> str | None:
            return None if value is None else seat_name(value)

        return {
            "clock": None if table.clock is None else table.clock.to_view(self._now),
            "draw_offer": seat(table.draw_offer),
            "rematch_offer": seat(table.rematch_offer),
            "rematch_table": table.rematch_to,
            "claim": seat(self._claimant(table, self._now)),
            "level": table.level if table.vs_computer else None,
            "hints": table.hints,
        }

    def _error(
        self,
        member: MemberId,
        code: ErrorCode,
        message: str,
        *,
        table_id: str | None = None,
        version: int | None = None,
        refused: str | None = None,
        refusal: Refusal | None = None,
    ) -> None:
        # the code and parameters reach version-2 clients only (the codec leaves them out)
        reason, params = (None, None) if refusal is None else (refusal.code, refusal.params)
        error = Error(code.value, message, table_id, version, refused, reason, params)
        self._effects.sends.append((member, error))

    def _close(self, session: Session, code: int, reason: str) -> None:
        session.closing = True
        self._effects.closes.append(CloseConnection(session.member, code, reason))

    # ----- internals: messages ----------------------------------------------------------------

    def _message(self, session: Session, message: ClientMessage, now: float) -> None:
        if isinstance(message, Hello):
            self._hello(session, message)
            return
        if not session.greeted:
            raise TableError(ErrorCode.HELLO_REQUIRED, "say hello first")
        member = session.member
        match message:  # the message types are disjoint: the commonest is tried first
            case Command():
                if session.version < 2 and message.action.strip().lower().startswith("undo"):
                    raise TableError(ErrorCode.BAD_NOTATION, "unknown action 'undo'")
                self._command(member, message, now)
            case LobbySubscribe():
                if member not in self.lobby.watchers:  # a repeat is not answered again
                    self.lobby.watchers.add(member)
                    self._send(member, self.lobby.listing())
            case LobbyUnsubscribe():
                self.lobby.watchers.discard(member)
            case CreateTable():
                self._create(session, message, now)
            case Join(table_id, seat):
                table = self.lobby.get(table_id)
                if table_id not in session.tables:
                    self._room_for_one_more(session)
                assert session.name is not None
                parsed = None if seat is None else Seat.parse(seat)
                outbox = table.join(member, session.name, parsed, now=now)
                # the players message tells the others the game (and the mover's clock) began
                self._game_may_start(table, now)
                self._send_all(outbox)
                self._seat_written(table, member)
                session.tables.add(table_id)
                self._lobby_changed(now)
                self._computers_to_move(table)
            case Spectate(table_id):
                table = self.lobby.get(table_id)
                if table_id not in session.tables:
                    self._room_for_one_more(session)
                assert session.name is not None
                self._send_all(table.spectate(member, session.name))
                session.tables.add(table_id)
                self._lobby_changed(now)
            case Reclaim(table_id, token):
                table = self.lobby.get(table_id)
                if table_id not in session.tables:
                    self._room_for_one_more(session)
                holders = {s: h.member for s, h in table.seats.items() if h is not None}
                outbox = table.reclaim(member, token, now)
                held = table.seat_of(member)
                previous = holders.get(held) if held is not None else None
                if previous is not None and previous != member and previous in self.sessions:
                    self.sessions[previous].tables.discard(table_id)  # it was let go
                self._send_all(outbox)
                session.tables.add(table_id)
                self._lobby_changed(now)
            case Leave(table_id):
                table = self.lobby.get(table_id)
                held = table.seat_of(member)
                self._send_all(table.leave(member, now))
                if held is not None and table.seats[held] is not None:
                    self._seat_gone(table, held, now)  # stepped away: like a dropped line
                if held is not None and table.seats[held] is None:
                    self._write(ClearSeatOp(table_id, held.name.lower()))
                if table.role_of(member) is None:
                    session.tables.discard(table_id)
                if table.empty:
                    self._close_table(table, Closing("nobody_seated", "nobody is seated"), now)
                self._lobby_changed(now)
            case Resync(table_id):
                table = self.lobby.get(table_id)
                self._send_all(table.resync(member))
            case Chat(table_id, text):
                self._chat(session, table_id, text, now)
            case Resign(table_id):
                table, mine = self._my_seat(member, table_id)
                self._end(table, Termination.RESIGNED, mine, now)
            case OfferDraw(table_id):
                self._offer_draw(member, table_id, now)
            case DeclineDraw(table_id):
                table, mine = self._my_seat(member, table_id)
                if table.draw_offer is not mine.other:
                    raise _no_offer("no_draw_offer", "there is no draw offer to decline")
                table.draw_offer = None
                self._note(table, "draw_declined", mine)
                self._store_state(table, now)
            case Claim(table_id):
                table, mine = self._my_seat(member, table_id)
                if self._claimant(table, now) is not mine:
                    raise self._claim_refusal(table, mine, now)
                self._end(table, Termination.FORFEIT, mine.other, now)
            case Rematch(table_id):
                self._rematch(member, table_id, now)
            case GetRecord(table_id):
                table = self.lobby.get(table_id)
                if table.role_of(member) is None:
                    raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at this table")
                if not table.game.is_over:
                    raise TableError(
                        ErrorCode.GAME_NOT_OVER, "the record is given when the game is over"
                    )
                self._send(member, Record(table_id, write_record(table.game)))

    def _hello(self, session: Session, hello: Hello) -> None:
        cfg = self.config
        if session.greeted:
            raise TableError(ErrorCode.ALREADY_GREETED, "hello was already sent")
        if hello.version not in SUPPORTED_VERSIONS:
            newest = SUPPORTED_VERSIONS[-1]
            self._error(
                session.member,
                ErrorCode.VERSION_MISMATCH,
                f"this server speaks protocol versions {SUPPORTED_VERSIONS[0]} to {newest},"
                f" not {hello.version}",
                version=newest,
                refused=hello.TYPE,
            )
            self._close(session, CLOSE_POLICY, "protocol version mismatch")
            return
        name = clean_text(hello.name)
        if not name or len(name) > cfg.name_max:
            raise TableError(ErrorCode.BAD_NAME, f"a name has 1 to {cfg.name_max} characters")
        session.name = name
        session.version = hello.version
        self._send(
            session.member, Welcome(hello.version, cfg.server_name, cfg.max_frame, cfg.chat_max)
        )

    def _room_for_one_more(self, session: Session) -> None:
        limit = self.config.tables_per_connection
        if len(session.tables) >= limit:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"one connection sits or watches at {limit} tables at most; leave one first",
            )

    def _new_table_id(self) -> str:
        if len(self.lobby.tables) >= self.lobby.max_tables:
            raise TableError(ErrorCode.TOO_MANY_TABLES, "the server holds all the tables it can")
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self.used_table_ids:
                self.used_table_ids.add(table_id)
                return table_id

    def _create(self, session: Session, create: CreateTable, now: float) -> None:
        cfg = self.config
        self._room_for_one_more(session)
        try:
            options = create.options.to_game_options()
        except OptionsError as exc:
            raise TableError(ErrorCode.BAD_OPTIONS, str(exc)) from None
        made = self.tables_by_address.get(session.address, ())
        most = cfg.max_per_address * cfg.tables_per_connection
        if len(made) >= most:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES, f"one address may have {most} open tables at most"
            )
        table_id = self._new_table_id()
        if create.first == "random":
            first = self.rng.choice((Seat.WHITE, Seat.BLACK))
        else:
            first = Seat.parse(create.first)
        seat = Seat.WHITE if create.seat is None else Seat.parse(create.seat)
        clock = None
        if create.clock is not None:
            try:
                clock = Clock.new(create.clock)
            except ClockError as exc:
                raise TableError(ErrorCode.BAD_OPTIONS, str(exc)) from None
        game = Game.new(cfg.source_factory(), first, options)
        table = Table(
            table_id, game, vs_computer=create.vs_computer, chat_history=cfg.chat_history, now=now
        )
        # a version-1 client meets the computer it always met, the easy one
        table.level = create.level if session.version >= 2 else "easy"
        table.hints = create.hints
        table.clock = clock
        self._write(
            CreateTableOp(
                table_id,
                dict(options.to_dict()),
                first.name.lower(),
                create.vs_computer,
                self.wall_clock(),
            )
        )
        self._append_log(table)
        self._store_state(table, now)
        self.lobby.add(table)
        self.tables_by_address.setdefault(session.address, set()).add(table_id)
        self.creators[table_id] = session.address
        self._seat_players(table, create.vs_computer, seat, session, now)
        log.info(
            "table %s created by %s: %s%s", table_id, session.name, describe_options(options),
            "" if clock is None else f", clock {create.clock}",
        )  # fmt: skip
        self._lobby_changed(now)

    def _seat_players(
        self, table: Table, vs_computer: bool, seat: Seat, session: Session, now: float
    ) -> None:
        table_id = table.table_id
        if vs_computer:  # seated first, so that the creator's state says "playing"
            computer = self._new_member()
            self.computers[computer] = table_id
            self._send_all(table.join(computer, COMPUTER_NAME, seat.other, computer=True))
            self._seat_written(table, computer)
        assert session.name is not None
        outbox = table.join(session.member, session.name, seat, now=now)
        self._game_may_start(table, now)
        self._send_all(outbox)
        self._seat_written(table, session.member)
        session.tables.add(table_id)
        self._computers_to_move(table)

    def _seat_written(self, table: Table, member: MemberId) -> None:
        seat = table.seat_of(member)
        assert seat is not None
        holder = table.seats[seat]
        assert holder is not None
        self._write(
            SetSeatOp(
                table.table_id, seat.name.lower(), holder.name, holder.token_hash, holder.computer
            )
        )

    def _append_log(self, table: Table) -> None:
        """Write the log entries the table has and the disk has not."""
        start = table.stored_log
        entries = table.game.log[start:]
        if entries:
            self._write(
                AppendLogOp(
                    table.table_id,
                    start,
                    tuple(entry_to_wire(e) for e in entries),
                    self.wall_clock(),
                )
            )
            table.stored_log = len(table.game.log)

    def _reconcile(self, table_id: str | None, now: float) -> None:
        """After an unexpected failure part-way through a change: whatever the table became in
        memory goes to disk and to its members, so that the three agree again."""
        table = None if table_id is None else self.lobby.tables.get(table_id)
        if table is None or table.closed:
            return
        try:
            self._append_log(table)
            if table.game.is_over and not table.finish_stored:
                self._finished(table)
            self._send_all([(m, table.state_for(m)) for m in table.members()])
        except Exception:
            log.exception("table %s could not be made consistent; closing it", table.table_id)
            self._close_table(table, Closing("server_failed", "the server failed"), now)

    def _command(self, member: MemberId, command: Command, now: float) -> None:
        table = self.lobby.get(command.table_id)
        mover = table.seat_of(member)
        if mover is not None and self._flag_fell(table, now):
            raise TableError(ErrorCode.GAME_OVER, "the time ran out")
        before_status = table.status
        outbox = table.command(member, command.version, command.action)
        self._append_log(table)
        assert mover is not None  # the table refuses a command from anyone but a seat
        if table.draw_offer is mover.other:  # playing on declines the offer
            table.draw_offer = None
            self._note(table, "draw_declined", mover)
        if table.game.is_over:
            self._game_ended(table, now)
        elif table.game.to_move is not mover:
            self._turn_passed(table, mover, now)
        if table.clock is not None or table.game.is_over:
            self._store_state(table, now)
        self._send_all(outbox)
        if table.status != before_status:
            self._lobby_changed(now)
        self._computers_to_move(table)

    # ----- internals: the life of a game around its moves ----------------------------------------

    def _game_may_start(self, table: Table, now: float) -> bool:
        """Called when a seat is taken: once both are, the first turn (and its clock) begins.
        Whether it began now."""
        if table.status != "playing" or table.turn_started:
            return False
        table.turn_started = True
        table.turn_since = now
        if table.clock is not None:
            table.clock.start(table.game.to_move, now)
            self._store_state(table, now)
        self._timers_for_turn(table, now)
        return True

    def _turn_passed(self, table: Table, mover: Seat, now: float) -> None:
        table.turn_since = now
        table.claim_noted = None
        if table.clock is not None:
            table.clock.turn_passed(mover, now)
        self._timers_for_turn(table, now)

    def _timers_for_turn(self, table: Table, now: float) -> None:
        if table.clock is not None:
            flag = table.clock.flag_at()
            if flag is not None:
                self._schedule(flag, table.table_id, "flag")
        else:
            self._schedule(now + self.config.move_timeout, table.table_id, "claim")

    def _schedule(self, at: float, table_id: str, what: str) -> None:
        heapq.heappush(self._timers, (at, next(self._timer_order), table_id, what))

    def _timer_due(self, table: Table, what: str, now: float) -> None:
        if what == "flag":
            self._flag_fell(table, now)
        elif what == "claim":
            claimant = self._claimant(table, now)
            if claimant is not None and table.claim_noted is not claimant:
                table.claim_noted = claimant  # once, however many timers come due
                self._note(table, "claim_available", claimant)

    def _flag_fell(self, table: Table, now: float) -> bool:
        """End the game if the running clock is at zero (the computer's included)."""
        clock = table.clock
        if clock is None or clock.running is None or table.status != "playing":
            return False
        if clock.left_at(clock.running, now) > 0:
            return False
        self._end(table, Termination.TIME, clock.running, now)
        return True

    def _game_ended(self, table: Table, now: float) -> None:
        if table.clock is not None:
            table.clock.stop(now)
        table.draw_offer = None
        self._finished(table)

    def _end(self, table: Table, kind: Termination, seat: Seat | None, now: float) -> None:
        outbox = table.end(kind, seat)
        self._append_log(table)
        self._game_ended(table, now)
        self._store_state(table, now)
        self._send_all(outbox)
        self._lobby_changed(now)
        log.info("table %s: game over (%s, %s)", table.table_id, kind.value, seat)

    def _my_seat(self, member: MemberId, table_id: str) -> tuple[Table, Seat]:
        table = self.lobby.get(table_id)
        seat = table.seat_of(member)
        if seat is None:
            if member in table.spectators:
                raise TableError(ErrorCode.SPECTATOR_CANNOT_ACT, "spectators cannot act")
            raise TableError(ErrorCode.NOT_AT_TABLE, "you have no seat at this table")
        return table, seat

    def _note(
        self, table: Table, note: NoteName, seat: Seat | None, detail: str | None = None
    ) -> None:
        message = TableNote(table.table_id, note, None if seat is None else seat_name(seat), detail)
        self._send_all([(m, message) for m in table.members()])

    def _store_state(self, table: Table, now: float) -> None:
        def seat(value: Seat | None) -> str | None:
            return None if value is None else value.name.lower()

        state: dict[str, Any] = {
            "level": table.level,
            "hints": table.hints,
            "clock": None if table.clock is None else table.clock.to_state(now),
            "draw_offer": seat(table.draw_offer),
            "rematch_offer": seat(table.rematch_offer),
            "rematch_to": table.rematch_to,
        }
        self._write(TableStateOp(table.table_id, state, self.wall_clock()))

    def _offer_draw(self, member: MemberId, table_id: str, now: float) -> None:
        table, seat = self._my_seat(member, table_id)
        if table.status != "playing":
            raise TableError(
                ErrorCode.GAME_OVER if table.game.is_over else ErrorCode.GAME_NOT_STARTED,
                "a draw is offered while the game runs",
            )
        if table.draw_offer is seat.other:
            self._end(table, Termination.AGREED, None, now)
            return
        if table.draw_offer is seat:
            raise _no_offer("offer_stands", "your offer stands; the opponent decides")
        other = table.seats[seat.other]
        if other is not None and other.computer:  # the computer plays every game out
            self._note(table, "draw_declined", seat.other)
            return
        table.draw_offer = seat
        self._note(table, "draw_offered", seat)
        self._store_state(table, now)

    def _claimant(self, table: Table, now: float) -> Seat | None:
        """The seat that may claim the win now: its opponent has been gone for claim_after
        seconds, or (without a clock) has not acted for move_timeout seconds on its turn."""
        if table.status != "playing":
            return None
        for seat in Seat:
            mine, theirs = table.seats[seat], table.seats[seat.other]
            if mine is None or theirs is None or mine.computer or mine.member is None:
                continue
            if theirs.computer:
                continue
            if theirs.member is None and now - theirs.since >= self.config.claim_after:
                return seat
            idle = table.game.to_move is seat.other and table.clock is None
            if idle and now - table.turn_since >= self.config.move_timeout:
                return seat
        return None

    def _claim_refusal(self, table: Table, seat: Seat, now: float) -> TableError:
        theirs = table.seats[seat.other]
        if theirs is not None and not theirs.computer and theirs.member is None:
            wait = str(max(1, round(self.config.claim_after - (now - theirs.since))))
            english = f"your opponent may still come back; you may claim in {wait} s"
            found = Refusal("claim_wait", english, {"seconds": wait})
        else:
            english = "you may claim when your opponent is gone or idle past the limit"
            found = Refusal("claim_not_yet", english)
        return TableError(ErrorCode.CANNOT_CLAIM, english, refusal=found)

    def _seat_gone(self, table: Table, seat: Seat, now: float) -> None:
        """A player's connection went: the other may claim later, and its rematch offer
        falls."""
        if table.status == "playing":
            self._schedule(now + self.config.claim_after, table.table_id, "claim")
        if table.rematch_offer is seat:
            table.rematch_offer = None
            self._note(table, "rematch_declined", seat)
            self._store_state(table, now)

    def _rematch(self, member: MemberId, table_id: str, now: float) -> None:
        table, seat = self._my_seat(member, table_id)
        if not table.game.is_over:
            raise TableError(ErrorCode.GAME_NOT_OVER, "a rematch is offered after the game")
        if table.rematch_to is not None:
            raise _no_offer("rematch_started", "the rematch has started already")
        other = table.seats[seat.other]
        if other is None:
            raise _no_offer("opponent_left", "your opponent has left")
        if not (other.computer or table.rematch_offer is seat.other):
            if table.rematch_offer is seat:
                raise _no_offer("offer_stands", "your offer stands; the opponent decides")
            table.rematch_offer = seat
            self._note(table, "rematch_offered", seat)
            self._store_state(table, now)
            return
        if not other.computer and other.member is None:
            raise _no_offer("opponent_away", "your opponent is not connected")
        self._start_rematch(table, now)

    def _start_rematch(self, table: Table, now: float) -> None:
        """Same options and players, colours swapped, new tokens; the spectators come along."""
        cfg = self.config
        table_id = self._new_table_id()
        game = Game.new(cfg.source_factory(), table.game.first_player, table.game.options)
        new = Table(
            table_id, game, vs_computer=table.vs_computer, chat_history=cfg.chat_history, now=now
        )
        new.level, new.hints = table.level, table.hints
        if table.clock is not None:
            new.clock = Clock.new(table.clock.control)
        self._write(
            CreateTableOp(
                table_id,
                dict(game.options.to_dict()),
                game.first_player.name.lower(),
                table.vs_computer,
                self.wall_clock(),
            )
        )
        self._append_log(new)
        self._store_state(new, now)
        self.lobby.add(new)
        table.rematch_to, table.rematch_offer = table_id, None
        self._store_state(table, now)
        self._note(table, "rematch_started", None, table_id)
        humans = [(s, h) for s, h in table.seats.items() if h is not None and not h.computer]
        computers = [(s, h) for s, h in table.seats.items() if h is not None and h.computer]
        for seat, holder in computers:
            computer = self._new_member()
            self.computers[computer] = table_id
            self._send_all(new.join(computer, holder.name, seat.other, computer=True))
            self._seat_written(new, computer)
        outboxes: list[Outbox] = []
        for seat, holder in humans:
            if holder.member is None:
                continue  # not reached: a rematch starts with both players connected
            outboxes.append(new.join(holder.member, holder.name, seat.other, now=now))
            self._seat_written(new, holder.member)
            session = self.sessions.get(holder.member)
            if session is not None:
                session.tables.add(table_id)
        self._game_may_start(new, now)
        for outbox in outboxes:
            self._send_all(outbox)
        for member, name in list(table.spectators.items()):
            self._send_all(new.spectate(member, name))
            session = self.sessions.get(member)
            if session is not None:
                session.tables.add(table_id)
        log.info("table %s: rematch of %s", table_id, table.table_id)
        self._lobby_changed(now)
        self._computers_to_move(new)

    def _finished(self, table: Table) -> None:
        result = table.game.result
        assert result is not None
        text = write_record(table.game)
        summary: dict[str, Any] = {**result.to_dict(), "points": list(table.game.scores)}
        self._write(FinishOp(table.table_id, summary, text, self.wall_clock()))
        table.finish_stored = True
        if self.config.records_dir is not None:
            self._effects.records.append(KeepRecord(table.table_id, text))

    def _fallback_move(self, member: MemberId, table_id: str, now: float) -> None:
        """The computer must never stall its table: when its choice is refused, it plays the
        first legal action instead."""
        table = self.lobby.tables.get(table_id)
        seat = None if table is None else table.seat_of(member)
        if table is None or seat is None or table.game.is_over or table.game.to_move is not seat:
            return
        action = table.game.legal_actions()[0]
        self._command(member, Command(table_id, table.version, str(action)), now)

    def _computers_to_move(self, table: Table) -> None:
        """Hand the turn to the computer if one is to move at this table."""
        if not table.vs_computer or table.status != "playing" or table.closed:
            return
        holder = table.seats[table.game.to_move]
        if holder is None or not holder.computer or holder.member is None:
            return
        view = seat_view_to_dict(seat_view(table.game, table.game.to_move))
        self._effects.computer_turns.append(
            ComputerTurn(
                holder.member,
                table.table_id,
                table.version,
                view,
                self.config.computer_delay,
                table.level,
            )
        )

    def _chat(self, session: Session, table_id: str, text: str, now: float) -> None:
        table = self.lobby.get(table_id)
        if table.role_of(session.member) is None:
            raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at this table")
        cleaned = clean_text(text)
        if not cleaned:
            raise TableError(ErrorCode.CHAT_EMPTY, "nothing to say")
        if len(cleaned) > self.config.chat_max:
            raise TableError(ErrorCode.CHAT_TOO_LONG, f"at most {self.config.chat_max} characters")
        if not session.chat_bucket.take(now):
            raise TableError(ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a little")
        outbox = table.chat(session.member, cleaned)
        entry = table.chat_log[-1]
        self._write(ChatOp(table_id, entry.sender, entry.text, self.wall_clock(), entry.role))
        self._send_all(outbox)

    # ----- internals: lobby, tables, time -------------------------------------------------------

    def _lobby_changed(self, now: float) -> None:
        self.lobby.dirty = True
        if self._lobby_flush_at is None and self.lobby.watchers:
            self._lobby_flush_at = now + LOBBY_COALESCE

    def _flush_lobby(self) -> None:
        if not self.lobby.dirty:
            return
        self.lobby.dirty = False
        if self.lobby.watchers:
            message = self.lobby.listing()
            self._send_all([(m, message) for m in self.lobby.watchers])

    def _wake_for_sweep(self, now: float) -> None:
        if self._next_sweep is None:
            self._next_sweep = now + self.config.sweep_interval

    def _sweep(self, now: float) -> None:
        cfg = self.config
        for session in list(self.sessions.values()):
            late = now - session.opened >= cfg.hello_timeout
            if late and not session.greeted and not session.closing:
                self._error(session.member, ErrorCode.HELLO_REQUIRED, "no hello in time")
                self._close(session, CLOSE_POLICY, "no hello")
        for table in list(self.lobby.tables.values()):
            if self._forfeit_abandoned(table, now):
                continue
            reason = table.expired(
                now, cfg.abandon_timeout, cfg.over_linger, cfg.over_grace, cfg.waiting_grace
            )
            if reason is not None:
                self._close_table(table, reason, now)
        if self.sessions or self.lobby.tables:
            self._wake_for_sweep(now)

    def _restore_state(self, table: Table, state: dict[str, Any], now: float) -> None:
        """The table's settings, clocks and offers as stored; a running clock starts again
        now, so the time the server was down is charged to nobody."""
        level = state.get("level", "easy")
        table.level = level if level in ("easy", "normal", "strong") else "easy"
        table.hints = bool(state.get("hints", True))
        if state.get("clock") is not None:
            table.clock = Clock.from_state(state["clock"], now)
        table.draw_offer = _seat_or_none(state.get("draw_offer"))
        table.rematch_offer = _seat_or_none(state.get("rematch_offer"))
        rematch_to = state.get("rematch_to")
        table.rematch_to = rematch_to if isinstance(rematch_to, str) else None
        if table.status == "playing":
            table.turn_started = True
            self._timers_for_turn(table, now)
            for seat in Seat:
                holder = table.seats[seat]
                if holder is not None and not holder.computer:
                    self._schedule(now + self.config.claim_after, table.table_id, "claim")

    def _forfeit_abandoned(self, table: Table, now: float) -> bool:
        """A player gone past the abandonment timeout loses the game to the one who stayed
        (a table whose players are both gone closes instead, with no result)."""
        if table.status != "playing":
            return False
        for seat in Seat:
            gone, stayed = table.seats[seat], table.seats[seat.other]
            if gone is None or gone.computer or gone.member is not None:
                continue
            if now - gone.since < self.config.abandon_timeout:
                continue
            if stayed is not None and (stayed.computer or stayed.member is not None):
                self._end(table, Termination.FORFEIT, seat, now)
                return True
        return False

    def _close_table(self, table: Table, closing: Closing, now: float) -> None:
        if table.closed:
            return
        log.info("table %s closed: %s", table.table_id, closing.english)
        members = table.members()
        self._send_all(table.close(closing))
        self._write(CloseOp(table.table_id, closing.english, self.wall_clock()))
        self.lobby.remove(table.table_id)
        creator = self.creators.pop(table.table_id, None)
        if creator is not None:
            made = self.tables_by_address[creator]
            made.discard(table.table_id)
            if not made:
                del self.tables_by_address[creator]
        for holder in table.seats.values():
            if holder is not None and holder.computer and holder.member is not None:
                self.computers.pop(holder.member, None)
        for member in members:
            session = self.sessions.get(member)
            if session is not None:
                session.tables.discard(table.table_id)
        self._lobby_changed(now)

    def _restore_table(self, row: StoredTable, now: float) -> None:
        options = GameOptions.from_dict(row.options)
        first = Seat.parse(row.first)
        source = self.config.source_factory()

        def rebuild() -> tuple[Game, list[list[Event]]]:
            entries = [entry_from_wire(e) for e in row.log]
            events: list[list[Event]] = []
            game = Game.from_log(options, first, entries, events=events, source=source)
            return game, events

        # every entry but a chance outcome made a version
        version = sum(1 for e in row.log if not (isinstance(e, list | tuple) and e and e[0] == "c"))
        table = Table.stored(
            row.table_id,
            options,
            version,
            row.finished,
            rebuild,
            vs_computer=row.vs_computer,
            chat_history=self.config.chat_history,
            now=now,
        )
        entries = row.log
        table.stored_log = len(entries)
        table.finish_stored = row.finished
        for seat in Seat:
            stored = row.seats.get(seat.name.lower())
            if stored is None:
                continue
            member = None
            if stored.computer:
                member = self._new_member()
                self.computers[member] = row.table_id
            table.seats[seat] = SeatHolder(
                stored.name, stored.token_hash, stored.computer, member, now
            )
        roles: dict[str | None, RoleName] = {"white": "white", "black": "black"}
        roles["spectator"] = "spectator"
        table.chat_log.extend(
            ChatEntry(sender, text, roles.get(role)) for sender, text, role in row.chat
        )
        self._restore_state(table, row.state, now)
        self.used_table_ids.add(row.table_id)
        self.lobby.add(table)
        self._wake_for_sweep(now)
        self._computers_to_move(table)


def _no_offer(code: str, english: str) -> TableError:
    return TableError(ErrorCode.NO_OFFER, english, refusal=Refusal(code, english))


def _seat_or_none(value: Any) -> Seat | None:
    return Seat.parse(value) if isinstance(value, str) else None


def describe_options(options: GameOptions) -> str:
    """Table options for a log line, as a host reads them."""
    parts = []
    if options.variant1:
        parts.append("variant 1")
    if options.variant2:
        parts.append("variant 2")
    if options.handicap_seat is not None:
        parts.append(f"handicap {options.handicap_seat.label} {options.handicap_bridges}")
    return ", ".join(parts) or "standard rules"
