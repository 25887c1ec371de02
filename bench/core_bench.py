"""The server's CPU per action without sockets: a script, not a test.

    .venv/bin/python bench/core_bench.py                      # 500 tables, 20,000 actions
    .venv/bin/python bench/core_bench.py --version 2 --profile 25

bench/load_bench.py measures the whole server over real websockets, on a machine it shares
with its clients, where every other process moves the figures. This measures the part that is
ours alone, the same way every time: the sans-I/O core (server/core/core.py) fed the frames of N
tables of two players (clients of the protocol version given, as load_bench's speak 1), each
playing random legal actions; every message it hands out encoded as app.py's deliver does
(once per message and version); its writes stored in SQLite in a temporary directory as the
server stores them (one transaction per batch of BATCH commands, as a turn of the event loop
under load). Printed: CPU microseconds per action (process time, so other processes on the
machine hardly move it) for the core, the encoding and the storage, and with --profile N the
N functions of most own time (cProfile, which slows everything about twice).
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.codec import encode
from protocol.fields import TableOptions
from protocol.messages import Command, CreateTable, Hello, Join, Joined
from server.core.config import ServerConfig
from server.core.core import ServerCore
from server.core.effects import Effects
from server.core.store import StorageOp
from server.core.table import MemberId
from server.storage.sqlite_store import SqliteStorage
from shared.randomness import SeededSource
from shared.types import Seat

WALL = 1_700_000_000.0
BATCH = 8  # commands whose writes go in one transaction


class Bench:
    def __init__(self, tables: int, version: int, db: Path) -> None:
        seeds = itertools.count(1)
        self.config = ServerConfig(
            rate=1e9, burst=1_000_000, flood_limit=1_000_000, max_per_address=1_000_000,
            max_connections=1_000_000, max_tables=1_000_000, waiting_per_address=1_000_000,
            computer_delay=0.0, source_factory=lambda: SeededSource(next(seeds)),
            rng=random.Random(7),
        )  # fmt: skip
        self.core = ServerCore(self.config)
        self.storage = SqliteStorage(db)
        self.version = version
        self.now = 0.0
        self.pending: list[StorageOp] = []
        self.seats: list[tuple[str, dict[Seat, MemberId]]] = []
        self.core_cpu = self.encode_cpu = self.store_cpu = 0.0
        for n in range(tables):
            white = self.member(f"W{n}")
            black = self.member(f"B{n}")
            created = self.feed(white, CreateTable(TableOptions(), False, "white", "white"))
            table_id = next(m.table_id for _, m, _ in created.sends if isinstance(m, Joined))
            self.feed(black, Join(table_id, "black"))
            self.seats.append((table_id, {Seat.WHITE: white, Seat.BLACK: black}))
        self.flush()

    def member(self, name: str) -> MemberId:
        member = self.core.connect(f"10.{len(self.seats) // 250}.0.1", self.now)
        assert isinstance(member, int), member
        self.feed(member, Hello(self.version, name))
        return member

    def feed(self, member: MemberId, message: object) -> Effects:
        data = encode(message, self.version)  # type: ignore[arg-type]
        began = time.process_time()
        effects = self.core.frame(member, data, self.now, WALL)
        middle = time.process_time()
        encoded: dict[tuple[int, int], bytes] = {}
        for _member, sent, version in effects.sends:
            key = (id(sent), version)
            if key not in encoded:
                encoded[key] = encode(sent, version)
        ended = time.process_time()
        self.core_cpu += middle - began
        self.encode_cpu += ended - middle
        self.pending += effects.writes
        return effects

    def flush(self) -> None:
        if self.pending:
            began = time.process_time()
            self.storage.write(self.pending)
            self.store_cpu += time.process_time() - began
            self.pending = []

    def play(self, actions: int, rng: random.Random) -> None:
        done = 0
        while done < actions:
            for table_id, members in self.seats:
                table = self.core.lobby.tables[table_id]
                game = table.game
                if game.is_over:
                    continue
                action = rng.choice(game.legal_actions())
                self.now += 0.001
                self.feed(members[game.to_move], Command(table_id, table.version, str(action)))
                done += 1
                if done % BATCH == 0:
                    self.flush()
                if done >= actions:
                    break
            else:
                if all(self.core.lobby.tables[t].game.is_over for t, _ in self.seats):
                    break
        self.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--version", type=int, default=1, help="the clients' protocol version")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, metavar="N", help="print cProfile's top N")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(args.tables, args.version, Path(tmp) / "server.sqlite3")
        bench.core_cpu = bench.encode_cpu = bench.store_cpu = 0.0
        rng = random.Random(args.seed)
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        bench.play(args.actions, rng)
        if profiler is not None:
            profiler.disable()
        bench.storage.close()
    n = args.actions
    total = bench.core_cpu + bench.encode_cpu + bench.store_cpu
    print(
        f"{args.tables} tables, {n} actions, version-{args.version} clients: "
        f"{total / n * 1e6:.1f} us of CPU an action (core {bench.core_cpu / n * 1e6:.1f},"
        f" encoding {bench.encode_cpu / n * 1e6:.1f}, storage {bench.store_cpu / n * 1e6:.1f})"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
