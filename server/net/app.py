"""The server's I/O: accepts WebSocket connections, feeds what they send to the core
(server/core/core.py) as events, each with the time it happened, and carries out the effects the
core returns: storage writes first, then messages (each encoded in the version the core names, once
per version), closes, the computer players' turns and the host's record files. A connection
found too slow a reader is an event too. Timers wake the core when next_wake() asks. The shell
reads nothing else of the core (but the lobby, for the host's counts).
The WebSocket handshake must finish within handshake_timeout; what happens before the core
hears of a connection is server/net/sockets.py's. A database across a network is written from a
thread of its own (server/storage/writer.py)."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import os
import random
import socket
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from websockets.asyncio.server import Server, ServerConnection, serve

from protocol.codec import encode
from protocol.errors import MEANINGS, ErrorCode
from protocol.messages import Error
from protocol.messages import Lobby as LobbyMessage
from server.core.config import ServerConfig
from server.core.core import ServerCore
from server.core.effects import (
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    ComputerTurn,
    Effects,
    KeepRecord,
    PairingJob,
    PasswordJob,
    RecordRead,
    RecordsRead,
    Send,
)
from server.core.lobby import Lobby
from server.core.mail import LinkLook
from server.core.password_queue import SLOTS as PASSWORD_SLOTS
from server.core.store import Storage, StorageError, StoredPlayers, TournamentAction
from server.core.table import MemberId
from server.jobs.analysis_jobs import AnalysisJobs
from server.jobs.computer import decide, decide_in_place, end_with_server
from server.jobs.mail_sender import MailSender, relay_of
from server.jobs.pairing_jobs import pair_in_worker
from server.jobs.password_hashing import Cost, Passwords
from server.jobs.worker_jobs import in_worker
from server.net.connection import CLOSE_GOING_AWAY, Connection
from server.net.mail_links import MailLinks
from server.net.memory import MemoryReturn
from server.net.sockets import (
    ACCEPT_BATCH,
    AcceptErrors,
    FairTurns,
    FrameConnection,
    QuietLog,
    RefusalLog,
    SocketGate,
    descriptor_limits,
    gated_connection,
    socket_ceiling,
)
from server.net.web import OriginCheck, ProcessRequest, WebPages
from server.storage.storage_open import START_GRACE, open_storage, safe_name
from server.storage.writer import Writer
from shared.actions import Action

log = logging.getLogger(__name__)

T = TypeVar("T")  # what a read of the database gives

# A stop (SIGTERM): the time each connection's queued messages have to be written, and then the
# closing handshake's; together under a second, however stuck a client is.
STOP_DRAIN = 0.5
STOP_CLOSE_TIMEOUT = 0.3
STOP_WRITES = 2.0  # seconds a stop waits for the writes on their way
REGISTRATIONS_KEPT = 3600.0  # seconds of registrations loaded for the limit per address
MODERATION_LOG_SHOWN = 100  # the latest lines of the moderation log loaded for the moderators


class KahunaServer:
    def __init__(self, config: ServerConfig | None = None, storage: Storage | None = None) -> None:
        self.config = config or ServerConfig()
        # raises StorageError for a database it must not use (newer, corrupt, unreadable), and
        # DatabaseInUse for one another server holds, after START_GRACE on PostgreSQL (the lock
        # of a server killed a moment ago outlives it briefly); this blocks for that long
        self.storage: Storage = (
            storage if storage is not None else open_storage(self.config.db, grace=START_GRACE)
        )
        # The core's randomness (tokens, table ids, the cards): the operating system's CSPRNG,
        # unless the config brings a seeded rng (tests).
        rng = self.config.rng if self.config.rng is not None else random.SystemRandom()
        self.core = ServerCore(self.config, rng=rng)
        self.connections: dict[MemberId, Connection] = {}
        self.failed = asyncio.Event()  # storage failed: the server must stop (see _carry_out)
        self._rng = random.Random(rng.random())  # the computer's thinking delays and seeds
        self._server: Server | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        # The effects whose writes are on their way, in order (see carry_out), each with the
        # writer's batch number (0: none of its own; it waits for those before it).
        self._writer: Writer | None = None
        self._held: collections.deque[tuple[int, Effects]] = collections.deque()
        self._held_empty = asyncio.Event()
        self._flush_due = False  # a _write_held is scheduled (SQLite: see carry_out)
        self._computer_tasks: dict[MemberId, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._pairing_tasks: set[asyncio.Task[None]] = set()  # Swiss rounds being paired
        self._stopping = False
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        # version 3's analyse, in the same pool (server/jobs/analysis_jobs.py)
        self._analyses = AnalysisJobs(
            self._workers,
            lambda member, message, version: self.carry_out(
                Effects(sends=[(member, message, version)])
            ),
            self.connections.__contains__,
            playouts=self.config.analysis_playouts,
            search=self.config.analysis_search,
            limit=self.config.analysis_limit,
        )
        # argon2 work for the accounts: threads (argon2-cffi releases the GIL while it hashes);
        # the core hands out no more checks at once than there are threads (password_queue.py)
        # made by the first job, in its thread: its dummy hash costs as much as a check
        self._passwords: Passwords | None = None
        self._passwords_made = threading.Lock()
        self._password_pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=PASSWORD_SLOTS, thread_name_prefix="kahuna-passwords"
        )
        # the operator's commands (kahuna-server accounts) made while this server runs
        self._actions_seen = 0  # the last one's seq
        self._tournament_actions_seen = 0  # the last operator's command on a tournament's seq
        self._actions_watch: asyncio.Task[None] | None = None
        self.refusals = RefusalLog(logger=log)  # one line per address and reason a minute
        self.memory = MemoryReturn()  # freed memory back to the system after many closes
        self.gate = SocketGate(
            self.config.max_per_address + self.config.extra_sockets_per_address,
            self.config.accept_log_interval,
        )
        self._accept_errors: AcceptErrors | None = None
        # the last lobby listing and its encodings, one per protocol version
        self._listing: LobbyMessage | None = None
        self._listing_bytes: dict[int, bytes] = {}
        # the mail queue's sender (server/jobs/mail_sender.py), when the server sends mail
        self.mail: MailSender | None = None

    @property
    def lobby(self) -> Lobby:
        return self.core.lobby

    # ----- life cycle ---------------------------------------------------------------------

    async def start(self, ssl_context: ssl.SSLContext | None = None) -> None:
        cfg = self.config
        # Rebuilding thousands of games makes millions of objects that all stay alive: the
        # collector's passes over them would only slow the start.
        gc.disable()
        try:
            players = StoredPlayers(
                self.storage.load_accounts(),
                self.storage.load_login_tokens(),
                self.storage.load_challenges(),
                self.storage.load_archive(),
                self.storage.load_lobby_chat(cfg.chat_history),
                self.storage.load_known_addresses(),
                self.storage.load_registrations(time.time() - REGISTRATIONS_KEPT),
                self.storage.load_account_actions(),
                self.storage.load_tournaments(),
                self.storage.load_directors(),
                self.storage.load_deleted_names(),
            )
            self._actions_seen = max((a.seq for a in players.account_actions), default=0)
            self.carry_out(self.core.restore_players(players, self._now(), time.time()))
            moderation = self.storage.load_moderation(MODERATION_LOG_SHOWN)
            self.carry_out(self.core.restore_moderation(moderation, self._now(), time.time()))
            del players
            stored = self.storage.load_open_tables(cfg.chat_history)
            effects = self.core.restore(stored, self.storage.table_ids(), self._now(), time.time())
        finally:
            # The restored games live as long as their tables: out of the collector's way.
            gc.freeze()
            gc.enable()
        self.carry_out(effects)
        if stored:
            log.info("%d table(s) restored from %s", len(self.lobby.tables), safe_name(cfg.db))
        del stored
        if cfg.accounts:  # the operator's commands on tournaments made while no server ran
            self._tournament_actions(self.storage.load_tournament_actions())
        loop = asyncio.get_running_loop()
        self._accept_errors = AcceptErrors(cfg.accept_log_interval, loop.get_exception_handler())
        loop.set_exception_handler(self._accept_errors)
        pages: ProcessRequest | None = WebPages() if cfg.web else None
        if cfg.mail:  # the mails' links, whether or not the page is served
            pages = MailLinks(self._follow_mail_link, self._look_at_mail_link, pages)
        origins = OriginCheck(cfg.allowed_origins, pages)
        origins.refused = self.refusals.refused
        # a reserve of descriptors, so that accept() never fails (server/net/sockets.py)
        soft_limit, open_now = descriptor_limits()
        self.gate.ceiling = socket_ceiling(soft_limit, open_now)
        self._server = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            ssl=ssl_context,
            max_size=cfg.hard_max_frame,
            ping_interval=cfg.ping_interval,
            ping_timeout=cfg.ping_timeout,
            open_timeout=cfg.handshake_timeout,  # and the TLS handshake's timeout
            compression=None,
            server_header=None,
            close_timeout=2,  # a peer that reads nothing must not hold up a stop
            create_connection=gated_connection(self.gate, FairTurns()),
            # asyncio accepts as many sockets a wake-up as this: a batch the reserve allows for
            backlog=ACCEPT_BATCH,
            process_request=origins,  # and the page: server/net/web.py
            logger=QuietLog(),  # its lines about each connection at DEBUG
        )
        for listening in self._server.sockets:
            # the kernel's queue stays as long as configured (asyncio's wrapper has no listen:
            # a duplicate of the descriptor is the same socket)
            with socket.fromfd(listening.fileno(), listening.family, listening.type) as same:
                same.listen(cfg.listen_backlog)
        if self.storage.remote:  # it also looks at the connection between writes
            self._writer = Writer(self.storage, loop, self._written, self._write_failed)
        if cfg.accounts:
            self._actions_watch = loop.create_task(self._watch_account_actions())
        relay = relay_of(cfg, port=self.port)  # ValueError: kahuna-server checks it first
        if relay is not None:
            self.mail = MailSender(
                relay,
                lambda op: self.carry_out(Effects(writes=[op])),
                retry=cfg.mail_retry,
                retry_cap=cfg.mail_retry_cap,
            )
            self.mail.add(self.storage.load_mail_queue())
            self.mail.start()

    @property
    def port(self) -> int:
        assert self._server is not None
        port: int = next(iter(self._server.sockets)).getsockname()[1]
        return port

    async def stop(self) -> None:
        self._stopping = True
        if self._timer is not None:
            self._timer.cancel()
        if self._actions_watch is not None:
            self._actions_watch.cancel()
        for task in [*self._computer_tasks.values(), *self._pairing_tasks]:
            task.cancel()  # a round being paired is asked for again at the next start
        self._analyses.stop()
        if self.mail is not None:
            await self.mail.stop()  # what is unsent waits in the database
        await self._written_all(STOP_WRITES)
        if self._server is not None:
            # Every update already decided is delivered before the connections close, so a
            # stop for an upgrade leaves no client behind the stored game.
            self._server.close(close_connections=False)
            conns = list(self.connections.values())
            for conn in conns:
                # a peer that reads nothing, or never answers the close, must not hold up a
                # stop: a reader gets what was decided in well under this
                conn.ws.close_timeout = STOP_CLOSE_TIMEOUT
                conn.close_after_sending(CLOSE_GOING_AWAY, "the server is shutting down")
            await asyncio.gather(*(conn.drain(STOP_DRAIN) for conn in conns))
            self._server.close()  # whatever is left, with 1001 going away
            await self._server.wait_closed()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._password_pool.shutdown(wait=False, cancel_futures=True)
        self.refusals.close()
        await self.memory.stop()
        if self._writer is not None:
            await asyncio.to_thread(self._writer.close)  # it writes what is queued, and closes
        else:
            self.storage.close()
        # The handler stays: asyncio's accept retries still due report through it.

    async def __aenter__(self) -> KahunaServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    # ----- connections --------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        member = self.core.connect(address, self._now(), time.time())
        if isinstance(member, ErrorCode):
            self.refusals.refused(address, member.value)
            close = CLOSE_TRY_AGAIN if member is ErrorCode.SERVER_FULL else CLOSE_POLICY
            with contextlib.suppress(Exception):
                await ws.send(encode(Error(member.value, MEANINGS[member])))
                await ws.close(close, member.value)
            return
        conn = self.attach(member, ws, address)

        def received(data: bytes | str) -> None:
            if self._stopping:
                return  # nothing new is decided while the last updates go out
            self.carry_out(self.core.frame(member, data, self._now(), time.time()))

        try:
            assert isinstance(ws, FrameConnection)  # see start(): create_connection
            ws.deliver_to(received)
            await ws.wait_closed()
        finally:
            self.connections.pop(member, None)
            log.debug("connection %s from %s closed (%s)", member, address, _close_code(ws))
            self.memory.closed()
            self.carry_out(self.core.disconnect(member, self._now(), time.time()))
            await conn.stop()

    def attach(self, member: MemberId, ws: ServerConnection, address: str) -> Connection:
        """The transport of a connection the core has accepted."""
        conn = Connection(member, ws, address, self.config)
        self.connections[member] = conn
        log.debug("connection %s from %s opened", member, address)
        self._reschedule()
        return conn

    # ----- carrying out what the core decided ---------------------------------------------

    def carry_out(self, effects: Effects) -> None:
        if not (effects.writes or self._held):
            self._after_writes(effects)
            return
        # Held, in order, until their writes are stored: by the writer thread (a remote
        # database), or with the other writes of this turn of the event loop in one transaction
        # once the turn's reads are handled (call_soon, _write_held).
        number = 0
        if self._writer is not None:
            number = self._writer.submit(effects.writes) if effects.writes else 0
        elif not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._write_held)
        self._held.append((number, effects))
        self._held_empty.clear()
        if self._writer is not None:
            self._reschedule()
        # else _write_held reschedules, first of the loop's next turn, before any timer's

    def _write_held(self) -> None:
        """The held effects' writes in one transaction, then the effects themselves, in order.
        A failed write stops the server before anyone is told anything it held."""
        self._flush_due = False
        held, self._held = self._held, collections.deque()
        ops = [op for _number, effects in held for op in effects.writes]
        if ops:
            try:
                self.storage.write(ops)
            except StorageError as exc:
                self._write_failed(exc)
                return
        for _number, effects in held:
            self._after_writes(effects, reschedule=False)
        self._reschedule()  # once for the turn's commands, not once each
        if not self._held:
            self._held_empty.set()

    def _after_writes(self, effects: Effects, reschedule: bool = True) -> None:
        """What the effects do once their writes are stored: the messages first; then the
        core's timer set anew, unless the caller does it (`reschedule` False)."""
        closing = self.deliver(effects.sends)
        for close in effects.closes:
            conn = self.connections.get(close.member)
            if conn is not None:
                conn.close_after_sending(close.code, close.reason)
        for turn in effects.computer_turns:
            if not self._stopping:
                self._computer_turn(turn)
        for record in effects.records:
            self._keep_record(record)
        for job in effects.password_jobs:
            self._password_job(job)
        for read in effects.record_reads:
            self._record_read(read)
        for many in effects.records_reads:
            self._records_read(many)
        for analysis in effects.analysis_jobs:
            self._analyses.ask(analysis)
        for pairing in effects.pairing_jobs:
            self._pairing_job(pairing)
        if effects.mails and self.mail is not None:
            self.mail.add(effects.mails)
        for member in closing:
            self.carry_out(self.core.slow_reader(member, self._now(), time.time()))
        if reschedule:
            self._reschedule()

    def deliver(self, sends: list[Send]) -> list[MemberId]:
        """Send each message to its connection; a message for many is encoded once (per
        protocol version). A lobby listing is encoded once for as long as the core hands out
        the same object, that is until the lobby changes, however many subscribe meanwhile.
        Returns the connections found closing (too slow a reader), for the core to hear of."""
        encoded: dict[tuple[int, int], bytes] = {}
        closing: list[MemberId] = []
        for member, message, version in sends:
            conn = self.connections.get(member)
            if conn is None:
                continue
            if isinstance(message, LobbyMessage):
                conn.send(self._encoded_listing(message, version), lobby=True)
            else:
                key = (id(message), version)
                data = encoded.get(key)
                if data is None:
                    data = encoded[key] = encode(message, version)
                conn.send(data)
            if conn.closing and member not in closing:
                closing.append(member)
        return closing

    def _encoded_listing(self, listing: LobbyMessage, version: int) -> bytes:
        # Held with the listing itself, so that no other object can take its id meanwhile.
        if listing is not self._listing:
            self._listing = listing
            self._listing_bytes = {}
        data = self._listing_bytes.get(version)
        if data is None:
            data = self._listing_bytes[version] = encode(listing, version)
        return data

    def _written(self, number: int) -> None:
        """The writer committed every batch up to `number`: their effects, and those without
        writes that waited behind them, are carried out, in order."""
        held = self._held
        while held and held[0][0] <= number and not self.failed.is_set():
            self._after_writes(held.popleft()[1])
        if not held:
            self._held_empty.set()

    def _write_failed(self, exc: StorageError) -> None:
        # Memory is now ahead of the disk: telling anyone would break the promise that what a
        # client was told is stored. Stop; a restart rebuilds from the disk.
        log.critical("storage failed, the server stops: %s", exc)
        self._held.clear()  # never told: not stored
        self._held_empty.set()
        self._fail()

    async def _written_all(self, timeout: float) -> None:
        """Wait (a while at most) until every held effect is carried out."""
        if self._held:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._held_empty.wait(), timeout)

    def _fail(self) -> None:
        self._stopping = True  # decide nothing more: memory is ahead of the disk
        self.failed.set()
        if self._server is not None:
            self._server.close()

    def _reschedule(self) -> None:
        wake = None if self._stopping else self.core.next_wake()
        if wake == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = wake
        if wake is not None:
            self._timer = asyncio.get_running_loop().call_at(wake, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._timer_at = None
        self.carry_out(self.core.tick(self._now(), time.time()))

    def _computer_turn(self, turn: ComputerTurn) -> None:
        old = self._computer_tasks.pop(turn.member, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(self._play_computer(turn))
        self._computer_tasks[turn.member] = task
        task.add_done_callback(lambda t: self._computer_done(turn.member, t))

    def _computer_done(self, member: MemberId, task: asyncio.Task[None]) -> None:
        if self._computer_tasks.get(member) is task:
            del self._computer_tasks[member]

    async def _play_computer(self, turn: ComputerTurn) -> None:
        if turn.delay > 0:
            await asyncio.sleep(turn.delay * (0.6 + 0.8 * self._rng.random()))
        else:
            await asyncio.sleep(0)
        action: str | Action | None
        seed = self._rng.getrandbits(64)
        try:
            if turn.level == "easy":
                action = decide_in_place(turn.seat_view, seed, turn.level)
            else:  # a search: in a worker process, off the event loop
                action = await in_worker(
                    self._workers, decide, turn.view, seed, turn.level, turn.turns
                )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer found no action at table %s", turn.table_id)
            action = None
        now, wall = self._now(), time.time()
        self.carry_out(
            self.core.computer_command(turn.member, turn.table_id, turn.version, action, now, wall)
        )

    def _workers(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is not None and getattr(self._pool, "_broken", False):
            # A worker died (killed, out of memory): such a pool refuses every job from then
            # on, so the computer and the analysis would fail for as long as the server runs.
            log.warning("a worker process ended unexpectedly; starting new ones")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._pool is None:
            # spawn, not fork: this process has threads (storage checkpoints) a fork would copy
            # in the middle of whatever they hold
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.config.computer_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_server,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _pairing_job(self, job: PairingJob) -> None:
        """A Swiss round paired in a worker process (server/jobs/pairing_jobs.py); the pairing
        back to the core. Dropped if the server stops meanwhile: a restart asks for it again."""

        async def pair() -> None:
            pairing = await pair_in_worker(self._workers, job)
            if not self._stopping:
                self.carry_out(self.core.round_paired(job.job, pairing, self._now(), time.time()))

        task = asyncio.get_running_loop().create_task(pair())
        self._pairing_tasks.add(task)
        task.add_done_callback(self._pairing_tasks.discard)

    def _hasher(self) -> Passwords:
        with self._passwords_made:
            if self._passwords is None:
                cost: Cost = "test" if self.config.password_cost == "test" else "server"
                self._passwords = Passwords(cost)
            return self._passwords

    def _password_job(self, job: PasswordJob) -> None:
        def work() -> str | bool:
            passwords = self._hasher()
            if job.verify:
                return passwords.verify(job.stored, job.password)
            return passwords.hash(job.password)

        future = asyncio.get_running_loop().run_in_executor(self._password_pool, work)

        def done(finished: asyncio.Future[str | bool]) -> None:
            if self._stopping or finished.cancelled():
                return
            exc = finished.exception()
            if exc is not None:
                log.error("password work failed: %s", type(exc).__name__)  # never the password
            result = None if exc is not None else finished.result()
            self.carry_out(self.core.password_done(job.job, result, self._now(), time.time()))

        future.add_done_callback(done)

    async def _watch_account_actions(self) -> None:
        """Every account_actions_interval, the operator's commands not yet applied: one small
        read (on the loop, or the writer's thread), and the core applies what is new."""
        while not self._stopping:
            await asyncio.sleep(self.config.account_actions_interval)
            try:
                if self._writer is not None:
                    actions, moderators, on_tournaments = await self._writer.read(
                        lambda storage: (
                            storage.load_account_actions(),
                            storage.load_moderators(),
                            storage.load_tournament_actions(),
                        )
                    )
                else:
                    actions = self.storage.load_account_actions()
                    moderators = self.storage.load_moderators()
                    on_tournaments = self.storage.load_tournament_actions()
            except StorageError as exc:
                log.error("cannot read the operator's commands: %s", exc)
                continue
            if not self._stopping:
                self.carry_out(self.core.moderators_now(moderators, self._now(), time.time()))
            new = [a for a in actions if a.seq > self._actions_seen]
            if new and not self._stopping:
                self._actions_seen = new[-1].seq
                for action in new:
                    log.info("operator: account %s: %s", action.key, action.action)
                self.carry_out(self.core.account_actions(new, self._now(), time.time()))
            if not self._stopping:
                self._tournament_actions(on_tournaments)

    def _tournament_actions(self, actions: list[TournamentAction]) -> None:
        """The operator's commands on tournaments not applied yet (those marked done meanwhile
        are read again until their write lands: the seq tells them apart)."""
        new = [a for a in actions if a.seq > self._tournament_actions_seen]
        if new:
            self._tournament_actions_seen = new[-1].seq
            for action in new:
                log.info("operator: tournament %s: %s", action.tournament_id, action.action)
            self.carry_out(self.core.tournament_actions(new, self._now(), time.time()))

    def _look_at_mail_link(self, kind: str, code: str) -> LinkLook:
        """What a mail's link would do (server/net/mail_links.py asks before it acts): the core's
        answer, which changes nothing. Not good while the server stops, as the link is not."""
        if self._stopping:
            return LinkLook(False)
        return self.core.mail_link_look(kind, code, self._now(), time.time())

    async def _follow_mail_link(self, kind: str, code: str) -> bool:
        """A mail's link (server/net/mail_links.py): the core's answer, once its writes are
        stored."""
        if self._stopping:
            return False
        effects, good = self.core.mail_link(kind, code, self._now(), time.time())
        self.carry_out(effects)
        await self._written_all(STOP_WRITES)
        return good

    def _record_read(self, read: RecordRead) -> None:
        """A finished game's record from the database: one read by its key, where the writes
        are made (the storage is used from one thread): on the loop, or the writer's thread."""

        def record_of(storage: Storage) -> str | None:
            return storage.finished_record(read.table_id)

        def done(text: str | None, exc: BaseException | None) -> None:
            if exc is not None:
                log.error("cannot read the record of %s: %s", read.table_id, exc)
            if not self._stopping:
                now = self._now()
                self.carry_out(
                    self.core.record_read(
                        read.member, read.table_id, text, now, time.time(), read.analyse
                    )
                )

        self._read_then(record_of, done)

    def _records_read(self, asked: RecordsRead) -> None:
        """Version 4's get_game_records: a page of records from the database, read where the
        writes are made, as one record is (`_record_read`)."""

        def records_of(storage: Storage) -> list[str | None]:
            return [storage.finished_record(table_id) for table_id in asked.table_ids]

        def done(texts: list[str | None] | None, exc: BaseException | None) -> None:
            if exc is not None:
                log.error("cannot read the records of %s: %s", asked.key, exc)
            if not self._stopping:
                self.carry_out(self.core.records_read(asked, texts, self._now(), time.time()))

        self._read_then(records_of, done)

    def _read_then(
        self,
        read: Callable[[Storage], T],
        done: Callable[[T | None, BaseException | None], None],
    ) -> None:
        """A read of the database where the writes are made (the writer's thread, else here),
        its result or its error handed to `done` on the loop."""
        if self._writer is not None:
            self._writer.read(read).add_done_callback(
                lambda f: (
                    None
                    if f.cancelled()
                    else done(None if f.exception() else f.result(), f.exception())
                )
            )
            return
        try:
            result = read(self.storage)
        except StorageError as exc:
            done(None, exc)
        else:
            done(result, None)

    def _keep_record(self, record: KeepRecord) -> None:
        directory = self.config.records_dir
        assert directory is not None
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(_write_record_file, directory, record)
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def _close_code(ws: ServerConnection) -> str:
    code = ws.close_code
    return "no close code" if code is None else f"code {code}"


def _write_record_file(directory: Path, record: KeepRecord) -> None:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    # named as the client's `save` names a record (servers before wrote .kahuna.txt: both read)
    path = directory / f"kahuna-{record.table_id}-{stamp}.kahuna"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(record.text, encoding="utf-8")
    except OSError as exc:
        log.error("could not keep the record of table %s: %s", record.table_id, exc)
    else:
        log.info("table %s: game over, record kept in %s", record.table_id, path)
