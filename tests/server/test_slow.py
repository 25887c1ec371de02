"""A client that stops reading holds up nobody: its frames queue up to a limit, then it is cut."""

from __future__ import annotations

import asyncio
import random
from typing import Any, cast

from websockets.asyncio.server import ServerConnection

from protocol.codec import encode
from protocol.messages import Hello, Join, Joined, Spectate, State
from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory, create_table, play_random


class StuckSocket:
    """A WebSocket whose peer never reads: every send waits forever."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed_with: tuple[int, str] | None = None

    async def send(self, data: Any) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = (code, reason)


async def test_a_stuck_spectator_holds_up_no_game(make_server: ServerFactory) -> None:
    server: KahunaServer = await make_server(send_queue=8)
    white = await Client.connect(server.port, "Ana")
    black = await Client.connect(server.port, "Bo")
    joined, white_state = await create_table(white)
    # a spectator whose connection never drains, seated by hand
    stuck = StuckSocket()
    member = server.core.connect("203.0.113.9", 0.0)
    assert isinstance(member, int)
    conn = server.attach(member, cast(ServerConnection, stuck), "203.0.113.9")
    for message in (Hello(1, "Stuck"), Spectate(joined.table_id)):
        server.carry_out(server.core.frame(member, encode(message), 0.0, 0.0))
    await black.send(Join(joined.table_id, None))
    await black.expect(Joined)
    black_state = await black.expect(State)
    first, second = await asyncio.wait_for(
        asyncio.gather(
            play_random(white, joined.table_id, random.Random(1), start=white_state),
            play_random(black, joined.table_id, random.Random(2), start=black_state),
        ),
        timeout=30,
    )
    assert first.public.result is not None and second.public.result is not None
    await asyncio.sleep(0.05)
    assert conn.closing and stuck.closed_with is not None and stuck.closed_with[0] == 1008
    assert stuck.sent == 1  # its writer was stuck on the first frame all along
    await conn.stop()
