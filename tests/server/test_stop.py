"""SIGTERM ends the server within a second, even with a client that reads nothing and never
answers the closing handshake: what was decided is still sent to the others first."""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import time
from pathlib import Path

from tests.server.test_restart import free_port, start_server


def stuck_client(port: int) -> socket.socket:
    """A WebSocket handshake, then nothing: no reading, no close."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    sock.recv(4096)  # the 101 answer
    return sock


async def test_sigterm_with_a_stuck_client_ends_within_a_second(tmp_path: Path) -> None:
    port = free_port()
    proc = await start_server(port, str(tmp_path / "db.sqlite3"), tmp_path)
    stuck = stuck_client(port)
    try:
        await asyncio.sleep(0.2)
        began = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)
        took = time.perf_counter() - began
    finally:
        stuck.close()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0
    assert took < 1.0, f"{took:.2f} s"
