"""A server with a standby: the session is given several addresses of one service, tries them
in turn (a pause only after a whole round) and goes to whichever serves. An address that can never
work does not end the session while another one may."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from client.connection import Session
from client.state import ClientState
from server.app import KahunaServer
from tests.client.test_app import until
from tests.client.test_restart import free_port

QUICK = (0.01, 0.02, 0.05)  # the pauses between rounds, short for the tests


def nobody() -> str:
    """An address on this machine where nothing listens: every try is refused at once."""
    return f"ws://127.0.0.1:{free_port()}"


@contextlib.asynccontextmanager
async def running(session: Session) -> AsyncIterator[Session]:
    session.backoff = QUICK
    session.start()
    try:
        yield session
    finally:
        await session.stop()


async def test_the_second_address_serves_when_the_first_has_nobody(server: KahunaServer) -> None:
    dead, alive = nobody(), f"ws://127.0.0.1:{server.port}"
    state = ClientState(name="Ann")
    async with running(Session([dead, alive], state)) as session:
        await until(lambda: state.connected, "the welcome of the second address", 5)
        assert session.url == alive and session.urls == (dead, alive)
        assert session.fatal is None and state.server


async def test_every_address_once_then_a_pause() -> None:
    a, b = nobody(), nobody()
    state = ClientState(name="Ann")
    tried: list[str] = []
    session = Session([a, b], state)

    def seen() -> None:
        if state.connection.startswith(("connecting to", "reconnecting to")):
            tried.append(state.connection.rpartition(" ")[2])
        elif state.connection.startswith("reconnecting in"):
            tried.append("pause")

    session.on_change = seen
    async with running(session):
        await until(lambda: session.attempts >= 6, "six tries", 5)
    assert tried[:9] == [a, b, "pause", a, b, "pause", a, b, "pause"]
    assert session.fatal is None and session.rounds >= 3


async def test_an_address_that_can_never_work_leaves_the_others(server: KahunaServer) -> None:
    # the server does not speak TLS: its wss:// address can never work, its ws:// one does
    plain = f"ws://127.0.0.1:{server.port}"
    secure = plain.replace("ws://", "wss://")
    state = ClientState(name="Ann")
    async with running(Session([secure, plain], state)) as session:
        await until(lambda: state.connected, "the welcome at the ws:// address", 5)
        assert session.fatal is None and session.url == plain
        assert "does not speak TLS" in session.broken[secure]


async def test_the_session_ends_when_every_address_can_never_work() -> None:
    state = ClientState(name="Ann")
    urls = ["http://127.0.0.1:1", "http://127.0.0.1:2"]  # not WebSocket addresses at all
    async with running(Session(urls, state)) as session:
        await until(lambda: session.fatal is not None, "the end", 5)
        assert session.fatal is not None
        assert session.fatal.count("bad server address") == 2 and "127.0.0.1:2" in session.fatal
        assert state.connection.startswith("stopped:")


def test_addresses_learnt_later_join_the_round() -> None:
    session = Session(["ws://a:1", "ws://b:1", "ws://a:1"], ClientState())
    assert session.urls == ("ws://a:1", "ws://b:1") and session.url == "ws://a:1"
    assert session.learn_addresses(["ws://b:1", "ws://c:1", "ws://c:1"]) == ("ws://c:1",)
    assert list(session.urls) == ["ws://a:1", "ws://b:1", "ws://c:1"]
    assert session.learn_addresses([]) == ()
