"""One abuser harms no one: each abuse from one address (127.0.0.2) at its limits, against a real
server on 127.0.0.1, while an honest client from 127.0.0.1 is still answered promptly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import sys
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol.codec import CLIENT_MAX_FRAME, encode
from protocol.fields import PROTOCOL_VERSION, TableOptions
from protocol.messages import (
    CreateTable,
    Hello,
    Leave,
    Lobby,
    LobbySubscribe,
    LobbyUnsubscribe,
    Resync,
    State,
    TableClosed,
)
from server.net import app as server_app
from server.net.sockets import ACCEPT_FAILED, AcceptErrors
from tests.conftest import Client, ServerFactory, create_table

ROOT = Path(__file__).resolve().parent.parent.parent
ABUSER = "127.0.0.2"


async def honest_round(port: int, limit: float = 2.0) -> float:
    """An honest client from 127.0.0.1 connects, creates a table and gets a resync; the time it
    took, which must be under `limit`."""
    began = time.perf_counter()
    client = await Client.connect(port, "Honest")
    joined, _ = await create_table(client)
    await client.send(Resync(joined.table_id))
    state = await client.expect(State, timeout=limit)
    took = time.perf_counter() - began
    assert state.table_id == joined.table_id
    assert took < limit, took
    await client.close()
    return took


async def abuser_ws(port: int, **kwargs: object) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{port}",
        compression=None,
        open_timeout=5,
        max_size=CLIENT_MAX_FRAME,
        local_addr=(ABUSER, 0),
        **kwargs,  # type: ignore[arg-type]
    )


async def until(check: object, timeout: float = 3.0) -> None:
    """Wait (bounded) until check() is true."""
    assert callable(check)
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out waiting")


# ----- the lobby is no amplifier ------------------------------------------------------------


async def test_a_repeated_subscribe_is_not_answered_and_a_listing_is_encoded_once(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server()
    owner = await Client.connect(server.port, "Owner")
    for _ in range(3):
        await create_table(owner)
    encoded: list[int] = []
    real_encode = encode

    def counting(message: object, *args: object) -> bytes:
        if isinstance(message, Lobby):
            encoded.append(len(message.tables))
        return real_encode(message, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(server_app, "encode", counting)
    watchers = []
    for i in range(5):
        ws = await abuser_ws(server.port)
        watcher = Client(ws)
        await watcher.send(Hello(PROTOCOL_VERSION, f"W{i}"))
        await watcher.quiet(0.0)
        watchers.append(watcher)
    for watcher in watchers:
        for _ in range(20):  # asking again and again gets nothing more
            await watcher.send(LobbySubscribe())
    frames = []
    for watcher in watchers:
        listings = [m for m in await watcher.quiet(0.15) if isinstance(m, Lobby)]
        assert len(listings) == 1 and len(listings[0].tables) == 3
        frames.append(watcher.frames[-1])
    assert len(set(frames)) == 1
    assert encoded == [3]  # five subscribers, one encoding
    # unsubscribe and subscribe again: the same bytes, still not encoded anew
    await watchers[0].send(LobbyUnsubscribe())
    await watchers[0].send(LobbySubscribe())
    assert isinstance(await watchers[0].expect(Lobby), Lobby)
    assert encoded == [3]
    # a change: one new listing for everyone, encoded once
    await create_table(owner)
    for watcher in watchers:
        listing = await watcher.expect(Lobby)
        assert len(listing.tables) == 4
    assert encoded == [3, 4]
    await honest_round(server.port)


# ----- a reader that does not read is closed, by bytes -------------------------------------------


async def test_a_slow_reader_is_closed_by_the_bytes_waiting(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    server = await make_server(send_queue_bytes=64 * 1024)
    # The abuser's socket takes little into its buffer, and its client stops reading after
    # one frame: from then on everything the server sends it waits in the server.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((ABUSER, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    ws = await connect(f"ws://127.0.0.1:{server.port}", sock=sock, compression=None, max_queue=1)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "Sloth")))
    await ws.send(encode(CreateTable(TableOptions(), False, "white", "white")))
    await until(lambda: len(server.lobby.tables) == 1)
    table_id = next(iter(server.lobby.tables))
    member = next(iter(server.connections))
    conn = server.connections[member]
    # and the server's end of it little into its own (whatever the kernel's autotuning would
    # make of it as the answers flow): what the abuser does not read waits in the server soon
    sock = conn.ws.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    resync = encode(Resync(table_id))
    with caplog.at_level(logging.WARNING, logger="server.net.connection"):
        with contextlib.suppress(ConnectionClosed):
            for _ in range(900):  # each answered with a full state the abuser never reads
                await ws.send(resync)
                if conn.closing:
                    break
                await asyncio.sleep(0)
        await until(lambda: conn.closing)
    assert conn.queued_bytes == 0  # its queue was dropped at once
    assert any(ABUSER in r.getMessage() and "too slow" in r.getMessage() for r in caplog.records)
    await honest_round(server.port)
    ws.transport.abort()
    await until(lambda: member not in server.connections)


# ----- tables do not outlive their creators -------------------------------------------------------


async def test_a_waiting_table_closes_soon_after_its_creator_goes(
    make_server: ServerFactory,
) -> None:
    server = await make_server(max_tables=2, waiting_grace=0.2, sweep_interval=0.05)
    squatters = []
    for i in range(2):
        squatter = Client(await abuser_ws(server.port))
        await squatter.send(Hello(PROTOCOL_VERSION, f"Squat{i}"))
        await create_table(squatter)
        squatters.append(squatter)
    honest = await Client.connect(server.port, "Honest")
    # the server is full: the oldest waiting table of the heaviest address makes room
    joined, _ = await create_table(honest)
    closed = await squatters[0].expect(TableClosed)
    assert closed.code == "made_room"
    await honest.send(Leave(joined.table_id))
    await honest.send(LobbySubscribe())
    listing = await honest.expect(Lobby)
    while len(listing.tables) != 1:  # the honest table went with its player
        listing = await honest.expect(Lobby, timeout=2)
    for squatter in squatters:
        await squatter.close()
    began = time.perf_counter()
    while True:  # the lobby shows them gone, each within its grace
        listing = await honest.expect(Lobby, timeout=2)
        if not listing.tables:
            break
    assert time.perf_counter() - began < 1.0
    await honest_round(server.port)


# ----- sockets are counted from accept, before any handshake ------------------------------------


def silent_socket(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(ABUSER, 0))
    sock.settimeout(2)
    return sock


def closed_by_server(sock: socket.socket, timeout: float) -> bool:
    sock.settimeout(timeout)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


async def test_silent_sockets_are_limited_per_address_before_the_handshake(
    make_server: ServerFactory,
) -> None:
    server = await make_server(
        max_per_address=2, extra_sockets_per_address=2, handshake_timeout=0.5
    )
    loop = asyncio.get_running_loop()
    socks = [await loop.run_in_executor(None, silent_socket, server.port) for _ in range(10)]
    await until(lambda: server.gate.refused_total + server.gate.open.get(ABUSER, 0) >= 10)
    assert server.gate.open.get(ABUSER) == 4
    shut = [await loop.run_in_executor(None, closed_by_server, s, 0.05) for s in socks]
    assert shut.count(True) == 6 and shut[:4] == [False] * 4  # the first four wait
    took = await honest_round(server.port)  # 127.0.0.1 is another address
    # the handshake timeout frees the rest
    assert all([await loop.run_in_executor(None, closed_by_server, s, 2) for s in socks[:4]])
    await until(lambda: ABUSER not in server.gate.open)
    for sock in socks:
        sock.close()
    assert took < 1.0


async def test_an_address_over_the_core_limit_is_refused_with_its_reason(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    server = await make_server(max_per_address=2)
    held = [Client(await abuser_ws(server.port)) for _ in range(2)]
    with caplog.at_level(logging.INFO, logger="server.net.app"):
        extra = Client(await abuser_ws(server.port))
        await extra.expect_error("too_many_connections")
    assert any(
        ABUSER in r.getMessage() and "too_many_connections" in r.getMessage()
        for r in caplog.records
    )
    await honest_round(server.port)
    for client in held:
        await client.close()


# ----- out of file descriptors: one log line, not a flood -------------------------------------


def test_accept_failures_become_one_line_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    loop = asyncio.new_event_loop()
    try:
        handler = AcceptErrors(60.0, None)
        error = OSError(24, "Too many open files")
        with caplog.at_level(logging.ERROR):
            for _ in range(1000):
                handler(loop, {"message": ACCEPT_FAILED, "exception": error})
            handler(loop, {"message": "something else"})  # to the default handler
    finally:
        loop.close()
    ours = [r for r in caplog.records if r.name == "server.net.sockets"]
    assert len(ours) == 1 and "Too many open files" in ours[0].getMessage()
    assert not ours[0].exc_info
    assert any(r.name == "asyncio" and "something else" in r.getMessage() for r in caplog.records)


@pytest.mark.skipif(sys.platform != "linux", reason="file limits and 127.0.0.x are Linux's")
async def test_a_server_out_of_file_descriptors_logs_once_and_recovers() -> None:
    import resource

    def low_limit() -> None:  # the server raises its soft limit to the hard one: set both
        resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:",
        "--handshake-timeout", "1", "--max-per-address", "8", "--extra-sockets-per-address", "4",
        "--max-connections", "40", "--log-level", "info",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=low_limit,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    socks: list[socket.socket] = []
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        match = re.search(r":(\d+)\s*$", line)
        assert match, line
        port = int(match.group(1))
        loop = asyncio.get_running_loop()

        def flood() -> None:  # 12 sockets from each of 6 addresses: more than 48 descriptors
            for n in range(2, 8):
                for _ in range(12):
                    socks.append(
                        socket.create_connection(
                            ("127.0.0.1", port), timeout=2, source_address=(f"127.0.0.{n}", 0)
                        )
                    )

        await loop.run_in_executor(None, flood)
        await asyncio.sleep(1.5)  # the handshake timeout closes them; accepting resumes
        for sock in socks:
            sock.close()
        await honest_round(port, limit=5.0)
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 10)
        for sock in socks:
            sock.close()
    text = err.decode()
    assert text.count("cannot accept connections") == 1, text[-3000:]
    assert "Traceback" not in text, text[-3000:]


async def test_an_address_cannot_pile_up_tables_by_reconnecting(make_server: ServerFactory) -> None:
    server = await make_server(max_per_address=2, tables_per_connection=2, max_tables=10)
    for _ in range(2):  # two connections' worth of tables, left behind
        churner = Client(await abuser_ws(server.port))
        await churner.send(Hello(PROTOCOL_VERSION, "Churn"))
        for _ in range(2):
            await create_table(churner)
        await churner.close()
    churner = Client(await abuser_ws(server.port))
    await churner.send(Hello(PROTOCOL_VERSION, "Churn"))
    await churner.send(CreateTable(TableOptions(), False, "white", "white"))
    await churner.expect_error("too_many_tables")
    assert len(server.lobby.tables) == 4
    await honest_round(server.port)  # another address is not held back
