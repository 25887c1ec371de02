"""How much memory the server keeps after a barrage of hostile frames: a script, not a test.

    .venv/bin/python bench/hostile_memory_bench.py                    # 300 connections, 20 s
    .venv/bin/python bench/hostile_memory_bench.py --connections 600 --seconds 30

It starts `kahuna-server` in its own process on 127.0.0.1 (a database in memory, its default
limits), then opens --connections connections spread over --addresses loopback addresses
(127.0.0.2 on, so that the per-address limits let them in), each sending, for --seconds and
reconnecting whenever the server closes it, the frames a hostile client sends: bytes that are
not msgpack, unknown message types, frames just over --max-frame (16 KiB: frame_too_large),
frames of 200 KiB (under the hard limit, 256 KiB), messages of 250 KiB in 1 KiB fragments,
and frames over the hard limit (the server closes with 1009). Half of the connections read
what the server answers, half never read a byte (the server's queue for them fills).

Printed: the server's memory (RSS, and the part of it that is the C heap) before, at its peak,
and 10 s after the last hostile connection closed; what the barrage did; and the server's log's
size. The target: memory after the barrage within 50 MiB of memory before (docs/architecture.md,
"Memory under a barrage").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from server_process import start_logged, stop  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

TARGET_MIB = 50.0
AFTER = 10.0  # seconds after the barrage when "after" is measured


SERVER = [
    "-m", "server", "--host", "127.0.0.1", "--port", "0", "--log-level", "info",
    "--db", ":memory:", "--ping-interval", "0", "--no-announce",
]  # fmt: skip


def memory_mib(pid: int) -> tuple[float, float]:
    """The process's resident memory, and the part of it in its C heaps ([heap] and the
    anonymous mappings malloc's arenas use), in MiB (Linux)."""
    rss = heap = 0.0
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
        name = ""
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            fields = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                name = fields[5] if len(fields) > 5 else ""
            elif fields[0] == "Rss:" and name in ("", "[heap]"):
                heap += int(fields[1]) / 1024
    return rss, heap


def pack(obj: object) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


class Barrage:
    def __init__(self, port: int, addresses: int, connections: int, seconds: float) -> None:
        self.port = port
        self.addresses = [f"127.0.0.{2 + i}" for i in range(addresses)]
        self.connections = connections
        self.until = time.monotonic() + seconds
        self.counts = {"connections": 0, "refused": 0, "frames": 0, "bytes": 0}
        self.hostile: list[bytes] = [
            b"\xc1\xc1\xc1",  # not msgpack
            pack({"type": "no_such_message"}),
            pack({"type": "chat", "table_id": "00000000", "text": "x" * 17_000}),  # > max_frame
            pack({"type": "chat", "table_id": "00000000", "text": "y" * 200_000}),
        ]

    async def one(self, index: int) -> None:
        address = self.addresses[index % len(self.addresses)]
        reads = index % 2 == 0
        while time.monotonic() < self.until:
            try:
                ws = await connect(
                    f"ws://127.0.0.1:{self.port}", compression=None, ping_interval=None,
                    max_size=None, local_addr=(address, 0), open_timeout=10,
                )  # fmt: skip
            except Exception:
                self.counts["refused"] += 1
                await asyncio.sleep(0.2)
                continue
            self.counts["connections"] += 1
            reader = asyncio.create_task(drain(ws)) if reads else None
            if not reads:
                ws.transport.pause_reading()  # the server's answers pile up on its side
            try:
                await ws.send(pack({"type": "hello", "version": 3, "name": f"h{index}"}))
                step = 0
                while time.monotonic() < self.until:
                    await self.hostile_frame(ws, step)
                    step += 1
                    if step % 8 == 0:
                        await asyncio.sleep(0)
            except Exception:
                pass
            finally:
                if reader is not None:
                    reader.cancel()
                ws.transport.abort()

    async def hostile_frame(self, ws: ClientConnection, step: int) -> None:
        kind = step % 6
        if step and step % 120 == 0:  # over the hard limit: the server closes with 1009
            data = b"\x00" * 300_000
            ws.protocol.send_frame(Frame(Opcode.BINARY, data))
            ws.send_data()
        elif kind < len(self.hostile):
            data = self.hostile[kind]
            await ws.send(data)
        elif kind == 4:  # 250 KiB in 1 KiB fragments
            chunk = b"z" * 1024
            data = chunk * 250
            await ws.send(chunk for _ in range(250))
        else:
            data = pack({"type": "resync", "table_id": "00000000"})
            await ws.send(data)
        self.counts["frames"] += 1
        self.counts["bytes"] += len(data)

    async def run(self) -> None:
        await asyncio.gather(*(self.one(i) for i in range(self.connections)))


async def drain(ws: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def honest_hello(port: int) -> None:
    async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
        await ws.send(pack({"type": "hello", "version": 3, "name": "honest"}))
        await ws.recv()


async def main_async(args: argparse.Namespace) -> int:
    proc, port, log = start_logged(SERVER)
    peak = 0.0
    try:
        await honest_hello(port)
        await asyncio.sleep(1.0)
        before = memory_mib(proc.pid)

        async def sample() -> None:
            nonlocal peak
            while True:
                peak = max(peak, memory_mib(proc.pid)[0])
                await asyncio.sleep(0.2)

        sampler = asyncio.create_task(sample())
        barrage = Barrage(port, args.addresses, args.connections, args.seconds)
        began = time.perf_counter()
        await barrage.run()
        took = time.perf_counter() - began
        await asyncio.sleep(AFTER)
        sampler.cancel()
        await honest_hello(port)  # still serving
        after = memory_mib(proc.pid)
    finally:
        err = stop(proc, log)
    counts = barrage.counts
    print(
        f"barrage: {args.connections} connections over {args.addresses} addresses for"
        f" {took:.1f} s: {counts['connections']} opened ({counts['refused']} refused),"
        f" {counts['frames']} hostile frames, {counts['bytes'] / 2**20:.0f} MiB"
    )
    print(f"server RSS before: {before[0]:.1f} MiB (C heap {before[1]:.1f} MiB)")
    print(f"server RSS peak:   {peak:.1f} MiB")
    print(f"server RSS after:  {after[0]:.1f} MiB (C heap {after[1]:.1f} MiB), {AFTER:.0f} s later")
    lines = err.splitlines()
    print(f"server log: {len(lines)} lines ({len(err) / 1024:.0f} KiB), {err.count('Traceback')}"
          " tracebacks")  # fmt: skip
    for line in lines[:5]:
        print(f"  {line[:160]}")
    grown = after[0] - before[0]
    met = grown < TARGET_MIB
    print(f"target (after within {TARGET_MIB:.0f} MiB of before): {'met' if met else 'NOT met'}"
          f" ({grown:+.1f} MiB)")  # fmt: skip
    return 0 if met else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--addresses", type=int, default=25)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
