"""The session rules of the sans-I/O server core (server/core/core.py), driven directly: encoded
frames in, Effects out, time passed in as a number. No sockets, no sleeps."""

from __future__ import annotations

import itertools
import logging
import pickle
import random
from typing import Any, TypeVar

import attrs
import pytest

import server.core.core as core_module
from protocol.codec import decode_server, encode
from protocol.errors import ErrorCode
from protocol.fields import PROTOCOL_VERSION, TableOptions, TimeControl
from protocol.messages import (
    Chat,
    ChatMessage,
    ClientMessage,
    Command,
    CreateTable,
    Error,
    GetRecord,
    Hello,
    History,
    Join,
    Joined,
    Leave,
    Left,
    Lobby,
    LobbySubscribe,
    LobbyUnsubscribe,
    PlayersChanged,
    Reclaim,
    Record,
    Resign,
    Resync,
    ServerMessage,
    Spectate,
    Spectating,
    State,
    TableClosed,
    Update,
    Welcome,
)
from server.core.config import ServerConfig
from server.core.core import ServerCore
from server.core.effects import CLOSE_POLICY, CloseConnection, ComputerTurn, Effects, PairingJob
from server.core.session import Session
from server.core.store import (
    AppendLogOp,
    ChatOp,
    ClearSeatOp,
    CloseOp,
    CreateTableOp,
    FinishOp,
    SetSeatOp,
    StorageOp,
    TableStateOp,
    hash_token,
)
from server.core.table import MemberId, Table
from server.core.timers import LOBBY_COALESCE
from server.core.tournaments.swiss import SwissPairing, pair_round
from server.storage.sqlite_store import SqliteStorage
from shared.actions import parse_action
from shared.history import Move, entry_to_wire
from shared.randomness import SeededSource
from shared.record import write_record
from shared.types import Seat
from shared.views import (
    PublicView,
    events_to_dicts,
    seat_events,
    seat_view,
    seat_view_to_dict,
)

M = TypeVar("M")
WALL = 1_700_000_000.0  # the wall clock the core stamps storage ops with
# A harness that lives through days of play sweeps (hello timeouts, abandoned games, finished
# tables' closing) once a minute instead of the server's once a second: a day is then 1,440
# ticks rather than 86,400, and the sweep still runs all through it. What is due at a time of
# its own (a flag, a time-low note, a tournament's round or start) is a timer, ticked at exactly.
DAYS_SWEEP = 60.0


def make_config(**overrides: Any) -> ServerConfig:
    seeds = itertools.count(1000)
    base = ServerConfig(
        rate=1000.0,
        burst=1000,
        flood_limit=1000,
        max_per_address=1000,
        computer_delay=0.0,
        registrations_per_hour=0,  # the tests' accounts are many, from few addresses
        new_account_quiet=0.0,  # and speak at once; tests/server/test_login_throttle.py: both
        source_factory=lambda: SeededSource(next(seeds)),
        rng=random.Random(7),
    )
    return attrs.evolve(base, **overrides)


# ----- reading Effects ----------------------------------------------------------------------


def msgs(effects: Effects, member: MemberId) -> list[ServerMessage]:
    return [message for to, message, _ in effects.sends if to == member]


def of(effects: Effects, member: MemberId, kind: type[M]) -> list[M]:
    return [m for m in msgs(effects, member) if isinstance(m, kind)]


def the(effects: Effects, member: MemberId, kind: type[M]) -> M:
    found = of(effects, member, kind)
    assert len(found) == 1, msgs(effects, member)
    return found[0]


def codes(effects: Effects, member: MemberId) -> list[str]:
    return [e.code for e in of(effects, member, Error)]


def writes_of(effects: Effects, kind: type[M]) -> list[M]:
    return [op for op in effects.writes if isinstance(op, kind)]


@attrs.define
class Duo:
    white: MemberId
    black: MemberId
    table_id: str
    white_token: str
    black_token: str

    def seat(self, seat: Seat) -> MemberId:
        return self.white if seat is Seat.WHITE else self.black


def merge(into: Effects, more: Effects) -> None:
    """`more`'s effects added to `into`'s, each list to its own (the jobs handed out excepted:
    the harness has taken them already)."""
    for field in attrs.fields(Effects):
        if field.name != "pairing_jobs":
            getattr(into, field.name).extend(getattr(more, field.name))


def index_matches_scan(core: ServerCore) -> None:
    """The core's index of the connections by account (AccountSessions) holds what a scan of
    every connection finds: the very sessions logged in to each account, in member order, and
    no account without one."""
    scanned: dict[str, list[Session]] = {}
    for member in sorted(core.sessions):
        session = core.sessions[member]
        if session.account is not None:
            scanned.setdefault(session.account, []).append(session)
    index = core.account_sessions
    assert index.accounts() == scanned.keys()
    for key, sessions in scanned.items():
        # by identity: attrs' == would also take a stale copy for the session
        assert [id(s) for s in index.of(key)] == [id(s) for s in sessions]
        assert index.online(key)


class Harness:
    """A core, a clock, and the Effects of everything done so far. After every event the
    core's index of the connections by account is checked against a scan of them all."""

    def __init__(self, now: float = 0.0, **overrides: Any) -> None:
        self.config = make_config(**overrides)
        self.core = ServerCore(self.config)
        self.now = now
        self.batches: list[list[StorageOp]] = []  # each Effects' writes, in order
        self.sent: list[tuple[MemberId, ServerMessage]] = []  # every message, in order
        self.rng = random.Random(11)
        self._addresses = itertools.count(1)
        # the Swiss rounds handed out to pair; paired at once unless held (hold_pairings)
        self.pairings: list[PairingJob] = []
        self.hold_pairings = False

    def took(self, effects: Effects) -> Effects:
        index_matches_scan(self.core)
        for member, message, version in effects.sends:
            assert decode_server(encode(message)) == message  # every message survives the wire
            session = self.core.sessions.get(member)  # encoded in the version of its hello
            assert session is not None and version == max(session.version, 1)
        if effects.writes:
            self.batches.append(list(effects.writes))
        self.sent += [(member, message) for member, message, _ in effects.sends]
        self.pairings += effects.pairing_jobs
        if not self.hold_pairings:
            for job in list(effects.pairing_jobs):
                merge(effects, self.pair(job))
        return effects

    def pair(self, job: PairingJob, pairing: SwissPairing | None = None) -> Effects:
        """A PairingJob's pairing handed back, as the I/O layer's worker makes it (or
        `pairing`), and the ticks due at once after it (the round's state and notes, at the
        shell's next turn); it leaves `pairings`."""
        self.pairings.remove(job)
        made = pair_round(job.players) if pairing is None else pairing
        effects = self.took(self.core.round_paired(job.job, made, self.now, WALL))
        while (wake := self.core.next_wake()) is not None and wake <= self.now:
            merge(effects, self.tick(wake))
        return effects

    def sent_to(self, member: MemberId) -> list[ServerMessage]:
        return [message for to, message in self.sent if to == member]

    # ----- events -----

    def connect(self, address: str | None = None) -> MemberId:
        address = address or f"10.0.0.{next(self._addresses)}"
        member = self.core.connect(address, self.now)
        assert not isinstance(member, ErrorCode), member
        return member

    def raw(self, member: MemberId, data: bytes) -> Effects:
        return self.took(self.core.frame(member, data, self.now, WALL))

    def send(self, member: MemberId, message: ClientMessage) -> Effects:
        """The message as the member's client encodes it: in its protocol version."""
        session = self.core.sessions.get(member)
        version = session.version if session is not None and session.version else 2
        return self.raw(member, encode(message, version))

    def disconnect(self, member: MemberId) -> Effects:
        return self.took(self.core.disconnect(member, self.now, WALL))

    def computer(self, turn: ComputerTurn, action: str | None) -> Effects:
        return self.took(
            self.core.computer_command(
                turn.member, turn.table_id, turn.version, action, self.now, WALL
            )
        )

    def tick(self, at: float) -> Effects:
        self.now = at
        return self.took(self.core.tick(at, WALL))

    def advance(self, to: float) -> Effects:
        """Tick at every wake-up the core asks for up to `to`, as the I/O layer's timer would;
        returns everything that happened, merged."""
        merged = Effects()
        while (wake := self.core.next_wake()) is not None and wake <= to:
            effects = self.tick(wake)
            merged.writes += effects.writes
            merged.sends += effects.sends
            merged.closes += effects.closes
        self.now = to
        return merged

    # ----- common steps -----

    def player(self, name: str = "Ana", version: int = 2) -> MemberId:
        member = self.connect()
        welcome = the(self.send(member, Hello(version, name)), member, Welcome)
        assert welcome.version == version
        return member

    def create(
        self,
        member: MemberId,
        *,
        vs_computer: bool = False,
        seat: str | None = "white",
        first: str = "white",
        level: str = "normal",
    ) -> tuple[Effects, str, str]:
        message = CreateTable(
            TableOptions(),
            vs_computer,
            seat,  # type: ignore[arg-type]
            first,  # type: ignore[arg-type]
            level=level,  # type: ignore[arg-type]
        )
        effects = self.send(member, message)
        joined = the(effects, member, Joined)
        return effects, joined.table_id, joined.token

    def duo(self, white_version: int = 2, black_version: int = 2) -> Duo:
        white = self.player("Ana", white_version)
        black = self.player("Bo", black_version)
        _, table_id, white_token = self.create(white)
        joined = the(self.send(black, Join(table_id, "black")), black, Joined)
        return Duo(white, black, table_id, white_token, joined.token)

    def table(self, table_id: str) -> Table:
        return self.core.lobby.tables[table_id]

    def act(self, member: MemberId, table_id: str, action: str | None = None) -> Effects:
        """One command at the table's current version (a random legal action by default);
        checks that it was applied and that exactly its new log entries were written."""
        table = self.table(table_id)
        logged = len(table.game.log)
        version = table.version
        if action is None:
            action = str(self.rng.choice(table.game.legal_actions()))
        effects = self.send(member, Command(table_id, version, action))
        assert not codes(effects, member), msgs(effects, member)
        assert table.version == version + 1
        appended = writes_of(effects, AppendLogOp)
        assert appended == [
            AppendLogOp(
                table_id,
                logged,
                tuple(entry_to_wire(e) for e in table.game.log[logged:]),
                WALL,
            )
        ]
        return effects

    def play_out(self, duo: Duo) -> list[Effects]:
        table = self.table(duo.table_id)
        out: list[Effects] = []
        for _ in range(5000):
            if table.game.is_over:
                return out
            out.append(self.act(duo.seat(table.game.to_move), duo.table_id))
        raise AssertionError("the game did not end")


def snapshot(table: Table) -> tuple[Any, ...]:
    return (
        table.version,
        len(table.game.log),
        seat_view(table.game, Seat.WHITE),
        seat_view(table.game, Seat.BLACK),
    )


# ----- hello ----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_hello_with_a_supported_version_is_welcomed_in_that_version(version: int) -> None:
    h = Harness()
    member = h.connect()
    effects = h.send(member, Hello(version, "Ana"))
    cfg = h.config
    assert msgs(effects, member) == [
        Welcome(version, cfg.server_name, cfg.max_frame, cfg.chat_max, "Ana", None, True)
    ]
    assert not effects.closes and not effects.writes


@pytest.mark.parametrize("version", [0, 5, 99])
def test_other_versions_are_refused_and_closed(version: int) -> None:
    h = Harness()
    member = h.connect()
    effects = h.send(member, Hello(version, "Ana"))
    error = the(effects, member, Error)
    assert (error.code, error.version, error.refused) == (
        "version_mismatch",
        PROTOCOL_VERSION,
        "hello",
    )
    assert [c.code for c in effects.closes] == [CLOSE_POLICY]
    assert effects.closes[0].member == member
    # a connection being closed is heard no more
    assert h.send(member, Hello(2, "Ana")) == Effects()


@pytest.mark.parametrize("name", ["", "   ", "\x1b\u202e\x07", "x" * 33])
def test_bad_names_are_refused_and_hello_may_be_tried_again(name: str) -> None:
    h = Harness()
    member = h.connect()
    effects = h.send(member, Hello(2, name))
    assert codes(effects, member) == ["bad_name"] and not effects.closes
    assert codes(h.send(member, LobbySubscribe()), member) == ["hello_required"]
    assert the(h.send(member, Hello(2, "x" * 32)), member, Welcome).version == 2


def test_a_name_loses_its_control_characters() -> None:
    h = Harness()
    member = h.player("\x1bA\u202en\x00a\u200b ")
    effects, _, _ = h.create(member)
    players = the(effects, member, State).players
    assert players.white is not None and players.white.name == "Ana"


def test_hello_twice_is_refused() -> None:
    h = Harness()
    member = h.player()
    effects = h.send(member, Hello(1, "Other"))
    assert codes(effects, member) == ["already_greeted"] and not effects.closes


def test_nothing_before_hello_is_served_and_nothing_changes() -> None:
    h = Harness()
    member = h.connect()
    for message in (LobbySubscribe(), CreateTable(), Join("abcd", None), Resync("abcd")):
        effects = h.send(member, message)
        assert [(e.code, e.refused) for e in of(effects, member, Error)] == [
            ("hello_required", message.TYPE)
        ]
        assert len(msgs(effects, member)) == 1 and not effects.writes
    assert not h.core.lobby.tables and not h.core.lobby.watchers


def test_a_silent_connection_is_closed_at_the_first_tick_after_the_hello_timeout() -> None:
    h = Harness(hello_timeout=10.0)
    silent = h.connect()
    h.now = 0.5
    greeted = h.player()
    early = h.advance(9.99)
    assert not early.closes and not early.sends
    late = h.advance(10.0)
    assert late.closes == [CloseConnection(silent, CLOSE_POLICY, "no hello")]
    assert codes(late, silent) == ["hello_required"]
    assert not msgs(late, greeted)
    assert not h.advance(30.0).closes  # closed once, and the greeted one never


# ----- limits ---------------------------------------------------------------------------------


def test_connections_per_address_are_limited_and_freed_on_disconnect() -> None:
    h = Harness(max_per_address=2)
    first = h.connect("1.2.3.4")
    h.connect("1.2.3.4")
    assert h.core.connect("1.2.3.4", 0.0) is ErrorCode.TOO_MANY_CONNECTIONS
    h.connect("5.6.7.8")  # another address is not held back
    h.disconnect(first)
    h.connect("1.2.3.4")
    assert h.core.connect("1.2.3.4", 0.0) is ErrorCode.TOO_MANY_CONNECTIONS


def test_the_server_holds_at_most_max_connections() -> None:
    h = Harness(max_connections=3)
    members = [h.connect() for _ in range(3)]
    assert h.core.connect("9.9.9.9", 0.0) is ErrorCode.SERVER_FULL
    h.disconnect(members[1])
    h.connect("9.9.9.9")
    assert h.core.connect("9.9.9.8", 0.0) is ErrorCode.SERVER_FULL


def test_the_rate_limit_drops_answers_once_a_second_and_closes_a_flood() -> None:
    h = Harness(rate=0.1, burst=3, flood_limit=6)
    member = h.player()  # the hello took one of the 3
    served = [h.send(member, LobbySubscribe()), h.send(member, LobbyUnsubscribe())]
    assert of(served[0], member, Lobby) and not codes(served[1], member)
    dropped = h.send(member, LobbySubscribe())
    assert codes(dropped, member) == ["rate_limited"] and len(dropped.sends) == 1
    assert h.send(member, LobbySubscribe()) == Effects()  # dropped in silence: same second
    h.now = 0.95
    assert h.send(member, LobbySubscribe()) == Effects()
    h.now = 1.0
    assert codes(h.send(member, LobbySubscribe()), member) == ["rate_limited"]
    # 4 of the 6 dropped so far (plus 0.1 refilled): two more, then the flood closes
    assert not h.send(member, LobbySubscribe()).closes
    assert not h.send(member, LobbySubscribe()).closes
    flood = h.send(member, LobbySubscribe())
    assert codes(flood, member) == ["rate_limited"]
    assert [(c.member, c.code) for c in flood.closes] == [(member, CLOSE_POLICY)]
    h.now = 100.0
    assert h.send(member, LobbySubscribe()) == Effects()


def test_a_flood_from_many_connections_of_one_address_is_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each flooding connection is closed, but its address is logged once in FLOOD_LOG_EVERY
    seconds, then with the number of the others: a barrage must not flood the log."""
    h = Harness(rate=0.1, burst=1, flood_limit=1)
    members = [h.connect("10.7.7.7") for _ in range(20)]
    with caplog.at_level(logging.WARNING, logger="server.core.sessions"):
        for member in members:
            h.send(member, LobbySubscribe())  # the one token: hello is not even needed
            h.send(member, LobbySubscribe())  # dropped
            closed = h.send(member, LobbySubscribe())  # the flood
            assert [c.member for c in closed.closes] == [member]
        h.now += 10.0
        late = h.connect("10.7.7.7")
        for _ in range(3):
            h.send(late, LobbySubscribe())
    lines = [r.getMessage() for r in caplog.records if "flood" in r.getMessage()]
    assert len(lines) == 2, lines
    assert "10.7.7.7" in lines[0] and "and 19 more" in lines[1]


def test_the_bucket_refills_with_time() -> None:
    h = Harness(rate=2.0, burst=2, flood_limit=100)
    member = h.player()
    assert of(h.send(member, LobbySubscribe()), member, Lobby)
    assert codes(h.send(member, LobbyUnsubscribe()), member) == ["rate_limited"]
    h.now = 0.5  # one more token
    assert not codes(h.send(member, LobbyUnsubscribe()), member)
    h.now = 1.0
    assert of(h.send(member, LobbySubscribe()), member, Lobby)


def test_a_connection_the_shell_is_closing_is_read_no_more() -> None:
    h = Harness()
    member = h.player()
    assert h.core.slow_reader(member, h.now, WALL) == Effects()
    assert h.send(member, LobbySubscribe()) == Effects()
    assert h.core.slow_reader(999, h.now, WALL) == Effects()  # one already gone: nothing


def test_a_repeated_subscribe_is_not_answered() -> None:
    h = Harness()
    member = h.player()
    listing = the(h.send(member, LobbySubscribe()), member, Lobby)
    assert h.send(member, LobbySubscribe()) == Effects()
    h.send(member, LobbyUnsubscribe())
    assert the(h.send(member, LobbySubscribe()), member, Lobby) is listing  # built once


def test_a_frame_over_max_frame_is_refused_and_ignored() -> None:
    h = Harness(max_frame=200)
    member = h.player()
    _, table_id, _ = h.create(member)
    effects = h.send(member, Chat(table_id, "x" * 250))
    error = the(effects, member, Error)
    assert (error.code, error.refused) == ("frame_too_large", None)
    assert not effects.writes and not h.table(table_id).chat_log


def test_tables_per_connection() -> None:
    h = Harness(tables_per_connection=2)
    ana = h.player("Ana")
    bo = h.player("Bo")
    _, first, _ = h.create(ana)
    h.create(ana)
    _, other, _ = h.create(bo)
    for message in (CreateTable(), Join(other, None), Spectate(other)):
        effects = h.send(ana, message)
        assert codes(effects, ana) == ["too_many_tables"] and not effects.writes
    assert len(h.core.lobby.tables) == 3
    assert writes_of(h.send(ana, Leave(first)), CloseOp)  # a waiting table given up closes
    assert of(h.send(ana, Spectate(other)), ana, Spectating)


def test_the_server_holds_at_most_max_tables() -> None:
    h = Harness(max_tables=2)
    members = [h.player(f"P{i}") for i in range(3)]
    h.create(members[0], vs_computer=True)  # games under way: none is closed for room
    h.create(members[1], vs_computer=True)
    effects = h.send(members[2], CreateTable())
    assert codes(effects, members[2]) == ["too_many_tables"] and not effects.writes


def test_a_full_server_closes_the_oldest_waiting_table_of_the_heaviest_address() -> None:
    """A few addresses within their limits must not keep everyone else from a table."""
    h = Harness(max_tables=4)
    crowd = [h.connect("10.9.9.9") for _ in range(3)]
    for i, member in enumerate(crowd):
        h.send(member, Hello(2, f"Crowd{i}"))
    lone = h.player("Lone")
    _, oldest, _ = h.create(crowd[0])
    h.now += 1
    h.create(crowd[1])
    h.create(lone)  # another address, one waiting table: not the heaviest
    h.create(crowd[2])
    honest = h.player("Honest")
    effects = h.send(honest, CreateTable())
    closed = the(effects, crowd[0], TableClosed)
    assert (closed.table_id, closed.code) == (oldest, "made_room")
    assert oldest not in h.core.lobby.tables and len(h.core.lobby.tables) == 4
    assert of(effects, honest, Joined)


def test_a_full_server_closes_no_table_for_a_table_it_then_refuses() -> None:
    """Bad options (here a clock of 5 s) are refused before any room is made: a refusal
    changes nothing."""
    h = Harness(max_tables=1)
    waiting = h.player("Waiting")
    _, table_id, _ = h.create(waiting)
    ana = h.player("Ana")
    bad = CreateTable(TableOptions(), False, "white", "white", TimeControl(5, 0, 0))
    effects = h.send(ana, bad)
    assert codes(effects, ana) == ["bad_options"] and not effects.writes
    assert not of(effects, waiting, TableClosed) and table_id in h.core.lobby.tables


def test_one_address_has_few_tables_waiting_at_once() -> None:
    h = Harness(waiting_per_address=2)
    crowd = [h.connect("10.9.9.9") for _ in range(3)]
    for i, member in enumerate(crowd):
        h.send(member, Hello(2, f"Crowd{i}"))
    h.create(crowd[0])
    h.create(crowd[1])
    assert codes(h.send(crowd[2], CreateTable()), crowd[2]) == ["too_many_tables"]
    h.create(crowd[2], vs_computer=True)  # a game against the computer waits for nobody


def test_chat_length_emptiness_and_rate() -> None:
    h = Harness(chat_max=10, chat_burst=2, chat_rate=0.5)
    duo = h.duo()
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    stranger = h.player("Di")
    refused = [
        (duo.white, "x" * 11, "chat_too_long"),
        (duo.white, " \x1b\u202e\t ", "chat_empty"),
        (stranger, "hi", "not_at_table"),
    ]
    for member, text, code in refused:
        effects = h.send(member, Chat(duo.table_id, text))
        assert codes(effects, member) == [code] and not effects.writes
    effects = h.send(duo.white, Chat(duo.table_id, " \x1bhello\u202e "))
    assert writes_of(effects, ChatOp) == [ChatOp(duo.table_id, "Ana", "hello", WALL, "white")]
    for member in (duo.white, duo.black, watcher):
        assert of(effects, member, ChatMessage) == [
            ChatMessage(duo.table_id, "Ana", "hello", "white")
        ]
    assert not msgs(effects, stranger)
    assert writes_of(h.send(duo.white, Chat(duo.table_id, "x" * 10)), ChatOp)  # burst of 2
    limited = h.send(duo.white, Chat(duo.table_id, "again"))
    assert codes(limited, duo.white) == ["chat_rate_limited"] and not limited.writes
    assert writes_of(h.send(duo.black, Chat(duo.table_id, "mine")), ChatOp)  # per connection
    h.now = 1.99
    assert codes(h.send(duo.white, Chat(duo.table_id, "again")), duo.white) == ["chat_rate_limited"]
    h.now = 4.0  # 0.5 a second: one chat every 2 s
    assert writes_of(h.send(duo.white, Chat(duo.table_id, "again")), ChatOp)


# ----- lobby ----------------------------------------------------------------------------------


def test_lobby_subscribe_answers_at_once_and_changes_coalesce() -> None:
    h = Harness()
    watcher = h.player("Watcher")
    creators = [h.player(f"P{i}") for i in range(3)]
    assert the(h.send(watcher, LobbySubscribe()), watcher, Lobby).tables == []
    assert h.core.next_wake() == 1.0  # only the sweep
    ids = []
    for i, creator in enumerate(creators):
        h.now = 0.01 * (i + 1)
        effects, table_id, _ = h.create(creator)
        ids.append(table_id)
        assert not msgs(effects, watcher)
    wake = h.core.next_wake()
    assert wake == pytest.approx(0.01 + LOBBY_COALESCE)
    assert wake is not None
    assert not msgs(h.tick(wake - 1e-6), watcher)
    listing = of(h.tick(wake), watcher, Lobby)
    assert len(listing) == 1
    assert [t.table_id for t in listing[0].tables] == ids
    assert {t.status for t in listing[0].tables} == {"waiting"}
    assert h.core.next_wake() == 1.0
    assert not msgs(h.advance(5.0), watcher)  # nothing changed: nothing sent


def test_lobby_listing_follows_a_join_once() -> None:
    h = Harness()
    watcher = h.player("Watcher")
    h.send(watcher, LobbySubscribe())
    duo = h.duo()  # create and join in the same window
    wake = h.core.next_wake()
    assert wake is not None
    listing = the(h.tick(wake), watcher, Lobby)
    assert [(t.table_id, t.status) for t in listing.tables] == [(duo.table_id, "playing")]


# ----- seats and commands ---------------------------------------------------------------------


NEW_TABLE_STATE = {
    "level": "normal",
    "hints": True,
    "clock": None,
    "draw_offer": None,
    "rematch_offer": None,
    "rematch_to": None,
}


def test_creating_a_table_writes_the_table_the_seat_and_the_deal_with_its_messages() -> None:
    h = Harness()
    ana = h.player()
    effects, table_id, token = h.create(ana, seat="black", first="black")
    assert [type(m) for m in msgs(effects, ana)] == [Joined, History, State]
    assert all(getattr(m, "table_id", table_id) == table_id for m in msgs(effects, ana))
    table = h.table(table_id)
    assert effects.writes == [
        CreateTableOp(table_id, dict(table.game.options.to_dict()), "black", False, WALL),
        AppendLogOp(table_id, 0, (entry_to_wire(table.game.log[0]),), WALL),
        TableStateOp(table_id, NEW_TABLE_STATE, WALL),
        SetSeatOp(table_id, "black", "Ana", hash_token(token), False),
    ]
    assert token not in repr(effects.writes)
    state = the(effects, ana, State)
    assert (state.version, state.role, state.status) == (0, "black", "waiting")
    assert state.view.pop("table")["clock"] is None  # version 2: the table around the game
    assert state.view == seat_view_to_dict(seat_view(table.game, Seat.BLACK))


def test_join_and_spectate() -> None:
    h = Harness()
    ana = h.player("Ana")
    _, table_id, _ = h.create(ana)
    bo = h.player("Bo")
    effects = h.send(bo, Join(table_id, None))
    joined = the(effects, bo, Joined)
    assert joined.seat == "black"
    assert writes_of(effects, SetSeatOp) == [
        SetSeatOp(table_id, "black", "Bo", hash_token(joined.token), False)
    ]
    assert the(effects, bo, State).status == "playing"
    changed = the(effects, ana, PlayersChanged)
    assert changed.status == "playing"
    assert changed.players.black is not None and changed.players.black.connected
    cy = h.player("Cy")
    assert codes(h.send(cy, Join(table_id, None)), cy) == ["table_full"]
    assert codes(h.send(cy, Join(table_id, "white")), cy) == ["seat_taken"]
    effects = h.send(cy, Spectate(table_id))
    assert not effects.writes
    assert [type(m) for m in msgs(effects, cy)] == [Spectating, History, State]
    state = the(effects, cy, State)
    assert state.role == "spectator" and "hand" not in state.view
    assert codes(h.send(cy, Spectate(table_id)), cy) == ["already_at_table"]
    assert codes(h.send(cy, Join("nope", None)), cy) == ["no_such_table"]


def test_a_command_is_logged_and_every_one_at_the_table_is_told() -> None:
    h = Harness()
    duo = h.duo()
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    table = h.table(duo.table_id)
    effects = h.act(duo.white, duo.table_id, "draw")
    drawn = table.events[0]
    mover = the(effects, duo.white, Update)
    assert mover.version == 1 and mover.events == events_to_dicts(drawn)
    assert effects.sends[0] == (duo.white, mover, 2)  # the mover's own update first
    other = the(effects, duo.black, Update)
    assert other.events == events_to_dicts(seat_events(drawn, Seat.BLACK))
    assert other.events != mover.events  # the drawn card is hidden from the others
    watched = the(effects, watcher, Update)
    assert watched.events == other.events and "hand" not in watched.view


COMMAND_REFUSALS = [
    ("stale_version", "black", -1, "draw"),
    ("stale_version", "white", 1, "draw"),
    ("not_your_turn", "black", 0, "draw"),
    ("spectator_cannot_act", "watcher", 0, "draw"),
    ("not_at_table", "stranger", 0, "draw"),
    ("illegal_action", "white", 0, "end"),
    ("illegal_action", "white", 0, "handicap ALOA-BARI"),
    ("bad_notation", "white", 0, "fly away"),
]


@pytest.mark.parametrize(("code", "who", "version", "action"), COMMAND_REFUSALS)
def test_a_refused_command_changes_nothing(code: str, who: str, version: int, action: str) -> None:
    h = Harness()
    duo = h.duo()
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    stranger = h.player("Di")
    members = {"white": duo.white, "black": duo.black, "watcher": watcher, "stranger": stranger}
    table = h.table(duo.table_id)
    before = snapshot(table)
    member = members[who]
    effects = h.send(member, Command(duo.table_id, version, action))
    error = the(effects, member, Error)
    assert (error.code, error.table_id, error.refused) == (code, duo.table_id, "command")
    if code == "stale_version":
        assert error.version == 0
    assert effects.writes == [] and effects.sends == [(member, error, 2)]
    assert not effects.computer_turns
    assert snapshot(table) == before


def test_a_command_before_the_game_starts_is_refused() -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana)
    effects = h.send(ana, Command(table_id, 0, "draw"))
    assert codes(effects, ana) == ["game_not_started"] and not effects.writes
    assert h.table(table_id).version == 0


def test_a_finished_game_writes_its_record_and_refuses_further_commands() -> None:
    h = Harness()
    duo = h.duo()
    played = h.play_out(duo)
    table = h.table(duo.table_id)
    finishes = [op for e in played for op in writes_of(e, FinishOp)]
    assert len(finishes) == 1 and writes_of(played[-1], FinishOp) == finishes
    assert finishes[0].record == write_record(table.game)
    result = table.game.result
    assert result is not None
    assert finishes[0].result == {**result.to_dict(), "points": list(table.game.scores)}
    effects = h.send(duo.white, Command(duo.table_id, table.version, "draw"))
    assert codes(effects, duo.white) == ["game_over"] and not effects.writes


# ----- protocol versions 1 and 2 --------------------------------------------------------------


def test_version_1_never_gets_history_or_record_and_version_2_gets_both() -> None:
    h = Harness()
    duo = h.duo(white_version=1, black_version=2)
    table = h.table(duo.table_id)
    early = h.send(duo.black, GetRecord(duo.table_id))
    assert codes(early, duo.black) == ["game_not_over"]
    h.play_out(duo)
    for member in (duo.white, duo.black):
        h.send(member, Resync(duo.table_id))
    v1 = [type(m) for m in h.sent_to(duo.white)]
    v2 = [type(m) for m in h.sent_to(duo.black)]
    assert v1.count(State) == 2 and Update in v1  # create, resync; the game
    assert History not in v1 and Record not in v1
    assert v2.count(History) == v2.count(State) == 2
    records = of(h.send(duo.black, GetRecord(duo.table_id)), duo.black, Record)
    assert [(r.table_id, r.text) for r in records] == [(duo.table_id, write_record(table.game))]
    refused = h.raw(duo.white, encode(GetRecord(duo.table_id), 2))  # as a v2 client would
    assert [(e.code, e.refused) for e in of(refused, duo.white, Error)] == [
        ("unknown_type", "get_record")
    ]
    assert len(refused.sends) == 1


def test_version_2_gets_history_right_before_each_state() -> None:
    h = Harness()
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")
    watcher = h.player("Cy")
    sent = (
        msgs(h.send(duo.black, Resync(duo.table_id)), duo.black)
        + msgs(h.send(watcher, Spectate(duo.table_id)), watcher)
        + msgs(h.send(duo.white, Resync(duo.table_id)), duo.white)
    )
    states = [i for i, m in enumerate(sent) if isinstance(m, State)]
    assert len(states) == 3
    for i in states:
        history, state = sent[i - 1], sent[i]
        assert isinstance(history, History) and isinstance(state, State)
        assert (
            (history.table_id, history.version)
            == (state.table_id, state.version)
            == (
                duo.table_id,
                1,
            )
        )


def test_history_hides_the_opponents_cards() -> None:
    h = Harness()
    duo = h.duo()
    table = h.table(duo.table_id)
    h.act(duo.white, duo.table_id, "draw")
    h.act(duo.black, duo.table_id, "draw")
    for member, seat in ((duo.white, Seat.WHITE), (duo.black, Seat.BLACK)):
        history = the(h.send(member, Resync(duo.table_id)), member, History)
        assert history.events == [events_to_dicts(seat_events(e, seat)) for e in table.events]
        draws = [e for action in history.events for e in action if e["type"] == "CardDrawn"]
        assert [(e["seat"], e["card"] is None) for e in draws] == [
            ("white", seat is not Seat.WHITE),
            ("black", seat is not Seat.BLACK),
        ]
    watcher = h.player("Cy")
    history = the(h.send(watcher, Spectate(duo.table_id)), watcher, History)
    draws = [e for action in history.events for e in action if e["type"] == "CardDrawn"]
    assert len(draws) == 2 and all(e["card"] is None for e in draws)


# ----- the computer ---------------------------------------------------------------------------


def computer_table(h: Harness) -> tuple[MemberId, str, ComputerTurn]:
    """A table against the computer, which plays black and moves first."""
    ana = h.player()
    effects, table_id, _ = h.create(ana, vs_computer=True, seat="white", first="black")
    assert len(effects.computer_turns) == 1
    return ana, table_id, effects.computer_turns[0]


def test_the_computer_moving_first_gets_its_turn_with_its_own_view() -> None:
    h = Harness()
    ana, table_id, turn = computer_table(h)
    table = h.table(table_id)
    assert (turn.table_id, turn.version, turn.delay) == (table_id, 0, h.config.computer_delay)
    assert table.seat_of(turn.member) is Seat.BLACK
    assert turn.view == seat_view_to_dict(seat_view(table.game, Seat.BLACK))
    state = the(h.send(ana, Resync(table_id)), ana, State)
    assert state.status == "playing"
    assert state.players.black is not None and state.players.black.computer


def test_a_human_moving_first_gives_the_computer_no_turn_until_its_own() -> None:
    h = Harness()
    ana = h.player()
    effects, table_id, _ = h.create(ana, vs_computer=True, first="white")
    assert not effects.computer_turns
    turns = h.act(ana, table_id, "draw").computer_turns  # a draw ends white's turn
    assert [(t.table_id, t.version) for t in turns] == [(table_id, 1)]


def test_the_strong_computer_is_told_its_opponents_last_turn_as_the_table_saw_it() -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana, vs_computer=True, first="white", level="strong")
    table = h.table(table_id)
    before = [seat_view(table.game, Seat.WHITE).public]
    play = next(str(a) for a in table.game.legal_actions() if str(a).startswith("place"))
    h.act(ana, table_id, play)
    before.append(seat_view(table.game, Seat.WHITE).public)
    turns = h.act(ana, table_id, "draw").computer_turns
    assert len(turns) == 1
    assert turns[0].turns == (tuple(zip(before, map(parse_action, [play, "draw"]), strict=True)),)
    # Only the public views: no hand of anyone's travels with them.
    assert all(type(view) is PublicView for turn in turns[0].turns for view, _ in turn)
    # They travel to the worker process that decides (server/net/app.py) as its arguments do.
    assert pickle.loads(pickle.dumps(turns[0].turns)) == turns[0].turns


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_computer_that_does_not_read_turns_is_not_handed_them(level: str) -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana, vs_computer=True, first="white", level=level)
    turns = h.act(ana, table_id, "draw").computer_turns
    assert [(t.level, t.turns) for t in turns] == [(level, ())]


def test_the_computers_command_is_applied() -> None:
    h = Harness()
    ana, table_id, turn = computer_table(h)
    table = h.table(table_id)
    effects = h.computer(turn, "draw")
    assert table.version == 1
    assert table.game.log[-1] == Move(Seat.BLACK, parse_action("draw"))
    assert writes_of(effects, AppendLogOp)[0].index == 1
    assert the(effects, ana, Update).version == 1
    assert not effects.computer_turns  # the draw ended its turn: white is to move


@pytest.mark.parametrize("action", ["end", "handicap ALOA-BARI", "fly away", None])
def test_a_refused_or_missing_computer_action_falls_back_to_a_legal_one(
    action: str | None,
) -> None:
    h = Harness()
    ana, table_id, turn = computer_table(h)
    table = h.table(table_id)
    fallback = table.game.legal_actions()[0]
    effects = h.computer(turn, action)
    assert table.version == 1
    assert table.game.history == [fallback]
    assert len(writes_of(effects, AppendLogOp)) == 1
    assert the(effects, ana, Update).version == 1
    if table.game.to_move is Seat.BLACK:  # still its turn: the table does not stall
        assert [t.version for t in effects.computer_turns] == [1]


@pytest.mark.parametrize("stale", ["draw", None])
def test_a_stale_or_orphaned_computer_action_is_dropped(stale: str | None) -> None:
    h = Harness()
    ana, table_id, turn = computer_table(h)
    h.computer(turn, "discard " + turn.view["hand"][0])  # the computer's turn goes on
    table = h.table(table_id)
    assert table.version == 1
    assert h.computer(turn, stale) == Effects()  # made for version 0: a newer turn replaced it
    assert table.version == 1
    h.send(ana, Leave(table_id))
    h.disconnect(ana)
    # abandoned: the computer wins by forfeit, and the finished table closes after its grace
    closed = h.advance(h.now + h.config.abandon_timeout + h.config.over_grace + 2)
    assert writes_of(closed, FinishOp)
    assert writes_of(closed, CloseOp)
    late = attrs.evolve(turn, version=1)
    assert h.computer(late, "draw") == Effects()


def test_a_computer_action_after_a_resignation_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The player resigns while the computer thinks: an expected race, not an error."""
    h = Harness()
    ana, table_id, turn = computer_table(h)
    h.send(ana, Resign(table_id))
    assert h.table(table_id).game.is_over
    with caplog.at_level(logging.INFO):
        assert h.computer(turn, "draw") == Effects()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# ----- abandonment and timers -----------------------------------------------------------------


def test_a_player_gone_past_the_abandon_timeout_forfeits_to_the_one_who_stayed() -> None:
    h = Harness(abandon_timeout=30.0)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")
    h.now = 5.5
    h.disconnect(duo.black)
    assert not h.advance(35.4).writes
    late = h.advance(36.0)
    table = h.table(duo.table_id)
    assert table.game.result is not None
    assert (table.game.result.winner, table.game.result.kind) == (Seat.WHITE, "forfeit")
    assert writes_of(late, FinishOp) and not writes_of(late, CloseOp)
    update = the(late, duo.white, Update)
    assert update.view["public"]["result"] == {"winner": "white", "kind": "forfeit"}


def test_a_game_whose_players_are_both_gone_is_forfeited_by_the_first_to_go() -> None:
    """Never closed without a result (issue 40): the first gone past the timeout loses."""
    h = Harness(abandon_timeout=30.0)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    h.now = 5.5
    effects = h.disconnect(duo.black)
    changed = the(effects, duo.white, PlayersChanged)
    assert changed.players.black is not None and not changed.players.black.connected
    assert not effects.writes
    h.now = 6.0
    h.disconnect(duo.white)
    early = h.advance(35.4)
    assert not early.writes
    late = h.advance(36.0)
    assert not writes_of(late, CloseOp)
    (finish,) = writes_of(late, FinishOp)
    assert finish.result["winner"] == "white" and finish.result["kind"] == "forfeit"
    update = the(late, watcher, Update)
    assert update.view["result"] == {"winner": "white", "kind": "forfeit"}
    assert duo.table_id in h.core.lobby.tables


def test_coming_back_in_time_keeps_the_table() -> None:
    h = Harness(abandon_timeout=30.0)
    duo = h.duo()
    h.disconnect(duo.black)
    h.advance(20.0)
    again = h.player("Bo")
    effects = h.send(again, Reclaim(duo.table_id, duo.black_token))
    assert the(effects, again, Joined).token == duo.black_token
    assert not writes_of(h.advance(100.0), CloseOp)


def test_a_seat_reclaimed_from_elsewhere_lets_the_old_connection_go() -> None:
    h = Harness()
    duo = h.duo()
    again = h.player("Bo")
    effects = h.send(again, Reclaim(duo.table_id, duo.black_token))
    assert of(effects, duo.black, Left) and the(effects, again, Joined).seat == "black"
    assert not effects.writes  # the seat's token and name are unchanged
    refused = h.send(duo.black, Chat(duo.table_id, "still here?"))
    assert codes(refused, duo.black) == ["not_at_table"]
    assert not msgs(h.disconnect(duo.black), duo.white)  # the seat did not drop
    players = h.table(duo.table_id).players()
    assert players.black is not None and players.black.connected


def test_a_finished_game_lingers_then_closes() -> None:
    h = Harness(over_linger=20.0)
    duo = h.duo()
    h.play_out(duo)
    start = h.now
    h.advance(start + 1.0)  # the sweep that sees the game over starts the linger
    assert not writes_of(h.advance(start + 20.5), CloseOp)
    closed = h.advance(start + 21.0)
    assert writes_of(closed, CloseOp) == [CloseOp(duo.table_id, "the game is over", WALL)]
    assert of(closed, duo.white, TableClosed) and of(closed, duo.black, TableClosed)


def test_a_finished_game_closes_when_its_players_are_gone() -> None:
    h = Harness()
    duo = h.duo()
    h.play_out(duo)
    h.disconnect(duo.white)
    assert not writes_of(h.advance(h.now + 1.0), CloseOp)
    h.send(duo.black, Leave(duo.table_id))
    assert not writes_of(h.advance(h.now + h.config.over_grace - 1.0), CloseOp)  # may come back
    closed = h.advance(h.now + 1.0)
    assert writes_of(closed, CloseOp) == [
        CloseOp(duo.table_id, "the game is over and the players left", WALL)
    ]


def test_a_waiting_table_whose_creator_leaves_closes_at_once() -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana)
    watcher = h.player("Cy")
    h.send(watcher, Spectate(table_id))
    effects = h.send(ana, Leave(table_id))
    assert of(effects, ana, Left)
    assert effects.writes == [
        ClearSeatOp(table_id, "white"),
        CloseOp(table_id, "nobody is seated", WALL),
    ]
    assert of(effects, watcher, TableClosed) == [
        TableClosed(table_id, "nobody is seated", "nobody_seated", {})
    ]
    assert table_id not in h.core.lobby.tables


def test_a_waiting_table_whose_creator_drops_closes_after_the_waiting_grace() -> None:
    h = Harness(abandon_timeout=600.0, waiting_grace=30.0)
    ana = h.player()
    _, table_id, _ = h.create(ana)
    h.disconnect(ana)
    assert not writes_of(h.advance(29.0), CloseOp)
    closed = writes_of(h.advance(30.0), CloseOp)
    assert closed == [CloseOp(table_id, "Ana left before the game started", WALL)]


# ----- restore --------------------------------------------------------------------------------


@attrs.define
class Restored:
    old: Harness
    new: Harness
    duo: Duo
    computer_table: str
    closed_table: str  # closed before the restart: stored, not restored
    effects: Effects


def restore(now: float = 1000.0, **overrides: Any) -> Restored:
    """A human game a few actions in (with chat), a computer game where the computer is to
    move and a closed table, written to SQLite and restored into a new core at `now`."""
    old = Harness(**overrides)
    duo = old.duo()
    old.act(duo.white, duo.table_id, "draw")
    old.act(duo.black, duo.table_id, "draw")
    hand = seat_view_to_dict(seat_view(old.table(duo.table_id).game, Seat.WHITE))["hand"]
    old.act(duo.white, duo.table_id, f"discard {hand[0]}")  # white's turn goes on
    old.send(duo.black, Chat(duo.table_id, "hi"))
    _, computer_table_id, _ = computer_table(old)
    gone = old.player("Gone")
    _, closed_table_id, _ = old.create(gone)
    assert writes_of(old.send(gone, Leave(closed_table_id)), CloseOp)
    storage = SqliteStorage(":memory:")
    for batch in old.batches:
        storage.write(batch)
    new = Harness(now=now, **overrides)
    effects = new.took(
        new.core.restore(storage.load_open_tables(50), storage.table_ids(), now, WALL)
    )
    storage.close()
    return Restored(old, new, duo, computer_table_id, closed_table_id, effects)


def test_restored_tables_have_the_same_versions_and_views() -> None:
    r = restore()
    assert set(r.new.core.lobby.tables) == set(r.old.core.lobby.tables)
    for table_id, before in r.old.core.lobby.tables.items():
        after = r.new.table(table_id)
        assert after.version == before.version
        assert after.game.log == before.game.log
        for seat in Seat:
            assert seat_view(after.game, seat) == seat_view(before.game, seat)
        assert list(after.chat_log) == list(before.chat_log)
    players = r.new.table(r.duo.table_id).players()
    assert players.white is not None and players.black is not None
    assert not players.white.connected and not players.black.connected
    computer = r.new.table(r.computer_table).players()
    assert computer.black is not None and computer.black.connected and computer.black.computer
    assert computer.white is not None and not computer.white.connected
    assert not r.effects.writes and not r.effects.sends


def test_a_restored_seat_is_reclaimed_with_its_token_only() -> None:
    r = restore()
    h, duo = r.new, r.duo
    bo = h.player("Bo")
    wrong = h.send(bo, Reclaim(duo.table_id, duo.white_token + "x"))
    assert codes(wrong, bo) == ["bad_token"] and not wrong.writes
    effects = h.send(bo, Reclaim(duo.table_id, duo.black_token))
    assert the(effects, bo, Joined) == Joined(duo.table_id, "black", duo.black_token)
    state = the(effects, bo, State)
    before = r.old.table(duo.table_id)
    assert state.version == before.version
    shown = {key: value for key, value in state.view.items() if key != "table"}
    assert shown == seat_view_to_dict(seat_view(before.game, Seat.BLACK))
    assert state.chat == list(before.chat_log)
    assert the(effects, bo, History).version == before.version
    ana = h.player("Ana")
    assert the(h.send(ana, Reclaim(duo.table_id, duo.white_token)), ana, Joined).seat == "white"
    h.act(ana, duo.table_id)  # checks that the new entries are written at the stored index


def test_the_abandonment_clock_starts_at_the_restore() -> None:
    r = restore(now=1000.0, abandon_timeout=30.0)
    h = r.new
    assert not writes_of(h.advance(1029.5), CloseOp)
    closed = h.advance(1030.0)
    # nothing closes without a result: the human game's players are gone equally long, and
    # the one to move (white) forfeits; against the computer, the one who stayed wins
    assert not writes_of(closed, CloseOp)
    finished = {op.table_id: op.result["winner"] for op in writes_of(closed, FinishOp)}
    assert finished == {r.duo.table_id: "black", r.computer_table: "black"}


def test_a_new_table_never_takes_an_old_id(monkeypatch: pytest.MonkeyPatch) -> None:
    r = restore()
    assert r.closed_table not in r.new.core.lobby.tables
    offered = iter([r.duo.table_id, r.closed_table, r.computer_table, "0badc0de"])
    rng = r.new.config.rng  # the core's: table ids are its 4 random bytes in hex
    assert rng is not None
    tokens = rng.randbytes
    monkeypatch.setattr(
        rng, "randbytes", lambda n: bytes.fromhex(next(offered)) if n == 4 else tokens(n)
    )
    ana = r.new.player()
    _, table_id, _ = r.new.create(ana)
    assert table_id == "0badc0de"


def test_a_restored_computer_to_move_gets_its_turn() -> None:
    r = restore()
    turns = r.effects.computer_turns
    assert [(t.table_id, t.version) for t in turns] == [(r.computer_table, 0)]
    table = r.new.table(r.computer_table)
    assert table.seat_of(turns[0].member) is Seat.BLACK
    assert turns[0].view == seat_view_to_dict(seat_view(table.game, Seat.BLACK))
    effects = r.new.computer(turns[0], "draw")
    assert table.version == 1
    assert writes_of(effects, AppendLogOp) == [
        AppendLogOp(r.computer_table, 1, (entry_to_wire(table.game.log[-1]),), WALL)
    ]


# ----- failures ---------------------------------------------------------------------------------


def test_a_failure_part_way_through_a_command_leaves_memory_disk_and_members_agreeing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = Harness()
    duo = h.duo()
    table = h.table(duo.table_id)
    original = Table._updates
    failures = iter([True])

    def failing(self: Table, seat: Seat, events: list[Any]) -> Any:
        if next(failures, False):
            raise RuntimeError("a bug after the action was applied")
        return original(self, seat, events)

    monkeypatch.setattr(Table, "_updates", failing)
    logged = len(table.game.log)
    effects = h.send(duo.white, Command(duo.table_id, 0, "draw"))
    assert codes(effects, duo.white) == ["internal_error"]
    assert table.version == 1  # the action was applied before the failure...
    appended = writes_of(effects, AppendLogOp)  # ...so it is written...
    assert [op.index for op in appended] == [logged]
    assert len(appended[0].entries) == len(table.game.log) - logged
    for member in (duo.white, duo.black):  # ...and both players are brought up to date
        assert the(effects, member, State).version == 1
    h.act(duo.black, duo.table_id)  # and play goes on, the log continuing where it was
    storage = SqliteStorage(":memory:")
    for batch in h.batches:
        storage.write(batch)
    (stored,) = storage.load_open_tables(50)
    assert len(stored.log) == len(table.game.log)


def test_a_stored_game_is_rebuilt_when_first_needed_and_a_broken_one_closes_alone() -> None:
    r = restore()
    table = r.new.table(r.duo.table_id)
    assert not table.loaded  # not rebuilt at start: the lobby needs none of it
    watcher = r.new.player("Lou")
    listing = the(r.new.send(watcher, LobbySubscribe()), watcher, Lobby)
    assert r.duo.table_id in {t.table_id for t in listing.tables}
    assert not table.loaded
    bo = r.new.player("Bo")
    r.new.send(bo, Reclaim(r.duo.table_id, r.duo.black_token))
    assert table.loaded  # a reclaim needs the game
    # a stored log that does not replay: the table fails alone, on first use, and closes
    old = Harness()
    duo = old.duo()
    old.act(duo.white, duo.table_id, "draw")
    storage = SqliteStorage(":memory:")
    for batch in old.batches:
        storage.write(batch)
    (row,) = storage.load_open_tables(50)
    broken = attrs.evolve(row, log=[*row.log[:-1], ["m", "black", "draw"]])  # not black's turn
    new = Harness(now=100.0)
    new.took(new.core.restore([broken], storage.table_ids(), 100.0, WALL))
    ana = new.player("Ana")
    effects = new.send(ana, Reclaim(duo.table_id, duo.white_token))
    assert codes(effects, ana) == ["internal_error"]
    assert writes_of(effects, CloseOp) and duo.table_id not in new.core.lobby.tables
    other = new.player("Cy")
    _, table_id, _ = new.create(other)  # the server serves on
    assert table_id in new.core.lobby.tables


def test_a_sweep_over_many_tables_is_spread_over_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tick looks at SWEEP_CHUNK connections and tables at most, and asks to be woken at
    once for the rest: the commands that arrive meanwhile need not wait for all of them."""
    monkeypatch.setattr(core_module, "SWEEP_CHUNK", 3)
    h = Harness(waiting_grace=5.0)
    creators = [h.player(f"P{i}") for i in range(4)]
    for creator in creators:
        h.create(creator)
    for creator in creators:
        h.disconnect(creator)
    assert h.core.next_wake() == 1.0
    h.tick(10.0)  # the sweep: three of the four tables, all closed
    assert len(h.core.lobby.tables) == 1
    assert h.core.next_wake() == 10.0  # the rest at once
    h.tick(10.0)
    assert not h.core.lobby.tables
    assert h.core.next_wake() is None  # nothing left to sweep
