"""How much the server logs while one address reconnects in a loop: a script, not a test.

    .venv/bin/python bench/log_flood_bench.py                  # 30 s, 64 loops at once
    .venv/bin/python bench/log_flood_bench.py --seconds 10 --loops 32

It starts `kahuna-server` in its own process on 127.0.0.1 (a database in memory, --log-level
info, its default limits), and from one loopback address (127.0.0.2) runs --loops loops at
once, each opening a WebSocket, saying hello, and closing it, or being refused over the
address's limit (16 connections, 8 more sockets), again and again for --seconds. Then it sends
two HTTP requests in one packet, and prints the lines and bytes the server logged, the
tracebacks among them, and the first lines. The target: under 100 lines, no traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from server_process import start_logged, stop  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

TARGET_LINES = 100


SERVER = [
    "-m", "server", "--host", "127.0.0.1", "--port", "0", "--log-level", "info",
    "--db", ":memory:", "--ping-interval", "0", "--no-announce",
]  # fmt: skip


async def loop(port: int, until: float, counts: dict[str, int]) -> None:
    hello: bytes = msgpack.packb({"type": "hello", "version": 3, "name": "again"})
    while time.monotonic() < until:
        try:
            async with connect(
                f"ws://127.0.0.1:{port}", compression=None, local_addr=("127.0.0.2", 0),
                open_timeout=5, close_timeout=1,
            ) as ws:  # fmt: skip
                await ws.send(hello)
                await asyncio.wait_for(ws.recv(), 5)
                counts["served"] += 1
        except Exception:
            counts["refused"] += 1
            await asyncio.sleep(0)


async def pipelined(port: int) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    writer.write(request + request)
    await writer.drain()
    try:
        answer = await asyncio.wait_for(reader.read(), 5)
    except TimeoutError:
        answer = b""
    writer.close()
    return answer


async def main_async(args: argparse.Namespace) -> int:
    proc, port, log = start_logged(SERVER)
    counts = {"served": 0, "refused": 0}
    try:
        until = time.monotonic() + args.seconds
        await asyncio.gather(*(loop(port, until, counts) for _ in range(args.loops)))
        answer = await pipelined(port)
        await asyncio.sleep(1.0)
    finally:
        err = stop(proc, log)
    lines = err.splitlines()
    print(
        f"one address, {args.loops} loops for {args.seconds:.0f} s: {counts['served']}"
        f" connections served, {counts['refused']} refused"
    )
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace") if answer else "no answer"
    print(f"two requests in one packet: {status}")
    print(
        f"server log: {len(lines)} lines ({len(err) / 1024:.1f} KiB),"
        f" {err.count('Traceback')} tracebacks"
    )
    for line in lines[:12]:
        print(f"  {line[:160]}")
    met = len(lines) < TARGET_LINES and "Traceback" not in err and status.endswith("200 OK")
    print(f"target (under {TARGET_LINES} lines, no traceback, an answer): "
          f"{'met' if met else 'NOT met'}")  # fmt: skip
    return 0 if met else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--loops", type=int, default=64)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
