"""The Storage in PostgreSQL, with psycopg 3: the statements are server/storage/sql_store.py's, the
schema server/storage/pg_schema.py's; here is the connection, the lock that makes one server the
one serving, and the checks before anything is written.

One server serves a database: it holds a session-level advisory lock (LOCK_KEY) on the very
connection it writes with. A second server started on the same database waits (`standby`) until
the lock is free, which PostgreSQL makes it the moment the serving server's session ends: a stop,
a crash, a kill -9 (the socket closes), or the loss of its host (TCP keepalives, set short on
the session, end it within seconds). The server that lost its connection cannot write any more,
so it stops serving (a failed write stops a server) and never tells a client what it has not
stored: there is no moment with two servers writing one database. A server with no standby to
wait as is refused (DatabaseInUse), after a short `grace` at its start: the lock of a server
killed a moment ago is freed only once PostgreSQL has ended that session, not at the kill.

Every write is one transaction: the connection is in autocommit, so nothing is committed behind
the storage's back, and a write of several operations opens its own BEGIN ... COMMIT (a move
stored alone is one INSERT, its own transaction). A COMMIT returns once PostgreSQL has the
transaction on disk (synchronous_commit, as a database keeps it by default).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

from server.core.store import DatabaseInUse, NoDatabase, StandbyStopped, StorageError
from server.storage.pg_schema import check, migration, statements
from server.storage.schema import APPLICATION_ID, SCHEMA_VERSION
from server.storage.sql_store import SqlStorage

log = logging.getLogger(__name__)

# The advisory lock of the serving server: "KaHu", as SQLite's application id. Advisory locks are
# per database, so several kahuna databases in one PostgreSQL cluster do not meet.
LOCK_KEY = APPLICATION_ID
STANDBY_POLL = 0.25  # seconds between a standby's looks at the lock
GRACE_POLL = 0.1  # seconds between the looks at the lock during an opening's `grace`
CONNECT_TIMEOUT = 5  # seconds, unless the URL says otherwise
# On TCP, how soon PostgreSQL notices a serving host gone without a word (a power cut, a cable):
# about idle + interval * count seconds. Ignored on a Unix socket, where the kernel tells at once.
KEEPALIVES = {"tcp_keepalives_idle": 2, "tcp_keepalives_interval": 1, "tcp_keepalives_count": 2}
# The same from this side, so that a database host gone without a word fails the connection (and
# stops this server) within seconds rather than TCP's minutes: idle or waiting for an answer.
CLIENT_KEEPALIVES: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 2,
    "tcp_user_timeout": 5000,  # ms an unacknowledged write may wait
}


@functools.cache
def _pg(sql: str) -> str:
    """A statement with `?` parameters in psycopg's `%s` (the statements hold no `%`)."""
    return sql.replace("?", "%s")


class PgStorage(SqlStorage):
    """`Storage` in a PostgreSQL database given by its URL (postgresql://USER@HOST/DB), which
    messages call `name` (the URL without its password).

    `standby`: None refuses a database another server serves (DatabaseInUse), after asking
    again for its lock for up to `grace` seconds (the session of a server killed a moment ago,
    which PostgreSQL has not ended yet: server/storage/storage_open.py's START_GRACE); an Event
    waits for it to be free, until the event is set (then StandbyStopped). `on_standby` is
    called once when it starts to wait."""

    GREATEST = "greatest"
    remote = True
    ERRORS = (psycopg.Error,)

    def __init__(
        self,
        url: str,
        name: str,
        standby: threading.Event | None = None,
        on_standby: Callable[[], None] | None = None,
        shared: bool = False,
        create: bool = True,
        grace: float = 0.0,
    ) -> None:
        """`shared`: beside the serving server, for the operator's commands
        (server/cli/accounts_cli.py): no lock taken, the schema neither made nor migrated.
        `create`: False refuses a database with no kahuna tables yet (StorageError)."""
        super().__init__(name)
        self._kept: list[str] | None = None  # a write's statements not yet sent (see _run)
        try:
            self._conn = psycopg.connect(
                url,
                autocommit=True,
                connect_timeout=CONNECT_TIMEOUT,
                application_name="kahuna",
                **CLIENT_KEEPALIVES,
            )
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot connect to the database: {e}") from e
        self._client = psycopg.ClientCursor(self._conn)  # turns a statement and values into text
        try:
            if shared:
                self._check_shared()
            else:
                self._lock(standby, on_standby, grace)
                self._open(create)
        except BaseException:
            self._conn.close()
            raise

    # A write's statements whose results are not wanted are kept, with their values in them, and
    # go to PostgreSQL together, as one query (the simple query protocol): one round trip for a
    # whole transaction rather than one a statement. The writer's thread (server/storage/writer.py)
    # waits less on the network, and each wait is also a wait for the interpreter's lock, which
    # a busy event loop holds for up to its switch interval (5 ms) at a time.

    def _begin(self) -> None:
        self._kept = ["BEGIN"]

    def _run(self, sql: str, args: Any = ()) -> None:
        if self._kept is None:  # a statement alone (a move stored by itself): its own transaction
            self._conn.execute(_pg(sql), args)
        else:
            self._kept.append(self._client.mogrify(_pg(sql), args))

    def _send_kept(self) -> None:
        if self._kept:
            text, self._kept = ";".join(self._kept), []
            self._conn.execute(text.encode())  # bytes: no parameters, no % to escape

    def _execute(self, sql: str, args: Any = ()) -> Any:
        self._send_kept()  # in order: what was kept before this statement goes first
        return self._conn.execute(_pg(sql), args)

    def _execute_many(self, sql: str, rows: Any) -> None:
        for row in rows:  # kept with the transaction's others (_run)
            self._run(sql, row)

    def _commit(self) -> None:
        if self._kept is None:
            self._conn.execute("COMMIT")
            return
        self._kept.append("COMMIT")
        try:
            self._send_kept()
        finally:
            self._kept = None

    def _rollback(self) -> None:
        self._kept = None
        self._conn.execute("ROLLBACK")

    def _begin_read(self) -> None:
        self._execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def _lock(
        self, standby: threading.Event | None, on_standby: Callable[[], None] | None, grace: float
    ) -> None:
        try:
            for setting, value in KEEPALIVES.items():
                self._conn.execute(f"SET {setting} = {int(value)}")
            deadline = time.monotonic() + grace
            graced = waited = False
            while not self._try_lock():
                if standby is None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise DatabaseInUse(
                            f"{self.path}: another kahuna server is using this database; one"
                            " database belongs to one server (a second one started as a standby"
                            " waits for it)"
                        )
                    if not graced:
                        graced = True
                        log.info(
                            "%s: the database's lock is taken; asking again for up to %.1f s"
                            " (a server killed a moment ago holds it until PostgreSQL has ended"
                            " its session)",
                            self.path, grace,
                        )  # fmt: skip
                    time.sleep(min(GRACE_POLL, left))
                    continue
                if not waited:
                    waited = True
                    if on_standby is not None:
                        on_standby()
                if standby.wait(STANDBY_POLL):
                    raise StandbyStopped(f"{self.path}: stopped while on standby")
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot take the database's lock: {e}") from e

    def _try_lock(self) -> bool:
        row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()
        return bool(row[0])

    def _open(self, create: bool) -> None:
        # Everything up to the version checks only reads, so a database we refuse stays as it was.
        try:
            tables = {
                row[0]
                for row in self._conn.execute(
                    "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
                )
            }
            meta: list[tuple[Any, ...]] = []
            if "kahuna_schema" in tables:
                meta = self._conn.execute(
                    "SELECT application, version FROM kahuna_schema"
                ).fetchall()
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot read the database: {e}") from e
        version = check(self.path, tables, meta)
        if version == SCHEMA_VERSION:
            return
        if version is None and not create:
            raise NoDatabase(f"{self.path}: no such database (it holds no kahuna tables)")
        steps = statements() if version is None else migration(version)
        try:
            with self._conn.transaction():
                for statement in steps:
                    self._conn.execute(statement)
                if version is None:
                    self._conn.execute(
                        "INSERT INTO kahuna_schema (application, version) VALUES (%s, %s)",
                        ("kahuna", SCHEMA_VERSION),
                    )
                else:
                    self._conn.execute("UPDATE kahuna_schema SET version = %s", (SCHEMA_VERSION,))
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot prepare the database: {e}") from e
        if version is None:
            log.info("%s: a new kahuna database (schema version %d)", self.path, SCHEMA_VERSION)

    def _check_shared(self) -> None:
        try:
            row = self._conn.execute("SELECT application, version FROM kahuna_schema").fetchone()
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: not a kahuna server database: {e}") from e
        if row is None or tuple(row) != ("kahuna", SCHEMA_VERSION):
            raise StorageError(
                f"{self.path}: not a kahuna server database of schema version {SCHEMA_VERSION}"
                f" ({row!r}); start this server's version on it once"
            )

    def alive(self) -> None:
        """Whether the connection (and with it the lock) still holds: a StorageError if not."""
        try:
            self._conn.execute("SELECT 1")
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: lost the database: {e}") from e

    def close(self) -> None:
        self.flush_times()
        # Let go of the lock before the session ends: PostgreSQL ends a closed session's backend
        # a moment after the client has gone, and a server started again at once must find the
        # database free. (A session that ended by itself has let go of it already.)
        with contextlib.suppress(psycopg.Error):
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
        try:
            self._conn.close()  # ends the session: the lock goes to a standby, if one waits
        except psycopg.Error as e:
            raise StorageError(f"{self.path}: cannot close the database: {e}") from e
