"""The server picker (client/screens/picker.py): started with no address and nothing answering on
this machine, the client lists the LAN's Kahuna servers, live, to pick one with the arrows and
Enter, or to type an address.

As in tests/server/test_discovery.py, all multicast stays on the loopback interface (every
browser and announcer with interfaces ["127.0.0.1"], --lan-interface 127.0.0.1), the servers
have unique names (other servers announced on this machine's loopback meanwhile may be listed
too, and are stepped over), and every wait is bounded. The picker runs headless: a pipe
for its keys and a dummy output; what it shows is read from its drawing at 80x24."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import attrs
import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.cli.options import build_parser
from client.cli.play import run_client, server_url
from client.model.state import ClientState
from client.net.discovery import LanServer
from client.screens import picker
from client.screens.picker import ServerPicker, answers, choose_server, render_picker
from tests.client.test_app import until
from tests.client.test_restart import free_port
from tests.conftest import ServerFactory
from tests.server.test_discovery import LOOPBACK, WAIT, announce, unique

DOWN, UP, END, ESC = "\x1b[B", "\x1b[A", "\x1b[F", "\x1b"


def screen(p: ServerPicker) -> str:
    return p.draw(80, 24).text()


@attrs.define
class Running:
    picker: ServerPicker
    pipe: PipeInput
    task: asyncio.Task[str | None]


@contextlib.asynccontextmanager
async def running(**kwargs: Any) -> AsyncIterator[Running]:
    with create_pipe_input() as pipe:
        p = ServerPicker(LOOPBACK, server_url, input=pipe, output=DummyOutput(), **kwargs)
        task = asyncio.get_running_loop().create_task(p.run())
        try:
            await until(lambda: p.app.is_running, "the picker")
            yield Running(p, pipe, task)
        finally:
            p.quit()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)


async def select(p: ServerPicker, pipe: PipeInput, name: str) -> LanServer:
    """Move the cursor with the arrow keys onto the server of that name."""

    def on_it() -> bool:
        item = p.selected()
        return isinstance(item, LanServer) and item.name == name

    for _ in range(50):
        if on_it():
            break
        at = p.cursor()
        mine = next(i for i, s in enumerate(p.servers()) if s.name == name)
        pipe.send_text(DOWN if mine > at else UP)

        def moved(at: int = at) -> bool:
            return p.cursor() != at or on_it()

        await until(moved, "the cursor to move")
    item = p.selected()
    assert isinstance(item, LanServer) and item.name == name
    return item


def row(p: ServerPicker, name: str) -> str:
    return next(line for line in screen(p).splitlines() if name in line)


# ----- the picker on the LAN (loopback) ---------------------------------------------------------


async def test_servers_are_listed_as_they_come_and_go_and_enter_picks_one(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    staying, going = unique("Staying"), unique("Going")
    one = await make_server(server_name=staying)
    two = await make_server(server_name=going)
    async with running() as run:
        p = run.picker
        redraws: list[None] = []
        invalidate = p.app.invalidate

        def counted() -> None:
            redraws.append(None)
            invalidate()

        monkeypatch.setattr(p.app, "invalidate", counted)
        assert "Searching the LAN (127.0.0.1) for Kahuna servers..." in screen(p)
        assert "Type an address..." in screen(p)
        first = await announce(one, staying)
        second = await announce(two, going)
        try:
            await until(
                lambda: staying in screen(p) and going in screen(p), "both servers listed", WAIT
            )
            assert redraws  # the browser's news redraws the screen
            assert row(p, staying).split() == [
                *staying.split(),
                f"ws://127.0.0.1:{one.port}",
                *"0 tables, 0 free seats".split(),
            ]
            assert f"ws://127.0.0.1:{two.port}" in row(p, going)
            await select(p, run.pipe, going)
            await select(p, run.pipe, staying)
        finally:
            await second.stop()
        # the one that stopped goes from the list; the cursor stays on the one it is on
        await until(lambda: going not in screen(p), "the stopped server to go", WAIT)
        assert "> " + staying in screen(p)
        run.pipe.send_text("\r")
        try:
            assert await asyncio.wait_for(run.task, 5) == f"ws://127.0.0.1:{one.port}"
        finally:
            await first.stop()


async def test_with_no_address_and_nothing_here_the_client_picks_from_the_lan_and_connects(
    make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kahuna-client --lan-interface 127.0.0.1, with nothing on the default port: the picker,
    on that interface; the server picked is connected to as if its URL had been given."""
    name = unique("Picked")
    server = await make_server(server_name=name)
    port = free_port()
    monkeypatch.setattr("client.cli.play.DEFAULT_PORT", port)  # nothing there
    shown: list[ServerPicker] = []

    class Recorded(ServerPicker):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            shown.append(self)

    monkeypatch.setattr(picker, "ServerPicker", Recorded)
    args = build_parser().parse_args(["--name", "Ann", "--lan-interface", "127.0.0.1"])
    state = ClientState()
    announcer = await announce(server, name)
    try:
        with create_pipe_input() as pipe:
            task = asyncio.get_running_loop().create_task(
                run_client(args, input=pipe, output=DummyOutput(), state=state)
            )
            try:
                await until(lambda: bool(shown) and shown[0].app.is_running, "the picker")
                p = shown[0]
                assert p.interfaces == ["127.0.0.1"]
                assert f"answers on this machine (ws://127.0.0.1:{port})." in screen(p)
                await until(lambda: name in screen(p), "the server in the list", WAIT)
                await select(p, pipe, name)
                pipe.send_text("\r")
                await until(lambda: state.connected, "the connection to the server picked")
                assert state.server == name
                pipe.send_bytes(b"\x11")  # Ctrl-Q
                assert await asyncio.wait_for(task, 5) == 0
            finally:
                task.cancel()
    finally:
        await announcer.stop()


# ----- typing an address, quitting ---------------------------------------------------------------


async def test_an_address_can_be_typed_instead_and_a_wrong_one_is_said() -> None:
    async with running() as run:
        p = run.picker
        run.pipe.send_text(END)  # "Type an address...", after any server listed meanwhile
        await until(lambda: p.selected() == picker.ADDRESS, "the address item")
        run.pipe.send_text("\r")
        await until(lambda: p.typing, "the address line")
        run.pipe.send_text("127.0.0.1:99999\r")
        await until(lambda: "not a number from 1 to 65535" in screen(p), "the refusal")
        assert p.buffer.text == "127.0.0.1:99999" and not run.task.done()
        run.pipe.send_bytes(b"\x03")  # Ctrl-C clears the line
        await until(lambda: p.buffer.text == "", "the line cleared")
        run.pipe.send_text("192.0.2.7\r")
        assert await asyncio.wait_for(run.task, 5) == "ws://192.0.2.7:8765"


async def test_typing_starts_an_address_esc_goes_back_and_esc_quits() -> None:
    async with running() as run:
        p = run.picker
        run.pipe.send_text("ws://h:1")
        await until(lambda: p.buffer.text == "ws://h:1", "the typed address")
        assert p.typing
        run.pipe.send_text(ESC)
        await until(lambda: not p.typing, "back to the list")
        run.pipe.send_text(ESC)
        assert await asyncio.wait_for(run.task, 5) is None


async def test_ctrl_q_quits_with_nothing_picked() -> None:
    with create_pipe_input() as pipe:
        task = asyncio.get_running_loop().create_task(
            choose_server(
                f"ws://127.0.0.1:{free_port()}", LOOPBACK, server_url, input=pipe,
                output=DummyOutput(),
            )
        )  # fmt: skip
        await asyncio.sleep(0.2)
        pipe.send_bytes(b"\x11")
        assert await asyncio.wait_for(task, 5) == 0


async def test_a_lan_that_cannot_be_searched_is_said_and_an_address_still_works() -> None:
    with create_pipe_input() as pipe:
        p = ServerPicker(["192.0.2.1"], server_url, input=pipe, output=DummyOutput())
        task = asyncio.get_running_loop().create_task(p.run())
        await until(lambda: p.app.is_running, "the picker")
        assert p.problem is not None
        assert "Cannot search the LAN on 192.0.2.1:" in screen(p)
        assert "> Type an address..." in screen(p)
        pipe.send_text("\r10.1.2.3:9000\r")
        assert await asyncio.wait_for(task, 5) == "ws://10.1.2.3:9000"


# ----- the decision: no address and nothing on this machine -------------------------------------


async def test_a_server_on_this_machine_is_connected_to_without_the_picker() -> None:
    listening = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    url = f"ws://127.0.0.1:{port}"
    try:
        assert await answers(url)
        with create_pipe_input() as pipe:  # (were the picker shown, it would wait for keys)
            chosen = choose_server(url, LOOPBACK, server_url, input=pipe, output=DummyOutput())
            assert await asyncio.wait_for(chosen, 5) == url
    finally:
        listening.close()
        await listening.wait_closed()
    assert not await answers(url)


async def test_nothing_on_this_machine_shows_the_picker(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    async def nothing(url: str) -> bool:
        asked.append(url)
        return False

    async def picked(self: ServerPicker) -> str | None:
        assert self.interfaces == ["192.168.1.5"] and self.local_url == "ws://127.0.0.1:8765"
        return "ws://192.168.1.20:8765"

    monkeypatch.setattr(ServerPicker, "run", picked)
    with create_pipe_input() as pipe:
        url = await choose_server(
            "ws://127.0.0.1:8765", ["192.168.1.5"], server_url, input=pipe,
            output=DummyOutput(), probe=nothing,
        )  # fmt: skip
    assert url == "ws://192.168.1.20:8765" and asked == ["ws://127.0.0.1:8765"]


@pytest.mark.parametrize("argv", [["ws://127.0.0.1:1"], ["--local"]])
async def test_an_address_or_local_never_asks(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("asked for a server")

    monkeypatch.setattr(picker, "choose_server", never)
    args: argparse.Namespace = build_parser().parse_args(
        ["--name", "Ann", "--computer-delay", "0", *argv]
    )
    state = ClientState()
    with create_pipe_input() as pipe:
        task = asyncio.get_running_loop().create_task(
            run_client(args, input=pipe, output=DummyOutput(), state=state)
        )
        try:
            await until(lambda: state.connection != "", "the client to start")
            pipe.send_bytes(b"\x11")  # Ctrl-Q (in --local's game: asks first)
            await asyncio.sleep(0.2)
            pipe.send_bytes(b"\x11")
            assert await asyncio.wait_for(task, 5) == 0
        finally:
            task.cancel()


# ----- the drawing ------------------------------------------------------------------------------


def test_the_list_at_80x24() -> None:
    servers = [
        LanServer("Kahuna club", "192.168.1.20", 8765, tables=3, free=1),
        LanServer("Kitchen", "192.168.1.31", 9000, "wss", tables=1, free=2),
        LanServer("Quiet", "192.168.1.40", 8765),
    ]
    text = render_picker(servers, 1, 80, 24, local_url="ws://127.0.0.1:8765").text()
    lines = text.splitlines()
    assert lines[0].startswith(" KAHUNA  choose a server")
    assert "No Kahuna server answers on this machine (ws://127.0.0.1:8765)." in text
    assert "Searching the LAN for Kahuna servers... 3 found" in text
    assert "   Kahuna club  ws://192.168.1.20:8765   3 tables, 1 free seat" in lines
    assert " > Kitchen      wss://192.168.1.31:9000  1 table, 2 free seats" in lines
    assert "   Quiet        ws://192.168.1.40:8765   ? tables, ? free seats" in lines
    assert "   Type an address..." in lines
    assert all(len(line) <= 80 for line in lines)


def test_an_empty_list_says_what_is_not_seen_and_a_long_one_scrolls_to_the_cursor() -> None:
    text = render_picker([], 0, 80, 24).text()
    assert "> Type an address..." in text and "--no-announce" in text
    many = [LanServer(f"Server {i:02}", f"10.0.0.{i}", 8765) for i in range(40)]
    text = render_picker(many, 40, 80, 24).text()
    assert "> Type an address..." in text and "Server 39" in text and "Server 00" not in text


async def test_the_header_forgets_this_machine_once_its_server_answers_again() -> None:
    """The picker said no server answers on this machine; the list changed (that server came
    back, announcing itself): it is asked again, and the header no longer says it is away."""
    answers_now = False

    async def probe(url: str) -> bool:
        return answers_now

    with create_pipe_input() as pipe:
        p = ServerPicker(
            ["192.0.2.1"], server_url, local_url="ws://127.0.0.1:8765", input=pipe,
            output=DummyOutput(), probe=probe,
        )  # fmt: skip
        assert "No Kahuna server answers" in screen(p)
        p._changed()
        await asyncio.sleep(0)
        assert p.local_url is not None  # still away
        answers_now = True
        p._changed()
        await until(lambda: p.local_url is None, "the probe")
        assert "No Kahuna server answers" not in screen(p)
