"""How long deleting an account holds the database (a script, not a test).

    .venv/bin/python bench/account_deletion_bench.py                 # 100,000 archived games
    .venv/bin/python bench/account_deletion_bench.py --games 20000 --db postgresql://...

A deletion (server/core/account_deletion.py) is one transaction, a DeleteAccountOp: it points
every row of the account's games, seats, chat, challenges and tournaments to its stand-in. The
server writes a local SQLite database on its event loop, so while it runs no other message is
answered. This makes a database of --players accounts and --games finished games (each with
its table, two seats, a record, two chat lines and an archive row; one player in every tenth
game is the one deleted), then times the deletion. Printed: the rows made, and the deletion's
time. The target: under half a second for an account of 10,000 games in an archive of 100,000
on SQLite (the defaults), a pause in a rare event; the indexes of schema version 6 find the
account's rows without reading the others (on a loaded 2-core machine: 403 ms; 198 ms for
2,000 games of 20,000).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.core.store import (
    AccountOp,
    AccountRow,
    ArchivedGame,
    ArchiveOp,
    ChatOp,
    CreateTableOp,
    DeleteAccountOp,
    FinishOp,
    LobbyChatOp,
    SetSeatOp,
    StorageOp,
    hash_token,
)
from server.storage.storage_open import open_storage

RECORD = "kahuna-record 1\nfirst white\ndeal " + "ALOA " * 24 + "\nwhite resigns\n"


def account(i: int) -> AccountRow:
    return AccountRow(f"p{i}", f"P{i}", "$argon2id$x", 1500.0, 350.0, 0.06, 1.0, 1.0, False, {})


def game_ops(n: int, white: int, black: int) -> list[StorageOp]:
    table = f"t{n:08d}"
    w, b = account(white), account(black)
    return [
        CreateTableOp(table, {}, "white", False, float(n)),
        SetSeatOp(table, "white", w.name, hash_token(f"{table}w"), False, w.key),
        SetSeatOp(table, "black", b.name, hash_token(f"{table}b"), False, b.key),
        ChatOp(table, w.name, "good luck", float(n), "white"),
        ChatOp(table, b.name, "thanks", float(n), "black"),
        FinishOp(table, {"winner": "white"}, RECORD, float(n)),
        ArchiveOp(
            ArchivedGame(
                table,
                w.name,
                b.name,
                w.key,
                b.key,
                "white",
                "resigned",
                False,
                None,
                None,
                False,
                None,
                float(n),
                float(n) + 1,
            )
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--db", help="a database URL or path (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "bench.sqlite3")
        storage = open_storage(db)
        storage.write([AccountOp(account(i)) for i in range(args.players)])
        made = time.perf_counter()
        batch: list[StorageOp] = []
        for n in range(args.games):
            white = 0 if n % 10 == 0 else 1 + n % (args.players - 1)
            black = 1 + (n * 7 + 3) % (args.players - 1)
            batch += game_ops(n, white, black if black != white else 1)
            if len(batch) >= 7000:
                storage.write(batch)
                batch = []
        storage.write([*batch, *(LobbyChatOp("P0", "hi", float(i)) for i in range(500))])
        print(f"made {args.games} games of {args.players} players in"
              f" {time.perf_counter() - made:.1f} s")  # fmt: skip
        start = time.perf_counter()
        storage.write([DeleteAccountOp("p0", "P0", "#deleted 1", "deleted #1", 1e9)])
        took = time.perf_counter() - start
        storage.close()
    print(f"deleted the account of {args.games // 10} of them in {took * 1000:.0f} ms")


if __name__ == "__main__":
    main()
