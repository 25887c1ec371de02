"""The Storage in SQLite: every table, its seats, its log, its chat and the result of a finished
game, in one database. All the server's SQL is here and in server/sqlite_schema.py (the schema);
the core only builds `StorageOp` values (server/store.py). Durability (WAL, one INSERT in
autocommit for a move stored alone) and the batched `updated` times: docs/architecture.md.

Threads. A `SqliteStorage` holds one connection and must be used from one thread at a time
(`check_same_thread=False` only lets the server hand it to one dedicated writer thread). A
background thread with its own connection checkpoints the write-ahead log every
CHECKPOINT_EVERY seconds (PASSIVE, blocking no writer), so that no commit on the event loop
does it.

One server per database: the file is held with flock while the storage is open (on Linux apart
from SQLite's fcntl locks), and a second opening is refused. The descriptor is closed only after
SQLite's connections: closing any descriptor of the file would drop SQLite's own locks.

A file that is not a SQLite database, is damaged, belongs to another program or was written by a
newer server is refused with a `StorageError` before anything is written to it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgpack

from server.sqlite_schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    check_integrity,
    create_schema,
    migrate,
    probe,
)
from server.store import (
    AccountOp,
    AccountRow,
    AppendLogOp,
    ArchivedGame,
    ArchiveOp,
    ChallengeGoneOp,
    ChallengeOp,
    ChallengeRow,
    ChatOp,
    ClearSeatOp,
    CloseOp,
    CreateTableOp,
    DropLoginTokensOp,
    FinishOp,
    LobbyChatOp,
    LoginTokenOp,
    SetSeatOp,
    StorageError,
    StorageOp,
    StoredSeat,
    StoredTable,
    TableStateOp,
)

log = logging.getLogger(__name__)


def default_db_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / "server.sqlite3"


MEMORY = ":memory:"
CHECKPOINT_EVERY = 1.0  # seconds between background checkpoints
TOUCH_EVERY = 1.0  # seconds between writes of the tables' `updated` times (see above)
TOUCH_BATCH = 64  # tables whose `updated` one write carries at most
# The move journal of earlier versions (`<database>-moves`): moves stored beside the database
# until they went into it. One left with moves in it is refused (see _check_no_journal).
OLD_JOURNAL_SUFFIX = "-moves"

try:
    import fcntl
except ImportError:  # not on POSIX: no lock, and nothing stops a second server
    fcntl = None  # type: ignore[assignment]


def _keep_latest(times: dict[str, float], table_id: str, at: float) -> None:
    if at > times.get(table_id, at - 1):
        times[table_id] = at


@functools.cache
def _insert_log(count: int) -> str:
    """One INSERT statement of `count` log entries."""
    rows = ", ".join(["(?, ?, ?)"] * count)
    return f"INSERT INTO log (table_id, idx, entry) VALUES {rows}"


def _log_rows(op: AppendLogOp) -> list[tuple[str, int, bytes]]:
    return [
        (op.table_id, op.index + i, msgpack.packb(entry, use_bin_type=True))
        for i, entry in enumerate(op.entries)
    ]


class SqliteStorage:
    """`Storage` in one SQLite file (or in memory for ":memory:", which keeps nothing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._memory = self.path == MEMORY
        self._lock_fd: int | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self.checkpoints = 0  # background checkpoints done (for tests and curious hosts)
        # Open tables' next log index, as committed; and the changes of the transaction under
        # way, kept apart until its COMMIT (None: closed in it).
        self._open_tables: dict[str, int] = {}
        self._pending: dict[str, int | None] = {}
        # Tables' latest `updated` not yet written, as committed, the longest waiting first;
        # and the transaction's own.
        self._touched: dict[str, float] = {}
        self._pending_touches: dict[str, float] = {}
        self._touch_due = 0.0  # time.monotonic() from which the touches are written
        if not self._memory:
            _prepare_path(Path(path))
            self._lock()
        try:
            # isolation_level=None: the module issues BEGIN/COMMIT itself, so a transaction
            # spans exactly one write() and nothing is committed behind its back.
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot open the database: {e}") from e
        try:
            if not self._memory:
                _check_no_journal(Path(path))  # under the lock: no server is using it
            self._open()
        except BaseException:
            self._conn.close()
            self._unlock()
            raise
        if not self._memory:
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="kahuna-checkpoints", daemon=True
            )
            self._checkpointer.start()

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            # For the server's user alone: the log holds the order of the deck of every running
            # game (SQLite gives its -wal and -shm files the same mode).
            self._lock_fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StorageError(f"{self.path}: cannot open the database: {e.strerror}") from e
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._unlock()
            raise StorageError(
                f"{self.path}: another kahuna server is using this database; one database"
                " belongs to one server"
            ) from None

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def _checkpoints(self) -> None:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:
            return  # the writer's own automatic checkpoints are then missed; SQLite copes
        try:
            while not self._stop_checkpoints.wait(CHECKPOINT_EVERY):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    self.checkpoints += 1
        finally:
            conn.close()

    def _open(self) -> None:
        # Everything up to the version checks only reads, so a file we refuse stays untouched.
        try:
            app_id, version, objects = probe(self._conn)
            if app_id == 0 and version == 0 and objects == 0:
                new = True
            elif app_id != APPLICATION_ID:
                raise StorageError(
                    f"{self.path}: not a kahuna server database (a SQLite database of another "
                    "program?); refusing to use it"
                )
            elif version > SCHEMA_VERSION:
                raise StorageError(
                    f"{self.path}: written by a newer kahuna server (schema version {version}; "
                    f"this server knows version {SCHEMA_VERSION}); refusing to use it"
                )
            else:
                new = False
                check_integrity(self._conn, self.path)
                old = version
        except sqlite3.Error as e:
            raise StorageError(
                f"{self.path}: not a readable SQLite database ({e}); the file was left as it was"
            ) from e
        try:
            if not self._memory:
                mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if mode != "wal":
                    raise StorageError(
                        f"{self.path}: SQLite cannot use WAL mode here (journal mode "
                        f"stays {mode!r}); is the file on a network file system?"
                    )
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            if not self._memory:
                self._conn.execute("PRAGMA wal_autocheckpoint=0")  # the thread does it
            if new:
                create_schema(self._conn, self.path)
            elif old < SCHEMA_VERSION:
                migrate(self._conn, old)
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot prepare the database: {e}") from e

    def write(self, ops: Sequence[StorageOp]) -> None:
        if not ops:
            return
        if len(ops) == 1 and type(ops[0]) is AppendLogOp and self._append_alone(ops[0]):
            return
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot start a transaction: {e}") from e
        self._pending = {}
        self._pending_touches = {}
        try:
            for op in ops:
                self._apply(op)
            due = time.monotonic() >= self._touch_due
            batch = self._touch_batch(TOUCH_BATCH) if due else {}
            self._write_touches(batch)
            self._conn.execute("COMMIT")
        except BaseException as e:
            with contextlib.suppress(sqlite3.Error):  # the original error is the one to report
                self._conn.execute("ROLLBACK")
            if isinstance(e, StorageError):
                raise
            if isinstance(e, sqlite3.Error | ValueError | TypeError):
                raise StorageError(f"{self.path}: write failed, nothing written: {e}") from e
            raise
        for table_id, next_index in self._pending.items():
            if next_index is None:
                self._open_tables.pop(table_id, None)
            else:
                self._open_tables[table_id] = next_index
        self._settle_touches(batch)
        if due and not self._touched:  # else the next writes carry the rest
            self._touch_due = time.monotonic() + TOUCH_EVERY

    def _append_alone(self, op: AppendLogOp) -> bool:
        """A move stored by itself, the most common write of all: one INSERT of all its
        entries, which is its own transaction. False: not such a write (a table not yet known
        here, the touches due), to be written as usual."""
        next_index = self._open_tables.get(op.table_id)
        if next_index is None or not op.entries or time.monotonic() >= self._touch_due:
            return False
        self._check_continues(op, next_index)
        try:
            rows = _log_rows(op)
            self._conn.execute(_insert_log(len(rows)), [value for row in rows for value in row])
        except (sqlite3.Error, ValueError, TypeError) as e:
            raise StorageError(f"{self.path}: write failed, nothing written: {e}") from e
        self._open_tables[op.table_id] = next_index + len(op.entries)
        _keep_latest(self._touched, op.table_id, op.at)
        return True

    def _check_continues(self, op: AppendLogOp, next_index: int) -> None:
        if op.index != next_index:
            raise StorageError(
                f"{self.path}: log of table {op.table_id} continues at index "
                f"{next_index}, not {op.index}; nothing written"
            )

    def _apply(self, op: StorageOp) -> None:
        c = self._conn
        match op:
            case CreateTableOp():
                c.execute(
                    "INSERT INTO tables (id, options, first, vs_computer, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        op.table_id,
                        json.dumps(op.options, sort_keys=True),
                        op.first,
                        int(op.vs_computer),
                        op.created,
                        op.created,
                    ),
                )
                self._pending[op.table_id] = 0
            case SetSeatOp():
                self._require_table(op.table_id, op)
                c.execute(
                    "INSERT OR REPLACE INTO seats"
                    " (table_id, seat, name, token_hash, computer, account)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (op.table_id, op.seat, op.name, op.token_hash, int(op.computer), op.account),
                )
            case ClearSeatOp():
                self._require_table(op.table_id, op)
                c.execute(
                    "DELETE FROM seats WHERE table_id = ? AND seat = ?", (op.table_id, op.seat)
                )
            case AppendLogOp():
                next_index = self._require_table(op.table_id, op)
                self._check_continues(op, next_index)
                c.executemany(_insert_log(1), _log_rows(op))
                self._pending[op.table_id] = next_index + len(op.entries)
                self._touch(op.table_id, op.at)
            case ChatOp():
                self._require_table(op.table_id, op)
                c.execute(
                    "INSERT INTO chat (table_id, sender, text, at, role) VALUES (?, ?, ?, ?, ?)",
                    (op.table_id, op.sender, op.text, op.at, op.role),
                )
                self._touch(op.table_id, op.at)
            case TableStateOp():
                self._require_table(op.table_id, op)
                c.execute(
                    "UPDATE tables SET state = ? WHERE id = ?",
                    (json.dumps(op.state, sort_keys=True), op.table_id),
                )
                self._touch(op.table_id, op.at)
            case FinishOp():
                self._require_table(op.table_id, op)
                c.execute(
                    "INSERT INTO finished (table_id, result, record, at) VALUES (?, ?, ?, ?)",
                    (op.table_id, json.dumps(op.result, sort_keys=True), op.record, op.at),
                )
                self._touch(op.table_id, op.at)
            case CloseOp():
                self._require_table(op.table_id, op)
                # the time of its last touch not yet written goes with it
                at = max(op.at, self._latest_touch(op.table_id) or op.at)
                c.execute(
                    "UPDATE tables SET status = 'closed', close_reason = ?,"
                    " updated = max(updated, ?) WHERE id = ?",
                    (op.reason, at, op.table_id),
                )
                self._pending[op.table_id] = None
            case _:
                self._apply_players(op)

    def _apply_players(self, op: StorageOp) -> None:
        """The operations of version 3's players, which name no open table."""
        c = self._conn
        match op:
            case AccountOp(account=a):
                c.execute(
                    "INSERT OR REPLACE INTO accounts (name_key, name, password_hash, rating,"
                    " deviation, volatility, created, last_seen, disabled, data)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        a.key, a.name, a.password_hash, a.rating, a.deviation, a.volatility,
                        a.created, a.last_seen, int(a.disabled), json.dumps(a.data, sort_keys=True),
                    ),
                )  # fmt: skip
            case LoginTokenOp():
                c.execute(
                    "INSERT OR REPLACE INTO login_tokens (token_hash, account, created)"
                    " VALUES (?, ?, ?)",
                    (op.token_hash, op.key, op.at),
                )
            case DropLoginTokensOp(key=key, token_hash=None):
                c.execute("DELETE FROM login_tokens WHERE account = ?", (key,))
            case DropLoginTokensOp():
                c.execute(
                    "DELETE FROM login_tokens WHERE account = ? AND token_hash = ?",
                    (op.key, op.token_hash),
                )
            case ChallengeOp(challenge=ch):
                c.execute(
                    "INSERT INTO challenges (id, sender, recipient, terms, created)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        ch.challenge_id, ch.sender, ch.recipient,
                        json.dumps(ch.terms, sort_keys=True), ch.created,
                    ),
                )  # fmt: skip
            case ChallengeGoneOp():
                done = c.execute(
                    "UPDATE challenges SET answer = ?, answered = ?"
                    " WHERE id = ? AND answer IS NULL",
                    (op.answer, op.at, op.challenge_id),
                )
                if done.rowcount != 1:
                    raise StorageError(
                        f"{self.path}: challenge {op.challenge_id} is not standing; nothing written"
                    )
            case ArchiveOp(game=g):
                c.execute(
                    "INSERT INTO archive (table_id, white, black, white_account, black_account,"
                    " winner, ending, rated, white_change, black_change, vs_computer, level,"
                    " started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        g.table_id, g.white, g.black, g.white_account, g.black_account, g.winner,
                        g.ending, int(g.rated), g.white_change, g.black_change,
                        int(g.vs_computer), g.level, g.started, g.finished,
                    ),
                )  # fmt: skip
            case LobbyChatOp():
                c.execute(
                    "INSERT INTO lobby_chat (sender, text, at) VALUES (?, ?, ?)",
                    (op.sender, op.text, op.at),
                )
            case _:
                raise StorageError(f"{self.path}: unknown operation {type(op).__name__}")

    def _flush(self) -> None:
        """Write every table's `updated` not yet written, now."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._write_touches(self._touched)
                self._conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot write the tables' times: {e}") from e
        self._touched = {}
        self._touch_due = time.monotonic() + TOUCH_EVERY

    def _require_table(self, table_id: str, op: StorageOp) -> int:
        """The table's next log index; refuses a table unknown or closed. Foreign keys would
        catch an unknown table on insert, but not on update or delete, and an op aimed at a
        table already closed is a bug in the caller either way. The answer is kept for the
        tables this storage has seen open (it is the only writer: see the lock), which saves
        two queries of every stored action."""
        if table_id in self._pending:
            known = self._pending[table_id]
        else:
            known = self._open_tables.get(table_id)
        if known is not None:
            return known
        closed_here = table_id in self._pending
        row = self._conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise StorageError(f"{self.path}: {type(op).__name__} for unknown table {table_id}")
        if closed_here or row[0] != "open":
            raise StorageError(f"{self.path}: {type(op).__name__} for closed table {table_id}")
        (next_index,) = self._conn.execute(
            "SELECT coalesce(max(idx) + 1, 0) FROM log WHERE table_id = ?", (table_id,)
        ).fetchone()
        self._pending[table_id] = int(next_index)
        return int(next_index)

    def _touch(self, table_id: str, at: float) -> None:
        _keep_latest(self._pending_touches, table_id, at)

    def _latest_touch(self, table_id: str) -> float | None:
        """The latest `updated` of the table not yet written, this transaction's included."""
        times = [t for t in (self._touched, self._pending_touches) if table_id in t]
        return max(t[table_id] for t in times) if times else None

    def _touch_batch(self, most: int) -> dict[str, float]:
        """The first `most` tables whose time is not yet written, with their latest times: the
        committed ones first (the longest waiting), then the transaction's own; a table the
        transaction closes has its time from its CloseOp. Looks at those tables alone, not at
        every table touched."""
        batch: dict[str, float] = {}
        for table_id in itertools.chain(self._touched, self._pending_touches):
            if len(batch) >= most:
                break
            if table_id in batch or self._pending.get(table_id, 0) is None:
                continue
            latest = self._latest_touch(table_id)
            assert latest is not None
            batch[table_id] = latest
        return batch

    def _settle_touches(self, batch: dict[str, float]) -> None:
        """After the COMMIT: the times written are no longer waiting, the transaction's others
        join the waiting ones."""
        for table_id, next_index in self._pending.items():
            if next_index is None:
                self._touched.pop(table_id, None)  # its CloseOp wrote the time
        for table_id in batch:
            self._touched.pop(table_id, None)
        for table_id, at in self._pending_touches.items():
            if table_id not in batch and self._pending.get(table_id, 0) is not None:
                _keep_latest(self._touched, table_id, at)

    def _write_touches(self, batch: dict[str, float]) -> None:
        """Within the transaction: the tables' `updated` times."""
        rows = [(at, table_id) for table_id, at in batch.items()]
        self._conn.executemany("UPDATE tables SET updated = max(updated, ?) WHERE id = ?", rows)

    def load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        try:
            return self._load_open_tables(chat_limit)
        except (sqlite3.Error, ValueError) as e:
            raise StorageError(f"{self.path}: cannot load the open tables: {e}") from e

    def _load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        c = self._conn
        # One read transaction, so the five queries see the same state.
        c.execute("BEGIN")
        try:
            rows = c.execute(
                "SELECT t.id, t.options, t.first, t.vs_computer, t.created, t.updated,"
                " f.table_id IS NOT NULL, t.state"
                " FROM tables t LEFT JOIN finished f ON f.table_id = t.id"
                " WHERE t.status = 'open' ORDER BY t.seq"
            ).fetchall()
            seats: dict[str, dict[str, StoredSeat]] = {row[0]: {} for row in rows}
            logs: dict[str, list[Any]] = {row[0]: [] for row in rows}
            chats: dict[str, list[tuple[str, str, str | None]]] = {row[0]: [] for row in rows}
            for table_id, seat, name, token_hash, computer, account in c.execute(
                "SELECT s.table_id, s.seat, s.name, s.token_hash, s.computer, s.account"
                " FROM tables t JOIN seats s ON s.table_id = t.id WHERE t.status = 'open'"
            ):
                seats[table_id][seat] = StoredSeat(name, bytes(token_hash), bool(computer), account)
            for table_id, entry in c.execute(
                "SELECT l.table_id, l.entry FROM tables t JOIN log l ON l.table_id = t.id"
                " WHERE t.status = 'open' ORDER BY t.seq, l.idx"
            ):
                logs[table_id].append(msgpack.unpackb(entry, raw=False))
            if chat_limit > 0:
                for table_id, sender, text, role in c.execute(
                    "SELECT table_id, sender, text, role FROM ("
                    "  SELECT h.table_id, h.sender, h.text, h.role, h.id, row_number() OVER"
                    "   (PARTITION BY h.table_id ORDER BY h.id DESC) AS back"
                    "  FROM tables t JOIN chat h ON h.table_id = t.id WHERE t.status = 'open'"
                    ") WHERE back <= ? ORDER BY table_id, id",
                    (chat_limit,),
                ):
                    chats[table_id].append((sender, text, role))
        finally:
            c.execute("COMMIT")
        return [
            StoredTable(
                table_id=table_id,
                options=json.loads(options),
                first=first,
                vs_computer=bool(vs_computer),
                created=created,
                updated=max(updated, self._touched.get(table_id, updated)),
                seats=seats[table_id],
                log=logs[table_id],
                chat=chats[table_id],
                finished=bool(finished),
                state=json.loads(state),
            )
            for table_id, options, first, vs_computer, created, updated, finished, state in rows
        ]

    def finished_record(self, table_id: str) -> str | None:
        try:
            row = self._conn.execute(
                "SELECT record FROM finished WHERE table_id = ?", (table_id,)
            ).fetchone()
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot read the record of {table_id}: {e}") from e
        return None if row is None else str(row[0])

    def table_ids(self) -> set[str]:
        try:
            return {row[0] for row in self._conn.execute("SELECT id FROM tables")}
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot read the table ids: {e}") from e

    # ----- the players (version 3) --------------------------------------------------------------

    def _read(self, what: str, query: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._conn.execute(query, args).fetchall()
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot read {what}: {e}") from e

    def load_accounts(self) -> list[AccountRow]:
        rows = self._read(
            "the accounts",
            "SELECT name_key, name, password_hash, rating, deviation, volatility, created,"
            " last_seen, disabled, data FROM accounts ORDER BY created, name_key",
        )
        return [
            AccountRow(key, name, hashed, rating, rd, vol, created, seen, bool(off), json.loads(d))
            for key, name, hashed, rating, rd, vol, created, seen, off, d in rows
        ]

    def load_login_tokens(self) -> list[tuple[bytes, str]]:
        rows = self._read("the login tokens", "SELECT token_hash, account FROM login_tokens")
        return [(bytes(token_hash), account) for token_hash, account in rows]

    def load_challenges(self) -> list[ChallengeRow]:
        rows = self._read(
            "the challenges",
            "SELECT id, sender, recipient, terms, created FROM challenges"
            " WHERE answer IS NULL ORDER BY seq",
        )
        return [
            ChallengeRow(cid, sender, recipient, json.loads(terms), created)
            for cid, sender, recipient, terms, created in rows
        ]

    def load_archive(self) -> list[ArchivedGame]:
        rows = self._read(
            "the archive",
            "SELECT table_id, white, black, white_account, black_account, winner, ending, rated,"
            " white_change, black_change, vs_computer, level, started, finished"
            " FROM archive ORDER BY seq",
        )
        # the columns in ArchivedGame's order; the flags are stored as 0 and 1
        return [
            ArchivedGame(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                bool(r[7]),
                r[8],
                r[9],
                bool(r[10]),
                r[11],
                r[12],
                r[13],
            )
            for r in rows
        ]

    def load_lobby_chat(self, limit: int) -> list[LobbyChatOp]:
        rows = self._read(
            "the lobby chat",
            "SELECT sender, text, at FROM (SELECT id, sender, text, at FROM lobby_chat"
            " ORDER BY id DESC LIMIT ?) ORDER BY id",
            (max(0, limit),),
        )
        return [LobbyChatOp(sender, text, at) for sender, text, at in rows]

    def close(self) -> None:
        if self._touched:
            with contextlib.suppress(StorageError):  # the times lag, as after a kill -9
                self._flush()
        self._stop_checkpoints.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        # Closing the last connection checkpoints the WAL into the main file and removes it.
        try:
            self._conn.close()
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot close the database: {e}") from e
        finally:
            self._unlock()


def _check_no_journal(path: Path) -> None:
    """The move journal of an earlier version, left by a server that stopped without closing
    (a kill -9, a crash), holds moves the database lacks: the storage refuses to open rather
    than lose them. An empty one is what a clean stop left: removed."""
    journal = Path(f"{path}{OLD_JOURNAL_SUFFIX}")
    try:
        size = journal.stat().st_size
    except FileNotFoundError:
        return
    except OSError as e:
        raise StorageError(f"{journal}: cannot read it: {e.strerror}") from e
    if size:
        raise StorageError(
            f"{journal}: the move journal of an earlier kahuna server version holds moves that"
            " are not in the database yet; start that version once on this database (it takes"
            " them in and empties the journal), then this one; the files were left as they were"
        )
    journal.unlink(missing_ok=True)


def _prepare_path(path: Path) -> None:
    if path.is_dir():
        raise StorageError(f"{path}: is a directory, not a database file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"{path}: cannot create the directory {path.parent}: {e}") from e
