"""Which Storage a `--db` value names: a PostgreSQL URL (server/storage/pg_store.py), else a SQLite
file path (server/storage/sqlite_store.py). A value that looks like a URL of anything else is
refused, so that a mistyped URL does not become a directory named after its scheme."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

from server.core.store import Storage, StorageError
from server.storage.sqlite_store import SqliteStorage

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
# Seconds a server starting on a PostgreSQL database with no standby to wait as (KahunaServer
# given no storage, server/net/app.py) asks again for a lock it finds taken, before it is refused
# (DatabaseInUse). A kill -9 of the server that held it closes that server's socket at once, but
# PostgreSQL frees the lock only once the session's backend has seen the socket closed and
# ended, a moment later on a busy machine: a server started again at once would otherwise be
# refused by the session of the very process it replaces. Bounded, so that a server that does
# run there is still reported within seconds. The operator's commands
# (server/cli/database_commands.py) take DatabaseInUse to mean that a server is running and
# open the database beside it: they ask once and never wait. SQLite needs none: its lock (flock)
# goes with the process, before anyone waiting for that process's end (systemd, a shell) sees it.
START_GRACE = 5.0


def is_postgresql(db: str) -> bool:
    return db.startswith(POSTGRESQL_SCHEMES)


def safe_name(db: str) -> str:
    """The --db value as messages show it: a URL without its password."""
    parts = urlsplit(db)
    if not is_postgresql(db) or parts.password is None:
        return db
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{parts.hostname or ''}{port}"))


def check_db(db: str) -> str | None:
    """Why a --db value can never work, or None."""
    if _URL.match(db) and not is_postgresql(db):
        scheme = db.split(":", 1)[0]
        return (
            f"--db {db!r}: a {scheme}:// URL is not a database this server uses; give a SQLite"
            " file's path, or postgresql://USER@HOST/DB"
        )
    return None


def open_storage(
    db: str,
    standby: threading.Event | None = None,
    on_standby: Callable[[], None] | None = None,
    shared: bool = False,
    create: bool = True,
    grace: float = 0.0,
) -> Storage:
    """The storage of `db`. For PostgreSQL, `standby` waits while another server serves the
    database (until the event is set); None refuses it (DatabaseInUse), as SQLite always does.
    `shared`: beside a server that holds it, for the operator's commands (no lock, no
    migration; see server/cli/accounts_cli.py). `create`: a database with no kahuna tables
    yet is made one (a server's first start); False refuses it, and a missing SQLite file,
    with a StorageError (the operator's commands, where it is a mistyped --db). `grace`: for
    PostgreSQL with no `standby`, seconds its lock is asked for again before the database is
    refused as in use (a server's start: START_GRACE); 0 asks once."""
    problem = check_db(db)
    if problem is not None:
        raise StorageError(problem)
    if is_postgresql(db):
        try:
            from server.storage.pg_store import PgStorage
        except ImportError as e:  # psycopg is an extra of the package
            raise StorageError(
                f"PostgreSQL needs psycopg ({e}): pip install 'kahuna[postgresql]'"
            ) from e
        return PgStorage(
            db, safe_name(db), standby, on_standby, shared=shared, create=create, grace=grace
        )
    return SqliteStorage(db, shared=shared, create=create)
