"""Servers found on the LAN: kahuna-server's DNS-SD announcement (server/net/discovery.py) and the
client's browsing (client/net/discovery.py, kahuna-client --find).

Every multicast packet of these tests stays on the loopback interface: each Zeroconf instance
(the announcer's, the browser's, the server processes' and `--find`'s) is made with
interfaces=["127.0.0.1"] (--lan-interface 127.0.0.1). Each test names its servers uniquely, so
that other servers announced on this machine's loopback meanwhile do not disturb it. Waits are
bounded: an announcement takes a little over a second (the probing for a unique name)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import signal
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import attrs
import pytest

from client.net.discovery import LanBrowser, LanServer, best_address, find_main
from protocol.fields import SUPPORTED_VERSIONS
from protocol.messages import Join, Leave, Left, State
from server.cli import serve as server_main
from server.net import discovery
from server.net.app import KahunaServer
from server.net.discovery import SERVICE_TYPE, Announcer, host_label, instance_name, lobby_counts
from tests.conftest import Client, ServerFactory, create_table
from tests.server.test_cli import start
from tests.server.test_core import Harness

ROOT = Path(__file__).resolve().parent.parent.parent
LOOPBACK = ["127.0.0.1"]
WAIT = 5.0  # seconds at most for anything to be announced and seen


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


@pytest.fixture
async def browser() -> AsyncIterator[LanBrowser]:
    async with LanBrowser(LOOPBACK) as found:
        yield found


def named(servers: list[LanServer], name: str) -> LanServer | None:
    return next((s for s in servers if s.name == name), None)


async def announce(server: KahunaServer, name: str, interval: float = 0.1) -> Announcer:
    announcer = Announcer(
        name,
        "127.0.0.1",
        server.port,
        lambda: lobby_counts(server.lobby),
        lan_interfaces=LOOPBACK,
        interval=interval,
    )
    announcer.start()
    await asyncio.wait_for(announcer.announced.wait(), WAIT)
    return announcer


async def test_an_announced_server_is_found_with_its_numbers_and_goes_when_it_stops(
    make_server: ServerFactory, browser: LanBrowser
) -> None:
    name = unique("Club")
    server = await make_server(server_name=name)
    announcer = await announce(server, name)
    try:
        assert await browser.wait_until(lambda found: named(found, name) is not None, WAIT)
        found = named(browser.found(), name)
        assert found is not None
        assert found.url == f"ws://127.0.0.1:{server.port}"
        assert (found.tables, found.free) == (0, 0)
        assert found.versions == SUPPORTED_VERSIONS
        assert found.scheme == "ws" and found.path == "/"

        # a table with a seat free, then that seat taken: the numbers follow
        ana = await Client.connect(server.port, "Ana")
        joined, _ = await create_table(ana)

        def numbers(tables: int, free: int) -> bool:
            server = named(browser.found(), name)
            return server is not None and (server.tables, server.free) == (tables, free)

        assert await browser.wait_until(lambda _: numbers(1, 1), WAIT), browser.found()
        bob = await Client.connect(server.port, "Bob")
        await bob.send(Join(joined.table_id, "black"))
        assert await browser.wait_until(lambda _: numbers(1, 0), WAIT), browser.found()
        await ana.close()
        await bob.close()
    finally:
        await announcer.stop()
    # the goodbye packets take it off the list
    assert await browser.wait_until(lambda found: named(found, name) is None, WAIT)


async def test_the_numbers_are_the_open_tables_and_their_free_seats(
    make_server: ServerFactory,
) -> None:
    server = await make_server()
    assert await lobby_counts(server.lobby) == (0, 0)
    ana = await Client.connect(server.port, "Ana")
    waiting, _ = await create_table(ana)
    await create_table(ana, vs_computer=True)  # the computer holds the other seat
    assert await lobby_counts(server.lobby) == (2, 1)
    # counted once per change of the lobby, and again after each
    bob = await Client.connect(server.port, "Bob")
    await bob.send(Join(waiting.table_id, "black"))
    await bob.expect(State)
    assert await lobby_counts(server.lobby) == (2, 0)
    another, _ = await create_table(ana)
    assert await lobby_counts(server.lobby) == (3, 1)
    await ana.send(Leave(another.table_id))
    await ana.expect(Left)
    assert await lobby_counts(server.lobby) == (2, 0)  # nobody seated: closed
    await ana.close()
    await bob.close()


def test_an_instance_name_fits_a_dns_label() -> None:
    assert instance_name("Kahuna club") == "Kahuna club"
    assert len(instance_name("é" * 40).encode()) <= 63
    assert instance_name("\x00\x07") == "kahuna-server"
    # the SRV target is never the machine's own name, which Avahi may announce with others
    target = host_label(8765)
    assert target.startswith("kahuna-") and target.endswith("-8765.local.")
    assert len(target.removesuffix(".local.").encode()) <= 63


def test_the_address_on_this_machines_network_comes_first() -> None:
    assert best_address(["fe80::1", "127.0.0.1"]) == "127.0.0.1"
    assert best_address(["198.51.100.7", "127.0.0.1"]) == "127.0.0.1"  # lo is ours
    server = LanServer("x", "::1", 8765, "wss", "/kahuna")
    assert server.url == "wss://[::1]:8765/kahuna"


async def test_a_failure_to_announce_is_one_log_line_and_the_server_serves_on(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(99, "Cannot assign requested address")

    monkeypatch.setattr("server.net.discovery.AsyncZeroconf", refuse)
    server = await make_server()
    config = attrs.evolve(server.config, announce=True, lan_interfaces=tuple(LOOPBACK))
    with caplog.at_level(logging.WARNING, logger="server"):
        announcer = server_main.announce(config, server, tls=False)
        assert announcer is not None
        assert announcer._task is not None
        await asyncio.wait_for(asyncio.shield(announcer._task), WAIT)
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("server")]
    assert lines == [
        "not announced on the LAN (OSError: [Errno 99] Cannot assign requested address)"
    ]
    client = await Client.connect(server.port, "Ana")  # the server is there all the same
    await client.close()
    await announcer.stop()


def test_find_says_so_when_no_server_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    async def nothing(timeout: float, interfaces: object) -> list[LanServer]:
        return []

    monkeypatch.setattr("client.net.discovery.find_servers", nothing)
    out, err = io.StringIO(), io.StringIO()
    assert find_main(LOOPBACK, 0.5, out, err) == 1
    assert out.getvalue() == ""
    assert err.getvalue() == (
        "kahuna-client: no Kahuna server answered on the LAN on 127.0.0.1 within 0.5 s\n"
    )


def test_find_lists_each_server_on_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    servers = [
        LanServer("Club", "192.168.1.20", 8765, tables=3, free=1),
        LanServer("Kitchen table", "192.168.1.31", 9000, "wss", tables=1, free=2),
    ]

    async def two(timeout: float, interfaces: object) -> list[LanServer]:
        return servers

    monkeypatch.setattr("client.net.discovery.find_servers", two)
    out = io.StringIO()
    assert find_main(None, 0.5, out, io.StringIO()) == 0
    assert out.getvalue().splitlines() == [
        "Club           ws://192.168.1.20:8765   3 tables, 1 free seat",
        "Kitchen table  wss://192.168.1.31:9000  1 table, 2 free seats",
    ]


# ----- real processes: kahuna-server and kahuna-client --find ---------------------------------


async def start_server(*extra: str) -> tuple[asyncio.subprocess.Process, int]:
    """kahuna-server announcing itself on loopback's interface: the process and its port."""
    proc, url = await start("--lan-interface", "127.0.0.1", *extra)
    assert url.startswith("ws://127.0.0.1:"), url
    return proc, int(url.rsplit(":", 1)[1])


async def stop_server(proc: asyncio.subprocess.Process) -> str:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), 10)
    except TimeoutError:
        proc.kill()
        await proc.wait()
    assert proc.stderr is not None
    return (await proc.stderr.read()).decode()


async def test_kahuna_client_find_lists_a_running_server_and_not_one_with_no_announce() -> None:
    announced, silent = unique("Announced"), unique("Silent")
    proc, port = await start_server("--name", announced)
    quiet, _ = await start_server("--name", silent, "--no-announce")
    try:
        find = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "client", "--find", "--lan-interface", "127.0.0.1",
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(find.communicate(), 20)
    finally:
        errors = await stop_server(proc)
        await stop_server(quiet)
    assert find.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    mine = [line for line in lines if line.startswith(f"{announced} ")]
    assert len(mine) == 1, lines
    assert re.fullmatch(
        rf"{announced} +ws://127\.0\.0\.1:{port} +0 tables, 0 free seats", mine[0]
    ), mine
    assert not any(silent in line for line in lines), lines
    assert "not announced" not in errors, errors


async def test_a_server_started_with_no_announce_is_not_found(browser: LanBrowser) -> None:
    announced, silent = unique("Announced"), unique("Silent")
    quiet, _ = await start_server("--name", silent, "--no-announce")
    proc, _ = await start_server("--name", announced)
    try:
        # the announced one, started after the silent one, is found: the silent one had time
        assert await browser.wait_until(lambda found: named(found, announced) is not None, WAIT)
        await asyncio.sleep(0.5)
        assert named(browser.found(), silent) is None
        assert all(s.name != silent for s in browser.found())
    finally:
        await stop_server(proc)
        await stop_server(quiet)


def test_the_service_type() -> None:
    assert SERVICE_TYPE == "_kahuna._tcp.local."


async def test_the_count_leaves_the_event_loop_turns_between_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = Harness(waiting_per_address=1_000, max_tables=1_000)
    for n in range(250):  # a connection sits at 16 tables at most
        h.create(h.player(f"P{n}"))
    monkeypatch.setattr(discovery, "COUNT_SLICE", 100)
    turns = 0

    async def meanwhile() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(meanwhile())
    await asyncio.sleep(0)
    before = turns
    assert await lobby_counts(h.core.lobby) == (250, 250)
    assert turns - before >= 2  # three slices, another task's turn between each two
    task.cancel()
