"""Start-up benchmark: how long kahuna-server takes to come back with many stored games.

    .venv/bin/python bench/startup_bench.py                 # 2,000 running tables
    .venv/bin/python bench/startup_bench.py --tables 500 --actions 60

It fills a database in a temporary directory with running tables (two players each, a random
game `--actions` actions in, a few chat lines), written through the real server core and
storage, then starts `kahuna-server --db` on it and times it from the start of the process to
its "listening" line, and, in this process, the parts: loading the rows and restoring the tables
(each game is rebuilt from its log when first used; the bench times that too). Target: under 2 s
for 2,000 tables on this machine.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from protocol.codec import encode  # noqa: E402
from protocol.fields import PROTOCOL_VERSION, TableOptions  # noqa: E402
from protocol.messages import Chat, Command, CreateTable, Hello, Join, Joined  # noqa: E402
from server.core.config import ServerConfig  # noqa: E402
from server.core.core import ServerCore  # noqa: E402
from server.storage.sqlite_store import SqliteStorage  # noqa: E402
from shared.randomness import SeededSource  # noqa: E402


def fill(path: Path, tables: int, actions: int) -> None:
    seeds = itertools.count(1)
    config = ServerConfig(
        rate=1e9,
        burst=10**9,
        max_tables=tables + 1,
        tables_per_connection=10**6,
        chat_rate=1e9,
        chat_burst=10**9,
        max_per_address=10**6,
        source_factory=lambda: SeededSource(next(seeds)),
        rng=random.Random(0),
    )
    core = ServerCore(config)
    storage = SqliteStorage(path)
    rng = random.Random(1)
    white, black = core.connect("10.0.0.1", 0.0), core.connect("10.0.0.2", 0.0)
    assert isinstance(white, int) and isinstance(black, int)
    for member, name in ((white, "Ana"), (black, "Bo")):
        core.frame(member, encode(Hello(PROTOCOL_VERSION, name)), 0.0, time.time())
    for _ in range(tables):
        effects = core.frame(
            white, encode(CreateTable(TableOptions(), False, "white")), 0.0, time.time()
        )
        storage.write(effects.writes)
        table_id = next(m.table_id for _, m, _ in effects.sends if isinstance(m, Joined))
        storage.write(core.frame(black, encode(Join(table_id, None)), 0.0, time.time()).writes)
        table = core.lobby.tables[table_id]
        for _ in range(actions):
            if table.game.is_over:
                break
            member = white if table.game.to_move == 0 else black
            action = str(rng.choice(table.game.legal_actions()))
            command = encode(Command(table_id, table.version, action))
            storage.write(core.frame(member, command, 0.0, time.time()).writes)
        for text in ("good luck", "thanks", "nice bridge"):
            storage.write(core.frame(white, encode(Chat(table_id, text)), 0.0, time.time()).writes)
    storage.close()


def time_in_process(path: Path) -> tuple[float, float, int]:
    config = ServerConfig()
    gc.disable()  # as the server does while it restores
    start = time.perf_counter()
    storage = SqliteStorage(path)
    stored = storage.load_open_tables(config.chat_history)
    used = storage.table_ids()
    loaded = time.perf_counter()
    core = ServerCore(config, rng=random.SystemRandom())  # as the server's shell gives it
    core.restore(stored, used, 0.0, time.time())
    rebuilt = time.perf_counter()
    gc.enable()
    storage.close()
    # A stored game is rebuilt from its log when first needed (a reclaim, a spectator, a move)
    tables = list(core.lobby.tables.values())[:200]
    began = time.perf_counter()
    for table in tables:
        table.game  # noqa: B018
    first_use = (time.perf_counter() - began) / max(1, len(tables))
    print(f"  a table's first use rebuilds its game: {first_use * 1e3:.2f} ms")
    return loaded - start, rebuilt - loaded, len(core.lobby.tables)


def time_process(path: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--db", str(path),
         "--log-level", "error"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.terminate()
    proc.wait(10)
    if not re.search(r"listening", line):
        raise SystemExit(f"the server did not start: {line!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=100, help="actions into each game")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kahuna-startup-") as scratch:
        path = Path(scratch) / "server.sqlite3"
        began = time.perf_counter()
        fill(path, args.tables, args.actions)
        size = path.stat().st_size / 2**20
        print(
            f"{args.tables} running tables, {args.actions} actions in, written in"
            f" {time.perf_counter() - began:.1f} s ({size:.1f} MiB)"
        )
        for _ in range(args.runs):
            load, rebuild, count = time_in_process(path)
            whole = time_process(path)
            print(
                f"  load {load:.2f} s + restore {rebuild:.2f} s ({count} tables) in process;"
                f" kahuna-server start to listening: {whole:.2f} s"
                f" (target < 2 s: {'met' if whole < 2 else 'NOT met'})"
            )


if __name__ == "__main__":
    main()
