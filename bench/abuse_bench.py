"""Abuse benchmark of the game server: a script, not a test.

    .venv/bin/python bench/abuse_bench.py                  # 10 s quiet, then 20 s with the abuser
    .venv/bin/python bench/abuse_bench.py --seconds 30 --fd-limit 1024

It starts `kahuna-server` in its own process on 127.0.0.1 with its default limits (and, with
--fd-limit, that many open files at most, soft and hard). An honest client from 127.0.0.1 then
probes it every --every seconds: it connects, says hello, creates a table, asks for a resync
and leaves; each probe's time from the TCP connect to the resync is recorded. First without
the abuser, then with one abuser address (127.0.0.2, another loopback address on Linux) doing
every abuse of the issue "one abuser harms no one" at once, at its limits:

- lobby: --max-per-address connections, each with its --tables-per-connection tables,
  asking for the lobby as fast as its rate limit lets it (unsubscribe, subscribe, and
  repeated subscribes); half of them read everything, half never read at all;
- churn: connections that create tables and vanish at once, again and again (their waiting
  tables must not pile up);
- sockets: up to --silent-sockets TCP connections that never send a byte, reopened as soon as
  the server drops them.

Printed for both phases: the probes (p50, p95, max; how many were over 100 ms or failed), the
open tables the honest client saw, and the server's memory (RSS) at the start, and at its
peak. The targets: every probe within 100 ms, and the server grown by less than 150 MiB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from server_process import cpu_seconds, rss_kib, start_process  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from protocol.codec import decode_server, encode  # noqa: E402
from protocol.fields import TableOptions  # noqa: E402
from protocol.messages import CreateTable, Hello, Joined, Lobby, LobbySubscribe, Resync, State  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402

HONEST = "127.0.0.1"
TARGET = 0.1  # seconds a probe may take
MEMORY_TARGET = 150  # MiB the server may grow by


def pack(obj: dict[str, Any]) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def start_server(db: str, fd_limit: int | None) -> tuple[subprocess.Popen[str], int]:
    def limit() -> None:
        if fd_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    return start_process(
        ["-m", "server", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning",
         "--db", db, "--ping-interval", "0"],
        preexec_fn=limit, stderr=subprocess.PIPE,
    )  # fmt: skip


# ----- the honest client ------------------------------------------------------------------


class Probes:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.failures: list[str] = []
        self.tables_seen = 0


async def probe(port: int, probes: Probes, index: int) -> None:
    began = time.perf_counter()
    try:
        async with asyncio.timeout(5):
            async with connect(
                f"ws://127.0.0.1:{port}", compression=None, ping_interval=None,
                max_size=2**23, local_addr=(HONEST, 0),
            ) as ws:  # fmt: skip
                await ws.send(encode(Hello(2, f"honest{index}")))
                await ws.recv()  # welcome
                # against the computer: a table that waits for nobody (one address keeps few
                # tables waiting for a player, and every probe comes from 127.0.0.1)
                create = CreateTable(TableOptions(), True, "white", "white")
                await ws.send(encode(create, 2))
                joined = decode_server(await ws.recv())
                if not isinstance(joined, Joined):
                    raise RuntimeError(f"create_table: {joined}")
                while not isinstance(decode_server(await ws.recv()), State):
                    pass
                await ws.send(encode(Resync(joined.table_id), 2))
                while not isinstance(decode_server(await ws.recv()), State):
                    pass
                probes.times.append(time.perf_counter() - began)
                if index % 5 == 0:  # now and then, how full the lobby is
                    await ws.send(encode(LobbySubscribe(), 2))
                    while not isinstance(listing := decode_server(await ws.recv()), Lobby):
                        pass
                    probes.tables_seen = max(probes.tables_seen, len(listing.tables))
    except Exception as exc:
        probes.failures.append(f"{type(exc).__name__}: {exc}"[:120])


async def honest(port: int, seconds: float, every: float) -> Probes:
    probes = Probes()
    tasks = []
    index = 0
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        tasks.append(asyncio.create_task(probe(port, probes, index)))
        index += 1
        await asyncio.sleep(every)
    await asyncio.gather(*tasks)
    return probes


# ----- the abuser -------------------------------------------------------------------------


async def read_all(ws: ClientConnection) -> None:
    """Read and forget whatever the server sends, until the connection ends."""
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


class Abuser:
    def __init__(self, port: int, address: str, config: ServerConfig, silent: int) -> None:
        self.port = port
        self.address = address
        self.config = config
        self.silent = silent
        self.stop = asyncio.Event()
        self.counts = {"listings": 0, "created": 0, "churned": 0, "sockets": 0, "refused": 0}

    async def ws(self, **kwargs: Any) -> ClientConnection:
        return await connect(
            f"ws://127.0.0.1:{self.port}", compression=None, ping_interval=None,
            max_size=2**23, local_addr=(self.address, 0), open_timeout=10, **kwargs,
        )  # fmt: skip

    async def lobby(self, index: int, reads: bool) -> None:
        """Its tables, then the lobby as fast as the rate limit allows."""
        cfg = self.config
        while not self.stop.is_set():
            try:
                ws = await self.ws(max_queue=None if reads else 1)
            except Exception:
                self.counts["refused"] += 1
                await asyncio.sleep(0.2)
                continue
            reader = asyncio.create_task(self._read(ws)) if reads else None
            try:
                await ws.send(pack({"type": "hello", "version": 2, "name": f"lob{index}"}))
                create = encode(CreateTable(TableOptions(), False, "white", "white"), 2)
                for _ in range(cfg.tables_per_connection):
                    await ws.send(create)
                    self.counts["created"] += 1
                    await asyncio.sleep(1 / cfg.rate)
                subscribe, unsubscribe = (
                    pack({"type": "lobby_subscribe"}),
                    pack({"type": "lobby_unsubscribe"}),
                )
                pace = 1 / (cfg.rate * 0.95)  # just under the rate limit
                while not self.stop.is_set():
                    await ws.send(unsubscribe)
                    await asyncio.sleep(pace)
                    await ws.send(subscribe)
                    self.counts["listings"] += 1
                    await asyncio.sleep(pace)
                    await ws.send(subscribe)  # a repeat, for nothing now
                    await asyncio.sleep(pace)
            except Exception:
                pass  # closed (too slow, say): connect again
            finally:
                if reader is not None:
                    reader.cancel()
                ws.transport.abort()

    async def _read(self, ws: ClientConnection) -> None:
        await read_all(ws)

    async def churn(self, index: int) -> None:
        """Tables made and left behind by connections that vanish at once."""
        while not self.stop.is_set():
            try:
                ws = await self.ws()
            except Exception:
                self.counts["refused"] += 1
                await asyncio.sleep(0.05)
                continue
            try:
                await ws.send(pack({"type": "hello", "version": 2, "name": f"churn{index}"}))
                create = encode(CreateTable(TableOptions(), False, "white", "white"), 2)
                for _ in range(self.config.tables_per_connection):
                    await ws.send(create)
                    self.counts["created"] += 1
                await asyncio.sleep(0.2)  # long enough for them to be made
            except Exception:
                pass
            finally:
                ws.transport.abort()
                self.counts["churned"] += 1

    async def sockets(self) -> None:
        """Silent TCP connections, as many as it can hold, reopened when dropped."""
        loop = asyncio.get_running_loop()
        held: list[socket.socket] = []
        try:
            while not self.stop.is_set():
                alive = []
                for sock in held:
                    try:
                        gone = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
                    except BlockingIOError:
                        gone = False
                    except OSError:
                        gone = True
                    if gone:
                        sock.close()
                    else:
                        alive.append(sock)
                held = alive
                for _ in range(min(200, self.silent - len(held))):
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    sock.setblocking(False)
                    try:
                        sock.bind((self.address, 0))
                        await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", self.port)), 1)
                    except (OSError, TimeoutError):
                        sock.close()
                        continue
                    held.append(sock)
                    self.counts["sockets"] += 1
                await asyncio.sleep(0.1)
        finally:
            for sock in held:
                sock.close()

    async def run(self) -> None:
        per_address = self.config.max_per_address
        lobby_conns = per_address * 3 // 4
        tasks = [self.lobby(i, reads=i % 2 == 0) for i in range(lobby_conns)]
        tasks += [self.churn(i) for i in range(per_address - lobby_conns)]
        await asyncio.sleep(1.0)  # its connections first, then the silent sockets
        tasks.append(self.sockets())
        await asyncio.gather(*tasks)


class Barrage:
    """--barrage: hostile frames as fast as they go, from `connections` connections spread over
    `addresses` loopback addresses (127.0.0.2 on), each reconnecting when closed, until `frames`
    are sent: malformed msgpack, unknown types, resyncs of tables that do not exist."""

    def __init__(self, port: int, addresses: int, connections: int, frames: int) -> None:
        self.port = port
        self.addresses = [f"127.0.0.{2 + i}" for i in range(addresses)]
        self.connections = connections
        self.frames = frames
        self.stop = asyncio.Event()
        self.counts = {"frames": 0, "connections": 0, "refused": 0, "closed": 0}
        self.hostile = [
            b"\xc1\xc1\xc1",  # not msgpack
            pack({"type": "no_such_message"}),
            pack({"type": "resync", "table_id": "00000000"}),
        ]

    async def one(self, index: int) -> None:
        address = self.addresses[index % len(self.addresses)]
        while not self.stop.is_set() and self.counts["frames"] < self.frames:
            try:
                ws = await connect(
                    f"ws://127.0.0.1:{self.port}", compression=None, ping_interval=None,
                    max_size=2**23, local_addr=(address, 0), open_timeout=10, max_queue=None,
                )  # fmt: skip
            except Exception:
                self.counts["refused"] += 1
                await asyncio.sleep(0.1)
                continue
            self.counts["connections"] += 1
            reader = asyncio.create_task(read_all(ws))
            try:
                await ws.send(pack({"type": "hello", "version": 2, "name": f"bar{index}"}))
                i = 0
                while not self.stop.is_set() and self.counts["frames"] < self.frames:
                    await ws.send(self.hostile[i % len(self.hostile)])
                    self.counts["frames"] += 1
                    i += 1
                    if i % 32 == 0:
                        await asyncio.sleep(0)  # let the other connections send too
            except Exception:
                self.counts["closed"] += 1
            finally:
                reader.cancel()
                ws.transport.abort()

    async def run(self) -> None:
        await asyncio.gather(*(self.one(i) for i in range(self.connections)))
        self.stop.set()


# ----- the run ------------------------------------------------------------------------------


async def abuse(args: argparse.Namespace) -> None:
    """The abuser's process: abuse for --seconds, then print what it did."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    abuser: Abuser | Barrage
    if args.barrage:
        abuser = Barrage(args.run_abuser, args.addresses, args.connections, args.frames)
    else:
        abuser = Abuser(args.run_abuser, args.abuser, ServerConfig(), args.silent_sockets)
    running = asyncio.create_task(abuser.run())
    await asyncio.sleep(args.seconds)
    abuser.stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(running, 5)
    print(abuser.counts, flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(name: str, probes: Probes, start_rss: float, peak_rss: float, cpu: float) -> bool:
    t = probes.times
    over = sum(1 for x in t if x > TARGET)
    print(f"{name}:")
    print(
        f"  honest probes (connect, hello, create, resync): {len(t)} done,"
        f" {len(probes.failures)} failed; p50 {percentile(t, 0.5) * 1e3:.1f} ms,"
        f" p95 {percentile(t, 0.95) * 1e3:.1f} ms, max {max(t, default=float('nan')) * 1e3:.1f}"
        f" ms; {over} over {TARGET * 1e3:.0f} ms"
    )
    for failure in sorted(set(probes.failures))[:5]:
        print(f"    failed: {failure}")
    print(f"  server CPU: {cpu * 100:.0f}% of one core")
    print(f"  open tables the honest client saw at most: {probes.tables_seen}")
    grown = peak_rss - start_rss
    print(f"  server RSS: {start_rss:.1f} MiB at the start, peak {peak_rss:.1f} MiB"
          f" (+{grown:.1f} MiB)")  # fmt: skip
    return not probes.failures and over == 0 and grown < MEMORY_TARGET


async def main_async(args: argparse.Namespace) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # the abuser's sockets are ours too
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    scratch = tempfile.TemporaryDirectory(prefix="kahuna-abuse-")
    proc, port = start_server(str(Path(scratch.name) / "server.sqlite3"), args.fd_limit)
    ok = True
    try:
        print(f"server pid {proc.pid} on 127.0.0.1:{port}, fd limit {args.fd_limit or 'inherited'}")
        peak = start = rss_kib(proc.pid)[0] / 1024

        async def sample() -> None:
            nonlocal peak
            while True:
                peak = max(peak, rss_kib(proc.pid)[0] / 1024)
                await asyncio.sleep(0.2)

        sampler = asyncio.create_task(sample())
        cpu, began = cpu_seconds(proc.pid), time.perf_counter()
        quiet = await honest(port, args.quiet, args.every)
        cpu = (cpu_seconds(proc.pid) - cpu) / (time.perf_counter() - began)
        ok &= report(f"without the abuser ({args.quiet:.0f} s)", quiet, start, peak, cpu)
        start = peak = rss_kib(proc.pid)[0] / 1024
        # its own process, so that its work does not slow the honest client's measurements
        abuser = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--run-abuser", str(port),
            "--abuser", args.abuser, "--silent-sockets", str(args.silent_sockets),
            *(["--barrage", "--addresses", str(args.addresses), "--connections",
               str(args.connections), "--frames", str(args.frames)] if args.barrage else []),
            "--seconds", str(args.warm_up + args.seconds + 1),
            stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        await asyncio.sleep(args.warm_up)  # its tables made, its sockets open
        cpu, began = cpu_seconds(proc.pid), time.perf_counter()
        loud = await honest(port, args.seconds, args.every)
        cpu = (cpu_seconds(proc.pid) - cpu) / (time.perf_counter() - began)
        assert abuser.stdout is not None
        counts = (await asyncio.wait_for(abuser.stdout.read(), 30)).decode().strip()
        await abuser.wait()
        sampler.cancel()
        ok &= report(
            f"with the abuser at {args.abuser} ({args.seconds:.0f} s, after {args.warm_up:.0f} s)",
            loud, start, peak, cpu,
        )  # fmt: skip
        print(f"  the abuser: {counts}")
        print(f"targets (every probe within {TARGET * 1e3:.0f} ms, growth under"
              f" {MEMORY_TARGET} MiB, no failure): {'met' if ok else 'NOT met'}")  # fmt: skip
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        scratch.cleanup()
    lines = err.splitlines()
    print(f"server log: {len(lines)} lines, {err.count('Traceback')} tracebacks")
    for line in lines[:8]:
        print(f"  {line[:160]}")
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", type=float, default=10.0, help="seconds without the abuser")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds with the abuser")
    parser.add_argument("--warm-up", type=float, default=3.0, help="abuse before measuring")
    parser.add_argument("--every", type=float, default=0.2, help="seconds between probes")
    parser.add_argument("--abuser", default="127.0.0.2", help="the abuser's address")
    parser.add_argument("--silent-sockets", type=int, default=1600)
    parser.add_argument(
        "--fd-limit", type=int, default=1024, help="the server's open-file limit (0: inherit)"
    )
    parser.add_argument(
        "--barrage",
        action="store_true",
        help="the abuse is a barrage of hostile frames from many connections on many addresses"
        " (--connections over --addresses, --frames in all) instead of one address's abuses",
    )
    parser.add_argument("--addresses", type=int, default=25)
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--run-abuser", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.fd_limit = args.fd_limit or None
    if args.run_abuser:
        asyncio.run(abuse(args))
        return
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
