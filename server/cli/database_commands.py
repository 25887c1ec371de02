"""What the operator's commands on the server's database share (`kahuna-server accounts`,
server/cli/accounts_cli.py; `kahuna-server moderation`, server/cli/moderation_cli.py): `--db`
before the command or after it, the database opened beside a server that uses it, and a storage
error said in one line, whether or not a server is running."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from server.core.store import DatabaseInUse, NoDatabase, Storage, StorageError
from server.storage.sqlite_store import default_db_path
from server.storage.storage_open import open_storage


def database_parser(
    prog: str, description: str
) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The command line with its --db, and the parent that gives each command a --db of its
    own, so that --db goes before or after the command alike (SUPPRESS: the one given before
    it is not overwritten by a default)."""
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db", default=argparse.SUPPRESS, metavar="PATH|URL", help="the database (file or URL)"
    )
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--db",
        default=str(default_db_path()),
        metavar="PATH",
        help="the server's database (default: %(default)s)",
    )
    return parser, db


def open_beside(db: str) -> tuple[Storage, bool]:
    """The database, and whether a server is using it (then opened shared beside it). One that
    does not exist is refused (StorageError), never made: a mistyped --db would otherwise list
    the accounts of a new, empty database."""
    try:
        return open_storage(db, create=False), False
    except DatabaseInUse:
        return open_storage(db, shared=True), True


def on_database(prog: str, db: str, command: Callable[[Storage, bool], int]) -> int:
    """`command`'s status, given the database `db` and whether a server is using it; the
    database is closed after. No database there, or a storage error: a line on standard error
    that `prog` begins, and status 1."""
    try:
        storage, running = open_beside(db)
    except NoDatabase as exc:
        print(
            f"{prog}: {exc}; a server makes its database when it first starts:"
            " give the --db it was started with",
            file=sys.stderr,
        )
        return 1
    except StorageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    try:
        return command(storage, running)
    except StorageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    finally:
        storage.close()
