"""`kahuna-server accounts ...`: the operator's commands on the players' accounts, run on the
database while no server holds it (a running server keeps the accounts in memory and would not
see the change: the database's lock refuses the command then, and says so).

    kahuna-server accounts list [--db PATH|URL]
    kahuna-server accounts reset-password NAME [--db PATH|URL]
    kahuna-server accounts disable NAME [--db PATH|URL]

The new password is asked twice without echo, or taken from KAHUNA_PASSWORD when set (for
scripts). A new password or a disabled account drops every login token of the account, so every
client of it must log in again.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
import time
from collections.abc import Callable

import attrs

from server.names import name_key
from server.passwords import Passwords, password_problem
from server.sqlite_store import default_db_path
from server.storage_open import open_storage
from server.store import AccountOp, AccountRow, DropLoginTokensOp, StorageError

PASSWORD_ENV = "KAHUNA_PASSWORD"


def build_parser() -> argparse.ArgumentParser:
    # --db before or after the command alike: each command takes it too (SUPPRESS: the one
    # given before it is not overwritten by a default)
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db", default=argparse.SUPPRESS, metavar="PATH|URL", help="the database (file or URL)"
    )
    parser = argparse.ArgumentParser(
        prog="kahuna-server accounts",
        description="List the players' accounts, give one a new password, or disable one."
        " Run it while the server is stopped.",
    )
    parser.add_argument(
        "--db",
        default=str(default_db_path()),
        metavar="PATH",
        help="the server's database (default: %(default)s)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "list", parents=[db], help="name, rating, rated games and last seen of each account"
    )
    reset = commands.add_parser(
        "reset-password", parents=[db], help=f"a new password for NAME (asked, or ${PASSWORD_ENV})"
    )
    reset.add_argument("name", metavar="NAME")
    disable = commands.add_parser("disable", parents=[db], help="NAME may no longer log in")
    disable.add_argument("name", metavar="NAME")
    return parser


def ask_password(ask: Callable[[str], str] = getpass.getpass) -> str | None:
    """The new password: from the environment, or typed twice alike; None if they differ."""
    given = os.environ.get(PASSWORD_ENV)
    if given is not None:
        return given
    first = ask("New password: ")
    return first if ask("Again: ") == first else None


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        storage = open_storage(args.db)  # refused while a server serves it
    except StorageError as exc:
        print(f"kahuna-server accounts: {exc}", file=sys.stderr)
        return 1
    try:
        accounts = storage.load_accounts()
        if args.command == "list":
            print(render_list(accounts))
            return 0
        key = name_key(args.name)
        found = [a for a in accounts if a.key == key]
        if not found:
            print(f"kahuna-server accounts: no account is named {args.name!r}", file=sys.stderr)
            return 1
        account = found[0]
        if args.command == "disable":
            storage.write([AccountOp(attrs.evolve(account, disabled=True)),
                           DropLoginTokensOp(key, None)])  # fmt: skip
            print(f"{account.name} is disabled; its clients are logged out")
            return 0
        password = ask_password()
        if password is None:
            print("kahuna-server accounts: the two passwords differ", file=sys.stderr)
            return 1
        problem = password_problem(password)
        if problem is not None:
            print(f"kahuna-server accounts: password refused: {problem}", file=sys.stderr)
            return 1
        hashed = Passwords().hash(password)
        storage.write(
            [
                AccountOp(attrs.evolve(account, password_hash=hashed, disabled=False)),
                DropLoginTokensOp(key, None),
            ]
        )
        print(f"{account.name} has a new password; every client of it must log in again")
        return 0
    except StorageError as exc:
        print(f"kahuna-server accounts: {exc}", file=sys.stderr)
        return 1
    finally:
        storage.close()


def render_list(accounts: list[AccountRow]) -> str:
    lines = [f"{'name':<20} {'rating':>6} {'games':>5}  last seen"]
    for account in sorted(accounts, key=lambda a: (-a.rating, a.name.casefold())):
        rated = account.data.get("rated", [0, 0, 0])
        games = sum(int(n) for n in rated)
        seen = time.strftime("%Y-%m-%d %H:%M", time.localtime(account.last_seen))
        flag = "  (disabled)" if account.disabled else ""
        lines.append(f"{account.name:<20} {round(account.rating):>6} {games:>5}  {seen}{flag}")
    return "\n".join(lines)
