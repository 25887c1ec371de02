"""A standby: two kahuna-server processes on one PostgreSQL database. The second waits without
listening while the first serves; the first is killed with -9 during play (or stopped), the
standby takes over, and every seat and spectator finds its game there as last seen, and play
goes on to the end (tests/server/test_restart.py's checks)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

from protocol.messages import Command, Join, PlayersChanged, State, Update
from shared.legality import legal_actions
from shared.views import seat_view_from_dict
from tests.conftest import Client, ServerFactory, create_table
from tests.postgres import Cluster
from tests.server.standby_pair import first_and_standby, taken_over
from tests.server.test_restart import free_port, games_survive, start_server


@pytest.mark.parametrize("how", ["kill", "term"])
async def test_a_standby_takes_over_the_games(tmp_path: Path, postgres: Cluster, how: str) -> None:
    url = postgres.database()
    first, first_port, standby, standby_port = await first_and_standby(url, tmp_path)
    try:
        ended_at: list[float] = []

        async def takeover() -> tuple[asyncio.subprocess.Process, int]:
            ended_at.append(time.monotonic())
            await taken_over(standby, standby_port)
            return standby, standby_port

        # the standby listens on nothing while the first serves
        with pytest.raises(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", standby_port)
            writer.close()
        await games_survive(first, first_port, how, takeover)
        assert first.returncode == (-signal.SIGKILL if how == "kill" else 0)
    finally:
        for proc in (first, standby):
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 10)


async def test_a_standby_stops_at_once_when_told(tmp_path: Path, postgres: Cluster) -> None:
    url = postgres.database()
    first = await start_server(free_port(), url, tmp_path)
    standby = await start_server(free_port(), url, tmp_path, listening=False)
    try:
        standby.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(standby.wait(), 5) == 0
    finally:
        first.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(first.wait(), 10) == 0


async def test_a_server_that_loses_its_database_stops_and_tells_nothing_more(
    postgres: Cluster, make_server: ServerFactory
) -> None:
    """PostgreSQL ends the serving session (as a database restart or a network split would):
    the next command cannot be stored, so nobody hears of it, and the server stops."""
    url = postgres.database()
    server = await make_server(db=url, computer_delay=0.0)
    ann = await Client.connect(server.port, "Ann")
    bob = await Client.connect(server.port, "Bob")
    joined, state = await create_table(ann, seat="white")
    await bob.send(Join(joined.table_id, None))
    await bob.expect(State)
    await ann.expect(PlayersChanged)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = 'kahuna' AND pid <> pg_backend_pid()"
        )
    view = seat_view_from_dict(state.view)
    ctx = view.turn_context()
    assert ctx is not None
    action = legal_actions(ctx)[0]
    await ann.send(Command(joined.table_id, state.version, str(action)))
    await asyncio.wait_for(server.failed.wait(), 5)
    for client in (ann, bob):  # the move was not stored: no update of it reached anyone
        try:
            heard = await client.quiet(0.3)
        except ConnectionClosed:
            heard = []
        assert not any(isinstance(m, Update) for m in heard)
