"""The whole client, headless: prompt-toolkit reads a pipe and draws to a dummy output, and talks
to a real server on 127.0.0.1. Keys and command lines are typed as a player would type them."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import attrs
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from client.cli.options import build_parser
from client.cli.play import run_client
from client.cli.run import Client
from client.files.seats import SeatStore
from client.model.commands import legal_now
from client.model.state import ClientState
from client.screens.app import KahunaApp
from protocol.fields import TableInfo
from protocol.messages import ClientMessage, Error, GetRecord, Record
from server.net.app import KahunaServer
from shared.actions import Place
from shared.board import ISLANDS
from shared.game import Result
from shared.types import Seat
from tests.client.test_render import known_state

TIMEOUT = 10.0


async def until(check: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@attrs.define
class Player:
    client: Client
    pipe: PipeInput

    @property
    def state(self) -> ClientState:
        return self.client.state

    def type(self, text: str) -> None:
        self.pipe.send_text(text)

    def line(self, text: str) -> None:
        self.pipe.send_text(text + "\r")


@contextlib.asynccontextmanager
async def player(
    server: KahunaServer,
    name: str,
    tmp: Path | None = None,
    seats: SeatStore | None = None,
    **state_fields: object,
) -> AsyncIterator[Player]:
    with create_pipe_input() as pipe:
        state = ClientState(name=name)
        for key, value in state_fields.items():
            setattr(state, key, value)
        client = Client(
            f"ws://127.0.0.1:{server.port}",
            state,
            input=pipe,
            output=DummyOutput(),
            save_dir=tmp,
            seats=seats,
        )
        async with driven(client, pipe, lambda: state.connected, f"{name} to connect") as p:
            yield p


@contextlib.asynccontextmanager
async def driven(
    client: Client, pipe: PipeInput, ready: Callable[[], object], what: str
) -> AsyncIterator[Player]:
    """The client run on a task of its own, the test's player once `ready` holds; quit when
    the test is done with it, and its end awaited a bounded time."""
    task = asyncio.get_running_loop().create_task(client.run())
    try:
        await until(ready, what)
        yield Player(client, pipe)
    finally:
        client.ui.quit()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)


async def new_table(p: Player, keys: str) -> None:
    """Open the new-table form (n) and, once it shows, press these keys in it ("\r" makes the
    table as the form stands; "c\r" first changes against the computer to against a person)."""
    p.type("n")
    await until(lambda: p.state.form_open, "the form")
    p.type(keys)


def a_place(p: Player) -> str:
    for action in legal_now(p.state.seat_view):
        if isinstance(action, Place):
            return str(action)
    raise AssertionError("no bridge to place")


async def test_create_join_play_and_refuse(server: KahunaServer, tmp_path: Path) -> None:
    async with player(server, "Ann", tmp_path) as ann, player(server, "Bob") as bob:
        # Ann creates a table for two people from the lobby form
        await until(lambda: ann.state.screen == "lobby", "Ann's lobby")
        await new_table(ann, "c")  # not against the computer
        await until(lambda: not ann.state.form.vs_computer, "the option")
        ann.type("\r")
        await until(lambda: ann.state.screen == "game", "Ann at her table")
        await until(lambda: ann.state.public is not None, "Ann's view")
        assert ann.state.seat is Seat.WHITE and ann.state.table_status == "waiting"
        # Bob sees it in his lobby, live, and joins it with Enter
        await until(lambda: len(bob.state.tables) == 1, "the table in Bob's lobby")
        bob.type("\r")
        await until(lambda: bob.state.seat is Seat.BLACK, "Bob seated")
        await until(lambda: ann.state.table_status == "playing", "the game to start")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        # an illegal command is refused with its reason and not sent
        version = ann.state.version
        hand = set(ann.state.seat_view.hand if ann.state.seat_view else ())
        missing = next(i for i in range(12) if i not in hand)
        ann.line(f"discard {ISLANDS[missing]}")
        await until(lambda: "Not sent" in ann.state.message, "the refusal")
        assert ann.state.message == f"Not sent: you have no {ISLANDS[missing]} card"
        assert ann.state.message_kind == "error"
        # the refused line stays on the command line, to be corrected; Ctrl-C clears it
        assert ann.client.ui.buffer.text == f"discard {ISLANDS[missing]}"
        ann.type("\x03")
        await until(lambda: ann.client.ui.buffer.text == "", "the line cleared")
        ann.line("draw please")
        await until(lambda: "takes nothing after it" in ann.state.message, "the notation error")
        assert ann.client.ui.buffer.text == "draw please"
        ann.type("\x03")
        await asyncio.sleep(0.2)
        assert ann.state.version == version and ann.state.pending is None
        # Bob may not play out of turn: refused locally
        bob.line("abstain")
        await until(lambda: "not your turn" in bob.state.message, "Bob's refusal")
        assert bob.client.ui.buffer.text == "abstain"  # kept: Enter plays it once it is his turn
        # legal commands: a bridge, then a key for drawing from the pile (F2)
        command = a_place(ann)
        ann.line(command)
        await until(lambda: ann.state.version == version + 1, "the bridge")
        assert any("placed a bridge on" in entry.text for entry in bob.state.log)
        ann.pipe.send_bytes(b"\x1bOQ")  # F2
        await until(lambda: ann.state.version == version + 2, "the draw")
        await until(lambda: bob.state.message.startswith("Your turn"), "Bob's turn")
        assert "White drew a card from the pile; Black to move" in [e.text for e in bob.state.log]
        bob.type("\r")
        await until(lambda: ann.state.version == version + 3, "Bob's abstention")
        # chat reaches both players
        bob.line("say good luck")
        await until(lambda: any(e.text == "<Bob (black)> good luck" for e in ann.state.log), "chat")
        # the transcript can be saved
        ann.line("save")
        await until(lambda: "Saved" in ann.state.message, "the save")
        saved = list(tmp_path.glob("*.transcript.txt"))  # under way: a transcript, not a record
        assert len(saved) == 1 and command in saved[0].read_text()


async def test_spectate_is_read_only(server: KahunaServer) -> None:
    async with player(server, "Ann") as ann:
        await new_table(ann, "\r")  # against the computer
        await until(lambda: ann.state.table_status == "playing", "the game")
        table = ann.state.table_id
        async with player(server, "Eve") as eve:
            await until(lambda: len(eve.state.tables) == 1, "the table in Eve's lobby")
            eve.type("s")
            await until(lambda: eve.state.public is not None, "Eve's view")
            assert eve.state.table_id == table and eve.state.is_spectator
            assert eve.state.seat_view is None
            eve.line("draw")
            await until(lambda: "watching" in eve.state.message, "the refusal")
            ann.line(a_place(ann))
            await until(lambda: any("placed" in e.text for e in eve.state.log), "Eve sees it")
        # --spectate TABLE goes straight to the table
        async with player(server, "Zed", table_id=table, role="spectator", screen="game") as zed:
            await until(lambda: zed.state.public is not None, "Zed's view")
            assert zed.state.is_spectator and zed.state.table_id == table


async def test_reconnects_by_itself_and_keeps_the_seat(server: KahunaServer) -> None:
    async with player(server, "Ann") as ann:
        await new_table(ann, "\r")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        table, token, version = ann.state.table_id, ann.state.token, ann.state.version
        statuses: list[str] = []
        ann.client.session.on_change = lambda: statuses.append(ann.state.connection)
        # the server drops the connection
        for conn in list(server.connections.values()):
            await conn.ws.close(1011, "dropped for the test")
        await until(lambda: not ann.state.connected, "the drop")
        await until(lambda: ann.state.connected, "the reconnection")
        assert any(s.startswith("reconnecting") for s in statuses)
        await until(lambda: ann.state.version == version and ann.state.pending is None, "state")
        assert ann.state.table_id == table and ann.state.token == token
        assert ann.state.seat is Seat.WHITE and ann.state.screen == "game"
        ann.line(a_place(ann))
        await until(lambda: ann.state.version > version, "a command after reconnecting")


async def test_local_starts_a_game_against_the_computer() -> None:
    args: argparse.Namespace = build_parser().parse_args(
        ["--local", "--name", "Ann", "--computer-delay", "0"]
    )
    state = ClientState()
    with create_pipe_input() as pipe:
        task = asyncio.get_running_loop().create_task(
            run_client(args, input=pipe, output=DummyOutput(), state=state)
        )
        await until(lambda: state.message.startswith("Your turn"), "the first turn")
        assert state.seat is Seat.WHITE and state.players is not None
        assert state.players.black is not None and state.players.black.computer
        pipe.send_text("draw\r")
        await until(lambda: state.version >= 2, "the computer's answer")
        await until(lambda: state.message.startswith("Your turn"), "the computer's whole turn")
        assert any(e.text.startswith("Black") for e in state.log)
        pipe.send_bytes(b"\x11")  # Ctrl-Q, in a game under way: asks first
        await until(lambda: "Ctrl-Q again" in state.message, "the question")
        pipe.send_bytes(b"\x11")
        assert await asyncio.wait_for(task, 5) == 0


async def test_the_layout_on_a_real_terminal_and_a_resize() -> None:
    """Drawn by prompt-toolkit's VT100 output at 80x24, then again after the terminal grows."""
    stream = io.StringIO()
    size = [Size(rows=24, columns=80)]
    output = Vt100_Output(stream, lambda: size[0], term="xterm")
    with create_pipe_input() as pipe:
        ui = KahunaApp(known_state(), lambda _m: True, input=pipe, output=output)
        task = asyncio.get_running_loop().create_task(ui.app.run_async())
        await until(lambda: "your move>" in plain(stream), "the first drawing")
        text = plain(stream)
        for part in ("KAHUNA", "ALOA", "4of6", "BARI ELAI ELAI GOLA", "F1 help", "Round 1 of 3"):
            assert part in text
        assert "(22 left)" not in text  # no room for it at 80 columns
        stream.seek(0)
        stream.truncate()
        size[0] = Size(rows=40, columns=120)
        ui.app._on_resize()
        # the wider side panel has room for the bridges left (the VT100 writer splits the very
        # last characters of a line, so look for the start of it)
        await until(lambda: "(22 left)" in plain(stream), "the drawing after the resize")
        ui.quit()
        await asyncio.wait_for(task, 5)


def plain(stream: io.StringIO) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())


async def test_a_player_who_was_away_catches_up(server: KahunaServer) -> None:
    async with player(server, "Ann") as ann, player(server, "Bob") as bob:
        await new_table(ann, "c\r")
        await until(lambda: len(bob.state.tables) == 1, "the table in Bob's lobby")
        bob.type("b")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        version = ann.state.version
        bob.client.session.attempts = 2  # a longer pause before Bob's client tries again
        for conn in list(server.connections.values()):
            if server.core.sessions[conn.member].name == "Bob":
                await conn.ws.close(1011, "dropped for the test")
        await until(lambda: not bob.state.connected, "Bob's drop")
        await until(
            lambda: (
                ann.state.players is not None
                and ann.state.players.black is not None
                and not ann.state.players.black.connected
            ),
            "Ann to see Bob away",
        )
        assert "Bob (Black) is away; the game waits for them" in [e.text for e in ann.state.log]
        ann.line(a_place(ann))
        await until(lambda: ann.state.version == version + 1, "Ann's bridge")
        await until(lambda: bob.state.connected, "Bob back")
        await until(lambda: bob.state.version == version + 1, "Bob caught up")
        assert any(e.text.startswith("Caught up with 1 missed") for e in bob.state.log)
        assert bob.state.seat is Seat.BLACK
        await until(lambda: "Bob (Black) is back" in [e.text for e in ann.state.log], "Bob back")


def test_save_asks_the_server_for_the_record_once_the_game_is_over(tmp_path: Path) -> None:
    state = known_state()
    state.transcript = ["12:00:00 > place BARI-DUDA"]
    sent: list[ClientMessage] = []
    connected = True

    def send(msg: ClientMessage) -> bool:
        if not connected:
            return False
        sent.append(msg)
        return True

    ui = KahunaApp(state, send, output=DummyOutput(), save_dir=tmp_path)
    path = ui.saver.save("")  # the game is not over: a transcript, never the hidden cards
    assert path is not None and "place BARI-DUDA" in path.read_text()
    assert "transcript" in state.message and sent == []
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    target = tmp_path / "game.kahuna.txt"
    assert ui.saver.save(str(target)) is None  # asked for; written when the record comes
    assert sent == [GetRecord("t1")] and not target.exists()
    ui.received(Record("other", "kahuna-record 1\n# other\n"))  # another table's: not this
    assert not target.exists()
    ui.received(Record("t1", "kahuna-record 1\n# t1\n"))
    assert target.read_text() == "kahuna-record 1\n# t1\n"
    assert state.message == f"Saved the game record to {target}"
    # a server that gives no record (an older one): the transcript, and the player is told
    ui.saver.save(str(target))
    ui.received(Error("unknown_type", "no such message", refused="get_record"))
    assert "place BARI-DUDA" in target.read_text()
    assert "gave no record" in state.message and state.message_kind == "error"
    # no connection: the transcript at once, and how to get the record
    connected = False
    assert ui.saver.save(str(target)) == target and "save' again once connected" in state.message


async def test_a_client_started_again_takes_its_seat_back(
    server: KahunaServer, tmp_path: Path
) -> None:
    store = SeatStore(tmp_path / "seats.json")
    async with player(server, "Ann", seats=store) as ann:
        await new_table(ann, "\r")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        table, token = ann.state.table_id, ann.state.token
        assert table is not None
        ann.line(a_place(ann))
        await until(lambda: ann.state.version == 1, "Ann's bridge")
    url = f"ws://127.0.0.1:{server.port}"
    assert store.seats(url) == {table: ("white", token)}
    async with player(server, "Ann", seats=store) as again:
        await until(lambda: len(again.state.tables) == 1, "the lobby")
        assert again.state.saved_seats == {table: ("white", token)}
        assert "You have a seat at table" in again.state.message
        # the server may list the seat before it has seen the first client's socket close
        # (a busy machine); Enter on a seat still in use asks first, so wait as a person would
        await until(lambda: not seat_in_use(again.state.tables[0]), "the seat shown free")
        # the new client may be taking the seat back quietly at its first listing
        # (client/net/seats_away.py): Enter makes it the player's all the same, without asking
        again.type("\r")
        assert again.state.confirm_takeover is None
        await until(lambda: again.state.seat is Seat.WHITE, "the seat taken back")
        await until(lambda: again.state.version == 1, "the position")
        assert again.state.table_id == table
    store.forget(url, table)
    assert store.seats(url) == {}


def seat_in_use(table: TableInfo) -> bool:
    return table.players.white is not None and table.players.white.connected


def test_ctrl_c_and_ctrl_q_ask_alike_and_name_the_key() -> None:
    """At a game under way, a player and a spectator alike are asked once, in the words of the
    key they pressed; the lobby quits at once."""
    for role in ("white", "spectator"):
        state = known_state()
        state.role, state.table_status = role, "playing"
        ui = KahunaApp(state, lambda message: True, output=DummyOutput())
        ui.ask_quit("Ctrl-C")
        assert ui.quit_armed and "Press Ctrl-C again to quit" in state.message
    lobby = ClientState()
    ui = KahunaApp(lobby, lambda message: True, output=DummyOutput())
    ui.ask_quit("Ctrl-C")
    assert not ui.quit_armed


async def test_q_pressed_again_and_again_from_a_tournament_asks_before_quitting() -> None:
    """q goes back from a tournament to the list, from the list to the lobby; the lobby's next
    q asks once, the one after quits; a lobby reached otherwise quits on its first q."""
    state = ClientState(name="Ann")
    state.connection, state.connected = "connected", True
    state.tournaments.view = "list"
    with create_pipe_input() as pipe:
        ui = KahunaApp(state, lambda _m: True, input=pipe, output=DummyOutput())
        task = asyncio.get_running_loop().create_task(ui.app.run_async())
        pipe.send_text("q")
        await until(lambda: state.tournaments.view is None, "the lobby")
        pipe.send_text("q")
        await until(lambda: "Press q again to quit" in state.message, "the question")
        assert not task.done()
        pipe.send_text("q")
        await asyncio.wait_for(task, 5)
    with create_pipe_input() as pipe:
        ui = KahunaApp(ClientState(name="Bob"), lambda _m: True, input=pipe, output=DummyOutput())
        task = asyncio.get_running_loop().create_task(ui.app.run_async())
        pipe.send_text("q")
        await asyncio.wait_for(task, 5)
