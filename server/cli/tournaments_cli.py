"""`kahuna-server tournaments ...`: the operator lists the server's tournaments, ends one, or
gives one another director, on the database whether or not a server is using it.

    kahuna-server tournaments list [--db PATH|URL]
    kahuna-server tournaments end ID REASON... [--db PATH|URL]
    kahuna-server tournaments director ID NAME REASON... [--db PATH|URL]

A tournament under way lives in the memory of the server that runs it: its tables, clocks,
first-move timers and the round being paired. So a command never writes the tournament's rows
(the running server would write them over from memory, and its tables would play on); it leaves
a TournamentActionOp, as `kahuna-server accounts disable` leaves an AccountActionOp, and the
server applies it at its next look (account_actions_interval, 2 s) exactly as a moderator's
`moderate` `close_tournament` or `hand_tournament` (server/core/moderation.py): the games under
way abandoned, unrated, their tables closed, the players told, the moderation log's line by
"operator". With no server running, the next one to start applies it once its tables are back.
`list` reads the rows as the server last wrote them, and says which commands wait.
"""

from __future__ import annotations

import argparse
import sys
import time

from server.cli.database_commands import database_parser, on_database
from server.core.moderation import REASON_MAX  # the operator's reason as a moderator's
from server.core.names import name_key
from server.core.store import (
    Storage,
    StoredTournament,
    TournamentAction,
    TournamentActionOp,
    is_deleted_key,
)
from server.core.tournaments.round_robin import cycle_length

PROG = "kahuna-server tournaments"


def build_parser() -> argparse.ArgumentParser:
    parser, db = database_parser(
        PROG,
        "List the server's tournaments, end one, or give one another director;"
        " while the server runs too (it applies a command within seconds).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "list", parents=[db], help="id, name, format, status, players, round and director of each"
    )
    end = commands.add_parser(
        "end", parents=[db], help="ID ends now, its standings as they stand: its games under way"
        " abandoned, unrated (a running server: within seconds)",
    )  # fmt: skip
    end.add_argument("tournament", metavar="ID")
    end.add_argument("reason", metavar="REASON", nargs="+", help="for the moderation log")
    director = commands.add_parser(
        "director", parents=[db], help="ID is directed by the account NAME from now on (a"
        " running server: within seconds)",
    )  # fmt: skip
    director.add_argument("tournament", metavar="ID")
    director.add_argument("name", metavar="NAME")
    director.add_argument("reason", metavar="REASON", nargs="+", help="for the moderation log")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    return on_database(PROG, args.db, lambda storage, running: _command(args, storage, running))


def _command(args: argparse.Namespace, storage: Storage, running: bool) -> int:
    tournaments = storage.load_tournaments()
    names = {a.key: a.name for a in storage.load_accounts()}
    waiting = storage.load_tournament_actions()
    if args.command == "list":
        print(render_list(tournaments, names, waiting))
        return 0
    found = next((t for t in tournaments if t.tournament.tournament_id == args.tournament), None)
    if found is None:
        return _refused(f"no tournament has the id {args.tournament!r}")
    row = found.tournament
    if row.status == "finished":
        return _refused(f"{row.tournament_id} ({row.name}) is over already")
    reason = " ".join(args.reason).strip()
    if len(reason) > REASON_MAX:
        return _refused(f"the reason has {len(reason)} characters; {REASON_MAX} at most")
    then = "within seconds" if running else "at its next start"
    director = None
    if args.command == "director":
        accounts = {a.key: a for a in storage.load_accounts() if not is_deleted_key(a.key)}
        account = accounts.get(name_key(args.name))
        if account is None:
            return _refused(f"no account is named {args.name!r}")
        if account.key == row.director:
            return _refused(f"{account.name} directs {row.tournament_id} already")
        if account.disabled:
            return _refused(f"{account.name}'s account is disabled")
        director = account.key
        done = f"gives {row.tournament_id} ({row.name}) to {account.name} to direct"
    else:
        done = f"ends {row.tournament_id} ({row.name}), its games under way abandoned"
    action = "hand" if director is not None else "close"
    storage.write([TournamentActionOp(row.tournament_id, action, director, reason, time.time())])
    print(f"the server {done} {then}; `kahuna-server moderation log` shows it done")
    return 0


def _refused(why: str) -> int:
    print(f"{PROG}: {why}; nothing done", file=sys.stderr)
    return 1


def render_list(
    tournaments: list[StoredTournament], names: dict[str, str], waiting: list[TournamentAction]
) -> str:
    """The tournaments, the newest first, each with the operator's commands not yet applied."""
    if not tournaments:
        return "the server has no tournaments"
    lines = [
        f"{'id':<8}  {'name':<24} {'format':<18} {'status':<8} {'players':>7} {'round':>6}"
        "  director"
    ]
    for kept in reversed(tournaments):
        row = kept.tournament
        status = "closed" if row.terms.get("closed") else row.status
        players = sum(1 for e in kept.entrants if e.left is None)
        played = f"{len(kept.rounds)}/{_planned(kept)}" if row.status != "open" else "-"
        pending = [
            ("to end" if a.action == "close" else f"to {names.get(a.director or '', '?')}")
            for a in waiting
            if a.tournament_id == row.tournament_id
        ]
        note = f"  (waiting for the server: {', '.join(pending)})" if pending else ""
        lines.append(
            f"{row.tournament_id:<8}  {row.name[:24]:<24} {row.format:<18} {status:<8}"
            f" {players:>7} {played:>6}  {names.get(row.director, row.director)}{note}"
        )
    return "\n".join(lines)


def _planned(kept: StoredTournament) -> int:
    """A Swiss's rounds as its director set them; a round-robin's from its players (Berger's
    tables), twice for a double."""
    row = kept.tournament
    if row.format == "swiss":
        return int(row.terms.get("rounds", 0))
    cycles = 2 if row.format == "double_round_robin" else 1
    return cycle_length(len(kept.entrants)) * cycles
