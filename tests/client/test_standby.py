"""A server with a standby: the client is given several addresses of one service, tries them in
turn (a pause only after a whole round), goes to whichever serves, takes its seat back there, and
keeps its seats and login token under the first address. An address that can never work does not
end the session while another one may."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.cli.options import build_parser
from client.cli.play import (
    AddressError,
    main,
    run_client,
    server_urls,
    tls_contexts,
)
from client.cli.run import Client
from client.files.login_tokens import LoginTokens
from client.files.seats import SeatStore
from client.files.service_addresses import ServiceAddresses
from client.model.state import ClientState
from client.net.connection import Session
from server.net.app import KahunaServer
from tests.client.test_app import TIMEOUT, Player, until
from tests.client.test_history import play_a_turn, start_against_the_computer
from tests.client.test_restart import free_port
from tests.conftest import ServerFactory, server_config

QUICK = (0.01, 0.02, 0.05)  # the pauses between rounds, short for the tests


def nobody() -> str:
    """An address on this machine where nothing listens: every try is refused at once."""
    return f"ws://127.0.0.1:{free_port()}"


async def run_until(
    args: argparse.Namespace,
    state: ClientState,
    check: Callable[[], bool],
    what: str,
    timeout: float = TIMEOUT,
) -> None:
    """kahuna-client with `args` on a pipe, until `check()`; then Ctrl-Q, and it ends with 0."""
    with create_pipe_input() as pipe:
        task = asyncio.get_running_loop().create_task(
            run_client(args, input=pipe, output=DummyOutput(), state=state)
        )
        try:
            await until(check, what, timeout)
            pipe.send_bytes(b"\x11")  # Ctrl-Q
            assert await asyncio.wait_for(task, 5) == 0
        finally:
            task.cancel()


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


async def test_the_addresses_the_server_names_join_the_round(make_server: ServerFactory) -> None:
    standby = nobody()
    server = await make_server(addresses=(standby, "ws://127.0.0.1:1"))
    first = f"ws://127.0.0.1:{server.port}"
    state = ClientState(name="Ann")
    async with running(Session([first], state)) as session:
        await until(lambda: state.connected, "the welcome", 5)
        assert session.urls == (first, standby, "ws://127.0.0.1:1")


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


async def test_the_session_follows_the_service_to_its_standby(tmp_path: Path) -> None:
    """Server A serves, B (same database) takes over after A is gone: the client reconnects to B
    by itself and takes its seat back; the seat stays in the file under A's address."""
    db = str(tmp_path / "db.sqlite3")
    a_port, b_port = free_port(), free_port()
    a_url, b_url = f"ws://127.0.0.1:{a_port}", f"ws://127.0.0.1:{b_port}"
    store = SeatStore(tmp_path / "seats.json")
    first = KahunaServer(server_config(port=a_port, db=db))
    await first.start()
    standby: KahunaServer | None = None
    try:
        with create_pipe_input() as pipe:
            state = ClientState(name="Ann")
            client = Client(
                [a_url, b_url], state, input=pipe, output=DummyOutput(), seats=store, quiet=True
            )
            client.session.backoff = QUICK
            task = asyncio.get_running_loop().create_task(client.run())
            try:
                await until(lambda: state.connected, "the connection to A")
                ann = Player(client, pipe)
                await start_against_the_computer(ann)
                await play_a_turn(ann)
                table, token, version = state.table_id, state.token, state.version
                assert table is not None and token is not None
                await until(lambda: table in store.seats(a_url, "Ann"), "the seat kept")
                await first.stop()
                await until(lambda: not state.connected, "the drop")
                # B is not there yet either: the client goes round both and waits
                await until(lambda: client.session.rounds >= 2, "two rounds", 5)
                standby = KahunaServer(server_config(port=b_port, db=db))
                await standby.start()
                await until(lambda: state.connected, "the reconnection to B", 5)
                assert client.session.url == b_url
                # the seat is back once the reclaim's state is in: the version alone is the same
                # before it (the takeover changed nothing), the turn's message comes with it
                await until(lambda: state.message.startswith("Your turn"), "the seat back", 5)
                assert state.pending is None and state.version == version
                assert state.table_id == table and state.token == token
                assert state.screen == "game"
                # told in the table's log, after the story so far
                assert state.log[-1].text == (
                    f"Now connected to {b_url}, another address of this server."
                )
                # the seat file knows the service by its first address, never by B's
                assert store.seats(a_url, "Ann") == {table: ("white", token)}
                assert store.seats(b_url) == {}
                await play_a_turn(ann)  # and the game goes on at B
                assert store.seats(b_url) == {}
            finally:
                client.ui.quit()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 5)
    finally:
        await first.stop()
        if standby is not None:
            await standby.stop()


async def test_the_login_token_is_kept_under_the_first_address(
    make_server: ServerFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    server = await make_server(password_cost="test")
    dead, alive = nobody(), f"ws://127.0.0.1:{server.port}"
    args = build_parser().parse_args(["--name", "Ann", "--register", "Ann", dead, alive])
    args.password = "Ann has a long password"
    state = ClientState()
    await run_until(args, state, lambda: state.accounts.account == "Ann", "Ann to register at B")
    tokens = LoginTokens(tmp_path / "kahuna" / "logins.json")
    kept = tokens.get(dead)
    assert kept is not None and kept[0] == "Ann" and tokens.get(alive) is None


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


# ----- the command line -------------------------------------------------------------------


def test_several_addresses_are_parsed_each_as_one() -> None:
    args = build_parser().parse_args(["a.example", "b.example:9000", "wss://c.example/k"])
    assert server_urls(args.urls) == [
        "ws://a.example:8765",
        "ws://b.example:9000",
        "wss://c.example/k",
    ]
    assert server_urls(build_parser().parse_args([]).urls) == ["ws://127.0.0.1:8765"]
    assert "standby" in build_parser().format_help()


def test_a_bad_address_among_several_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AddressError, match="not a number from 1 to 65535"):
        server_urls(["a.example", "b.example:99999"])
    with pytest.raises(SystemExit) as exit:
        main(["a.example", "b.example:99999"])
    assert exit.value.code == 2
    assert "'b.example:99999'" in capsys.readouterr().err


def test_ca_file_applies_to_the_wss_addresses_of_a_mix(tmp_path: Path) -> None:
    mixed = ["ws://a.example:8765", "wss://b.example:8765"]
    assert tls_contexts(argparse.Namespace(ca_file=None), mixed) is not None
    assert tls_contexts(argparse.Namespace(ca_file=None), mixed[:1]) is None
    with pytest.raises(AddressError, match="--ca-file is for a wss://"):
        tls_contexts(argparse.Namespace(ca_file=str(tmp_path / "ca.pem")), mixed[:1])
    with pytest.raises(AddressError, match="not a PEM certificate"):
        tls_contexts(argparse.Namespace(ca_file=str(tmp_path / "absent.pem")), mixed)


async def test_the_addresses_a_server_named_are_tried_on_a_later_run(
    make_server: ServerFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What welcome said the service's addresses are is kept under the first address, so that
    a later run given only that address finds the standby even when that address is down."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    port = free_port()
    served, standby = f"ws://127.0.0.1:{port}", nobody()
    await make_server(port=port, addresses=(served, standby))
    state = ClientState()
    args = build_parser().parse_args(["--name", "Ann", served])
    await run_until(args, state, lambda: state.connected, "the welcome", 5)
    known = ServiceAddresses(tmp_path / "kahuna" / "addresses.json")
    assert known.get(served) == [standby]
    # a later run given an address that is down, which named the served one as its standby
    down = nobody()
    known.keep(down, [served])
    state = ClientState()
    args = build_parser().parse_args(["--name", "Ann", down])
    await run_until(args, state, lambda: state.connected, "the welcome of the kept address", 8)
