"""The client across a restart of its server: the server goes away for a while (every try is
refused), comes back on the same port with the same database, and the client is back in its seat
at the same version with the same view, by itself, and plays on. And the client never gives up
on a server that stays away."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from client.model.state import ClientState
from client.net.connection import BACKOFF, Session
from server.net.app import KahunaServer
from tests.client.test_app import player, until
from tests.client.test_history import events, play_a_turn, start_against_the_computer
from tests.conftest import server_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_the_client_takes_its_seat_back_after_the_server_restarts(tmp_path: Path) -> None:
    port = free_port()
    db = str(tmp_path / "db.sqlite3")
    server = KahunaServer(server_config(port=port, db=db))
    await server.start()
    try:
        async with player(server, "Ann") as ann:
            await start_against_the_computer(ann)
            await play_a_turn(ann)
            state = ann.state
            table, token, version = state.table_id, state.token, state.version
            view, log = state.seat_view, events(state)
            assert version >= 3 and view is not None
            # watch what the player sees while the server is away
            seen: list[tuple[str, bool, str, str | None]] = []
            redraw = ann.client.session.on_change

            def watch() -> None:
                seen.append((state.connection, state.connected, state.screen, state.table_id))
                redraw()

            ann.client.session.on_change = watch
            await server.stop()
            await until(lambda: not state.connected, "the drop")
            await until(lambda: ann.client.session.attempts >= 3, "three refused tries", 5)
            assert not state.connected and state.token == token
            server = KahunaServer(server_config(port=port, db=db))
            await server.start()
            await until(lambda: state.connected, "the reconnection", 5)
            await until(lambda: state.pending is None and state.version == version, "the seat")
            await asyncio.sleep(0.1)  # nothing else comes
            assert state.table_id == table and state.token == token and state.version == version
            assert state.seat_view == view and state.screen == "game"
            assert events(state) == log  # the log goes on, nothing twice
            assert state.message.startswith("Your turn")
            statuses = [s[0] for s in seen if not s[1]]
            assert any(s.startswith("reconnecting in") for s in statuses)
            assert all(s[2:] == ("game", table) for s in seen), "never back to the lobby"
            # and the game goes on: a bridge, a draw, the computer's turn
            await play_a_turn(ann)
            assert state.version > version + 2
    finally:
        await server.stop()


async def test_a_server_that_stays_away_is_tried_again_and_again() -> None:
    port = free_port()  # nobody listens here: every try is refused
    state = ClientState(name="Ann", table_id="t1", role="white", token="tok", screen="game")
    session = Session(f"ws://127.0.0.1:{port}", state)
    session.attempts, session.ever_connected = 1, True  # as after a drop
    session.backoff = (0.001, 0.002)
    statuses: list[str] = []
    session.on_change = lambda: statuses.append(state.connection)
    task = session.start()
    try:
        await until(lambda: session.attempts >= 30, "thirty tries", 5)
        assert session.fatal is None and not task.done()
        assert state.table_id == "t1" and state.token == "tok" and state.screen == "game"
        assert "reconnecting in 0.0s (try 30)" in statuses and not state.connected
    finally:
        await session.stop()
    assert BACKOFF[0] < 1 and max(BACKOFF) <= 5  # quick at first, never long
