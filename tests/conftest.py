"""Helpers for the server tests: a server on a free port of 127.0.0.1 and a scripted client."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConcurrencyError, ConnectionClosed

from protocol.codec import CLIENT_MAX_FRAME, decode_server, encode
from protocol.fields import PROTOCOL_VERSION, TableOptions
from protocol.messages import (
    ClientMessage,
    Command,
    CreateTable,
    Error,
    Hello,
    Joined,
    PlayersChanged,
    ServerMessage,
    State,
    Update,
    Welcome,
)
from server.core.config import ServerConfig
from server.core.store import Storage
from server.net.app import KahunaServer
from server.storage.storage_open import open_storage
from shared.actions import Undo
from shared.legality import legal_actions
from shared.randomness import SeededSource
from shared.views import SeatView, seat_view_from_dict
from tests.postgres import MISSING as POSTGRES_MISSING
from tests.postgres import Cluster
from tests.server.smtp import smtp

__all__ = ["smtp"]  # a real SMTP server on 127.0.0.1 for the mail tests (tests/server/smtp.py)

T = TypeVar("T")
TIMEOUT = 10.0


def server_config(**overrides: Any) -> ServerConfig:
    seeds = itertools.count(1000)
    base = ServerConfig(
        host="127.0.0.1",
        port=0,
        computer_delay=0.0,
        ping_interval=None,
        ping_timeout=None,
        rate=1000.0,
        burst=1000,
        flood_limit=1000,
        max_per_address=1000,
        waiting_per_address=1000,  # every test client is at 127.0.0.1
        registrations_per_hour=0,  # the tests' accounts are many, from few addresses
        new_account_quiet=0.0,  # and speak at once; tests/server/test_login_throttle.py: both
        source_factory=lambda: SeededSource(next(seeds)),
        rng=random.Random(7),
    )
    return attrs.evolve(base, **overrides)


ServerFactory = Callable[..., Awaitable[KahunaServer]]


@contextlib.asynccontextmanager
async def servers_made() -> AsyncIterator[ServerFactory]:
    """A factory of started servers, each stopped at the end, in the event loop this is
    entered in: the servers' tasks must run in the loop of the test that talks to them."""
    loop = asyncio.get_running_loop()
    servers: list[KahunaServer] = []

    async def factory(**overrides: Any) -> KahunaServer:
        if asyncio.get_running_loop() is not loop:
            raise RuntimeError(
                "make_server was called from another event loop than its fixture's: an async"
                ' fixture of tests/web needs @pytest_asyncio.fixture(loop_scope="session")'
                " (tests/web/conftest.py)"
            )
        server = KahunaServer(server_config(**overrides))
        await server.start()
        servers.append(server)
        return server

    yield factory
    for server in servers:
        await server.stop()


@pytest.fixture
async def make_server() -> AsyncIterator[ServerFactory]:
    async with servers_made() as factory:
        yield factory


@pytest.fixture
async def server(make_server: ServerFactory) -> KahunaServer:
    return await make_server()


class Client:
    """A scripted client that records every frame it receives, bytes and all."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[bytes] = []
        self.backlog: list[ServerMessage] = []

    @classmethod
    async def connect(
        cls, port: int, name: str | None = "Tester", version: int = PROTOCOL_VERSION
    ) -> Client:
        ws = await connect(
            f"ws://127.0.0.1:{port}", max_size=CLIENT_MAX_FRAME, compression=None, open_timeout=5
        )
        client = cls(ws)
        if name is not None:
            await client.send(Hello(version, name))
            await client.expect(Welcome)
        return client

    async def send(self, message: ClientMessage) -> None:
        await self.ws.send(encode(message))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = TIMEOUT) -> ServerMessage:
        if self.backlog:
            return self.backlog.pop(0)
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "the server sends binary frames only"
        self.frames.append(data)
        return decode_server(data)

    async def expect(self, kind: type[T], timeout: float = TIMEOUT) -> T:
        """The next message of this type; the ones skipped stay in order for later."""
        skipped: list[ServerMessage] = []
        try:
            while True:
                message = await self.recv(timeout)
                if isinstance(message, kind):
                    return message
                skipped.append(message)
        finally:
            self.backlog[:0] = skipped

    async def expect_error(self, code: str, timeout: float = TIMEOUT) -> Error:
        error = await self.expect(Error, timeout)
        assert error.code == code, error
        return error

    async def quiet(self, timeout: float = 0.2) -> list[ServerMessage]:
        """Whatever arrives within `timeout` (for checking nothing more came)."""
        out = list(self.backlog)
        self.backlog.clear()
        with_timeout = True
        while with_timeout:
            try:
                out.append(await self.recv(timeout))
            except TimeoutError:
                with_timeout = False
        return out

    async def close(self) -> None:
        """The closing handshake, reading on meanwhile: past 16 frames left unread, websockets
        stops reading the socket, and the server's answer to the close would be seen only at
        the close timeout, ten seconds on. What is read now is dropped (not in `frames`: it
        was never received by the test)."""
        closing = asyncio.ensure_future(self.ws.close())
        with contextlib.suppress(ConnectionClosed, ConcurrencyError):  # (a reader of its own)
            async for _ in self.ws:
                pass
        await closing


async def create_table(
    client: Client,
    *,
    vs_computer: bool = False,
    seat: str | None = "white",
    first: str = "white",
    options: TableOptions | None = None,
    level: str = "easy",
) -> tuple[Joined, State]:
    """Create a table; against the computer, the easy one by default (a search takes up to a
    second a decision, too long for most tests)."""
    await client.send(
        CreateTable(options or TableOptions(), vs_computer, seat, first, level=level)  # type: ignore[arg-type]
    )
    joined = await client.expect(Joined)
    state = await client.expect(State)
    return joined, state


async def play_random(
    client: Client,
    table_id: str,
    rng: random.Random,
    start: State | None = None,
    max_actions: int | None = None,
    undo_rate: float = 0.0,
) -> SeatView:
    """Play this seat with random legal actions chosen from the client's own view, to the end
    of the game (or `max_actions` of its own actions); check that versions grow by one with no
    gap. With `undo_rate`, a play of the turn is taken back that often (version 2). Returns the
    last view."""
    state = start if start is not None else await client.expect(State)
    version, view = state.version, seat_view_from_dict(state.view)
    status = state.status
    acted = 0
    for _ in range(10_000):
        if view.public.result is not None or (max_actions is not None and acted >= max_actions):
            return view
        ctx = view.turn_context()
        if ctx is not None and status != "waiting":
            action = rng.choice(legal_actions(ctx))
            if ctx.undoable and rng.random() < undo_rate:
                action = Undo(rng.random() < 0.3)
            await client.send(Command(table_id, version, str(action)))
            acted += 1
        while True:
            message = await client.recv()
            if isinstance(message, Update) and message.table_id == table_id:
                assert message.version == version + 1, (message.version, version)
                version, view = message.version, seat_view_from_dict(message.view)
                break
            if isinstance(message, State) and message.table_id == table_id:
                status = message.status
                version, view = message.version, seat_view_from_dict(message.view)
                break
            if isinstance(message, Error):
                raise AssertionError(f"unexpected error {message}")
            if isinstance(message, PlayersChanged) and message.table_id == table_id:
                started = status == "waiting" and message.status == "playing"
                status = message.status
                if started:
                    break
    raise AssertionError("the game did not end")


# ----- the storage's two databases -------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A real PostgreSQL for the whole run (tests/postgres.py), started at its first use."""
    try:
        cluster = Cluster()
    except FileNotFoundError:
        pytest.skip(POSTGRES_MISSING)
    yield cluster
    cluster.stop()


@attrs.frozen
class Backend:
    """A database of one kind for one test: `db` is what --db would say."""

    kind: str  # "sqlite" or "postgresql"
    db: str

    def open(self) -> Storage:
        return open_storage(self.db)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """Each database the server can keep its games in, a new empty one, in turn."""
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "server.sqlite3"))
    cluster: Cluster = request.getfixturevalue("postgres")
    return Backend("postgresql", cluster.database())
