"""A standby: two kahuna-server processes on one PostgreSQL database. The second waits without
listening while the first serves; the first is killed with -9 during play (or stopped), the
standby takes over, and every seat and spectator finds its game there as last seen, and play
goes on to the end (tests/server/test_restart.py's checks)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from tests.postgres import Cluster
from tests.server.test_restart import free_port, games_survive, start_server

TAKEOVER_BOUND = 10.0  # seconds the test waits; the takeover's own time: bench/standby_bench.py


@pytest.mark.parametrize("how", ["kill", "term"])
async def test_a_standby_takes_over_the_games(tmp_path: Path, postgres: Cluster, how: str) -> None:
    url = postgres.database()
    first_port, standby_port = free_port(), free_port()
    (tmp_path / "first").mkdir()
    (tmp_path / "standby").mkdir()
    first = await start_server(first_port, url, tmp_path / "first")
    standby = await start_server(standby_port, url, tmp_path / "standby", listening=False)
    try:
        ended_at: list[float] = []

        async def takeover() -> tuple[asyncio.subprocess.Process, int]:
            ended_at.append(time.monotonic())
            assert standby.stdout is not None
            line = (await asyncio.wait_for(standby.stdout.readline(), TAKEOVER_BOUND)).decode()
            assert f":{standby_port}" in line, line
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
