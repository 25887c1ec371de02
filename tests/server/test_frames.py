"""Messages reach the core in the callback that read them (server/net/app.py FrameConnection):
whole, in order, fragmented or not, and those that arrive with the handshake itself, before the
connection's session begins, wait for it. Tested on raw bytes written to a loopback socket, so
that a handshake and its first frames can share one TCP segment."""

from __future__ import annotations

import asyncio

from websockets.client import ClientProtocol
from websockets.frames import Close, CloseCode, Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from protocol.codec import decode_server, encode
from protocol.messages import (
    Error,
    Hello,
    LobbySubscribe,
    LobbyUnsubscribe,
    ServerMessage,
    Welcome,
)
from server.net.sockets import EARLY_MESSAGES, MESSAGES_AT_ONCE, FairTurns
from tests.conftest import TIMEOUT, Client, ServerFactory


class RawClient:
    """A WebSocket client whose bytes are written exactly as the test puts them together."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}"))
        self.messages: list[ServerMessage] = []
        self.close: Close | None = None
        self.ended = False  # the server closed the socket
        self.writer: asyncio.StreamWriter | None = None
        self.reader: asyncio.StreamReader | None = None

    def handshake(self) -> bytes:
        self.protocol.send_request(self.protocol.connect())
        return b"".join(self.protocol.data_to_send())

    async def write(self, data: bytes) -> None:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(data)

    async def read(self, until: int) -> None:
        """Read until `until` messages came in all or the server closed."""
        assert self.reader is not None
        async with asyncio.timeout(TIMEOUT):
            while len(self.messages) < until and self.close is None and not self.ended:
                chunk = await self.reader.read(65536)
                self.ended = not chunk
                self.protocol.receive_data(chunk) if chunk else self.protocol.receive_eof()
                for event in self.protocol.events_received():
                    if isinstance(event, Response):
                        assert event.status_code == 101
                    elif isinstance(event, Frame) and event.opcode is Opcode.BINARY:
                        self.messages.append(decode_server(event.data))
                    elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                        self.close = Close.parse(event.data)

    def stop(self) -> None:
        if self.writer is not None:
            self.writer.close()


def frame(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
    return Frame(opcode, data, fin=fin).serialize(mask=True)


def binary(message: Hello | LobbySubscribe | LobbyUnsubscribe) -> bytes:
    return frame(Opcode.BINARY, encode(message))


async def test_messages_that_come_with_the_handshake_are_answered_in_order(
    make_server: ServerFactory,
) -> None:
    server = await make_server()
    raw = RawClient(server.port)
    await raw.write(raw.handshake() + binary(Hello(2, "Ana")) + binary(LobbySubscribe()))
    await raw.read(until=2)
    raw.stop()
    assert isinstance(raw.messages[0], Welcome)
    assert [m.TYPE for m in raw.messages[:2]] == ["welcome", "lobby"]


async def test_too_many_messages_before_the_session_end_the_connection(
    make_server: ServerFactory,
) -> None:
    server = await make_server()
    raw = RawClient(server.port)
    await raw.write(raw.handshake() + binary(LobbySubscribe()) * (EARLY_MESSAGES + 10))
    await raw.read(until=10_000)
    raw.stop()
    assert raw.ended or (raw.close is not None and raw.close.code == CloseCode.POLICY_VIOLATION)
    assert raw.messages == []  # none of it was decided on
    client = await Client.connect(server.port, "Bo")  # and the server serves others
    await client.send(LobbySubscribe())
    assert (await client.recv()).TYPE == "lobby"


async def test_a_fragmented_message_is_one_message(make_server: ServerFactory) -> None:
    server = await make_server()
    raw = RawClient(server.port)
    hello = encode(Hello(2, "Ana"))
    parts = frame(Opcode.BINARY, hello[:3], fin=False) + frame(Opcode.CONT, hello[3:7], fin=False)
    parts += frame(Opcode.CONT, hello[7:])
    await raw.write(raw.handshake())
    await raw.read(until=0)
    await raw.write(parts + binary(LobbySubscribe()))
    await raw.read(until=2)
    raw.stop()
    assert [m.TYPE for m in raw.messages[:2]] == ["welcome", "lobby"]


async def test_a_text_frame_is_refused_and_bad_utf8_closes(make_server: ServerFactory) -> None:
    server = await make_server()
    for text, refused in ((b"hi", True), (b"\xff\xfe", False)):
        raw = RawClient(server.port)
        await raw.write(raw.handshake() + binary(Hello(2, "Ana")))
        await raw.read(until=1)
        await raw.write(frame(Opcode.TEXT, text))
        await raw.read(until=2)
        raw.stop()
        if refused:
            error = raw.messages[1]
            assert isinstance(error, Error) and error.code == "text_frame"
        else:
            assert raw.close is not None and raw.close.code == CloseCode.INVALID_DATA


async def test_many_messages_in_one_read_are_all_answered_in_order(
    make_server: ServerFactory,
) -> None:
    """More messages in one read than are handed on at once wait their turns (FairTurns),
    the socket unread meanwhile, and every one is answered, in order."""
    server = await make_server()
    raw = RawClient(server.port)
    await raw.write(raw.handshake() + binary(Hello(2, "Ana")))
    await raw.read(until=1)
    count = 10 * MESSAGES_AT_ONCE + 3
    asks = [LobbySubscribe() if i % 2 == 0 else LobbyUnsubscribe() for i in range(count)]
    await raw.write(b"".join(frame(Opcode.BINARY, encode(m, 2)) for m in asks))
    await raw.write(binary(Hello(2, "again")))  # answered last: already_greeted
    subscribes = (count + 1) // 2
    await raw.read(until=1 + subscribes + 1)
    raw.stop()
    kinds = [m.TYPE for m in raw.messages[1:]]
    assert kinds == ["lobby"] * subscribes + ["error"], kinds
    last = raw.messages[-1]
    assert isinstance(last, Error) and last.code == "already_greeted"


def test_fair_turns_give_each_address_one_batch_a_turn() -> None:
    """The order of the turns: every address's first waiting connection hands on a batch, then
    goes to the back of its address's line; an address's many connections do not get more."""
    handed: list[str] = []

    class Waiting:
        def __init__(self, name: str, address: str, batches: int) -> None:
            self.name, self.gate_address, self.batches = name, address, batches

        def hand_on_some(self, most: int) -> bool:
            handed.append(self.name)
            self.batches -= 1
            return self.batches > 0

    async def run() -> None:
        turns = FairTurns()
        for conn in (Waiting("a1", "A", 2), Waiting("a2", "A", 2), Waiting("b1", "B", 1)):
            turns.want(conn)  # type: ignore[arg-type]
        while turns.waiting:
            await asyncio.sleep(0)

    asyncio.run(run())
    assert handed == ["a1", "b1", "a2", "a1", "a2"]
