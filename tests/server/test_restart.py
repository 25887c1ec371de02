"""Games survive a restart of a real kahuna-server process: kill -9 at a random moment of play,
or SIGTERM, then the same --db on the same port. Every seat reclaims with its token at the
version and view its player last saw (or one further, if an action was on its way), the
waiting table and the lobby are there, and play goes on to the end."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from websockets.exceptions import ConnectionClosed

from protocol.codec import decode_server
from protocol.messages import (
    Command,
    History,
    Join,
    Joined,
    Lobby,
    LobbySubscribe,
    PlayersChanged,
    Reclaim,
    Record,
    Spectate,
    State,
    Update,
)
from shared.legality import legal_actions
from shared.views import seat_view_from_dict
from tests.conftest import Backend, Client, create_table, play_random

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def start_server(
    port: int, db: str, logs: Path, listening: bool = True, options: Sequence[str] = ()
) -> asyncio.subprocess.Process:
    """A kahuna-server process on `db` (with these further `options`); once it says it
    listens, unless `listening` is False (a standby, which says so first)."""
    log = (logs / "server.log").open("ab")  # a pipe nobody reads could block the server
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
        "--db", db, "--computer-delay", "0", "--log-level", "warning",
        "--rate", "1000", "--burst", "1000", "--flood-limit", "1000", *options,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    log.close()
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    if listening and "standby" in line:
        # on PostgreSQL, a server started right after a kill -9 may find the killed one's
        # session not yet ended by PostgreSQL: it waits a moment as a standby, then serves
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    if listening:
        assert f":{port}" in line, line
    else:
        assert "standby" in line, line
    return proc


@attrs.define
class Seen:
    """What one member of a table last saw, and whether a command of its was on its way."""

    client: Client
    table_id: str
    token: str | None
    version: int = 0
    view: dict[str, Any] = attrs.Factory(dict)
    in_flight: bool = False
    state: State | None = None  # the full state after the restart


async def play_until_dropped(seen: Seen, rng: random.Random) -> None:
    """Random legal actions, a few milliseconds apart, until the server goes away."""
    try:
        while True:
            view = seat_view_from_dict(seen.view)
            if view.public.result is not None:
                return
            ctx = view.turn_context()
            if ctx is not None and not seen.in_flight:
                await asyncio.sleep(rng.uniform(0, 0.006))
                seen.in_flight = True
                action = rng.choice(legal_actions(ctx))
                await seen.client.send(Command(seen.table_id, seen.version, str(action)))
            message = await seen.client.recv(timeout=30)
            if isinstance(message, Update | State) and message.table_id == seen.table_id:
                seen.version, seen.view = message.version, message.view
                seen.in_flight = False
    except ConnectionClosed:
        return


async def watch_until_dropped(seen: Seen) -> None:
    try:
        while True:
            message = await seen.client.recv(timeout=30)
            if isinstance(message, Update | State) and message.table_id == seen.table_id:
                seen.version, seen.view = message.version, message.view
    except ConnectionClosed:
        return


@pytest.mark.parametrize("how", ["kill", "term"])
async def test_games_survive_a_restart(tmp_path: Path, backend: Backend, how: str) -> None:
    port = free_port()
    proc = await start_server(port, backend.db, tmp_path)

    async def again() -> tuple[asyncio.subprocess.Process, int]:
        return await start_server(port, backend.db, tmp_path), port

    await games_survive(proc, port, how, again)


Takeover = Callable[[], Awaitable[tuple[asyncio.subprocess.Process, int]]]


async def games_survive(
    proc: asyncio.subprocess.Process, port: int, how: str, takeover: Takeover
) -> None:
    """Play at a server's tables, end it (`how`: kill -9 or SIGTERM) at a random moment, let
    `takeover` give the server that serves the games next and its port, and check that
    every seat and spectator finds its game there as last seen, and that play goes on to the
    end."""
    rng = random.Random(f"restart-{how}")
    try:
        # Bo's client speaks protocol version 1, as written from the released docs/protocol.md
        ana, bo = await Client.connect(port, "Ana"), await Client.connect(port, "Bo", version=1)
        cy, eve = await Client.connect(port, "Cy"), await Client.connect(port, "Eve")
        dee = await Client.connect(port, "Dee")
        joined1, state_ana = await create_table(ana, seat="white", first="random")
        await bo.send(Join(joined1.table_id, None))
        joined_bo = await bo.expect(Joined)
        state_bo = await bo.expect(State)
        joined2, state_cy = await create_table(cy, vs_computer=True, seat="black", first="white")
        waiting, _ = await create_table(dee, seat="white")
        await eve.send(Spectate(joined1.table_id))
        state_eve = await eve.expect(State)
        ana_state = await ana.expect(PlayersChanged)  # Bo sat down: the game is on
        assert ana_state.status == "playing"

        seats = [
            Seen(ana, joined1.table_id, joined1.token, state_ana.version, state_ana.view),
            Seen(bo, joined1.table_id, joined_bo.token, state_bo.version, state_bo.view),
            Seen(cy, joined2.table_id, joined2.token, state_cy.version, state_cy.view),
        ]
        spectator = Seen(eve, joined1.table_id, None, state_eve.version, state_eve.view)
        tasks = [asyncio.ensure_future(play_until_dropped(s, rng)) for s in seats]
        tasks.append(asyncio.ensure_future(watch_until_dropped(spectator)))
        await asyncio.sleep(rng.uniform(0.15, 0.5))  # a random moment of play
        if how == "kill":
            proc.kill()
            assert await asyncio.wait_for(proc.wait(), 10) == -signal.SIGKILL
        else:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 10) == 0
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        assert all(s.version > 0 for s in seats), "play had begun"

        proc, port = await takeover()
        for seen in seats:
            version = 1 if seen.client is bo else 2
            seen.client = await Client.connect(port, "Again", version=version)
            assert seen.token is not None
            await seen.client.send(Reclaim(seen.table_id, seen.token))
            if version == 2:
                history = await seen.client.expect(History)
            state = await seen.client.expect(State)
            if version == 2:
                assert len(history.events) == history.version == state.version
            if seen.table_id == joined2.table_id:
                # the computer plays on at once: its moves are in the history
                assert state.version >= seen.version
            elif state.version == seen.version:
                assert state.view == seen.view
            else:  # the action was stored, its update was not sent before the end
                assert state.version == seen.version + 1 and how == "kill", (state, seen)
            seen.state = state
        spectator.client = await Client.connect(port, "Eve")
        await spectator.client.send(Spectate(spectator.table_id))
        state = await spectator.client.expect(State)
        assert state.version in (spectator.version, spectator.version + 1)
        if state.version == spectator.version:
            assert state.view == spectator.view

        lobby_watcher = await Client.connect(port, "Lou")
        await lobby_watcher.send(LobbySubscribe())
        listing = await lobby_watcher.expect(Lobby)
        listed = {t.table_id: t for t in listing.tables}
        assert set(listed) == {joined1.table_id, joined2.table_id, waiting.table_id}
        assert listed[waiting.table_id].status == "waiting"
        computer = listed[joined2.table_id].players.white
        assert computer is not None and computer.computer

        # play goes on to the end at both games
        finals = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_random(s.client, s.table_id, random.Random(i), start=s.state)
                    for i, s in enumerate(seats)
                )
            ),
            timeout=60,
        )
        assert all(view.public.result is not None for view in finals)
        v1 = seats[1].client
        assert not any(isinstance(decode_server(f), History | Record) for f in v1.frames)
        assert not any(isinstance(decode_server(f), History | Record) for f in bo.frames)
        for client in [*(s.client for s in seats), spectator.client, lobby_watcher]:
            await client.quiet(0.02)  # a client that reads nothing cannot hear the close
            await client.close()
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 10)
