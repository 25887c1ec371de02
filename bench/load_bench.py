"""Load benchmark of the game server: a script, not a test.

    .venv/bin/python bench/load_bench.py                        # 1 table, then 500 tables
    .venv/bin/python bench/load_bench.py --tables 1 --seconds 10
    .venv/bin/python bench/load_bench.py --tables 500 --think 1.0

It starts `kahuna-server` in its own process on 127.0.0.1 and drives N tables of two scripted
clients over real websockets. Each client plays random legal actions chosen from its own view;
after receiving the view that says it is to move it waits `--think` seconds (0: act at once, a
closed loop that measures the server's capacity) and sends the command. When a game ends the
table starts a new one. In the same run a bare websockets msgpack echo server (also its own
process) is measured as the transport's limit. The server stores every action in a SQLite
database in a temporary directory, as a host's server does (`--db :memory:` to compare without).

Printed: actions per second, p50/p99/max latency from sending a command to receiving the
resulting update (the acting client's), the echo round trip, and the server's memory (RSS).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from protocol.codec import decode_server, encode  # noqa: E402
from protocol.messages import (  # noqa: E402
    Command,
    CreateTable,
    Hello,
    Join,
    Joined,
    Leave,
    PlayersChanged,
    State,
    TableOptions,
)
from shared.legality import legal_actions  # noqa: E402
from shared.views import seat_view_from_dict  # noqa: E402

# One table's play and the echo take turns this long (see alternate_echo).
ALTERNATE_WINDOW = 0.5

# ----- the processes --------------------------------------------------------------------------


def start_process(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r":(\d+)\s*$", line)
    if not match:
        proc.kill()
        raise SystemExit(f"the process did not report its port: {line!r}")
    return proc, int(match.group(1))


def start_server(db: str) -> tuple[subprocess.Popen[str], int]:
    return start_process(
        [
            "-m", "server", "--host", "127.0.0.1", "--port", "0", "--log-level", "error",
            "--db", db,
            "--max-per-address", "100000", "--max-connections", "100000",
            "--max-tables", "100000", "--rate", "100000", "--burst", "100000",
            "--ping-interval", "0",
        ]
    )  # fmt: skip


def rss_kib(pid: int) -> tuple[int, int]:
    """Resident memory now and at its peak, in KiB (Linux)."""
    values = {"VmRSS": 0, "VmHWM": 0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key = line.split(":")[0]
            if key in values:
                values[key] = int(line.split()[1])
    except OSError:
        pass
    return values["VmRSS"], values["VmHWM"]


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


async def open_client(port: int, name: str, version: int = 1) -> ClientConnection:
    ws = await connect(
        f"ws://127.0.0.1:{port}", compression=None, ping_interval=None, max_size=2**22
    )
    await ws.send(encode(Hello(version, name), version))
    await ws.recv()  # welcome
    return ws


async def player(
    ws: ClientConnection,
    table_id: str,
    state: State,
    rng: random.Random,
    think: float,
    stats: Stats,
    start: Start,
) -> None:
    """Play one game to its end (or to the end of the run), measuring each own command until
    its update arrives."""
    until = start.until
    me = state.role
    version, view, status = state.version, seat_view_from_dict(state.view), state.status
    sent_at: float | None = None
    my_turn = view.public.to_move.name.lower() == me
    while view.public.result is None and time.perf_counter() < until:
        ctx = view.turn_context() if my_turn else None
        if ctx is not None and status == "playing" and sent_at is None:
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            action = rng.choice(legal_actions(ctx))
            if not start.playing.is_set():
                await start.playing.wait()
            sent_at = time.perf_counter()
            await ws.send(encode(Command(table_id, version, str(action))))
        try:
            async with asyncio.timeout(max(0.01, until - time.perf_counter())):
                data = await ws.recv()  # (asyncio.timeout adds no task, unlike wait_for)
        except TimeoutError:
            return
        received = time.perf_counter()
        # a light client: plain msgpack, and the view is parsed only when it matters
        assert isinstance(data, bytes)
        message = msgpack.unpackb(data)
        kind = message["type"]
        if kind == "update":
            if sent_at is not None:
                stats.latencies.append(received - sent_at)
                stats.actions += 1
                sent_at = None
            version = message["version"]
            public = message["view"]["public"]
            my_turn = public["to_move"] == me
            if my_turn or public["result"] is not None:
                view = seat_view_from_dict(message["view"])
        elif kind == "players":
            status = message["status"]
        elif kind == "error":
            stats.errors += 1
            sent_at = None


class Start:
    """Every table is set up before the clock starts, so connecting is not measured."""

    def __init__(self, tables: int, seconds: float) -> None:
        self.waiting = tables
        self.seconds = seconds
        self.go = asyncio.Event()
        self.began = 0.0
        self.until = float("inf")
        # cleared while the echo is measured between stretches of play (see alternate_echo)
        self.playing = asyncio.Event()
        self.playing.set()

    async def arrive(self) -> None:
        self.waiting -= 1
        if not self.waiting:
            self.began = time.perf_counter()
            self.until = self.began + self.seconds
            self.go.set()
        await self.go.wait()


async def new_game(
    port: int, index: int
) -> tuple[ClientConnection, ClientConnection, str, State, State]:
    host = await open_client(port, f"host{index}")
    guest = await open_client(port, f"guest{index}")
    await host.send(encode(CreateTable(TableOptions(), False, "white", "random"), 1))
    joined = decode_server(await host.recv())
    assert isinstance(joined, Joined), joined
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
    game = await new_game(port, index)
    await start.arrive()
    while True:
        host, guest, table_id, host_state, guest_state = game
        try:
            await asyncio.gather(
                player(host, table_id, host_state, rng, think, stats, start),
                player(guest, table_id, guest_state, random.Random(~index), think, stats, start),
            )
        finally:
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


async def run_load(
    port: int,
    pid: int,
    tables: int,
    seconds: float,
    think: float,
    computer_tables: int = 0,
    level: str = "strong",
    echo: tuple[int, bytes, list[float]] | None = None,
) -> Stats:
    """`echo`: (port, frame, times) to measure the echo in turns with the play, into times."""
    stats = Stats()
    computer_stats = Stats()
    start = Start(tables + computer_tables, seconds)
    peak_rss = 0

    async def sample() -> None:
        nonlocal peak_rss
        while True:
            peak_rss = max(peak_rss, rss_kib(pid)[0])
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    alternating = []
    if echo is not None:
        echo_port, frame, times = echo
        alternating.append(alternate_echo(echo_port, frame, start, ALTERNATE_WINDOW, times))
    await asyncio.gather(
        *alternating,
        *(table_loop(port, i, think, start, stats) for i in range(tables)),
        *(computer_loop(port, i, level, start, computer_stats) for i in range(computer_tables)),
    )
    elapsed = time.perf_counter() - start.began
    sampler.cancel()
    lat = stats.latencies
    print(
        f"  tables={tables} think={think}s: {stats.actions} actions in {elapsed:.1f}s ="
        f" {stats.actions / elapsed:.0f} actions/s, {stats.games} games, {stats.errors} errors"
    )
    if lat:
        print(
            f"  command->update latency: p50 {percentile(lat, 0.5) * 1e3:.2f} ms,"
            f" p99 {percentile(lat, 0.99) * 1e3:.2f} ms, max {max(lat) * 1e3:.2f} ms"
        )
    if computer_tables:
        print(
            f"  meanwhile {computer_tables} table(s) against the {level} computer:"
            f" {computer_stats.actions} of its actions (thought in a worker process)"
        )
    print(f"  server RSS peak while loaded: {peak_rss / 1024:.1f} MiB")
    return stats


async def main_async(args: argparse.Namespace) -> None:
    echo_proc, echo_port = start_process([str(Path(__file__).resolve()), "--echo-server"])
    scratch = tempfile.TemporaryDirectory(prefix="kahuna-load-")
    db = args.db or str(Path(scratch.name) / "server.sqlite3")
    server_proc, port = start_server(db)
    print(f"database: {db}")
    try:
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
            stats = await run_load(
                port, server_proc.pid, tables, args.seconds, think, args.computer_tables,
                args.level, (echo_port, payload, between) if one_table else None,
            )  # fmt: skip
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
            elif stats.latencies:
                p99 = percentile(stats.latencies, 0.99)
                print(f"  p99 under 50 ms: {'met' if p99 < 0.05 else 'NOT met'}")
        rss, hwm = rss_kib(server_proc.pid)
        print(f"server RSS at the end {rss / 1024:.1f} MiB, peak {hwm / 1024:.1f} MiB")
    finally:
        for proc in (server_proc, echo_proc):
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
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
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        asyncio.run(echo_server_main())
        return
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # the driver's own collections would show as latency: tune them like the server does
    gc.set_threshold(20_000, 20, 50)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
