"""Several active servers, on paper (docs/architecture.md, "On paper: several active servers"):
the figures the design rests on.

1. Tables placed by id. Each table belongs to the server that rendezvous hashing picks from its
   id among the live servers (no directory to keep). Simulated: `--tables` random ids over 2 to
   8 servers; how even the shares are (the fullest server against the mean), and which tables
   move when a server leaves or joins (only its own share should).
2. The lobby through LISTEN/NOTIFY. Each server would publish its tables' changes on one
   channel, every server listening. Measured on a real PostgreSQL (started by the bench,
   testbed/postgres.py): `--publishers` connections NOTIFY at `--rate` changes a second in all,
   with a payload of a lobby entry's size, `--listeners` connections LISTEN; the delivery delay
   as the listeners see it.

    .venv/bin/python bench/cluster_sim.py [--tables N] [--rate R] [--seconds S]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import secrets
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from testbed.postgres import Cluster


def owner(table_id: str, servers: list[str]) -> str:
    """Rendezvous (highest random weight) hashing: the server whose hash with the id is highest."""
    return max(servers, key=lambda s: hashlib.blake2b(f"{s}/{table_id}".encode()).digest())


def placement(tables: int) -> None:
    ids = [secrets.token_hex(4) for _ in range(tables)]
    print(f"placement of {tables} tables by id (rendezvous hashing):")
    for count in (2, 3, 4, 8):
        servers = [f"server-{i}" for i in range(count)]
        owners = {t: owner(t, servers) for t in ids}
        shares = [sum(1 for o in owners.values() if o == s) for s in servers]
        mean = tables / count
        left = servers[:-1]
        moved = sum(1 for t in ids if owner(t, left) != owners[t])
        lost = sum(1 for o in owners.values() if o == servers[-1])
        print(
            f"  {count} servers: fullest {max(shares)} / mean {mean:.0f}"
            f" = {max(shares) / mean:.3f};"
            f" one leaving moves {moved} tables ({moved / tables:.1%}), its own {lost}"
        )


def lobby(publishers: int, listeners: int, rate: float, seconds: float) -> None:
    cluster = Cluster(fsync=True)
    try:
        url = cluster.database()
        entry = json.dumps(
            {"table_id": "0123abcd", "status": "playing", "white": "Ann", "black": "Bob",
             "options": {"variant1": False, "variant2": True}, "spectators": 3, "rated": True}
        )  # fmt: skip
        delays: list[float] = []
        ready = threading.Barrier(listeners + 1)
        stop = threading.Event()
        lock = threading.Lock()

        def listen() -> None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("LISTEN lobby")
                ready.wait()
                while not stop.is_set():
                    for note in conn.notifies(timeout=0.2):
                        sent = float(note.payload.partition("|")[0])
                        with lock:
                            delays.append(time.time() - sent)

        threads = [threading.Thread(target=listen) for _ in range(listeners)]
        for thread in threads:
            thread.start()
        ready.wait()
        conns = [psycopg.connect(url, autocommit=True) for _ in range(publishers)]
        count = int(rate * seconds)
        began = time.perf_counter()
        for i in range(count):
            while time.perf_counter() < began + i / rate:
                time.sleep(0.0002)
            conns[i % publishers].execute(
                "SELECT pg_notify('lobby', %s)", (f"{time.time()}|{entry}",)
            )
        spent = time.perf_counter() - began
        time.sleep(1.0)
        stop.set()
        for thread in threads:
            thread.join()
        for conn in conns:
            conn.close()
        delays.sort()
        received = len(delays)
        print(
            f"lobby changes through NOTIFY: {count} in {spent:.1f} s ({count / spent:.0f}/s) from"
            f" {publishers} servers, {listeners} listening; {received} received"
            f" ({received / max(1, count * listeners):.1%});"
            f" delay p50 {statistics.median(delays) * 1e3:.2f} ms,"
            f" p99 {delays[int(len(delays) * 0.99)] * 1e3:.2f} ms, max {delays[-1] * 1e3:.1f} ms"
        )
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--publishers", type=int, default=4)
    parser.add_argument("--listeners", type=int, default=4)
    parser.add_argument("--rate", type=float, default=2000, help="lobby changes a second, in all")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    placement(args.tables)
    lobby(args.publishers, args.listeners, args.rate, args.seconds)


if __name__ == "__main__":
    main()
