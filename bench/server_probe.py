"""kahuna-server with instruments, for bench/load_bench.py --probe: a script, not a test.

    .venv/bin/python bench/server_probe.py REPORT_PATH [kahuna-server options...]

Runs the server as `python -m server` would, and times what can stall its event loop: every
callback the loop runs (a frame read, a timer, a task's step), every garbage collection, and a
few named parts of the server (the storage's writes, the sweep over the tables, the encoding
of messages); and each command's time in the server (from its frame being handed to the core
to its mover's update being handed to the socket). Each is timed in the main thread's CPU
time, which other processes on a busy machine do not inflate, and in wall time. SIGUSR1 starts
the figures afresh (the bench sends it as a run starts); SIGUSR2, and the server's stop, write
to REPORT_PATH what was seen since: the callbacks by CPU time, the slowest ones with what they
were, the collections per generation, the commands' time in the server, and the named parts.
The instruments cost the server a few microseconds per callback. KAHUNA_PROBE_GC="T0,T1,T2"
sets the collector's thresholds after the server's own
(to try others without editing it).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import server.cli.serve as server_main  # noqa: E402
from protocol.messages import Update  # noqa: E402
from server.core import core  # noqa: E402
from server.net import app  # noqa: E402
from server.storage import sqlite_store  # noqa: E402

SLOW = 0.005  # seconds of CPU: a callback at least this long is kept with its name
BOUNDS_MS = (0.1, 0.5, 1, 2, 5, 10, 20, 50, 100)
cpu_clock = time.thread_time  # the event loop's thread only: not the checkpoint thread


def describe(handle: asyncio.events.Handle) -> str:
    """What a callback was: a task's wake-up is named by the task's coroutine."""
    task = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
    if isinstance(task, asyncio.Task):
        return f"task {task.get_coro().__qualname__} woken"  # type: ignore[union-attr]
    return repr(handle)[:150]


class Timing:
    """Calls of one function: count, CPU and wall time in total, the longest, those >= SLOW."""

    def __init__(self) -> None:
        self.count = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.longest = 0.0
        self.slow = 0

    def add(self, cpu: float, wall: float) -> None:
        self.count += 1
        self.cpu += cpu
        self.wall += wall
        self.longest = max(self.longest, cpu)
        self.slow += cpu >= SLOW

    def line(self, name: str) -> str:
        return (
            f"  {name}: {self.count} calls, CPU {self.cpu:.2f} s"
            f" ({self.cpu / max(self.count, 1) * 1e6:.0f} us each), wall {self.wall:.2f} s,"
            f" longest {self.longest * 1e3:.1f} ms CPU, {self.slow} >= {SLOW * 1e3:g} ms"
        )


class Probe:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.callbacks: Counter[float] = Counter()  # upper bound (ms of CPU) -> count
        self.callback = Timing()
        self.slow: list[tuple[float, float, str]] = []
        self.gc_started = (0.0, 0.0)
        self.gc: dict[int, Timing] = {0: Timing(), 1: Timing(), 2: Timing()}
        self.gc_long: list[tuple[float, int]] = []
        self.parts: dict[str, Timing] = {}
        self.frame_read: dict[int, float] = {}  # member -> when the core got its last frame
        self.in_server: list[float] = []  # seconds from a frame to its mover's update sent
        self.began = time.perf_counter()
        self.cpu_began = time.process_time()

    def install(self) -> None:
        probe = self
        run = asyncio.events.Handle._run

        def timed_run(handle: asyncio.events.Handle) -> None:
            cpu, wall = cpu_clock(), time.perf_counter()
            run(handle)
            cpu, wall = cpu_clock() - cpu, time.perf_counter() - wall
            probe.callback.add(cpu, wall)
            ms = cpu * 1e3
            probe.callbacks[next((b for b in BOUNDS_MS if ms < b), float("inf"))] += 1
            if cpu >= SLOW:
                probe.slow.append((cpu, wall, describe(handle)))

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign,assignment]
        gc.callbacks.append(self.on_gc)
        self.time_part(sqlite_store.SqliteStorage, "write", "storage write")
        self.time_part(sqlite_store.SqliteStorage, "_flush", "storage flush")
        self.time_part(core.ServerCore, "_sweep", "core sweep")
        self.time_part(core.ServerCore, "frame", "core frame")
        self.time_part(core.ServerCore, "tick", "core tick")
        # a Swiss round's pairing back from a worker: its tables made, written and told
        self.time_part(core.ServerCore, "round_paired", "core round_paired")
        self.time_part(app.KahunaServer, "deliver", "app deliver (encode + send)")
        self.time_part(app, "encode", "encode")
        self.time_commands()

    def time_commands(self) -> None:
        """A command's time in the server: from the core being handed its frame (in the
        callback that read it) to the update for the same connection being handed to its
        socket. The time the frame waited in the kernel before the loop read it is not in it:
        the client's latency less this is that wait (and the network's)."""
        frame = core.ServerCore.frame
        deliver = app.KahunaServer.deliver
        probe = self

        @functools.wraps(frame)
        def timed_frame(self: Any, member: int, *args: Any) -> Any:
            probe.frame_read[member] = time.perf_counter()
            return frame(self, member, *args)

        @functools.wraps(deliver)
        def timed_deliver(self: Any, sends: list[Any]) -> Any:
            closing = deliver(self, sends)
            now = time.perf_counter()
            for member, message, _version in sends:
                if type(message) is Update:
                    read = probe.frame_read.pop(member, None)
                    if read is not None:
                        probe.in_server.append(now - read)
            return closing

        core.ServerCore.frame = timed_frame  # type: ignore[method-assign,assignment]
        app.KahunaServer.deliver = timed_deliver  # type: ignore[method-assign]

    def time_part(self, owner: Any, name: str, label: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = cpu_clock(), time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                timing = self.parts.get(label)
                if timing is None:
                    timing = self.parts[label] = Timing()
                timing.add(cpu_clock() - cpu, time.perf_counter() - wall)

        setattr(owner, name, timed)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_started = (cpu_clock(), time.perf_counter())
        else:
            cpu = cpu_clock() - self.gc_started[0]
            self.gc[info["generation"]].add(cpu, time.perf_counter() - self.gc_started[1])
            if cpu >= SLOW:
                self.gc_long.append((cpu, info["generation"]))

    def report(self) -> str:
        wall = time.perf_counter() - self.began
        cpu = time.process_time() - self.cpu_began
        lines = [
            f"wall {wall:.1f} s, process CPU {cpu:.2f} s (all threads)",
            self.callback.line("loop callbacks"),
            "callbacks by CPU time (ms):",
        ]
        lower = 0.0
        for bound in (*BOUNDS_MS, float("inf")):
            count = self.callbacks.get(bound, 0)
            if count:
                lines.append(f"  [{lower:g}, {bound:g}): {count}")
            lower = bound
        lines.append(f"slowest callbacks (>= {SLOW * 1e3:g} ms CPU): {len(self.slow)}")
        for spent, spent_wall, what in sorted(self.slow, reverse=True)[:15]:
            lines.append(f"  {spent * 1e3:6.1f} ms CPU {spent_wall * 1e3:6.1f} ms wall  {what}")
        lines.append("garbage collections:")
        for gen, timing in self.gc.items():
            lines.append(timing.line(f"generation {gen}"))
        lines.append(
            "  collections >= 5 ms CPU: "
            + ", ".join(f"{c * 1e3:.0f} (gen {g})" for c, g in sorted(self.gc_long, reverse=True))
        )
        lines.append(f"  thresholds {gc.get_threshold()}, frozen {gc.get_freeze_count()}")
        times = sorted(self.in_server)
        if times:
            lines.append(
                f"commands in the server, frame read to update sent ({len(times)}):"
                f" p50 {times[len(times) // 2] * 1e3:.2f} ms,"
                f" p99 {times[int(len(times) * 0.99)] * 1e3:.2f} ms, max {times[-1] * 1e3:.2f} ms"
            )
        lines.append("named parts:")
        for label, timing in self.parts.items():
            lines.append(timing.line(label))
        return "\n".join(lines) + "\n"


def try_gc_thresholds(text: str) -> None:
    tune_gc = server_main.tune_gc

    def tuned() -> None:
        tune_gc()
        gc.set_threshold(*(int(t) for t in text.split(",")))

    server_main.tune_gc = tuned


def run() -> int:
    report_path = Path(sys.argv[1])
    if os.environ.get("KAHUNA_PROBE_GC"):
        try_gc_thresholds(os.environ["KAHUNA_PROBE_GC"])
    probe = Probe()
    probe.install()
    signal.signal(signal.SIGUSR1, lambda *_: probe.reset())
    signal.signal(signal.SIGUSR2, lambda *_: report_path.write_text(probe.report()))
    try:
        return server_main.main(sys.argv[2:])
    finally:
        report_path.write_text(probe.report())


if __name__ == "__main__":
    sys.exit(run())
