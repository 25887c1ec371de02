"""The Storage in SQLite: every table, its seats, its log, its chat and the result of a finished
game, in one file. The statements are server/storage/sql_store.py's, shared with PostgreSQL; here is
what is SQLite's own: the file, its lock, WAL and its checkpoints; the schema is in
server/storage/sqlite_schema.py. Durability (WAL, one INSERT in autocommit for a move stored alone)
and the batched `updated` times: docs/architecture.md.

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

`shared`: the operator's commands (server/cli/accounts_cli.py) beside a running server. No lock, no
checkpoints, no schema made or migrated (the server did that); each write a short transaction of
its own, which waits up to BUSY_TIMEOUT for the server's (WAL lets reads go on meanwhile).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from pathlib import Path

from server.core.store import DatabaseInUse, NoDatabase, StorageError
from server.storage.sql_store import SqlStorage
from server.storage.sqlite_schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    check_integrity,
    create_schema,
    migrate,
    probe,
)

log = logging.getLogger(__name__)


def default_db_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / "server.sqlite3"


MEMORY = ":memory:"
CHECKPOINT_EVERY = 1.0  # seconds between background checkpoints
BUSY_TIMEOUT = 5.0  # seconds a shared opening's write waits for the server's
# The move journal of earlier versions (`<database>-moves`): moves stored beside the database
# until they went into it. One left with moves in it is refused (see _check_no_journal).
OLD_JOURNAL_SUFFIX = "-moves"

try:
    import fcntl
except ImportError:  # not on POSIX: no lock, and nothing stops a second server
    fcntl = None  # type: ignore[assignment]


class SqliteStorage(SqlStorage):
    """`Storage` in one SQLite file (or in memory for ":memory:", which keeps nothing)."""

    GREATEST = "max"
    ERRORS = (sqlite3.Error,)

    def __init__(self, path: str | Path, shared: bool = False, create: bool = True) -> None:
        """`create`: False refuses a file that is missing or holds no kahuna tables yet
        (StorageError), rather than making it a new database."""
        super().__init__(str(path))
        self._memory = self.path == MEMORY
        self._shared = shared
        self._lock_fd: int | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self.checkpoints = 0  # background checkpoints done (for tests and curious hosts)
        self._create = create
        if (shared or not create) and (self._memory or not Path(path).is_file()):
            raise NoDatabase(f"{self.path}: no such database")
        if not self._memory and not shared:
            _prepare_path(Path(path))
            self._lock()
        try:
            # isolation_level=None: the module issues BEGIN/COMMIT itself, so a transaction
            # spans exactly one write() and nothing is committed behind its back.
            self._conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
            )
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: cannot open the database: {e}") from e
        try:
            if shared:
                self._open_shared()
                return
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
            raise DatabaseInUse(
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
                if not self._create:
                    raise NoDatabase(
                        f"{self.path}: no such database (the file holds no kahuna tables)"
                    )
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

    def _open_shared(self) -> None:
        try:
            app_id, version, _objects = probe(self._conn)
            self._conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as e:
            raise StorageError(f"{self.path}: not a readable SQLite database ({e})") from e
        if (app_id, version) != (APPLICATION_ID, SCHEMA_VERSION):
            raise StorageError(
                f"{self.path}: not a kahuna server database of schema version {SCHEMA_VERSION}"
                f" (application id {app_id:#x}, version {version}); start this server's version"
                " on it once"
            )

    def _begin(self) -> None:
        self._execute("BEGIN IMMEDIATE")

    def alive(self) -> None:
        """A file, once open, stays: there is no connection to lose."""

    def close(self) -> None:
        self.flush_times()
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
