"""What happens at the server's edge before the game hears of a connection, over real sockets on
loopback: a browser's WebSocket from another site is refused unless the operator allowed it;
two HTTP requests in one packet get an answer, not a traceback; the log is not flooded by a
client reconnecting in a loop; TLS 1.2 offers no CBC suite."""

from __future__ import annotations

import asyncio
import logging
import shutil
import ssl
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from protocol.codec import decode_server, encode
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import Hello, Welcome
from server.cli.serve import build_parser, config_from_args
from server.net import memory
from server.net.app import KahunaServer
from server.net.sockets import RefusalLog
from server.net.tls import server_context
from tests.certificates import self_signed
from tests.conftest import ServerFactory


async def hello(url: str, **how: object) -> Welcome:
    async with connect(url, compression=None, **how) as ws:  # type: ignore[arg-type]
        await ws.send(encode(Hello(PROTOCOL_VERSION, "Ana")))
        welcome = decode_server(await ws.recv())
        assert isinstance(welcome, Welcome)
        return welcome


async def test_a_page_of_another_site_is_refused(make_server: ServerFactory) -> None:
    server = await make_server(web=True)
    url = f"ws://127.0.0.1:{server.port}/"
    with pytest.raises(InvalidStatus) as refused:
        await hello(url, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):  # the same host on another port is another site
        await hello(url, origin=f"http://127.0.0.1:{server.port + 1}")
    with pytest.raises(InvalidStatus):  # a sandboxed frame or a file
        await hello(url, origin="null")
    # the server's own page, and clients that name no site (the terminal client, bots)
    await hello(url, origin=f"http://127.0.0.1:{server.port}")
    await hello(url)


async def test_the_operator_may_allow_other_sites(make_server: ServerFactory) -> None:
    config = config_from_args(
        build_parser().parse_args(
            ["--allowed-origin", "https://Club.Example:443/", "--allowed-origin", "http://a.b:81"]
        )
    )
    assert config.allowed_origins == ("https://club.example", "http://a.b:81")
    server = await make_server(allowed_origins=config.allowed_origins, web=False)
    url = f"ws://127.0.0.1:{server.port}/"
    await hello(url, origin="https://club.example")
    await hello(url, origin="http://a.b:81")
    with pytest.raises(InvalidStatus):
        await hello(url, origin="http://a.b")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--allowed-origin", "https://club.example/path"])


async def test_the_origin_rule_holds_behind_the_page_and_without_it(
    make_server: ServerFactory,
) -> None:
    for web in (True, False):
        server = await make_server(web=web)
        url = f"ws://localhost:{server.port}/"
        await hello(url, origin=f"http://localhost:{server.port}")
        with pytest.raises(InvalidStatus):
            await hello(url, origin=f"http://127.0.0.1:{server.port}")  # Host says localhost


async def exchange(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout)  # up to the server's close
    writer.close()
    return answer


async def test_pipelined_requests_are_answered_without_a_traceback(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    server = await make_server(web=True)
    port = server.port
    request = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    with caplog.at_level(logging.DEBUG):
        answer = await exchange(port, request + request)
        # the head of the first request split between two packets, the second right behind
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request[:-3])
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.write(request[-3:] + b"GET /board.json HTTP/1.1\r\n")
        split = await asyncio.wait_for(reader.read(), 5)
        writer.close()
    for got in (answer, split):
        assert got.startswith(b"HTTP/1.1 200 OK\r\n")
        assert b"\r\nConnection: close\r\n" in got  # the client sends the rest again
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    # a WebSocket handshake with its first frame in the same packet still works
    welcome = await hello(f"ws://127.0.0.1:{port}/")
    assert welcome.version == PROTOCOL_VERSION


async def test_a_client_reconnecting_in_a_loop_does_not_flood_the_log(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    server = await make_server(max_per_address=2, extra_sockets_per_address=1)
    url = f"ws://127.0.0.1:{server.port}/"
    held = [await connect(url, compression=None) for _ in range(2)]
    tries = 60
    with caplog.at_level(logging.INFO):
        for _ in range(tries):  # over the address's limit: each one refused
            try:
                async with connect(url, compression=None, open_timeout=2) as ws:
                    await ws.send(encode(Hello(PROTOCOL_VERSION, "Ana")))
                    await ws.recv()
                    await ws.recv()
            except (TimeoutError, ConnectionClosed, OSError, InvalidStatus):
                pass
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) <= 3, [r.getMessage() for r in lines]
    assert not [r for r in lines if r.name.startswith("websockets")]
    refused = [r.getMessage() for r in lines if "refused a connection" in r.getMessage()]
    assert refused == ["refused a connection from 127.0.0.1: too_many_connections"]
    for ws in held:
        await ws.close()


async def test_refusals_are_summed_up_once_an_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    refusals = RefusalLog(interval=0.2)
    with caplog.at_level(logging.INFO, logger="server.net.sockets"):
        for _ in range(50):
            refusals.refused("10.1.2.3", "too_many_connections")
        refusals.refused("10.9.9.9", "server_full")
        await asyncio.sleep(0.5)
    refusals.close()
    assert [r.getMessage() for r in caplog.records] == [
        "refused a connection from 10.1.2.3: too_many_connections",
        "refused a connection from 10.9.9.9: server_full",
        "refused 49 more connection(s) from 10.1.2.3 in the last 0.2 s: too_many_connections",
    ]


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[str, str]:
    if shutil.which("openssl") is None:
        pytest.skip("needs openssl to make a certificate")
    cert, key = self_signed(tmp_path, "127.0.0.1", "IP:127.0.0.1")
    return str(cert), str(key)


def test_the_servers_tls_offers_aead_suites_only(certificate: tuple[str, str]) -> None:
    context = server_context(*certificate)
    suites = context.get_ciphers()
    assert suites and all(suite["aead"] for suite in suites)
    assert not [s["name"] for s in suites if "CBC" in s["description"] or "SHA1" in s["name"]]
    assert all(s["kea"] == "kx-ecdhe" for s in suites if s["protocol"] == "TLSv1.2")
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2


async def test_a_tls12_client_offering_only_cbc_is_refused(
    make_server: ServerFactory, certificate: tuple[str, str]
) -> None:
    cert, key = certificate
    server = await make_server(web=False)
    await server.stop()  # the same server again, over TLS
    tls = KahunaServer(server.config)
    await tls.start(server_context(cert, key))
    try:
        url = f"wss://127.0.0.1:{tls.port}/"
        modern = ssl.create_default_context(cafile=cert)
        modern.maximum_version = ssl.TLSVersion.TLSv1_2
        await hello(url, ssl=modern)
        cbc = ssl.create_default_context(cafile=cert)
        cbc.maximum_version = ssl.TLSVersion.TLSv1_2
        cbc.set_ciphers("ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384:ECDHE-RSA-AES128-SHA")
        with pytest.raises((ssl.SSLError, ConnectionResetError)):  # no suite in common
            await hello(url, ssl=cbc)
    finally:
        await tls.stop()


async def test_memory_is_given_back_once_a_burst_of_closes_is_over() -> None:
    giver = memory.MemoryReturn(closes=3, delay=0.1)
    giver.closed()
    giver.closed()
    await asyncio.sleep(0.2)
    assert giver.given_back == 0  # two closes: nothing to give back yet
    for _ in range(5):  # a burst: the closes go on, the giving back waits for their end
        giver.closed()
        await asyncio.sleep(0.05)
    assert giver.given_back == 0
    await asyncio.sleep(0.3)
    assert giver.given_back == 1 and giver.closed_since == 0
    await giver.stop()


async def test_the_server_gives_memory_back_after_many_connections_closed(
    make_server: ServerFactory,
) -> None:
    server = await make_server()
    server.memory.closes, server.memory.delay = 8, 0.1
    url = f"ws://127.0.0.1:{server.port}/"
    for _ in range(8):
        await hello(url)
    for _ in range(50):
        if server.memory.given_back:
            break
        await asyncio.sleep(0.05)
    assert server.memory.given_back == 1
    assert memory.GIVE_BACK is not None or sys.platform != "linux"  # glibc's malloc_trim
