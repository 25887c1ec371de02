"""The golden recording: one scripted session through the server core, every effect as the I/O
layer would carry it out (each message encoded as server/net/app.py encodes it, each storage
operation as a plain record), compared byte for byte with tests/server/golden/session.msgpack.

The recording was taken from the core as of e869ccf, before the core was split up. It must never
change: a core that answers the same events differently changed the server's behaviour. When the
core's API changes, the Shell below changes with it; the script and the recording do not.

Two behaviours differ by design, and only they:
- the refusal of a hello in a version the server does not speak names the versions it does, and
  versions 3 and 4 came after the recording (see NEWER_VERSIONS);
- a spectator who comes along to a rematch is counted, and told of changes, at the new table
  alone, no longer at the old one too (issue 22): the 7 entries that differ because of it
  (lobby listings with one spectator fewer at the old table, a `players` update the spectator no
  longer gets from it) are recorded apart, as this server gives them, in
  golden/rematch-spectators.msgpack (see REMATCH_SPECTATORS).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import msgpack

from protocol.codec import encode
from protocol.errors import ErrorCode
from protocol.fields import TableOptions, TimeControl
from protocol.messages import (
    Chat,
    Claim,
    ClientMessage,
    Command,
    CreateTable,
    DeclineDraw,
    GetRecord,
    Hello,
    Join,
    Leave,
    LobbySubscribe,
    LobbyUnsubscribe,
    OfferDraw,
    Reclaim,
    Rematch,
    Resign,
    Resync,
    Spectate,
)
from server.core.config import ServerConfig
from server.core.core import ServerCore
from server.core.effects import Effects
from server.core.table import MemberId
from server.jobs.computer import decide
from server.storage.sqlite_store import SqliteStorage
from shared.randomness import SeededSource

GOLDEN = Path(__file__).parent / "golden" / "session.msgpack"
SEED = 18
WALL = 1_700_000_000.0  # the wall clock at the core's time 0


def golden_config() -> ServerConfig:
    seeds = itertools.count(500)
    return ServerConfig(
        flood_limit=5,
        claim_after=15.0,
        max_per_address=3,
        source_factory=lambda: SeededSource(next(seeds)),
        rng=random.Random(0),  # not used: the core is given its own
    )


# Fields of storage operations added after the recording (for accounts, in protocol version 3):
# left out of the plain form while they hold their default, which is all a session without
# accounts ever gives them.
LATER_FIELDS = {("SetSeatOp", "account")}


def plain_effects(effects: Effects, connected: set[MemberId]) -> list[Any]:
    """What the I/O layer does with these effects, as plain data: the storage operations, each
    message's bytes for its connection, the closes, the computer turns and the records."""
    writes = [
        [
            type(op).__name__,
            *(
                getattr(op, f.name)
                for f in attrs.fields(type(op))
                if (type(op).__name__, f.name) not in LATER_FIELDS or getattr(op, f.name)
            ),
        ]
        for op in effects.writes
    ]
    sends = [
        [member, encode(message, version)]
        for member, message, version in effects.sends
        if member in connected
    ]
    closes = [[c.member, c.code, c.reason] for c in effects.closes]
    turns = [
        [t.member, t.table_id, t.version, t.view, t.delay, t.level] for t in effects.computer_turns
    ]
    records = [[r.table_id, r.text] for r in effects.records]
    return [writes, sends, closes, turns, records]


class Shell:
    """Plays the I/O layer's part: feeds events to a core at fixed times, keeps every write in
    a database, answers the computer's turns at once, and records everything."""

    def __init__(
        self, rng: random.Random, config: Callable[[], ServerConfig] = golden_config
    ) -> None:
        self.rng = rng  # the core's: table ids, tokens, who moves first (and the cards, unless
        self.config = config  # the config deals from its own sources, as the golden one does)
        self.now = 0.0
        self.core = ServerCore(config(), rng=rng)
        self.storage = SqliteStorage(":memory:")
        self.recording: list[Any] = []
        self.effects: list[Effects] = []  # as the core returned them
        self.connected: set[MemberId] = set()
        self.decisions = itertools.count(9000)  # the computer's seeds

    @property
    def wall(self) -> float:
        return WALL + self.now

    def restart(self) -> None:
        """A new core on the same storage, as after a restart of the server."""
        self.core = ServerCore(self.config(), rng=self.rng)
        self.connected = set()
        stored = self.storage.load_open_tables(self.config().chat_history)
        used = self.storage.table_ids()
        self.carry_out("restore", self.core.restore(stored, used, self.now, self.wall))

    def carry_out(self, label: str, effects: Effects) -> None:
        self.effects.append(effects)
        if effects.writes:
            self.storage.write(effects.writes)
        plain = plain_effects(effects, self.connected)
        if label != "tick" or any(plain):  # a tick that did nothing is left out
            self.recording.append([label, self.now, plain])
        for turn in effects.computer_turns:
            action = decide(turn.view, next(self.decisions), turn.level)
            effects = self.core.computer_command(
                turn.member, turn.table_id, turn.version, action, self.now, self.wall
            )
            self.carry_out(f"computer {action}", effects)

    def at(self, when: float) -> None:
        """Time passes to `when`: every wake-up the core asks for on the way is a tick."""
        while (wake := self.core.next_wake()) is not None and wake <= when:
            self.now = wake
            self.carry_out("tick", self.core.tick(wake, self.wall))
        self.now = when

    def connect(self, address: str) -> MemberId | ErrorCode:
        member = self.core.connect(address, self.now)
        if isinstance(member, int):
            self.connected.add(member)
        self.recording.append(["connect", self.now, [address, str(member)]])
        return member

    def frame(self, member: MemberId, data: bytes | str) -> None:
        self.carry_out(f"frame {member}", self.core.frame(member, data, self.now, self.wall))

    def send(self, member: MemberId, message: ClientMessage, version: int = 2) -> None:
        self.frame(member, encode(message, version))

    def disconnect(self, member: MemberId) -> None:
        self.connected.discard(member)
        self.carry_out(f"disconnect {member}", self.core.disconnect(member, self.now, self.wall))

    def slow_reader(self, member: MemberId) -> None:
        self.carry_out(f"slow reader {member}", self.core.slow_reader(member, self.now, self.wall))

    # ----- reading the game, as a player reads it from its view -----

    def legal(self, table_id: str) -> list[str]:
        return [str(a) for a in self.core.lobby.tables[table_id].game.legal_actions()]

    def version_of(self, table_id: str) -> int:
        return self.core.lobby.tables[table_id].version

    def to_move(self, table_id: str) -> str:
        return self.core.lobby.tables[table_id].game.to_move.name.lower()

    def token_of(self, member: MemberId, table_id: str) -> str:
        """The token the last Joined at this table handed the member."""
        for to, message in self.sent():
            if (to, message["type"], message.get("table_id")) == (member, "joined", table_id):
                return str(message["token"])
        raise AssertionError(f"no token for {member} at {table_id}")

    def sent(self) -> list[tuple[MemberId, dict[str, Any]]]:
        """Every message sent so far, decoded, the latest first."""
        return [
            (to, msgpack.unpackb(data))
            for label, _, effects in reversed(self.recording)
            if label != "connect"
            for to, data in reversed(effects[1])
        ]

    def table_of(self, member: MemberId) -> str:
        """The table the member was last seated at or watching."""
        for to, message in self.sent():
            if to == member and message["type"] in ("joined", "spectating"):
                return str(message["table_id"])
        raise AssertionError(f"{member} is at no table")


def play(shell: Shell, players: dict[str, MemberId], table_id: str, actions: int) -> None:
    """`actions` legal actions, each by the seat to move, chosen by a seeded hand."""
    chooser = random.Random(table_id)
    for _ in range(actions):
        legal = shell.legal(table_id)
        if not legal:
            return
        mover = players[shell.to_move(table_id)]
        version = 1 if mover == players.get("v1") else 2
        command = Command(table_id, shell.version_of(table_id), chooser.choice(legal))
        shell.send(mover, command, version)
        shell.at(shell.now + 1.5)


def script(shell: Shell) -> None:
    s = shell
    # a lobby subscriber, and players of both protocol versions
    lou = s.connect("10.0.0.1")
    assert isinstance(lou, int)
    s.send(lou, Hello(2, "Lou"))
    s.send(lou, LobbySubscribe())
    ana = s.connect("10.0.0.2")
    bo = s.connect("10.0.0.3")
    assert isinstance(ana, int) and isinstance(bo, int)
    s.send(ana, Hello(1, "  Ana\x1b[31m "), 1)
    s.send(bo, Hello(2, "Bo"))
    s.send(bo, Hello(2, "Bo again"))  # already greeted
    late = s.connect("10.0.0.4")  # never says hello
    s.at(0.5)

    # a human game between version 1 (white) and version 2 (black)
    s.send(ana, CreateTable(TableOptions(), False, "white", "white"), 1)
    game = s.table_of(ana)
    s.at(0.7)
    s.send(bo, Join(game, "white"))  # taken
    s.send(bo, Join(game))
    s.at(1.0)
    s.send(bo, Command(game, s.version_of(game), s.legal(game)[0]))  # not its turn
    s.send(ana, Command(game, s.version_of(game), "end"), 1)  # not a legal action now
    s.send(ana, Command(game, s.version_of(game), "place NOWHERE"), 1)  # no such notation
    s.send(ana, Command(game, s.version_of(game) + 3, s.legal(game)[0]), 1)  # stale
    s.frame(bo, b"\x93\x01\xc1")  # not msgpack
    s.frame(bo, "a text frame")
    s.frame(bo, msgpack.packb({"type": "shout", "text": "hi"}))
    s.frame(bo, b"\x00" * 20_000)  # over max_frame
    s.frame(ana, msgpack.packb({"type": "resign", "table_id": game}))  # unknown to version 1
    s.send(ana, Chat(game, "hello Bo"), 1)
    s.send(bo, Chat(game, "hi \u202eAna"))
    s.send(bo, Chat(game, "   "))
    play(s, {"white": ana, "black": bo, "v1": ana}, game, 6)

    # a spectator joins and tries to act
    sam = s.connect("10.0.0.5")
    assert isinstance(sam, int)
    s.send(sam, Hello(2, "Bo"))
    s.send(sam, Spectate(game))
    s.send(sam, Command(game, s.version_of(game), s.legal(game)[0]))
    s.send(sam, Resign(game))
    s.send(sam, OfferDraw(game))
    s.send(sam, Chat(game, "go Ana"))
    s.send(sam, Resync(game))
    s.at(s.now + 2.0)

    # a draw offered by version 2; version 1 cannot answer it but plays on, which declines it
    s.send(bo, OfferDraw(game))
    s.send(bo, OfferDraw(game))  # it stands
    play(s, {"white": ana, "black": bo, "v1": ana}, game, 4)

    # a slow reader, a flood, a version this server does not speak, one connection too many
    slow = s.connect("10.0.0.6")
    assert isinstance(slow, int)
    s.send(slow, Hello(2, "Slow"))
    s.slow_reader(slow)
    s.send(slow, LobbySubscribe())
    flood = s.connect("10.0.0.6")
    assert isinstance(flood, int)
    for _ in range(50):
        s.send(flood, LobbySubscribe())
    old = s.connect("10.0.0.7")
    assert isinstance(old, int)
    s.send(old, Hello(9, "Future"))
    silent = [s.connect("10.0.0.8") for _ in range(4)]  # the fourth is refused
    s.at(s.now + 11.0)  # the connections that said no hello are closed
    for member in [late, *silent[:3]]:
        assert isinstance(member, int)
        s.disconnect(member)
    s.disconnect(slow)
    s.disconnect(flood)
    s.disconnect(old)

    # black's line drops; white may claim later; black comes back with its token
    bo_token = s.token_of(bo, game)
    s.disconnect(bo)
    s.send(ana, Chat(game, "where did you go?"), 1)
    s.at(s.now + 20.0)
    bo2 = s.connect("10.0.0.3")
    assert isinstance(bo2, int)
    s.send(bo2, Hello(2, "Bo"))
    s.send(bo2, Reclaim(game, "not-a-token"))
    s.send(sam, Reclaim(game, bo_token[:-2] + "AA"))
    s.send(bo2, Reclaim(game, bo_token))
    play(s, {"white": ana, "black": bo2, "v1": ana}, game, 3)
    s.send(bo2, Resign(game))
    s.send(bo2, GetRecord(game))
    s.send(sam, GetRecord(game))
    s.send(bo2, Rematch(game))  # offered; version 1 cannot take it up
    s.send(bo2, Rematch(game))
    s.at(s.now + 5.0)

    # a clocked game between two version-2 players: a draw offered and declined, the flag falls,
    # a rematch is agreed, a claim comes too early and then in time
    s.send(bo2, Leave(game))
    s.send(sam, Leave(game))
    s.send(bo2, CreateTable(TableOptions(), False, "black", "random", TimeControl(per_turn=30)))
    clocked = s.table_of(bo2)
    s.send(sam, Join(clocked))
    s.send(lou, Spectate(clocked))
    s.at(s.now + 3.0)
    s.send(sam, OfferDraw(clocked))
    s.send(bo2, DeclineDraw(clocked))
    s.send(bo2, DeclineDraw(clocked))  # no offer now
    play(s, {"white": sam, "black": bo2}, clocked, 3)
    s.send(sam, Claim(clocked))  # nobody is gone
    s.at(s.now + 35.0)  # the flag falls
    s.send(sam, Rematch(clocked))
    s.send(bo2, Rematch(clocked))
    rematch = s.table_of(bo2)
    s.at(s.now + 2.0)
    s.send(sam, Leave(clocked))
    s.disconnect(sam)
    s.send(bo2, Claim(rematch))  # too early
    s.at(s.now + 16.0)
    s.send(bo2, Claim(rematch))
    s.send(lou, Chat(rematch, "well played"))

    # against the easy computer: a few actions, a resignation, a rematch at once
    cy = s.connect("10.0.0.9")
    assert isinstance(cy, int)
    s.send(cy, Hello(2, "Cy"))
    s.send(cy, CreateTable(TableOptions(variant1=True), True, "white", "white", level="easy"))
    versus = s.table_of(cy)
    s.at(s.now + 1.0)
    play(s, {"white": cy, "black": cy}, versus, 6)  # the computer answers at once
    s.send(cy, OfferDraw(versus))  # the computer plays every game out
    s.send(cy, Resign(versus))
    s.send(cy, Rematch(versus))
    again = s.table_of(cy)
    s.at(s.now + 1.0)
    s.send(cy, LobbyUnsubscribe())
    s.send(lou, LobbyUnsubscribe())
    s.send(lou, LobbySubscribe())

    # a table left waiting closes; the server restarts; a player comes back to a kept game
    s.send(ana, CreateTable(TableOptions(), False, None, "white"), 1)
    waiting = s.table_of(ana)
    s.send(ana, Leave(waiting), 1)
    s.at(s.now + 30.0)
    cy_token = s.token_of(cy, again)
    s.restart()
    cy2 = s.connect("10.0.0.9")
    assert isinstance(cy2, int)
    s.send(cy2, Hello(2, "Cy"))
    s.send(cy2, Reclaim(again, cy_token))
    play(s, {"white": cy2, "black": cy2}, again, 2)
    s.at(s.now + 700.0)  # everything left is abandoned or over


def run_session() -> Shell:
    shell = Shell(random.Random(SEED))
    script(shell)
    return shell


# The bytes of the one answer that names the versions the server speaks: as recorded (versions 1
# and 2), and as this server sends them (versions 1 to 4).
RECORDED_VERSIONS = b"versions 1 to 2, not 9\xa8table_id\xc0\xa7version\x02"
NEWER_VERSIONS = b"versions 1 to 4, not 9\xa8table_id\xc0\xa7version\x04"


def _newer(entry: Any) -> Any:
    if isinstance(entry, bytes):
        return entry.replace(RECORDED_VERSIONS, NEWER_VERSIONS)
    if isinstance(entry, list):
        return [_newer(e) for e in entry]
    return entry


REMATCH_SPECTATORS = GOLDEN.with_name("rematch-spectators.msgpack")


def test_the_session_goes_exactly_as_recorded() -> None:
    recorded = msgpack.unpackb(GOLDEN.read_bytes(), raw=False, strict_map_key=False)
    assert msgpack.packb(recorded).count(RECORDED_VERSIONS) == 1
    recorded = _newer(recorded)
    later = msgpack.unpackb(REMATCH_SPECTATORS.read_bytes(), raw=False, strict_map_key=False)
    assert sorted(later) == [153, 154, 157, 164, 184, 187, 190]
    for index, entry in later.items():
        assert entry[:2] == recorded[index][:2]  # the same event, answered otherwise
        recorded[index] = entry
    packed = msgpack.packb(run_session().recording, use_bin_type=True)
    now = msgpack.unpackb(packed, raw=False, strict_map_key=False)
    for index, (want, got) in enumerate(zip(recorded, now, strict=False)):
        assert got == want, f"entry {index} ({want[0]} at {want[1]}) differs"
    assert len(now) == len(recorded)
