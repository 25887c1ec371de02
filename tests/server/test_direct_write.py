"""A frame for an idle connection goes to its socket at once, not through the writer task's
queue (server/net/connection.py); a peer that lets its unread bytes reach the bound gets the queue,
with its limits (tests/server/test_abuse.py closes such a reader)."""

from __future__ import annotations

import pytest

from protocol.codec import encode
from protocol.messages import Error
from server.net import connection
from tests.conftest import Client, ServerFactory


async def test_a_frame_for_an_idle_connection_is_written_at_once(
    make_server: ServerFactory,
) -> None:
    server = await make_server()
    client = await Client.connect(server.port, "Ana")
    (conn,) = server.connections.values()
    sent = conn.ws.protocol.data_to_send  # what websockets still holds for the socket
    conn.send(encode(Error("internal_error", "a test frame")))
    assert not conn._queue and conn.queued_bytes == 0
    assert sent() == []  # handed to the socket, nothing left behind
    error = await client.expect(Error)
    assert error.message == "a test frame"


async def test_a_burst_arrives_whole_and_in_order(make_server: ServerFactory) -> None:
    server = await make_server(send_queue=10_000, send_queue_bytes=10_000_000)
    client = await Client.connect(server.port, "Ana")
    (conn,) = server.connections.values()
    padding = "x" * 2000
    for i in range(2000):  # more than the socket takes at once: some of it queues
        conn.send(encode(Error("internal_error", f"{i} {padding}")))
    for i in range(2000):
        error = await client.expect(Error)
        assert error.message.split()[0] == str(i)


async def test_the_kernel_is_asked_only_near_the_bound(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unread bytes grow by no more than what was written: until that sum nears the bound
    the answer is known, and the ioctl is not made."""
    asked: list[int] = []
    import fcntl

    class Counting:
        def ioctl(self, fd: int, request: int, arg: bytes) -> bytes:
            asked.append(fd)
            return fcntl.ioctl(fd, request, arg)

    monkeypatch.setattr(connection, "fcntl", Counting())
    server = await make_server(send_queue_bytes=4_000)
    client = await Client.connect(server.port, "Ana")
    (conn,) = server.connections.values()
    frame = encode(Error("internal_error", "x" * 400))
    for _ in range(6):  # about 2,900 bytes counted: the first frame asks, no other
        conn.send(frame)
        await client.expect(Error)
    assert len(asked) == 1
    for _ in range(6):  # past the bound as counted: asked again, then counted from its answer
        conn.send(frame)
        await client.expect(Error)
    assert len(asked) == 2
