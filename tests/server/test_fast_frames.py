"""The fast paths of the server's sockets give what websockets gives: a read of whole small
data frames cut into messages by FrameConnection itself (server/net/sockets.py) hands on the
same messages, and meets the same errors, as websockets' own parser; a frame written straight
to the socket (server/net/connection.py) has websockets' bytes. Raw bytes on a loopback socket,
each stream played with the fast path and without it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import pytest
from websockets.asyncio.connection import Connection as WsConnection
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from protocol.codec import decode_server, encode
from protocol.messages import Hello, LobbySubscribe, LobbyUnsubscribe
from server.net.connection import binary_frame
from server.net.sockets import FrameConnection
from tests.conftest import TIMEOUT, ServerFactory

HELLO = encode(Hello(2, "Ana"))
SUBSCRIBE = encode(LobbySubscribe())
UNSUBSCRIBE = encode(LobbyUnsubscribe())
# a message of 16-bit length (a second hello, which the core refuses)
LONG = encode(Hello(2, "x" * 300))


def frame(opcode: Opcode, data: bytes, fin: bool = True, mask: bool = True) -> bytes:
    return Frame(opcode, data, fin=fin).serialize(mask=mask)


def binary(data: bytes) -> bytes:
    return frame(Opcode.BINARY, data)


async def play(port: int, chunks: list[bytes]) -> list[str]:
    """Writes the handshake and a hello, then each chunk as a write of its own; what the
    server answered: each message's type (and an error's code), pongs, the close's code."""
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}"))
    protocol.send_request(protocol.connect())
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"".join(protocol.data_to_send()) + binary(HELLO))
    seen: list[str] = []

    async def read(until: int) -> None:
        async with asyncio.timeout(TIMEOUT):
            while len(seen) < until:
                chunk = await reader.read(65536)
                if not chunk:
                    seen.append("end")
                    return
                protocol.receive_data(chunk)
                for event in protocol.events_received():
                    if isinstance(event, Response):
                        assert event.status_code == 101
                    elif isinstance(event, Frame) and event.opcode is Opcode.BINARY:
                        message = decode_server(event.data)
                        seen.append(f"{message.TYPE} {getattr(message, 'code', '')}".strip())
                    elif isinstance(event, Frame) and event.opcode is Opcode.PONG:
                        seen.append(f"pong {bytes(event.data).decode()}")
                    elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                        seen.append(f"close {Close.parse(event.data).code}")
                        return

    await read(1)  # welcome
    for chunk in chunks:
        writer.write(chunk)
        await writer.drain()
        await asyncio.sleep(0.02)  # most often a read of its own
    writer.write(binary(UNSUBSCRIBE) + binary(SUBSCRIBE))  # the end, when nothing closed
    with contextlib.suppress(TimeoutError):  # all of it answered, or the connection closed
        async with asyncio.timeout(0.5):
            await read(10_000)
    writer.close()
    return seen


def split(data: bytes, *cuts: int) -> list[bytes]:
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


STREAMS = {
    "several frames in one read": [binary(SUBSCRIBE) + binary(UNSUBSCRIBE) + binary(SUBSCRIBE)],
    "a frame cut between reads": split(binary(SUBSCRIBE) + binary(LONG), 3, 9, 40),
    "a 16-bit length": [binary(LONG) + binary(SUBSCRIBE)],
    "a ping between frames": [binary(SUBSCRIBE) + frame(Opcode.PING, b"p1") + binary(HELLO)],
    "a fragmented message": [
        frame(Opcode.BINARY, SUBSCRIBE[:2], fin=False)
        + frame(Opcode.CONT, SUBSCRIBE[2:])
        + binary(UNSUBSCRIBE)
    ],
    "a text frame, then bad UTF-8": [
        frame(Opcode.TEXT, b"hi") + frame(Opcode.TEXT, b"\xff") + binary(SUBSCRIBE)
    ],
    "an unmasked frame": [binary(SUBSCRIBE) + frame(Opcode.BINARY, SUBSCRIBE, mask=False)],
    "a frame over the limit": [binary(SUBSCRIBE) + binary(b"\x80" + b"y" * 600)],
    "a close": [binary(SUBSCRIBE) + frame(Opcode.CLOSE, Close(1000, "bye").serialize())],
    "a continuation of nothing": [frame(Opcode.CONT, SUBSCRIBE) + binary(SUBSCRIBE)],
}


@pytest.mark.parametrize("name", list(STREAMS))
async def test_the_fast_path_answers_as_websockets_does(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    server = await make_server(hard_max_frame=500)
    fast = await play(server.port, STREAMS[name])
    monkeypatch.setattr(FrameConnection, "_whole_frames", lambda self, data: 0)
    slow = await play(server.port, STREAMS[name])
    assert fast == slow
    assert len(fast) >= 2, fast


async def test_whole_small_frames_skip_websockets_parser(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[bytes] = []
    websockets_read = WsConnection.data_received

    def counting(self: WsConnection, data: bytes) -> None:
        parsed.append(data)
        websockets_read(self, data)

    server = await make_server()
    monkeypatch.setattr(WsConnection, "data_received", counting)
    seen = await play(server.port, [binary(SUBSCRIBE) + binary(UNSUBSCRIBE), binary(LONG)])
    assert seen[:4] == ["welcome", "lobby", "error already_greeted", "lobby"], seen
    assert len(parsed) <= 2  # the handshake (and the hello, when it came with it): no more


async def test_the_parser_is_idle_only_between_frames(make_server: ServerFactory) -> None:
    """What the fast path asks of websockets' parser (one of its internals): at the start of
    a frame, yes; two bytes into one, with nothing buffered, no."""
    server = await make_server()
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{server.port}"))
    protocol.send_request(protocol.connect())
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"".join(protocol.data_to_send()) + binary(HELLO))
    async with asyncio.timeout(TIMEOUT):
        while not server.connections:
            await asyncio.sleep(0.001)
        (conn,) = server.connections.values()
        ws = conn.ws
        assert isinstance(ws, FrameConnection)
        while not ws._parser_idle():  # the hello read
            await asyncio.sleep(0.001)
        subscribe = binary(SUBSCRIBE)
        writer.write(subscribe[:2])
        while ws._parser_idle():
            await asyncio.sleep(0.001)
        assert not ws.protocol.reader.buffer  # two bytes in, nothing held: still no
        writer.write(subscribe[2:])
        while not ws._parser_idle():
            await asyncio.sleep(0.001)
    writer.close()
    del reader


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70_000])
def test_a_frame_written_at_once_has_websockets_bytes(length: int) -> None:
    data = bytes(range(256)) * (length // 256) + bytes(length % 256)
    assert binary_frame(data) == Frame(Opcode.BINARY, data).serialize(mask=False)
