"""How long a standby takes to serve after the serving server ends: two kahuna-server processes
on one PostgreSQL database (started by the bench in a temporary directory: testbed/postgres.py,
fsync on), a game in play at the serving one, then kill -9 (or SIGTERM) of it; the time from the
end to the first `welcome` from the standby, as a client that tries again every 50 ms sees it.
The standby then serves, a new standby is started beside it, and so on, `--rounds` times.

    .venv/bin/python bench/standby_bench.py [--rounds N] [--signal kill|term] [--tables T]

The database is on this machine (a Unix socket): PostgreSQL learns of the end at once. Across a
network, a host that vanishes without a word is noticed by TCP keepalives
(server/storage/pg_store.py: about 4 s more).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from protocol.codec import decode_server, encode  # noqa: E402
from protocol.fields import PROTOCOL_VERSION  # noqa: E402
from protocol.messages import CreateTable, Hello, Joined, ServerMessage, State, Welcome  # noqa: E402
from testbed.postgres import Cluster  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def start(db: str, port: int, logs: Path) -> tuple[asyncio.subprocess.Process, str]:
    log = (logs / f"server-{port}.log").open("ab")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--db", db,
        "--no-announce", "--log-level", "warning", "--max-per-address", "1000",
        "--waiting-per-address", "1000",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    log.close()
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    return proc, line


async def expect(ws: ClientConnection, kind: type[ServerMessage]) -> None:
    """Read up to the next message of `kind`, within a few seconds."""
    for _ in range(100):
        data = await asyncio.wait_for(ws.recv(), 10)
        assert isinstance(data, bytes), "the server sends binary frames only"
        if isinstance(decode_server(data), kind):
            return
    raise AssertionError(f"no {kind.__name__} in 100 messages")


async def host(port: int, name: str) -> ClientConnection:
    """A player at a table of its own, waiting for an opponent, its connection left open."""
    ws = await connect(f"ws://127.0.0.1:{port}", open_timeout=5, compression=None)
    await ws.send(encode(Hello(PROTOCOL_VERSION, name)))
    await expect(ws, Welcome)
    await ws.send(encode(CreateTable(seat="white", level="easy")))
    await expect(ws, Joined)
    await expect(ws, State)
    return ws


async def welcomed(port: int) -> bool:
    try:
        async with connect(f"ws://127.0.0.1:{port}", open_timeout=1, compression=None) as ws:
            await ws.send(encode(Hello(PROTOCOL_VERSION, "probe")))
            return isinstance(decode_server(await ws.recv()), Welcome)
    except (OSError, TimeoutError):
        return False
    except Exception:
        return False


async def bench(rounds: int, how: str, tables: int) -> list[float]:
    cluster = Cluster(fsync=True)
    logs = Path(tempfile.mkdtemp(prefix="kahuna-standby-"))
    db = cluster.database()
    times: list[float] = []
    serving_port = free_port()
    serving, line = await start(db, serving_port, logs)
    assert "listening" in line, line
    try:
        for _ in range(rounds):
            standby_port = free_port()
            standby, line = await start(db, standby_port, logs)
            assert "standby" in line, line
            clients = []
            for i in range(tables):  # games in play, so that there is something to take over
                clients.append(await host(serving_port, f"Host{i}"))
            began = time.monotonic()
            if how == "kill":
                serving.kill()
            else:
                serving.send_signal(signal.SIGTERM)
            await serving.wait()
            ended = time.monotonic()
            while not await welcomed(standby_port):
                await asyncio.sleep(0.05)
            took = time.monotonic() - ended
            times.append(took)
            print(
                f"  {how}: the standby served {took * 1e3:.0f} ms after the end"
                f" ({(ended - began) * 1e3:.0f} ms for the end itself), {tables} table(s)"
            )
            for client in clients:
                await client.close()
            serving, serving_port = standby, standby_port
            assert serving.stdout is not None
            await serving.stdout.readline()  # its "listening" line
    finally:
        if serving.returncode is None:
            serving.send_signal(signal.SIGTERM)
            await serving.wait()
        cluster.stop()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--signal", choices=["kill", "term"], default="kill")
    parser.add_argument("--tables", type=int, default=20, help="waiting tables to take over")
    args = parser.parse_args()
    times = asyncio.run(bench(args.rounds, args.signal, args.tables))
    print(
        f"takeover after {args.signal}: median {statistics.median(times) * 1e3:.0f} ms,"
        f" max {max(times) * 1e3:.0f} ms over {len(times)} rounds"
    )


if __name__ == "__main__":
    main()
