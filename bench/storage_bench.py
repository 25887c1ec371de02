"""Storage speed: the cost of one stored move, and of loading every open table at start.

    .venv/bin/python bench/storage_bench.py [--writes N] [--pause S] [--tables T] [--entries E]
                                            [--rate R] [--seconds S] [--postgresql]

By default on a SQLite file in a fresh temporary directory (WAL, synchronous=NORMAL), so the
figures include each append or commit but no fsync. With --postgresql, on a PostgreSQL that the
bench starts in a temporary directory (testbed/postgres.py: Debian's initdb and pg_ctl, a Unix
socket), with fsync on and synchronous_commit on, as PostgreSQL runs by default: each commit
waits for its WAL to reach the disk. The load figure is what a restarted server waits for
before it accepts connections; the open (SQLite: PRAGMA quick_check over the whole file;
PostgreSQL: the connection, the lock and the schema checks) is timed separately.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.core.store import (
    AppendLogOp,
    ChatOp,
    CreateTableOp,
    SetSeatOp,
    StorageOp,
    hash_token,
)
from server.storage.storage_open import open_storage

OPTIONS = {"variant1": False, "variant2": False, "handicap": None}
# Close to the server's real entries: a card-source line, then moves as notation.
MOVE = ["m", "white", "remove ELAI-HUNA HUNA+ELAI"]


def bench_writes(db: str, writes: int, pause: float) -> list[float]:
    """One move stored alone, `writes` times, each after `pause` seconds asleep as between two
    commands (a process that has just slept runs slower than one in a tight loop): through
    `write`, one INSERT in autocommit."""
    store = open_storage(db)
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


def bench_stream(db: str, tables: int, rate: float, seconds: float) -> list[float]:
    """Moves of `tables` tables in turn at `rate` a second, as a loaded server stores them,
    in CPU time (the writer's thread): the tables' `updated` times go along in batches
    (sql_store.TOUCH_BATCH) once a second, and the longest write shows what one costs."""
    store = open_storage(db)
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


def fill(db: str, tables: int, entries: int) -> None:
    store = open_storage(db)
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
    parser.add_argument(
        "--postgresql", action="store_true", help="on a PostgreSQL started for the bench"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        if args.postgresql:
            from testbed.postgres import Cluster

            cluster = Cluster(fsync=True)

        def new_db(name: str) -> str:
            return str(Path(tmp) / f"{name}.sqlite3") if cluster is None else cluster.database()

        try:
            run(args, new_db)
        finally:
            if cluster is not None:
                cluster.stop()


def run(args: argparse.Namespace, new_db: Callable[[str], str]) -> None:
    alone = bench_writes(new_db("writes"), args.writes, args.pause)
    print(f"one move stored alone, x {args.writes}, each after {args.pause * 1e3:g} ms asleep:")
    print(f"  write([AppendLogOp]): {summary(alone)}")
    stream = bench_stream(new_db("stream"), args.tables, args.rate, args.seconds)
    print(
        f"{args.rate:g} moves a second over {args.tables} tables for {args.seconds:g} s,"
        f" CPU time of the server's thread: {summary(stream)},"
        f" mean {statistics.mean(stream) * 1e6:.0f} µs"
    )
    db = new_db("load")
    start = time.perf_counter()
    fill(db, args.tables, args.entries)
    print(
        f"filled {args.tables} tables x {args.entries} log entries + 4 chat lines "
        f"in {time.perf_counter() - start:.1f} s"
    )
    start = time.perf_counter()
    store = open_storage(db)
    opened = time.perf_counter() - start
    start = time.perf_counter()
    loaded = store.load_open_tables(args.chat_limit)
    load = time.perf_counter() - start
    store.close()
    assert len(loaded) == args.tables
    assert all(len(t.log) == args.entries for t in loaded)
    print(f"open: {opened * 1e3:.0f} ms")
    print(f"load_open_tables: {load * 1e3:.0f} ms for {len(loaded)} tables")


if __name__ == "__main__":
    main()
