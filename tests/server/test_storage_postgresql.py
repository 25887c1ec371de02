"""PostgreSQL's own side of the storage, on a real PostgreSQL (tests/postgres.py): databases it
must refuse and leaves as they were, the lock that lets one server serve and a standby wait
(and a server's start wait briefly for a killed server's, the operator's commands not), a lost
connection, and the --db values that are neither a file nor a supported URL."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from server.cli import accounts_cli
from server.cli.serve import main
from server.core.store import (
    AccountOp,
    AccountRow,
    AppendLogOp,
    CreateTableOp,
    DatabaseInUse,
    StandbyStopped,
    StorageError,
)
from server.net.app import KahunaServer
from server.storage.pg_store import LOCK_KEY, PgStorage
from server.storage.sqlite_schema import SCHEMA_VERSION
from server.storage.storage_open import START_GRACE, check_db, open_storage, safe_name
from tests.conftest import server_config
from tests.postgres import Cluster


def tables_of(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
        ).fetchall()
    return {row[0] for row in rows}


def run_sql(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def test_a_new_database_gets_the_schema_at_this_version(postgres: Cluster) -> None:
    url = postgres.database()
    open_storage(url).close()
    assert {"tables", "seats", "log", "accounts", "kahuna_schema"} <= tables_of(url)
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT application, version FROM kahuna_schema").fetchone()
    assert row == ("kahuna", SCHEMA_VERSION)


def test_a_database_of_another_program_is_refused_untouched(postgres: Cluster) -> None:
    url = postgres.database()
    run_sql(url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StorageError, match=r"not a kahuna server database.*invoices"):
        open_storage(url)
    assert tables_of(url) == {"invoices"}


def test_a_database_of_a_newer_server_is_refused_untouched(postgres: Cluster) -> None:
    url = postgres.database()
    open_storage(url).close()
    run_sql(url, f"UPDATE kahuna_schema SET version = {SCHEMA_VERSION + 1}")
    before = tables_of(url)
    with pytest.raises(StorageError, match="newer kahuna server"):
        open_storage(url)
    assert tables_of(url) == before


def test_a_damaged_database_is_refused_untouched(postgres: Cluster) -> None:
    url = postgres.database()
    open_storage(url).close()
    run_sql(url, "DROP TABLE log")
    with pytest.raises(StorageError, match=r"damaged.*missing tables: log"):
        open_storage(url)
    assert "log" not in tables_of(url)


def test_an_unreachable_database_is_a_clear_error_without_the_password(postgres: Cluster) -> None:
    url = f"postgresql://kahuna:sekrit@/no_such_db?host={postgres.dir}"
    with pytest.raises(StorageError, match="cannot connect") as info:
        open_storage(url)
    assert "sekrit" not in str(info.value)
    assert (
        safe_name("postgresql://ann:pw@db.example:5433/k") == "postgresql://ann@db.example:5433/k"
    )


@pytest.mark.parametrize("db", ["mysql://u@h/kahuna", "sqlite:///tmp/x.db", "http://h/"])
def test_a_url_of_anything_else_is_refused_and_creates_nothing(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    problem = check_db(db)
    assert problem is not None and "postgresql://USER@HOST/DB" in problem
    with pytest.raises(StorageError):
        open_storage(db)
    with pytest.raises(SystemExit) as exit_:
        main(["--db", db, "--port", "0"])
    assert exit_.value.code == 2
    assert "not a database this server uses" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no directory named after the scheme


def test_a_standby_waits_and_takes_over_when_the_server_closes(postgres: Cluster) -> None:
    url = postgres.database()
    serving = open_storage(url)
    serving.write([CreateTableOp("t", {}, "white", False, 1.0)])
    waiting = threading.Event()
    opened: list[PgStorage] = []

    def standby() -> None:
        opened.append(PgStorage(url, url, threading.Event(), waiting.set))

    thread = threading.Thread(target=standby)
    thread.start()
    assert waiting.wait(10), "the second server never said it waits"
    time.sleep(0.3)
    assert not opened, "the standby must not serve while the first one does"
    serving.write([AppendLogOp("t", 0, (["m", "white", "a"],), 2.0)])
    serving.close()
    thread.join(10)
    (taken,) = opened
    (table,) = taken.load_open_tables(0)
    assert table.log == [["m", "white", "a"]]
    taken.close()


def test_a_standby_told_to_stop_stops_waiting(postgres: Cluster) -> None:
    url = postgres.database()
    serving = open_storage(url)
    stop = threading.Event()
    stop.set()
    with pytest.raises(StandbyStopped):
        PgStorage(url, url, stop)
    serving.close()


def test_a_lost_connection_stops_writes_and_frees_the_database(postgres: Cluster) -> None:
    """Once PostgreSQL ends the serving session (a crash of the server's host looks the same),
    that server can neither write nor pass its health check, and a standby gets the lock."""
    url = postgres.database()
    serving = open_storage(url)
    serving.write([CreateTableOp("t", {}, "white", False, 1.0)])
    serving.alive()
    run_sql(
        url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = 'kahuna' AND pid <> pg_backend_pid()",
    )
    with pytest.raises(StorageError, match="lost the database"):
        serving.alive()
    with pytest.raises(StorageError, match="nothing written"):
        serving.write([AppendLogOp("t", 0, (["m", "white", "a"],), 2.0)])
    serving.close()
    # free once PostgreSQL has ended the session (pg_terminate_backend only signals it): what a
    # server's start waits for, as after a kill -9
    again = open_storage(url, grace=START_GRACE)
    assert again.load_open_tables(0)[0].log == []
    again.close()


def lock_held(url: str) -> psycopg.Connection[tuple[object, ...]]:
    """A session of its own holding the serving server's lock, as a server killed a moment ago
    holds it until PostgreSQL has ended its session."""
    holder = psycopg.connect(url, autocommit=True)
    holder.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
    return holder


class OnRecord(logging.Handler):
    """Calls `then` with each record's message, in the thread that logs it."""

    def __init__(self, then: Callable[[str], object]) -> None:
        super().__init__()
        self.then = then

    def emit(self, record: logging.LogRecord) -> None:
        self.then(record.getMessage())


@contextlib.contextmanager
def on_storage_log(then: Callable[[str], object]) -> Iterator[None]:
    """`then` at each line the PostgreSQL storage logs, its info lines among them."""
    logger = logging.getLogger("server.storage.pg_store")
    handler, level = OnRecord(then), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def test_a_server_started_before_a_killed_servers_session_ends_serves(
    postgres: Cluster,
) -> None:
    """The lock is taken when the server starts; the session that holds it ends (its socket
    closed, as a kill -9 closes it) once the server has said that it asks again, and PostgreSQL
    frees the lock a moment after that. The start waits for it, and the server serves."""
    url = postgres.database()
    open_storage(url).close()
    holder = lock_held(url)
    said: list[str] = []

    def ended(message: str) -> None:
        said.append(message)
        holder.close()

    try:
        with on_storage_log(ended):
            server = KahunaServer(server_config(db=url))
        try:
            await server.start()
            assert server.port > 0
        finally:
            await server.stop()
    finally:
        holder.close()
    assert len(said) == 1 and f"asking again for up to {START_GRACE:.1f} s" in said[0], said


def test_a_server_start_is_refused_when_the_lock_stays_taken_past_the_grace(
    postgres: Cluster,
) -> None:
    url = postgres.database()
    holder = lock_held(url)
    said: list[str] = []
    try:
        began = time.monotonic()
        with on_storage_log(said.append), pytest.raises(DatabaseInUse, match="another kahuna"):
            open_storage(url, grace=0.3)
        took = time.monotonic() - began
    finally:
        holder.close()
    assert 0.3 <= took < START_GRACE
    assert len(said) == 1 and "asking again for up to 0.3 s" in said[0], said


def test_the_operators_commands_see_a_running_server_at_once(
    postgres: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lock they find taken means a server running there: they open the database beside it at
    once, never waiting for the lock as a server's start does (a wait would take START_GRACE)."""
    url = postgres.database()
    storage = open_storage(url)
    storage.write(
        [AccountOp(AccountRow("bob", "Bob", "$argon2id$x", 1500, 350, 0.06, 1, 1, False))]
    )
    storage.close()
    holder = lock_held(url)
    try:
        began = time.monotonic()
        status = accounts_cli.main(["--db", url, "disable", "Bob"])
        took = time.monotonic() - began
    finally:
        holder.close()
    assert status == 0
    assert "the running server logs its clients out" in capsys.readouterr().out
    assert took < START_GRACE
