"""A job in the worker processes (the computer's decisions, the analysis of a game), from the
event loop.

A worker that dies (killed, out of memory) breaks its pool, and the pool refuses every job from
then on; the server's pool getter (KahunaServer._workers) starts a new pool when it finds the
old one broken. A job submitted before the pool noticed the death fails with it, though: such
a job is tried once more, in the new pool, rather than failing a game's move or analysis."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def in_worker(
    pool: Callable[[], concurrent.futures.Executor], job: Callable[..., T], *args: Any
) -> T:
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(), job, *args)
    except concurrent.futures.BrokenExecutor:
        return await loop.run_in_executor(pool(), job, *args)
