"""A serving kahuna-server process and its standby on one PostgreSQL database, as the standby's
tests start them (test_standby, test_tournament_standby, test_accounts_cli), and the standby's
word that it has taken over."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.test_restart import free_port, start_server

TAKEOVER_BOUND = 10.0  # seconds the test waits; the takeover's own time: bench/standby_bench.py


async def first_and_standby(
    url: str, logs: Path
) -> tuple[asyncio.subprocess.Process, int, asyncio.subprocess.Process, int]:
    """The first process serving and the standby waiting, each with its port, each logging in
    its own folder under `logs` (first/, standby/)."""
    first_port, standby_port = free_port(), free_port()
    (logs / "first").mkdir()
    (logs / "standby").mkdir()
    first = await start_server(first_port, url, logs / "first")
    standby = await start_server(standby_port, url, logs / "standby", listening=False)
    return first, first_port, standby, standby_port


async def taken_over(
    standby: asyncio.subprocess.Process, port: int, bound: float = TAKEOVER_BOUND
) -> None:
    """The standby says, within `bound` seconds, that it listens on its port."""
    assert standby.stdout is not None
    line = (await asyncio.wait_for(standby.stdout.readline(), bound)).decode()
    assert f":{port}" in line, line
