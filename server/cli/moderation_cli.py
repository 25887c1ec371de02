"""`kahuna-server moderation log`: the operator reads the moderation log (every moderator's
action with its reason, the reports closed, the operator's own grants), on the database whether
or not a server is using it.

    kahuna-server moderation log [--lines N] [--db PATH|URL]

The moderators read the same log in their clients (protocol version 4's `moderation`).
"""

from __future__ import annotations

import argparse
import time

from server.cli.database_commands import database_parser, on_database
from server.core.store import ModerationLogOp, Storage

PROG = "kahuna-server moderation"
LINES = 50


def build_parser() -> argparse.ArgumentParser:
    parser, db = database_parser(
        PROG, "Read what the moderators did, and why; also while the server runs."
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

    def show(storage: Storage, _running: bool) -> int:
        print(render_log(storage.load_moderation_log(max(1, args.lines))))
        return 0

    return on_database(PROG, args.db, show)


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
