"""The core's CPU for what a player is told on their own connections: a script, not a test.

    .venv/bin/python bench/player_notes_bench.py                        # 2,000 players
    .venv/bin/python bench/player_notes_bench.py --players 4000 --guests 4000 \\
        --server-root ../main                                           # against another checkout

bench/load_bench.py plays tables of a guest and (with --accounts) an account's host: its only
player note is the game_over of a host's table, one per game, over a few hundred connections.
This measures the notes themselves, in the sans-I/O core (server/core/core.py) without sockets:
--players accounts logged in by token on --tabs connections each (protocol version 4), beside
--guests guests' connections (version 2), then

  challenge  each player challenges the next (a game of days): the lists of both and a note to
             the recipient;
  decline    each recipient declines it: the lists of both and a note to the challenger;
  your_move  the players paired at tables of games of days, --moves moves in all: each tells
             the next mover `your_move` on their connections not at the table;
  game_over  each of those games resigned: both players told on their other connections.

Printed: CPU microseconds (process time) per event of each kind in the core, with the
connections in all. `--server-root DIR` runs the same events, in the same run, against the core
of another checkout (`git worktree add DIR REV`, or the main checkout) as the baseline; each root
runs in its own process, --repeat times, alternating, and the least of each figure is kept (what
other processes on the machine add is noise, never less).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WALL = 1_700_000_000.0
KINDS = ("challenge", "decline", "your_move", "game_over")


def measure(root: Path, players: int, tabs: int, guests: int, moves: int) -> dict[str, Any]:
    """The figures of one run against the core of `root` (imported from there)."""
    sys.path.insert(0, str(root))
    import server.core.core as core_module
    from protocol.codec import encode
    from protocol.fields import TableOptions, TimeControl
    from protocol.messages import Command, CreateTable, Hello, Join, Joined, Resign
    from protocol.player_messages import (
        AnswerChallenge,
        Challenge,
        ChallengeTerms,
        LoggedIn,
        Login,
        PlayerNote,
    )
    from server.core.config import ServerConfig
    from server.core.core import ServerCore
    from server.core.effects import Effects
    from server.core.store import AccountRow, ChallengeOp, StoredPlayers, hash_token
    from shared.randomness import SeededSource

    seeds = iter(range(1, 1_000_000))
    config = ServerConfig(
        rate=1e9, burst=1_000_000, flood_limit=1_000_000, max_per_address=1_000_000,
        max_connections=1_000_000, max_tables=1_000_000, waiting_per_address=1_000_000,
        challenge_rate=1e9, challenge_burst=1_000_000, new_account_quiet=0.0,
        source_factory=lambda: SeededSource(next(seeds)), rng=random.Random(7),
    )  # fmt: skip
    core = ServerCore(config)
    names = [f"P{i}" for i in range(players)]
    rows = [
        AccountRow(n.lower(), n, "$argon2id$unused", 1500.0, 350.0, 0.06, 0.0, 0.0, False, {})
        for n in names
    ]
    tokens = [(hash_token(f"token {n}"), n.lower()) for n in names]
    core.restore_players(StoredPlayers(rows, tokens), 0.0, WALL)
    now = 0.0
    cpu = 0.0
    notes = 0

    def feed(member: int, message: Any, version: int = 4) -> Effects:
        nonlocal cpu, notes
        data = encode(message, version)
        began = time.process_time()
        effects = core.frame(member, data, now, WALL)
        cpu += time.process_time() - began
        notes += sum(1 for _, sent, _ in effects.sends if isinstance(sent, PlayerNote))
        return effects

    def connect(n: int) -> int:
        member = core.connect(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", now)
        assert isinstance(member, int), member
        return member

    # the guests first, then each player's tabs: the players' connections are spread among them
    for g in range(guests):
        feed(connect(g), Hello(2, f"g{g}"), 2)
    seated: list[int] = []  # each player's first connection
    for i, name in enumerate(names):
        for tab in range(tabs):
            member = connect(guests + i * tabs + tab)
            feed(member, Hello(4, name))
            logged = feed(member, Login(name, None, f"token {name}"))
            assert any(isinstance(m, LoggedIn) for _, m, _ in logged.sends), name
            if tab == 0:
                seated.append(member)
    connections = len(core.sessions)
    figures: dict[str, Any] = {"connections": connections, "core": core_module.__file__}

    def timed(kind: str, events: int) -> None:
        figures[kind] = {"us": cpu / events * 1e6, "events": events, "notes": notes}

    days = TimeControl(days=3)
    terms = ChallengeTerms(TableOptions(), None, "white", days)
    sent: list[str] = []
    cpu = notes = 0
    for i in range(players):
        effects = feed(seated[i], Challenge(names[(i + 1) % players], terms))
        sent += [op.challenge.challenge_id for op in effects.writes if isinstance(op, ChallengeOp)]
    assert len(sent) == players, len(sent)
    timed("challenge", players)
    cpu = notes = 0
    for i, challenge_id in enumerate(sent):
        feed(seated[(i + 1) % players], AnswerChallenge(challenge_id, "decline"))
    timed("decline", players)

    tables: list[tuple[str, dict[str, int]]] = []
    for k in range(players // 2):
        white, black = seated[2 * k], seated[2 * k + 1]
        made = feed(white, CreateTable(TableOptions(), False, "white", "white", days))
        table_id = next(m.table_id for _, m, _ in made.sends if isinstance(m, Joined))
        feed(black, Join(table_id, "black"))
        tables.append((table_id, {"WHITE": white, "BLACK": black}))
    rng = random.Random(1)
    cpu = notes = 0
    done = 0
    while done < moves:
        for table_id, members in tables:
            table = core.lobby.tables[table_id]
            if table.game.is_over:
                continue
            action = rng.choice(table.game.legal_actions())
            now += 1.0
            mover = members[table.game.to_move.name]
            feed(mover, Command(table_id, table.version, str(action)))
            done += 1
            if done >= moves:
                break
    timed("your_move", done)
    cpu = notes = 0
    resigned = 0
    for table_id, members in tables:
        table = core.lobby.tables[table_id]
        if not table.game.is_over:
            feed(members[table.game.to_move.name], Resign(table_id))
            resigned += 1
    timed("game_over", resigned)
    return figures


def child_run(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    command = [
        sys.executable, str(Path(__file__).resolve()), "--child", str(root),
        "--players", str(args.players), "--tabs", str(args.tabs), "--guests", str(args.guests),
        "--moves", str(args.moves),
    ]  # fmt: skip
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return figures


def git_commit(root: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%h %s"], capture_output=True, text=True
    )
    return done.stdout.strip()[:72] or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000, help="accounts logged in")
    parser.add_argument("--tabs", type=int, default=2, help="connections of each player")
    parser.add_argument("--guests", type=int, default=2000, help="guests' connections besides")
    parser.add_argument("--moves", type=int, default=4000, help="moves at the games of days")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each root; least kept")
    parser.add_argument(
        "--server-root", metavar="DIR", help="the baseline: the core of another checkout"
    )
    parser.add_argument("--child", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players < 2 or args.tabs < 1:
        parser.error("at least 2 players of 1 connection each")
    if args.child:
        figures = measure(Path(args.child), args.players, args.tabs, args.guests, args.moves)
        print(json.dumps(figures))
        return
    roots = [ROOT]
    if args.server_root:
        baseline = Path(args.server_root).resolve()
        if not (baseline / "server" / "core" / "core.py").is_file():
            parser.error(f"--server-root: {baseline} is not a checkout of this project")
        roots.insert(0, baseline)
    best: dict[Path, dict[str, Any]] = {}
    for _ in range(args.repeat):
        for root in roots:
            figures = child_run(root, args)
            assert Path(figures["core"]).is_relative_to(root), figures["core"]  # its own core
            kept = best.setdefault(root, figures)
            for kind in KINDS:
                if figures[kind]["us"] < kept[kind]["us"]:
                    kept[kind] = figures[kind]
    first = best[roots[0]]
    print(
        f"{args.players} players x {args.tabs} connections + {args.guests} guests"
        f" = {first['connections']} connections; least of {args.repeat} runs, us of core CPU"
        " an event (notes sent an event)"
    )
    header = f"{'':>10}" + "".join(f"{kind:>20}" for kind in KINDS)
    print(header)
    for root in roots:
        figures = best[root]
        cells = "".join(
            f"{figures[k]['us']:>11.1f} ({figures[k]['notes'] / figures[k]['events']:4.1f})   "
            for k in KINDS
        )
        label = "baseline" if root != ROOT else "this"
        print(f"{label:>10}{cells}   {root} ({git_commit(root)})")
    if len(roots) == 2:
        ratios = "".join(f"{best[roots[0]][k]['us'] / best[ROOT][k]['us']:>19.1f}x" for k in KINDS)
        print(f"{'speed-up':>10}{ratios}")


if __name__ == "__main__":
    main()
