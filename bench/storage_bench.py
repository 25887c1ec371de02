"""Storage speed: the cost of one stored move, and of loading every open table at start.

    .venv/bin/python bench/storage_bench.py [--writes N] [--pause S] [--tables T] [--entries E]
                                            [--rate R] [--seconds S]

Both run on a file database in a fresh temporary directory (WAL, synchronous=NORMAL), so the
figures include each append or commit but no fsync. The load figure is what a restarted
server waits for before it accepts connections; the open (which runs PRAGMA quick_check over
the whole file) is timed separately.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from server.sqlite_store import SqliteStorage
from server.store import AppendLogOp, ChatOp, CreateTableOp, SetSeatOp, StorageOp, hash_token

OPTIONS = {"variant1": False, "variant2": False, "handicap": None}
# Close to the server's real entries: a card-source line, then moves as notation.
MOVE = ["m", "white", "remove ELAI-HUNA HUNA+ELAI"]


def bench_writes(path: Path, writes: int, pause: float) -> list[float]:
    """One move stored alone, `writes` times, each after `pause` seconds asleep as between two
    commands (a process that has just slept runs slower than one in a tight loop): through
    `write`, one INSERT in autocommit."""
    store = SqliteStorage(path)
    store.write([CreateTableOp("w", OPTIONS, "white", False, time.time())])
    costs = []
    for i in range(writes):
        op = AppendLogOp("w", i, (MOVE,), time.time())
        time.sleep(pause)
        start = time.perf_counter()
        store.write([op])
        costs.append(time.perf_counter() - start)
    store.close()
    return costs


def bench_stream(path: Path, tables: int, rate: float, seconds: float) -> list[float]:
    """Moves of `tables` tables in turn at `rate` a second, as a loaded server stores them,
    in CPU time (the writer's thread): the tables' `updated` times go along in batches
    (sql_store.TOUCH_BATCH) once a second, and the longest write shows what one costs."""
    store = SqliteStorage(path)
    now = time.time()
    for t in range(tables):
        store.write([CreateTableOp(f"{t:08x}", OPTIONS, "white", False, now)])
    costs = []
    began = time.perf_counter()
    for i in range(int(rate * seconds)):
        table, index = divmod(i, tables)[1], i // tables
        op = AppendLogOp(f"{table:08x}", index, (MOVE,), time.time())
        while time.perf_counter() < began + i / rate:
            time.sleep(0.0001)
        start = time.thread_time()
        store.write([op])
        costs.append(time.thread_time() - start)
    store.close()
    return costs


def summary(costs: list[float]) -> str:
    costs = sorted(costs)
    median = statistics.median(costs) * 1e6
    p99 = costs[min(len(costs) - 1, int(len(costs) * 0.99))] * 1e6
    return f"median {median:.0f} µs, p99 {p99:.0f} µs, max {costs[-1] * 1e6:.0f} µs"


def fill(path: Path, tables: int, entries: int) -> None:
    store = SqliteStorage(path)
    now = time.time()
    for t in range(tables):
        table_id = f"{t:08x}"
        ops: list[StorageOp] = [
            CreateTableOp(table_id, OPTIONS, "white", False, now),
            SetSeatOp(table_id, "white", f"white{t}", hash_token(f"w{t}"), False),
            SetSeatOp(table_id, "black", f"black{t}", hash_token(f"b{t}"), False),
            AppendLogOp(
                table_id,
                0,
                (["c", list(range(24))], *([MOVE] * (entries - 1))),
                now,
            ),
        ]
        ops += [ChatOp(table_id, f"white{t}", f"good game {i}", now) for i in range(4)]
        store.write(ops)
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=3000)
    parser.add_argument(
        "--pause", type=float, default=0.0003, help="seconds asleep before each write"
    )
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=140)
    parser.add_argument("--chat-limit", type=int, default=50)
    parser.add_argument(
        "--rate", type=float, default=4000, help="moves a second over the tables (stream)"
    )
    parser.add_argument("--seconds", type=float, default=5, help="length of the stream")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        alone = bench_writes(Path(tmp) / "writes.sqlite3", args.writes, args.pause)
        print(f"one move stored alone, x {args.writes}, each after {args.pause * 1e3:g} ms asleep:")
        print(f"  write([AppendLogOp]): {summary(alone)}")
        stream = bench_stream(Path(tmp) / "stream.sqlite3", args.tables, args.rate, args.seconds)
        print(
            f"{args.rate:g} moves a second over {args.tables} tables for {args.seconds:g} s,"
            f" CPU time: {summary(stream)}, mean {statistics.mean(stream) * 1e6:.0f} µs"
        )

        path = Path(tmp) / "load.sqlite3"
        start = time.perf_counter()
        fill(path, args.tables, args.entries)
        print(
            f"filled {args.tables} tables x {args.entries} log entries + 4 chat lines "
            f"in {time.perf_counter() - start:.1f} s ({path.stat().st_size / 1e6:.1f} MB)"
        )
        start = time.perf_counter()
        store = SqliteStorage(path)
        opened = time.perf_counter() - start
        start = time.perf_counter()
        loaded = store.load_open_tables(args.chat_limit)
        load = time.perf_counter() - start
        store.close()
        assert len(loaded) == args.tables
        assert all(len(t.log) == args.entries for t in loaded)
        print(f"open (quick_check): {opened * 1e3:.0f} ms")
        print(f"load_open_tables: {load * 1e3:.0f} ms for {len(loaded)} tables")


if __name__ == "__main__":
    main()
