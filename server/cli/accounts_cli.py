"""`kahuna-server accounts ...`: the operator's commands on the players' accounts, run on the
database whether or not a server is using it.

    kahuna-server accounts list [--db PATH|URL]
    kahuna-server accounts recent [--hours H] [--db PATH|URL]
    kahuna-server accounts reset-password NAME [--db PATH|URL]
    kahuna-server accounts disable NAME... [--from ADDRESS [--hours H]] [--db PATH|URL]
    kahuna-server accounts director NAME... [--off] [--db PATH|URL]
    kahuna-server accounts moderator NAME... [--revoke] [--db PATH|URL]

`recent` lists the accounts registered in the last hours, by the address they came from, and
`disable --from ADDRESS` disables those of one address at once. `director` lets the accounts
make tournaments on a server started with `--tournaments directors` (`--off`: no longer); a
server reads the directors when it starts, so one that runs takes the change at its next start.
`moderator` makes the accounts moderators (`--revoke`: no longer; docs: README, Moderation); a
running server reads the moderators every account_actions_interval, so a new moderator's client
gets the moderation panel within seconds, and the change is a line of the moderation log.

Beside a running server (which holds the database's lock and keeps the accounts in memory), the
database is opened `shared` (server/storage/sqlite_store.py, server/storage/pg_store.py): each
command is one short transaction that changes the account's row and leaves an AccountActionOp for
the server, which looks for them every account_actions_interval (2 s) and applies them: a disabled
account cannot log in, with a password or a token, and its connections are logged out then. With no
server running, the row is changed at once and the next server to start applies the rest.

The new password is asked twice without echo, or taken from KAHUNA_PASSWORD when set (for
scripts); with neither a terminal nor KAHUNA_PASSWORD (cron, systemd) it is refused in one line,
status 2. A new password or a disabled account drops every login token of the account, so every
client of it must log in again.

A --db that names no database (a missing file, one without a server's tables) is refused, never
made: a mistyped path would otherwise list the accounts of a new, empty database. "Last seen" is
the account's last login, logout or dropped connection, or while it stays connected its activity
to the hour (server/core/accounts.py, SEEN_EVERY).
"""

from __future__ import annotations

import argparse
import functools
import getpass
import os
import sys
import time
from collections.abc import Callable

from catalogue.codes import ACCOUNT_REASONS
from protocol.moderation_messages import OPERATOR
from server.cli.database_commands import database_parser, on_database
from server.core.names import name_key
from server.core.passwords import password_problem
from server.core.store import (
    AccountActionOp,
    AccountRow,
    DirectorOp,
    ModerationLogOp,
    ModeratorOp,
    Registration,
    Storage,
    is_deleted_key,
)
from server.jobs.password_hashing import Passwords

PROG = "kahuna-server accounts"
PASSWORD_ENV = "KAHUNA_PASSWORD"
RECENT_HOURS = 24.0


def build_parser() -> argparse.ArgumentParser:
    parser, db = database_parser(
        PROG,
        "List the players' accounts and the recent registrations, give one a new password, or"
        " disable some; while the server runs too (it applies a change within seconds).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "list",
        parents=[db],
        help="name, rating, rated games and last seen (last login, logout or activity within the"
        " hour) of each account",
    )
    recent = commands.add_parser(
        "recent", parents=[db], help="the accounts registered lately, by the address they came from"
    )
    recent.add_argument(
        "--hours", type=float, default=RECENT_HOURS, metavar="H",
        help="the last H hours (default: %(default)s)",
    )  # fmt: skip
    reset = commands.add_parser(
        "reset-password", parents=[db], help=f"a new password for NAME (asked, or ${PASSWORD_ENV})"
    )
    reset.add_argument("name", metavar="NAME")
    disable = commands.add_parser(
        "disable", parents=[db], help="NAME... (and those registered --from ADDRESS) may no"
        " longer log in; their clients are logged out",
    )  # fmt: skip
    disable.add_argument("names", metavar="NAME", nargs="*")
    disable.add_argument(
        "--from", dest="address", metavar="ADDRESS",
        help="also every account registered from ADDRESS in the last --hours",
    )  # fmt: skip
    disable.add_argument(
        "--hours", type=float, default=RECENT_HOURS, metavar="H",
        help="with --from (default: %(default)s)",
    )  # fmt: skip
    director = commands.add_parser(
        "director", parents=[db], help="NAME... may make tournaments under --tournaments"
        " directors (a running server: from its next start)",
    )  # fmt: skip
    director.add_argument("names", metavar="NAME", nargs="+")
    director.add_argument("--off", action="store_true", help="no longer")
    moderator = commands.add_parser(
        "moderator", parents=[db], help="NAME... may mute, close tables, disable accounts and"
        " ban addresses (a running server: within seconds)",
    )  # fmt: skip
    moderator.add_argument("names", metavar="NAME", nargs="+")
    moderator.add_argument("--revoke", action="store_true", help="no longer")
    return parser


class NoPassword(Exception):
    """No password can be asked for (standard input is no terminal: cron, ssh without -t,
    systemd, `</dev/null`) and none was given in the environment."""


def ask_password(ask: Callable[[str], str] = getpass.getpass) -> str | None:
    """The new password: from the environment, or typed twice alike at the terminal; None if
    they differ; NoPassword when there is no terminal."""
    given = os.environ.get(PASSWORD_ENV)
    if given is not None:
        return given
    if not sys.stdin.isatty():  # getpass would warn that it echoes, then fail at the input's end
        raise NoPassword
    try:
        first = ask("New password: ")
        return first if ask("Again: ") == first else None
    except EOFError:
        raise NoPassword from None


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "disable" and not args.names and args.address is None:
        parser.error("disable: give a NAME or --from ADDRESS")
    return on_database(PROG, args.db, functools.partial(_command, args))


def _command(args: argparse.Namespace, storage: Storage, running: bool) -> int:
    rows = storage.load_accounts()
    # a deleted account's stand-in (server/core/store.py's DeleteAccountOp) is nobody's account
    accounts = {a.key: a for a in rows if not is_deleted_key(a.key)}
    # an account stored under an older skeleton (server/core/names.py) is found under today's too;
    # the oldest keeps a name that two now share, as in the server (server/core/accounts.py)
    by_name = {name_key(a.name): a for a in sorted(accounts.values(), key=lambda a: -a.created)}
    now = time.time()
    if args.command == "list":
        print(render_list(list(accounts.values())))
        return 0
    if args.command == "recent":
        registrations = storage.load_registrations(now - args.hours * 3600)
        # a deleted account's registration is its stand-in's since (DeleteAccountOp), shown
        # under the stand-in's name as the archive and the chat show it, not its key
        stand_ins = {a.key: a.name for a in rows if is_deleted_key(a.key)}
        print(render_recent(registrations, accounts, stand_ins))
        return 0
    names = [args.name] if args.command == "reset-password" else list(args.names)
    found: list[AccountRow] = []
    for name in names:
        account = accounts.get(name_key(name)) or by_name.get(name_key(name))
        if account is None:
            print(f"kahuna-server accounts: no account is named {name!r}", file=sys.stderr)
            return 1
        found.append(account)
    later = " (the running server logs its clients out within seconds)" if running else ""
    if args.command == "director":
        storage.write([DirectorOp(a.key, not args.off, now) for a in found])
        then = " (the running server: from its next start)" if running else ""
        for account in found:
            may = "may no longer" if args.off else "may"
            print(f"{account.name} {may} make tournaments{then}")
        return 0
    if args.command == "moderator":
        already = set(storage.load_moderators())
        action = "moderator_revoked" if args.revoke else "moderator"
        changed = [a for a in found if (a.key in already) == args.revoke]
        storage.write(
            [ModeratorOp(a.key, not args.revoke, now) for a in changed]
            + [ModerationLogOp(now, OPERATOR, action, a.name, "") for a in changed]
        )
        then = " (the running server: within seconds)" if running else ""
        for account in found:
            if account not in changed:
                print(f"{account.name} {'is no' if args.revoke else 'is a'} moderator already")
            else:
                print(f"{account.name} {'is no longer' if args.revoke else 'is'} a moderator{then}")
        return 0
    if args.command == "disable":
        if args.address is not None:
            since = now - args.hours * 3600
            keys = [r.key for r in storage.load_registrations(since) if r.address == args.address]
            found += [accounts[k] for k in keys if k in accounts and accounts[k] not in found]
        if not found:
            print(f"no account was registered from {args.address} lately")
            return 0
        storage.write([AccountActionOp(a.key, "disable", None, now) for a in found])
        for account in found:
            print(f"{account.name} is disabled; its clients are logged out{later}")
        return 0
    (account,) = found
    try:
        password = ask_password()
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except NoPassword:
        print(
            f"kahuna-server accounts: standard input is not a terminal to ask the new password"
            f" at: run it at one, or give the password in ${PASSWORD_ENV};"
            f" {account.name}'s password is unchanged",
            file=sys.stderr,
        )
        return 2
    if password is None:
        print("kahuna-server accounts: the two passwords differ", file=sys.stderr)
        return 1
    problem = password_problem(password)
    if problem is not None:
        sentence = ACCOUNT_REASONS.get(f"bad_password/{problem}", problem)
        print(
            f"kahuna-server accounts: {sentence}; {account.name}'s password is unchanged",
            file=sys.stderr,
        )
        return 1
    hashed = Passwords().hash(password)
    storage.write([AccountActionOp(account.key, "password", hashed, now)])
    print(f"{account.name} has a new password; every client of it must log in again{later}")
    return 0


def render_list(accounts: list[AccountRow]) -> str:
    lines = [f"{'name':<20} {'rating':>6} {'games':>5}  last seen"]
    for account in sorted(accounts, key=lambda a: (-a.rating, a.name.casefold())):
        rated = account.data.get("rated", [0, 0, 0])
        games = sum(int(n) for n in rated)
        seen = time.strftime("%Y-%m-%d %H:%M", time.localtime(account.last_seen))
        flag = "  (disabled)" if account.disabled else ""
        lines.append(f"{account.name:<20} {round(account.rating):>6} {games:>5}  {seen}{flag}")
    return "\n".join(lines)


def render_recent(
    registrations: list[Registration],
    accounts: dict[str, AccountRow],
    stand_ins: dict[str, str],
) -> str:
    """The registrations by address, the address with the most first; `stand_ins`: the
    deleted accounts' stand-ins' names by their keys."""
    by_address: dict[str, list[Registration]] = {}
    for registration in registrations:
        by_address.setdefault(registration.address, []).append(registration)
    if not by_address:
        return "no account was registered in that time"
    lines = [f"{'address':<40} {'accounts':>8}  names (registered at)"]
    for address, made in sorted(by_address.items(), key=lambda item: (-len(item[1]), item[0])):
        names = ", ".join(
            f"{_name(accounts, stand_ins, r.key)}"
            f" ({time.strftime('%Y-%m-%d %H:%M', time.localtime(r.at))})"
            for r in made
        )
        lines.append(f"{address:<40} {len(made):>8}  {names}")
    return "\n".join(lines)


def _name(accounts: dict[str, AccountRow], stand_ins: dict[str, str], key: str) -> str:
    """The name the account is shown under, as server/core/accounts.py's name_of finds it."""
    account = accounts.get(key)
    if account is None:
        return stand_ins.get(key, key)
    return f"{account.name} (disabled)" if account.disabled else account.name
