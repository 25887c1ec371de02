"""The computer's worker processes end with their server, even when it is killed with -9 (which
runs no clean-up): crashes and restarts leave no orphans holding memory."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from pathlib import Path

import pytest

from protocol.fields import TableOptions
from protocol.messages import CreateTable, State, Update
from server.jobs.worker_jobs import in_worker
from tests.conftest import Client
from tests.server.test_restart import free_port, start_server

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the parent's pid is the second field after the command name, which is in parentheses
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def against_the_computer(port: int, name: str) -> Client:
    """A player at a new table against the computer, which moves first at the normal level (a
    worker process decides its moves): once the table's state came."""
    client = await Client.connect(port, name)
    await client.send(CreateTable(TableOptions(), True, "white", "black", level="normal"))
    await client.expect(State)
    return client


async def test_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    proc = await start_server(port, str(tmp_path / "db.sqlite3"), tmp_path)
    try:
        client = await against_the_computer(port, "Ann")
        workers: set[int] = set()
        for _ in range(200):  # the pool starts its workers when the first turn is handed out
            workers = children(proc.pid)
            if workers:
                break
            await asyncio.sleep(0.05)
        assert workers, "no worker process was started"
        await client.close()
    finally:
        proc.kill()
    # (not proc.wait(): it also waits for the server's pipes, which orphans would hold open)
    for _ in range(100):  # a worker looks every PARENT_CHECK_EVERY (0.5 s)
        if not any(alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, 9)
    await proc.wait()
    assert not left, f"workers {left} outlived their server"


async def test_a_killed_worker_is_replaced(tmp_path: Path) -> None:
    """A pool whose worker died refuses every job; the server starts a new one, so that the
    computer goes on playing."""
    port = free_port()
    proc = await start_server(port, str(tmp_path / "db.sqlite3"), tmp_path)
    try:
        client = await against_the_computer(port, "Ann")
        await client.expect(Update)  # the computer's first action, decided in a worker
        workers = children(proc.pid)
        assert workers
        for pid in workers:
            os.kill(pid, 9)
        await client.close()
        again = await against_the_computer(port, "Bea")
        update = await again.expect(Update)
        assert update.version == 1
        # decided by a new worker, not by the fallback a failed search gets
        assert children(proc.pid) - workers
        await again.close()
    finally:
        proc.kill()
        await proc.wait()


async def test_a_job_broken_with_its_pool_is_tried_once_more_in_a_new_one() -> None:
    """A job submitted to a pool whose worker died before the pool noticed fails with it
    (BrokenProcessPool): server/jobs/worker_jobs.py tries it once more, in the pool the getter gives
    next, rather than failing a move or an analysis."""
    spawn = multiprocessing.get_context("spawn")
    broken = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=spawn)
    with pytest.raises(concurrent.futures.BrokenExecutor):
        broken.submit(os._exit, 1).result(timeout=60)  # its one worker dies
    fresh = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=spawn)
    pools = [broken, fresh]
    given: list[concurrent.futures.Executor] = []

    def pool() -> concurrent.futures.Executor:
        given.append(pools[len(given)])
        return given[-1]

    try:
        assert await in_worker(pool, pow, 3, 4) == 81
        assert given == [broken, fresh]
    finally:
        broken.shutdown(wait=False)
        fresh.shutdown(wait=True)
