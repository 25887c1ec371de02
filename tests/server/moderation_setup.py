"""What the moderation tests (tests/server, tests/web and tests/client test_moderation.py) set up
alike: a database in which some accounts are moderators, the players and the moderator over real
sockets, a connection from another address on loopback, and a moderator's action refused."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from protocol.codec import CLIENT_MAX_FRAME, decode_server, encode
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import ClientMessage, Error, Hello, Welcome
from protocol.moderation_messages import Moderation
from protocol.player_messages import LoggedIn, Login, Register
from server.core.names import name_key
from server.core.store import ModeratorOp
from server.net.app import KahunaServer
from server.storage.storage_open import open_storage
from tests.conftest import Client, ServerFactory

WORDS = "long enough words"
NEIGHBOUR = "127.0.0.2"  # another address on loopback, beside the tests' 127.0.0.1


def moderators_db(path: Path, *names: str) -> str:
    """A new database in which these names' accounts, once registered, are moderators."""
    db = str(path / "db.sqlite3")
    storage = open_storage(db)
    storage.write([ModeratorOp(name_key(n), True, 1.0) for n in names])
    storage.close()
    return db


async def player(port: int, name: str, register: bool = True) -> Client:
    client = await Client.connect(port, name)
    await client.send(Register(name, WORDS) if register else Login(name, WORDS))
    await client.expect(LoggedIn)
    return client


async def moderation(
    client: Client, check: Callable[[Moderation], object] | None = None
) -> Moderation:
    """The next `moderation` (for which check(state) holds, if given)."""
    while True:
        state = await client.expect(Moderation)
        if check is None or check(state):
            return state


async def moderated(
    tmp_path: Path, make_server: ServerFactory, *others: str
) -> tuple[KahunaServer, Client]:
    """A server whose moderators are Mira (and `others`, not logged in), and Mira logged in,
    her panel at login read."""
    db = moderators_db(tmp_path, "Mira", *others)
    server = await make_server(db=db, password_cost="test")
    mod = await player(server.port, "Mira")
    await moderation(mod)
    return server, mod


async def refusal(client: Client, message: ClientMessage) -> str | None:
    """Why the server refused the message: the reason of the bad_moderation error it sent."""
    await client.send(message)
    return (await client.expect_error("bad_moderation")).reason


async def neighbour(port: int) -> tuple[Client | None, Error | None]:
    """A client from 127.0.0.2: connected and welcomed, or the error it was refused with."""
    ws = await connect(
        f"ws://127.0.0.1:{port}", compression=None, open_timeout=5,
        max_size=CLIENT_MAX_FRAME, local_addr=(NEIGHBOUR, 0),
    )  # fmt: skip
    with contextlib.suppress(ConnectionClosed):  # refused at once: the error came first
        await ws.send(encode(Hello(PROTOCOL_VERSION, "Neighbour")))
    try:
        first = decode_server(await asyncio.wait_for(ws.recv(), 5))
    except ConnectionClosed:
        return None, None
    if isinstance(first, Error):
        try:
            await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed:
            pass
        else:
            raise AssertionError("a refused connection stays open")
        return None, first
    assert isinstance(first, Welcome)
    return Client(ws), None
