"""Load benchmark of the game server: a script, not a test.

    .venv/bin/python bench/load_bench.py                        # 1 table, then 500 tables
    .venv/bin/python bench/load_bench.py --tables 1 --seconds 10
    .venv/bin/python bench/load_bench.py --runs 1 2000:0.5 5000:5 10000:5 --seconds 20

It starts `kahuna-server` in its own process on 127.0.0.1 and drives N tables of two scripted
clients over real websockets. Each client plays random legal actions chosen from its own view;
after receiving the view that says it is to move it waits `--think` seconds (0: act at once, a
closed loop that measures the server's capacity) and sends the command. When a game ends the
table starts a new one. In the same run a bare websockets msgpack echo server (also its own
process) is measured as the transport's limit. The server stores every action in a SQLite
database in a temporary directory, as a host's server does (`--db :memory:` to compare without).

A run of more than 2,500 tables, or whose connections do not fit under this process's open-file
limit, is split over several client processes (`--clients` to choose their number), started
and stopped together; the server's own limit is raised for it where the system allows (as
root).

Printed per run: actions per second, p50/p99/max latency from sending a command to receiving
the resulting update (the acting client's), the p99 of a quiet client's few tables besides
(qp99: a process that plays `--quiet-tables` tables and nothing else, so that its own loop adds
nothing to the figure, as the busy clients' loops do to theirs), the server's CPU (share of one
core, and per action) and each client process's, the server's memory (RSS, sampled), and the
machine's load average. `--probe FILE` runs the server under bench/server_probe.py (its loop's
callbacks, its garbage collections and its storage writes timed, printed after each run);
`--py-spy DIR` samples the server with py-spy during each run into DIR (speedscope JSON).

`--server-root DIR` drives the server of another checkout instead (`git worktree add DIR REV`):
the same driver, the same machine, so that an earlier commit and this one compare fairly, as
figures taken on different machines or with different drivers do not (with `--probe`, that
checkout's probe). Setting up thousands of tables on a busy machine takes its time: each
connection's opening handshake may take `--setup-timeout` seconds (by default more, the more
tables).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from server_process import cpu_seconds, rss_kib, start_process, stop  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

from protocol.codec import decode_server, encode  # noqa: E402
from protocol.fields import TableOptions  # noqa: E402
from protocol.messages import (  # noqa: E402
    Command,
    CreateTable,
    Hello,
    History,
    Join,
    Joined,
    Leave,
    PlayersChanged,
    State,
)
from protocol.player_messages import Login  # noqa: E402
from shared.legality import legal_actions  # noqa: E402
from shared.views import seat_view_from_dict  # noqa: E402

# One table's play and the echo take turns this long (see alternate_echo).
ALTERNATE_WINDOW = 0.5
SETUP_AT_ONCE = 200  # tables a client process sets up at once before a run
# The seconds a connection's opening handshake may take, the server's and the clients' (see
# --setup-timeout): by default 10 s and 1 s more for every 200 tables of the largest run, as
# thousands of handshakes on a busy machine outlast websockets' 10 s (and the server's 5 s).
SETUP_TIMEOUT_ENV = "KAHUNA_BENCH_SETUP_TIMEOUT"  # in the environment, for client processes


def setup_timeout(tables: int) -> float:
    return 10.0 + tables / 200


# Tables one client process drives by default: one process's loop over 10,000 connections was
# itself the p99 (5,000 tables at 5 s: 61-100 ms with one process, 14-18 ms with two).
TABLES_PER_CLIENT = 2_500

# ----- the processes --------------------------------------------------------------------------


class Pinned:
    """--pin: the server on the first core, everything of the driver's on the others, as if the
    players were on other machines: the driver's CPU then waits behind the server's, never the
    server behind the driver's. Empty sets: the scheduler places everything (the default)."""

    def __init__(self) -> None:
        self.server: set[int] = set()
        self.clients: set[int] = set()

    def use(self) -> None:
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) < 2:
            raise SystemExit("--pin needs two cores at least")
        self.server, self.clients = {cores[0]}, set(cores[1:])
        os.sched_setaffinity(0, self.clients)  # this process, and the echo server it starts

    def pin_client(self) -> None:
        if self.clients:
            os.sched_setaffinity(0, self.clients)


PINNED = Pinned()


def start_server(
    db: str, probe: str | None, connections: int, root: Path = ROOT, handshake: float = 5.0
) -> tuple[subprocess.Popen[str], int]:
    # the probe of the checkout whose server it runs (it imports that server's modules)
    entry = [str(root / "bench" / "server_probe.py"), probe] if probe else ["-m", "server"]

    def room_for_connections() -> None:  # in the child, before the server starts
        raise_fd_limit(connections + 256)
        if PINNED.server:
            os.sched_setaffinity(0, PINNED.server)  # its threads and workers inherit it

    options = [
        ("--host", "127.0.0.1"), ("--port", "0"), ("--log-level", "error"), ("--db", db),
        ("--max-per-address", "100000"), ("--max-connections", "100000"),
        ("--max-tables", "100000"), ("--waiting-per-address", "100000"),
        ("--rate", "100000"), ("--burst", "100000"), ("--ping-interval", "0"),
        ("--handshake-timeout", f"{handshake:g}"),
    ]  # fmt: skip
    if root != ROOT:  # an earlier checkout's server: only the options it has
        known = server_options(root)
        options = [(name, value) for name, value in options if name in known]
    return start_process(
        [*entry, *(part for option in options for part in option)],
        preexec_fn=room_for_connections,
        cwd=root,
    )


def git_commit(root: Path) -> str:
    done = subprocess.run(
        ["git", "log", "-1", "--format=%h %ad", "--date=short"],
        cwd=root, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip() or "not a git checkout"


def server_options(root: Path) -> set[str]:
    """The options of the server in checkout `root`, from its --help."""
    shown = subprocess.run(
        [sys.executable, "-m", "server", "--help"], cwd=root, capture_output=True, text=True
    ).stdout
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", shown))


def raise_fd_limit(wanted: int) -> int:
    """Lift this process's open-file limit towards `wanted` (the hard limit too, where the
    system allows it); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limits in ((max(wanted, hard), max(wanted, hard)), (max(soft, min(wanted, hard)), hard)):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, limits)
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def open_files_limit(pid: int) -> int:
    """The process's soft limit on open files (Linux; elsewhere, no limit known)."""
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    except (OSError, ValueError, IndexError):
        pass
    return 1 << 30


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def py_spy_record(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    # Each sample stops the server for the moment it is read: read while it runs
    # (--nonblocking), a stack came torn, msgpack's packb under Connection.send.
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        print("  (py-spy not found: no profile)")
        return None
    return subprocess.Popen(
        [exe, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))),
         "--rate", "200", "--format", "speedscope", "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def echo_server_main() -> None:
    """A bare websockets server that decodes each msgpack frame and sends it back encoded."""
    from websockets.asyncio.server import ServerConnection, serve

    async def echo(ws: ServerConnection) -> None:
        async for data in ws:
            assert isinstance(data, bytes)
            await ws.send(msgpack.packb(msgpack.unpackb(data), use_bin_type=True))

    async with serve(echo, "127.0.0.1", 0, compression=None, ping_interval=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"echo listening on ws://127.0.0.1:{port}", flush=True)
        await asyncio.Future()


async def measure_echo(port: int, rounds: int, payload: bytes) -> list[float]:
    async with connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None) as ws:
        times = []
        for i in range(rounds + 50):
            start = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            if i >= 50:  # warm-up
                times.append(time.perf_counter() - start)
        return times


async def alternate_echo(
    port: int, payload: bytes, start: Start, window: float, times: list[float]
) -> None:
    """The echo measured in the same run as one table's play, in turns: play for `window`
    seconds, hold the players, measure the echo for `window` seconds, and so on. Both then
    see the machine in the same state; an echo measured only before and after the run drifts
    with whatever else the machine does (here from 0.13 to 0.25 ms between runs)."""
    async with connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None) as ws:
        await start.go.wait()
        while True:
            await asyncio.sleep(window)
            if time.perf_counter() + window >= start.until:
                return
            start.playing.clear()
            await asyncio.sleep(0.005)  # the update already sent arrives before the echo begins
            try:
                end = time.perf_counter() + window
                while time.perf_counter() < end:
                    began = time.perf_counter()
                    await ws.send(payload)
                    await ws.recv()
                    times.append(time.perf_counter() - began)
            finally:
                start.playing.set()


# ----- the scripted players -------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors = 0


class LightClient(ClientConnection):
    """A client connection whose whole binary messages go straight to `sink`, in the callback
    that read them, once one is set (the play); before that (the set-up), recv() as usual.
    The driver's own work shows as latency and takes a core the server shares: a task's turn,
    a future and an assembler for every message were a third of the driver's CPU (py-spy)."""

    sink: Callable[[bytes], None] | None = None

    def process_event(self, event: Any) -> None:
        sink = self.sink
        # the server sends each message in one frame
        if (
            sink is not None
            and isinstance(event, Frame)
            and event.opcode is Opcode.BINARY
            and event.fin
        ):
            sink(bytes(event.data))
            return
        super().process_event(event)

    def send_now(self, data: bytes) -> None:
        """What `await send(data)` does, at once, from a callback: nothing else sends on a
        connection during the play."""
        self.protocol.send_binary(data)
        self.send_data()


async def open_client(port: int, name: str, version: int = 1) -> LightClient:
    ws = await connect(
        f"ws://127.0.0.1:{port}",
        compression=None,
        ping_interval=None,
        max_size=2**22,
        create_connection=LightClient,
        open_timeout=float(os.environ.get(SETUP_TIMEOUT_ENV, "10")),
    )
    assert isinstance(ws, LightClient)
    await ws.send(encode(Hello(version, name), version))
    await ws.recv()  # welcome
    return ws


class Player:
    """One seat's play of one game, driven by the messages as they arrive (no task of its
    own): measures each own command until its update arrives; `done` when the game is over or
    the run is."""

    def __init__(
        self,
        ws: LightClient,
        table_id: str,
        state: State,
        rng: random.Random,
        think: float,
        stats: Stats,
        start: Start,
    ) -> None:
        self.ws = ws
        self.table_id = table_id
        self.me = state.role
        self.version, self.view, self.status = (
            state.version,
            seat_view_from_dict(state.view),
            state.status,
        )
        self.rng = rng
        self.think = think
        self.stats = stats
        self.start = start
        self.sent_at: float | None = None
        self.my_turn = self.view.public.to_move.name.lower() == self.me
        self.timer: asyncio.TimerHandle | None = None
        self.loop = asyncio.get_running_loop()
        self.done: asyncio.Future[None] = self.loop.create_future()

    def begin(self) -> None:
        self.ws.sink = self.received
        self.next_step()

    def finish(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.ws.sink = None
        if not self.done.done():
            self.done.set_result(None)

    def next_step(self) -> None:
        if self.view.public.result is not None or time.perf_counter() >= self.start.until:
            self.finish()
            return
        if not self.my_turn or self.status != "playing" or self.sent_at is not None:
            return
        if self.timer is None and self.view.turn_context() is not None:
            if self.think:
                delay = self.think * (0.5 + self.rng.random())
                self.timer = self.loop.call_later(delay, self.act)
            else:
                self.act()

    def act(self) -> None:
        self.timer = None
        if self.done.done():
            return
        if not self.start.playing.is_set():  # the echo's turn (alternate_echo): after it
            self.loop.create_task(self._act_when_playing())
            return
        ctx = self.view.turn_context()
        assert ctx is not None
        action = self.rng.choice(legal_actions(ctx))
        self.sent_at = time.perf_counter()
        self.ws.send_now(encode(Command(self.table_id, self.version, str(action))))

    async def _act_when_playing(self) -> None:
        await self.start.playing.wait()
        self.act()

    def received(self, data: bytes) -> None:
        received = time.perf_counter()
        # a light client: plain msgpack, and the view is parsed only when it matters
        message = msgpack.unpackb(data)
        kind = message["type"]
        stats = self.stats
        if kind == "update":
            if self.sent_at is not None:
                stats.latencies.append(received - self.sent_at)
                stats.actions += 1
                self.sent_at = None
            self.version = message["version"]
            public = message["view"]["public"]
            self.my_turn = public["to_move"] == self.me
            if self.my_turn or public["result"] is not None:
                self.view = seat_view_from_dict(message["view"])
        elif kind == "players":
            self.status = message["status"]
        elif kind == "error":
            stats.errors += 1
            self.sent_at = None
        self.next_step()


class Start:
    """Every table is set up before the clock starts, so connecting is not measured. In a
    client process of several (--clients), `ready` waits for the word to start them all."""

    def __init__(
        self,
        tables: int,
        seconds: float,
        ready: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.waiting = tables
        self.seconds = seconds
        self.ready = ready
        self.go = asyncio.Event()
        # tables set up at once: thousands of handshakes at once outlast their timeouts
        self.setting_up = asyncio.Semaphore(SETUP_AT_ONCE)
        self.began = 0.0
        self.until = float("inf")
        # cleared while the echo is measured between stretches of play (see alternate_echo)
        self.playing = asyncio.Event()
        self.playing.set()

    async def arrive(self) -> None:
        self.waiting -= 1
        if not self.waiting:
            if self.ready is not None:
                await self.ready()
            self.began = time.perf_counter()
            self.until = self.began + self.seconds
            self.go.set()
        await self.go.wait()


# --accounts: every table's host is logged in to an account (half the players), with a login
# token written into the database before the server starts, as a returning player's client
# holds one; the guests play as guests. Set in the environment, so client processes see it.
ACCOUNTS_ENV = "KAHUNA_BENCH_ACCOUNTS"


def bench_token(index: int) -> str:
    return f"bench-login-token-{index}"


def write_accounts(db: str, tables: int) -> None:
    """An account and a login token for each table's host, straight into the database."""
    from server.core.names import name_key
    from server.core.store import AccountOp, AccountRow, LoginTokenOp, StorageOp, hash_token
    from server.jobs.password_hashing import Passwords
    from server.storage.storage_open import open_storage

    hashed = Passwords("test").hash("bench password")  # nobody logs in with it
    ops: list[StorageOp] = []
    for index in range(tables):
        key = name_key(f"host{index}")
        ops.append(AccountOp(AccountRow(key, f"host{index}", hashed, 1500, 350, 0.06, 0, 0, False)))
        ops.append(LoginTokenOp(hash_token(bench_token(index)), key, 0))
    storage = open_storage(db)
    try:
        storage.write(ops)
    finally:
        storage.close()


async def log_in(ws: ClientConnection, index: int) -> None:
    await ws.send(encode(Login(f"host{index}", None, bench_token(index))))
    while True:
        data = await ws.recv()
        assert isinstance(data, bytes)
        message = msgpack.unpackb(data)
        if message["type"] == "challenges":  # the last word of a login
            return
        if message["type"] == "error":
            raise SystemExit(f"host{index} could not log in: {message}")


async def new_game(port: int, index: int) -> tuple[LightClient, LightClient, str, State, State]:
    hosts = os.environ.get(ACCOUNTS_ENV, "")  # "login", "guest" (version 3, no login) or ""
    version = 3 if hosts else 1
    host = await open_client(port, f"host{index}", version=version)
    if hosts == "login":
        await log_in(host, index)
    guest = await open_client(port, f"guest{index}")
    await host.send(encode(CreateTable(TableOptions(), False, "white", "random"), version))
    joined = decode_server(await host.recv())
    assert isinstance(joined, Joined), joined
    host_state = decode_server(await host.recv())
    if isinstance(host_state, History):  # version 2 on: the game's log comes before the state
        host_state = decode_server(await host.recv())
    assert isinstance(host_state, State)
    await guest.send(encode(Join(joined.table_id, "black")))
    assert isinstance(decode_server(await guest.recv()), Joined)
    guest_state = decode_server(await guest.recv())
    assert isinstance(guest_state, State)
    players = decode_server(await host.recv())
    assert isinstance(players, PlayersChanged)
    host_state = State(
        host_state.table_id, host_state.version, host_state.role, players.status,
        host_state.view, players.players, host_state.chat,
    )  # fmt: skip
    return host, guest, joined.table_id, host_state, guest_state


async def table_loop(port: int, index: int, think: float, start: Start, stats: Stats) -> None:
    rng = random.Random(index)
    async with start.setting_up:
        game = await new_game(port, index)
    await start.arrive()
    while True:
        host, guest, table_id, host_state, guest_state = game
        players = (
            Player(host, table_id, host_state, rng, think, stats, start),
            Player(guest, table_id, guest_state, random.Random(~index), think, stats, start),
        )
        try:
            for one in players:
                one.begin()
            lost = (host.connection_lost_waiter, guest.connection_lost_waiter)
            waiting = {*(one.done for one in players), *lost}
            # one timer at a time for the game, not one for each message (about 5% of the
            # driver's CPU); counted again after each wake, or a player waiting at the end for
            # an opponent who stopped at it would hold the run's end up for a whole run
            while waiting and not all(one.done.done() for one in players):
                timeout = max(0.01, start.until - time.perf_counter())
                finished, waiting = await asyncio.wait(
                    waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if not finished:
                    return  # the end of the run
                if any(f in finished for f in lost):
                    stats.errors += 1  # counted, and this table plays no more
                    return
        finally:
            for one in players:
                one.finish()
            # closing both connections of a finished game lets the server close the table
            await host.close()
            await guest.close()
        if time.perf_counter() >= start.until:
            return
        stats.games += 1
        game = await new_game(port, index)


async def computer_loop(port: int, index: int, level: str, start: Start, stats: Stats) -> None:
    """A person against the computer at `level`, playing at once on its turns; the computer
    thinks in the server's worker process. Counts the computer's decisions."""
    rng = random.Random(10_000 + index)
    ws = await open_client(port, f"solo{index}", version=2)
    await start.arrive()
    while time.perf_counter() < start.until:
        create = CreateTable(TableOptions(), True, "white", "random", level=level)  # type: ignore[arg-type]
        await ws.send(encode(create, 2))
        table_id, version, view, mine = "", 0, None, False
        while time.perf_counter() < start.until:
            try:
                async with asyncio.timeout(max(0.01, start.until - time.perf_counter())):
                    data = await ws.recv()
                assert isinstance(data, bytes)
                message = msgpack.unpackb(data)
            except TimeoutError:
                break
            kind = message["type"]
            if kind == "joined":
                table_id = message["table_id"]
            elif kind in ("state", "update") and message["table_id"] == table_id:
                if kind == "update":
                    if mine:
                        mine = False
                    else:
                        stats.actions += 1  # an action of the computer's
                version, view = message["version"], seat_view_from_dict(message["view"])
                if view.public.result is not None:
                    stats.games += 1
                    await ws.send(encode(Leave(table_id), 2))
                    break
                ctx = view.turn_context()
                if ctx is not None:
                    action = rng.choice(legal_actions(ctx))
                    await ws.send(encode(Command(table_id, version, str(action)), 2))
                    mine = True
    await ws.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Result:
    """One run's figures, from one client process or merged from several."""

    def __init__(self, stats: Stats, elapsed: float, client_cpu: list[float]) -> None:
        self.stats = stats
        self.elapsed = elapsed
        self.client_cpu = client_cpu  # seconds of CPU each client process used in the run

    def to_json(self) -> str:
        s = self.stats
        return json.dumps(
            {
                "latencies": s.latencies, "actions": s.actions, "games": s.games,
                "errors": s.errors, "elapsed": self.elapsed, "cpu": self.client_cpu,
            }
        )  # fmt: skip

    @staticmethod
    def merge(texts: list[str]) -> Result:
        stats = Stats()
        elapsed, cpu = 0.0, []
        for text in texts:
            part = json.loads(text)
            stats.latencies += part["latencies"]
            stats.actions += part["actions"]
            stats.games += part["games"]
            stats.errors += part["errors"]
            elapsed = max(elapsed, part["elapsed"])
            cpu += part["cpu"]
        return Result(stats, elapsed, cpu)


async def play_tables(
    port: int,
    first: int,
    tables: int,
    seconds: float,
    think: float,
    computer_tables: int = 0,
    level: str = "strong",
    echo: tuple[int, bytes, list[float]] | None = None,
    ready: Callable[[], Awaitable[None]] | None = None,
) -> Result:
    """Tables first..first+tables-1 of a run, in this process. `echo`: (port, frame, times)
    to measure the echo in turns with the play, into times."""
    stats = Stats()
    computer_stats = Stats()
    start = Start(tables + computer_tables, seconds, ready)
    cpu = 0.0

    async def clock() -> None:
        nonlocal cpu
        await start.go.wait()
        began = time.process_time()
        await asyncio.sleep(seconds)
        cpu = time.process_time() - began

    timing = asyncio.create_task(clock())
    alternating = []
    if echo is not None:
        echo_port, frame, times = echo
        alternating.append(alternate_echo(echo_port, frame, start, ALTERNATE_WINDOW, times))
    await asyncio.gather(
        *alternating,
        *(table_loop(port, first + i, think, start, stats) for i in range(tables)),
        *(computer_loop(port, i, level, start, computer_stats) for i in range(computer_tables)),
    )
    elapsed = time.perf_counter() - start.began
    await timing
    if computer_tables:
        print(
            f"  meanwhile {computer_tables} table(s) against the {level} computer:"
            f" {computer_stats.actions} of its actions (thought in a worker process)"
        )
    return Result(stats, elapsed, [cpu])


async def worker_main(args: argparse.Namespace) -> None:
    """One client process of several: plays its tables, says "ready" on stdout once they are
    all set up, starts at "go" on stdin, and prints its Result as JSON at the end."""
    port, first, tables, think, seconds = args.worker
    loop = asyncio.get_running_loop()

    async def ready() -> None:
        print("ready", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)

    result = await play_tables(
        int(port), int(first), int(tables), float(seconds), float(think), ready=ready
    )
    print(result.to_json(), flush=True)


def tables_per_process() -> int:
    """The tables one client process can hold under its open-file limit as an ordinary user
    may lift it (to the hard limit), two sockets each."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return max(1, (hard - 64) // 2)


class ClientProcess:
    """One client process of a run (worker_main): it plays its tables, says "ready" once they
    are set up, starts at "go", and prints its Result as JSON at the end."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(
        cls, port: int, first: int, tables: int, think: float, seconds: float
    ) -> ClientProcess:
        return cls(
            await asyncio.create_subprocess_exec(
                sys.executable, str(Path(__file__).resolve()),
                "--worker", str(port), str(first), str(tables), str(think), str(seconds),
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                limit=1 << 26,  # one line of JSON holds every latency
                preexec_fn=PINNED.pin_client,
            )
        )  # fmt: skip

    async def ready(self, who: str) -> None:
        assert self.proc.stdout is not None
        line = await self.proc.stdout.readline()
        if line.strip() != b"ready":
            raise SystemExit(f"{who} failed to set up its tables: {line!r}")

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")

    async def result(self) -> str:
        """Its Result, as JSON (Result.merge reads it)."""
        assert self.proc.stdout is not None
        text = (await self.proc.stdout.readline()).decode()
        await self.proc.wait()
        return text

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


async def play_in_processes(
    port: int, tables: int, clients: int, seconds: float, think: float, go: Callable[[], None]
) -> Result:
    """A run split over `clients` processes (this one only starts and gathers them); `go` is
    called as they start playing."""
    share = math.ceil(tables / clients)
    procs: list[ClientProcess] = []
    try:
        return await _play_in(procs, port, tables, share, seconds, think, go)
    finally:
        for proc in procs:
            await proc.stop()


async def _play_in(
    procs: list[ClientProcess],
    port: int,
    tables: int,
    share: int,
    seconds: float,
    think: float,
    go: Callable[[], None],
) -> Result:
    """play_in_processes' work; each process goes into `procs` as it starts, for the caller
    to end them all should one fail."""
    for first in range(0, tables, share):
        count = min(share, tables - first)
        procs.append(await ClientProcess.start(port, first, count, think, seconds))
    for proc in procs:
        await proc.ready("a client process")
    for proc in procs:
        proc.go()
    go()
    return Result.merge([await proc.result() for proc in procs])


class ServerWatch:
    """The server's memory (sampled every half second) and its CPU over a run's seconds; and
    the probe's figures over those seconds, if the server runs under it (see --probe)."""

    def __init__(self, pid: int, probe: str | None) -> None:
        self.pid = pid
        self.probe = probe
        self.peak_rss = 0
        self.cpu = 0.0
        self._task = asyncio.create_task(self._sample())

    async def _sample(self) -> None:
        while True:
            self.peak_rss = max(self.peak_rss, rss_kib(self.pid)[0])
            await asyncio.sleep(0.5)

    async def time_cpu(self, seconds: float) -> None:
        if self.probe:
            os.kill(self.pid, signal.SIGUSR1)  # start afresh
        began = cpu_seconds(self.pid)
        await asyncio.sleep(seconds)
        self.cpu = cpu_seconds(self.pid) - began
        if self.probe:
            Path(self.probe).unlink(missing_ok=True)
            os.kill(self.pid, signal.SIGUSR2)  # write the figures

    async def probe_report(self) -> str:
        if not self.probe:
            return ""
        for _ in range(100):
            if Path(self.probe).exists():
                await asyncio.sleep(0.1)  # written whole
                return Path(self.probe).read_text()
            await asyncio.sleep(0.1)
        return "(no report from the probe)\n"

    def stop(self) -> None:
        self._task.cancel()


async def run_load(
    port: int,
    pid: int,
    tables: int,
    seconds: float,
    think: float,
    args: argparse.Namespace,
    echo: tuple[int, bytes, list[float]] | None = None,
) -> tuple[Stats, str]:
    """One run; returns its stats and its line for the summary table."""
    limit = open_files_limit(pid)
    needed = 2 * (tables + args.computer_tables) + 64
    if limit < needed:
        print(
            f"  skipped: the server may open {limit} files and this run needs about {needed}"
            " (two sockets a table); the hard limit could not be raised for it (ulimit -Hn,"
            " or LimitNOFILE= for a service, needs the right to)"
        )
        return Stats(), f"{tables:>6} {think:>5g}  skipped: the server's open-file limit {limit}"
    clients = args.clients or math.ceil(tables / min(TABLES_PER_CLIENT, tables_per_process()))
    load_before = load_average()
    watch = ServerWatch(pid, args.probe)
    spies = []
    timing: list[asyncio.Task[None]] = []

    # --quiet-tables: a few more tables, played by a client process of their own that does
    # nothing else. The busy client processes' own loops add to what they measure (a reply waits
    # for its turn among thousands of connections, a command for its timer); this one's loop is
    # idle, so its latency is the server's and the kernel's alone, as a player on a computer of
    # their own would see it (the network aside).
    quiet = None
    if args.quiet_tables and tables > 1:
        quiet = await ClientProcess.start(port, tables, args.quiet_tables, think, seconds)
        await quiet.ready("the quiet client")

    def go() -> None:
        if quiet is not None:
            quiet.go()
        timing.append(asyncio.create_task(watch.time_cpu(seconds)))
        if args.py_spy:
            out = Path(args.py_spy) / f"server-{tables}x{think:g}.speedscope.json"
            spies.append(py_spy_record(pid, seconds, out))

    async def ready() -> None:
        go()

    try:
        if clients <= 1:
            result = await play_tables(
                port, 0, tables, seconds, think, args.computer_tables, args.level, echo, ready
            )
        else:
            if args.computer_tables:
                raise SystemExit("--computer-tables needs the run in one client process")
            result = await play_in_processes(port, tables, clients, seconds, think, go)
        quiet_lat = [] if quiet is None else Result.merge([await quiet.result()]).stats.latencies
    finally:
        if quiet is not None:
            await quiet.stop()
    await asyncio.gather(*timing)
    watch.stop()
    for spy in spies:
        if spy is not None:
            spy.wait()
    stats = result.stats
    lat = stats.latencies
    elapsed = result.elapsed
    print(
        f"  tables={tables} think={think}s, {len(result.client_cpu)} client process(es):"
        f" {stats.actions} actions in {elapsed:.1f}s = {stats.actions / elapsed:.0f} actions/s,"
        f" {stats.games} games, {stats.errors} errors"
    )
    p99 = percentile(lat, 0.99) * 1e3 if lat else float("nan")
    high = max(lat) * 1e3 if lat else float("nan")
    if lat:
        print(
            f"  command->update latency: p50 {percentile(lat, 0.5) * 1e3:.2f} ms,"
            f" p99 {p99:.2f} ms, max {high:.2f} ms"
        )
    quiet_p99 = percentile(quiet_lat, 0.99) * 1e3 if quiet_lat else float("nan")
    if quiet_lat:
        print(
            f"  the quiet client's {args.quiet_tables} tables, {len(quiet_lat)} commands:"
            f" p50 {percentile(quiet_lat, 0.5) * 1e3:.2f} ms, p99 {quiet_p99:.2f} ms,"
            f" max {max(quiet_lat) * 1e3:.2f} ms"
        )
    server_share = watch.cpu / seconds
    per_action = watch.cpu / max(stats.actions, 1) * 1e6
    clients_share = ", ".join(f"{c / seconds:.0%}" for c in result.client_cpu)
    print(
        f"  server CPU {server_share:.0%} of a core ({per_action:.0f} us per action);"
        f" client process(es) {clients_share}"
    )
    rss_mib = watch.peak_rss / 1024
    print(f"  server RSS peak while loaded: {rss_mib:.1f} MiB")
    load_after = load_average()
    print(f"  load average before: {load_before}; after: {load_after}")
    report = await watch.probe_report()
    if report:
        print("  server probe over the run:")
        print("".join(f"    {line}\n" for line in report.splitlines()), end="")
    row = (
        f"{tables:>6} {think:>5g} {len(result.client_cpu):>3} {stats.actions / elapsed:>7.0f}"
        f" {percentile(lat, 0.5) * 1e3 if lat else float('nan'):>7.2f} {p99:>7.2f} {high:>7.1f}"
        f" {quiet_p99:>7.2f} {rss_mib:>7.1f} {server_share:>5.0%} {per_action:>6.0f}"
        f"  {load_before}"
    )
    return stats, row


SUMMARY_HEAD = (
    "tables think cli act/s  p50 ms  p99 ms  max ms qp99 ms RSS MiB   cpu us/act"
    "  load average before"
)


async def main_async(args: argparse.Namespace) -> None:
    largest = max(tables for tables, _ in args.runs)
    handshake = args.setup_timeout or setup_timeout(largest)
    os.environ[SETUP_TIMEOUT_ENV] = f"{handshake:g}"
    echo_proc, echo_port = start_process([str(Path(__file__).resolve()), "--echo-server"])
    try:
        await run_all(args, largest, handshake, echo_port)
    finally:  # the echo server too, should the server or its database fail to start
        stop(echo_proc, wait=30)


async def run_all(args: argparse.Namespace, largest: int, handshake: float, echo_port: int) -> None:
    """main_async's runs, with the echo server started."""
    scratch = tempfile.TemporaryDirectory(prefix="kahuna-load-")
    cluster = None
    server_proc: subprocess.Popen[str] | None = None
    try:
        if args.postgresql:
            from testbed.postgres import Cluster

            cluster = Cluster(fsync=True)  # as PostgreSQL runs by default: each commit on disk
            db = cluster.database()
        else:
            db = args.db or str(Path(scratch.name) / "server.sqlite3")
        if args.accounts:
            os.environ[ACCOUNTS_ENV] = "login"
            # the quiet client's tables come after the largest run's: their hosts log in too
            write_accounts(db, largest + args.quiet_tables)
            print(f"accounts: the {largest} hosts log in with tokens; the guests play as guests")
        elif args.hosts_v3:
            os.environ[ACCOUNTS_ENV] = "guest"
            print("the hosts speak protocol version 3 as guests (the baseline of --accounts)")
        root = Path(args.server_root).resolve() if args.server_root else ROOT
        server_proc, port = start_server(
            db, args.probe, 2 * largest + args.computer_tables, root, handshake
        )
        if root != ROOT:
            print(f"the server of {root} ({git_commit(root)})")
        print(f"database: {db}")
        rows = []
        payload = encode(Command("0123abcd", 42, "place BARI-DUDA"))
        echo = await measure_echo(echo_port, args.echo_rounds, payload)
        echo_p50 = statistics.median(echo)
        print(f"bare websockets msgpack echo ({len(payload)} B frame), {len(echo)} round trips:")
        print(f"  p50 {echo_p50 * 1e3:.3f} ms, p99 {percentile(echo, 0.99) * 1e3:.3f} ms")
        start_rss = rss_kib(server_proc.pid)[0] / 1024
        print(f"server pid {server_proc.pid}, RSS at start {start_rss:.1f} MiB")
        for tables, think in args.runs:
            print(f"load: {tables} table(s), {args.seconds:.0f} s")
            one_table = tables == 1 and think == 0
            between: list[float] = []
            stats, row = await run_load(
                port, server_proc.pid, tables, args.seconds, think, args,
                (echo_port, payload, between) if one_table else None,
            )  # fmt: skip
            rows.append(row)
            if one_table and stats.latencies:
                # the machine may be busy: measure the echo again right after, take the mean
                again = statistics.median(await measure_echo(echo_port, args.echo_rounds, payload))
                print(f"  echo p50 again after the run: {again * 1e3:.3f} ms")
                echo_mean = (echo_p50 + again) / 2
                p50 = statistics.median(stats.latencies)
                print(f"  one table p50 / echo p50 before and after = {p50 / echo_mean:.2f}x")
                if between:
                    echo_between = statistics.median(between)
                    print(
                        f"  echo p50 in turns with the play ({ALTERNATE_WINDOW:g} s each,"
                        f" {len(between)} round trips): {echo_between * 1e3:.3f} ms"
                    )
                    print(
                        f"  one table p50 / echo p50 in turns = {p50 / echo_between:.2f}x"
                        f" (target <= 2x: {'met' if p50 <= 2 * echo_between else 'NOT met'})"
                    )
        rss, hwm = rss_kib(server_proc.pid)
        print(f"server RSS at the end {rss / 1024:.1f} MiB, peak {hwm / 1024:.1f} MiB")
        print(SUMMARY_HEAD)
        print("\n".join(rows))
    finally:
        if server_proc is not None:
            stop(server_proc, wait=30)
        if cluster is not None:
            cluster.stop()
        scratch.cleanup()


def parse_run(text: str) -> tuple[int, float]:
    """'500' or '500:0.5' (tables, think seconds)."""
    tables, _, think = text.partition(":")
    return int(tables), float(think or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--runs",
        type=parse_run,
        nargs="+",
        default=[(1, 0.0), (500, 0.5), (500, 0.0)],
        help="runs as TABLES[:THINK], e.g. 1 500:0.5 500 (think: seconds before each command)",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--echo-rounds", type=int, default=2000)
    parser.add_argument(
        "--computer-tables",
        type=int,
        default=0,
        help="tables where a person plays the computer during each run (its search runs in the"
        " server's worker process: the other tables' latency shows whether it holds them up)",
    )
    parser.add_argument("--level", default="strong", choices=["easy", "normal", "strong"])
    parser.add_argument(
        "--db", help="the server's database (default: a new file in a temporary directory)"
    )
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="the server's database in a PostgreSQL that the bench starts in a temporary"
        " directory (testbed/postgres.py; fsync and synchronous_commit on, as by default)",
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=0,
        help="client processes per run (default: one per 2,500 tables, or more if the open-file"
        " limit requires)",
    )
    parser.add_argument(
        "--probe",
        help="run the server under bench/server_probe.py, which times its loop's callbacks and"
        " collections; its report of each run goes through this file",
    )
    parser.add_argument(
        "--py-spy", help="sample the server with py-spy during each run, into this directory"
    )
    parser.add_argument(
        "--accounts",
        action="store_true",
        help="half the players logged in: each table's host to an account (protocol version 3,"
        " a login token), the guests as guests",
    )
    parser.add_argument(
        "--hosts-v3",
        action="store_true",
        help="each table's host speaks protocol version 3 without logging in: --accounts'"
        " baseline, the same messages but for the login",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server on the first core, the driver's processes on the others (Linux)",
    )
    parser.add_argument(
        "--quiet-tables",
        type=int,
        default=20,
        help="tables played by one more client process that does nothing else, whose p99"
        " (qp99) is the server's and the kernel's latency without the busy clients' own"
        " (0: none)",
    )
    parser.add_argument(
        "--server-root",
        metavar="DIR",
        help="run the server of another checkout (an earlier commit, `git worktree add DIR"
        " REV`) under the same driver, to compare both on one machine; options its server"
        " does not have are left out (an early one stores nothing: it has no --db)",
    )
    parser.add_argument(
        "--setup-timeout",
        type=float,
        metavar="SECONDS",
        help="the seconds each connection's opening handshake may take, at the server and at"
        " the clients (default: 10 and 1 more for every 200 tables of the largest run)",
    )
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.server_root and not (Path(args.server_root) / "server" / "__main__.py").is_file():
        parser.error(f"--server-root: {args.server_root} is not a checkout of this project")
    probe_root = Path(args.server_root or ROOT)
    if args.probe and not (probe_root / "bench" / "server_probe.py").is_file():
        parser.error(f"--probe: {probe_root} has no bench/server_probe.py")
    if args.echo_server:
        asyncio.run(echo_server_main())
        return
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # The driver's own collections show as latency: young ones kept small (about a millisecond
    # each; at 20,000 objects they took 10-25 ms with thousands of tables), full ones rare.
    gc.freeze()
    gc.set_threshold(500, 1, 6_000)  # as the server's (server/cli/serve.py tune_gc)
    if args.worker:
        asyncio.run(worker_main(args))
        return
    if args.py_spy:
        Path(args.py_spy).mkdir(parents=True, exist_ok=True)
    if args.pin:
        PINNED.use()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
