"""`kahuna-server moderation log`: the operator reads the moderation log (every moderator's
action with its reason, the reports closed, the operator's own grants), on the database whether
or not a server is using it.

    kahuna-server moderation log [--lines N] [--db PATH|URL]

The moderators read the same log in their clients (protocol version 4's `moderation`).
"""

from __future__ import annotations

import argparse
import sys
import time

from server.cli.accounts_cli import open_beside
from server.core.store import ModerationLogOp, NoDatabase, StorageError
from server.storage.sqlite_store import default_db_path

LINES = 50


def build_parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db", default=argparse.SUPPRESS, metavar="PATH|URL", help="the database (file or URL)"
    )
    parser = argparse.ArgumentParser(
        prog="kahuna-server moderation",
        description="Read what the moderators did, and why; also while the server runs.",
    )
    parser.add_argument(
        "--db",
        default=str(default_db_path()),
        metavar="PATH",
        help="the server's database (default: %(default)s)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    log = commands.add_parser(
        "log", parents=[db], help="the latest lines of the moderation log, the oldest first"
    )
    log.add_argument(
        "--lines", type=int, default=LINES, metavar="N", help="the last N (default: %(default)s)"
    )
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        storage, _running = open_beside(args.db)
    except NoDatabase as exc:
        print(f"kahuna-server moderation: {exc}: give the --db the server uses", file=sys.stderr)
        return 1
    except StorageError as exc:
        print(f"kahuna-server moderation: {exc}", file=sys.stderr)
        return 1
    try:
        print(render_log(storage.load_moderation_log(max(1, args.lines))))
        return 0
    except StorageError as exc:
        print(f"kahuna-server moderation: {exc}", file=sys.stderr)
        return 1
    finally:
        storage.close()


def render_log(lines: list[ModerationLogOp]) -> str:
    if not lines:
        return "the moderation log is empty"
    out = [f"{'when':<16}  {'who':<20} {'action':<17} {'target':<24} reason"]
    for line in lines:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(line.at))
        until = ""
        if line.until is not None:
            until = f" (until {time.strftime('%Y-%m-%d %H:%M', time.localtime(line.until))})"
        # a tournament handed on: to whom
        target = line.target if line.name is None else f"{line.target} -> {line.name}"
        out.append(
            f"{when:<16}  {line.moderator:<20} {line.action:<17} {target:<24}"
            f" {line.reason}{until}".rstrip()
        )
    return "\n".join(out)
