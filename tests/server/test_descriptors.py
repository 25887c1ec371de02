"""The reserve of file descriptors (issue 40, item 6): at a low open-file limit, one address
connecting hundreds of sockets at once never makes accept() fail (EMFILE), and an honest client
is still served. A real server in its own process, its limit lowered by a small launcher, and
sockets on loopback; and the gate's ceiling on its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import sys
from pathlib import Path

import pytest

from protocol.messages import Lobby, LobbySubscribe
from server.net.sockets import ACCEPT_BATCH, SPARE_DESCRIPTORS, SocketGate, socket_ceiling
from tests.conftest import Client
from tests.server.test_restart import ROOT, free_port

LIMIT = 512  # the server's open files, soft and hard: a socket ceiling of about 230
FLOOD = 1000  # sockets opened at once, each round, from one address
ROUNDS = 3
ADDRESSES = 30  # then from this many addresses, 24 sockets each: over the ceiling

# what `kahuna-server` is, with its open-file limit lowered first (it lifts the soft limit to
# the hard one at the start, so both are lowered)
LAUNCHER = (
    "import resource, sys\n"
    "limit = int(sys.argv[1])\n"
    "resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))\n"
    "from server.cli.serve import main\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def test_the_ceiling_leaves_the_reserve() -> None:
    assert socket_ceiling(None, 40) is None
    assert socket_ceiling(1024, 40) == 1024 - 40 - 3 * ACCEPT_BATCH - SPARE_DESCRIPTORS
    assert socket_ceiling(100, 40) == 1  # however low the limit: one socket at a time


def test_the_gate_closes_sockets_over_the_ceiling_of_every_address() -> None:
    gate = SocketGate(per_address=3, log_interval=60.0, ceiling=4)
    assert [gate.admit("a") for _ in range(4)] == [True, True, True, False]  # per address
    assert gate.admit("b") is True
    assert gate.total == 4
    assert gate.admit("c") is False  # the ceiling, whoever asks
    gate.release("a")
    assert gate.admit("c") is True
    assert gate.refused_total == 2


def _flood(port: int, count: int, address: str = "127.0.0.2") -> list[socket.socket]:
    """`count` TCP connections from `address`, opened without waiting: the kernel completes
    them into the listening socket's queue, for the server to accept."""
    socks = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind((address, 0))
        sock.connect_ex(("127.0.0.1", port))
        socks.append(sock)
    return socks


async def _served(port: int) -> None:
    client = await Client.connect(port)  # hello and welcome
    await client.send(LobbySubscribe())
    await client.expect(Lobby)
    await client.close()


async def test_a_flood_of_sockets_at_a_low_file_limit_never_fails_an_accept(
    tmp_path: Path,
) -> None:
    # the flood's own sockets, in this process: its soft limit up to the hard one (a fresh
    # machine's soft limit is often 1024)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    if wanted < 2048:
        pytest.skip(f"the flood needs 2048 open files here, the hard limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("ab") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LAUNCHER, str(LIMIT),
            "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "db.sqlite3"),
            "--log-level", "info", "--no-announce", "--ping-interval", "0",
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=log,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert f":{port}" in line, line
        for _ in range(ROUNDS):
            socks = _flood(port, FLOOD)
            await asyncio.sleep(0.5)
            for sock in socks:
                sock.close()
            await asyncio.sleep(0.2)
        # an honest client, from another address, in the middle of a flood from one
        socks = _flood(port, FLOOD)
        try:
            await _served(port)
        finally:
            for sock in socks:
                sock.close()
        # many addresses at once, each at its limit: more sockets than the ceiling
        socks = [sock for n in range(ADDRESSES) for sock in _flood(port, 40, f"127.0.1.{n + 1}")]
        await asyncio.sleep(0.5)
        for sock in socks:
            sock.close()
        await asyncio.sleep(0.5)
        await _served(port)  # and room again once they went
    finally:
        if proc.returncode is None:
            proc.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 10)
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    logged = log_path.read_text()
    assert "cannot accept connections" not in logged, logged[-2000:]
    assert "Too many open files" not in logged, logged[-2000:]
    assert "Traceback" not in logged, logged[-2000:]
    assert "the open-file limit leaves room for" in logged  # the ceiling was reached, and said
