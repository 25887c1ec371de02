"""A Swiss tournament played by bots beside the 2,000-table load: a script, not a test.

    .venv/bin/python bench/tournament_load_bench.py                   # 2 turns of both runs
    .venv/bin/python bench/tournament_load_bench.py --turns 1 --seconds 20 --rounds 3
    # the issue's settings (64 players, 7 rounds at 5+3, the default), four turns:
    .venv/bin/python bench/tournament_load_bench.py --players 64 --rounds 7 --clock 300+3 --turns 4

One kahuna-server (bench/load_bench.py's, a SQLite database in a temporary directory) serves
runs of --tables tables at --think seconds (load_bench.py's driver, in two client processes,
with its quiet client beside), in turns: one without a tournament, one with it, --turns times,
so that both see the same period of a shared machine. In a run with it, --players accounts
(written into the database with login tokens, as load_bench.py --accounts does, so that the
server's registration limits play no part) log in over protocol version 4 in this process; the
first makes a rated Swiss of --rounds rounds at --clock, all join, it starts it over the
protocol, and when it is finished the next is made, for as long as the run lasts (from before
its tables are set up to after its last second). A bot told that its game of a round is ready
takes its seat (`resume`), makes --moves random legal moves of its own (from the view, by
shared/legality.py), each after --think seconds as the tables' players do, then resigns.

Printed per run: load_bench.py's lines for the other tables (p99 of their commands, the quiet
client's qp99, the server's CPU and CPU per action of the tables); for a run with the
tournament, its rounds paired and games ended in the run, and its bots' actions; at the end
the runs side by side. The issue's target: the other tables' p99 no worse with the tournament.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import load_bench  # noqa: E402
import msgpack  # noqa: E402
from server_process import stop  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from protocol.codec import encode  # noqa: E402
from protocol.fields import TimeControl  # noqa: E402
from protocol.messages import Command, CreateTable, Hello, Join, Resign  # noqa: E402
from protocol.player_messages import Login, Resume  # noqa: E402
from protocol.tournament_messages import (  # noqa: E402
    CreateTournament,
    JoinTournament,
    StartTournament,
    TournamentTerms,
)
from shared.legality import legal_actions  # noqa: E402
from shared.views import seat_view_from_dict  # noqa: E402

VERSION = 4
NUMBERS = itertools.count(1)


def token(index: int) -> str:
    return f"bench-tournament-token-{index}"


def player_name(index: int) -> str:
    return f"swiss{index:02d}"


def write_players(db: str, players: int) -> None:
    from server.core.names import name_key
    from server.core.store import AccountOp, AccountRow, LoginTokenOp, StorageOp, hash_token
    from server.jobs.password_hashing import Passwords
    from server.storage.storage_open import open_storage

    hashed = Passwords("test").hash("bench password")  # nobody logs in with it
    rng = random.Random(3)
    ops: list[StorageOp] = []
    for index in range(players):
        name = player_name(index)
        rating = rng.uniform(1300, 2000)
        ops.append(
            AccountOp(AccountRow(name_key(name), name, hashed, rating, 200, 0.06, 0, 0, False))
        )
        ops.append(LoginTokenOp(hash_token(token(index)), name_key(name), 0))
    storage = open_storage(db)
    try:
        storage.write(ops)
    finally:
        storage.close()


class Tally:
    def __init__(self) -> None:
        self.actions = 0
        self.resigned = 0
        self.errors: Counter[str] = Counter()  # by code and reason
        self.rounds = 0
        self.tournaments = 0


class Game:
    """A bot's game: the table's version it last saw and its own moves so far."""

    def __init__(self) -> None:
        self.version = 0
        self.made = 0
        self.timer: asyncio.TimerHandle | None = None
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()


class Bot:
    """One player of the tournaments: takes its seat when a game of its is ready (one of a
    tournament the last run left unfinished too, said at login), moves --moves times in it,
    then resigns."""

    def __init__(self, ws: ClientConnection, args: argparse.Namespace, tally: Tally, seed: int):
        self.ws = ws
        self.moves = args.moves
        self.think = args.think
        self.tally = tally
        self.rng = random.Random(seed)
        self.games: dict[str, Game] = {}
        self.states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # `tournament` messages
        self.sending: set[asyncio.Future[None]] = set()
        # --control: the table this bot made or joined, when the server says it sits there
        self.joined: asyncio.Future[str] | None = None

    async def read(self) -> None:
        async for data in self.ws:
            assert isinstance(data, bytes)
            message = msgpack.unpackb(data)
            kind = message["type"]
            if kind == "player_note" and message["note"] == "tournament_round":
                if message["table_id"] not in self.games:
                    self.games[message["table_id"]] = Game()
                    await self.ws.send(encode(Resume(message["table_id"]), VERSION))
            elif kind in ("state", "update") and message["table_id"] in self.games:
                self.seen(message["table_id"], message["version"], message["view"])
            elif kind == "tournament":
                self.states.put_nowait(message)
            elif kind == "joined" and self.joined is not None and not self.joined.done():
                # not a seat taken back in a game of the last run's tournament (told at login)
                if message["table_id"] not in self.games:
                    self.games[message["table_id"]] = Game()
                    self.joined.set_result(message["table_id"])
            elif kind == "error":
                self.tally.errors[f"{message.get('code')}/{message.get('reason')}"] += 1

    def seen(self, table_id: str, version: int, view: dict[str, Any]) -> None:
        game = self.games[table_id]
        game.version = version
        if view["public"]["result"] is not None:
            del self.games[table_id]
            if not game.ended.done():
                game.ended.set_result(None)
            if game.timer is not None:
                game.timer.cancel()
            return
        if game.timer is None and seat_view_from_dict(view).turn_context() is not None:
            delay = self.think * (0.5 + self.rng.random())
            game.timer = asyncio.get_running_loop().call_later(delay, self.act, table_id, view)

    def act(self, table_id: str, view: dict[str, Any]) -> None:
        game = self.games.get(table_id)
        if game is None:
            return
        game.timer = None
        if game.made >= self.moves:
            self.send(Resign(table_id))
            self.tally.resigned += 1
            return
        ctx = seat_view_from_dict(view).turn_context()
        if ctx is None:
            return
        game.made += 1
        self.tally.actions += 1
        self.send(Command(table_id, game.version, str(self.rng.choice(legal_actions(ctx)))))

    def stop(self) -> None:
        for game in self.games.values():
            if game.timer is not None:
                game.timer.cancel()

    def send(self, message: Command | Resign) -> None:
        task = asyncio.ensure_future(self.ws.send(encode(message, VERSION)))
        self.sending.add(task)  # held until sent
        task.add_done_callback(self.sending.discard)

    async def state_where(self, wanted: Any) -> dict[str, Any]:
        while True:
            state = await self.states.get()
            if wanted(state):
                return state


async def log_in(port: int, index: int) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}", compression=None, max_size=2**22)
    await ws.send(encode(Hello(VERSION, player_name(index)), VERSION))
    await ws.recv()  # welcome
    await ws.send(encode(Login(player_name(index), None, token(index)), VERSION))
    while True:
        data = await ws.recv()
        assert isinstance(data, bytes)
        message = msgpack.unpackb(data)
        if message["type"] == "challenges":  # the last word of a login
            return ws
        if message["type"] == "error":
            raise SystemExit(f"{player_name(index)} could not log in: {message}")


async def tournaments(
    port: int,
    args: argparse.Namespace,
    tally: Tally,
    stop_at: asyncio.Event,
    started: asyncio.Event,
) -> None:
    """Swiss after Swiss among the bots until `stop_at` is set; `started` once the first is."""
    connections = await asyncio.gather(*(log_in(port, i) for i in range(args.players)))
    bots = [Bot(ws, args, tally, i) for i, ws in enumerate(connections)]
    readers = [asyncio.create_task(bot.read()) for bot in bots]
    director = bots[0]
    initial, _, increment = args.clock.partition("+")
    clock = TimeControl(int(initial), int(increment or 0))
    try:
        while not stop_at.is_set():
            name = f"Bench {next(NUMBERS)}"  # one name a tournament, across the runs
            terms = TournamentTerms(name, "swiss", args.rounds, clock)
            for bot in bots:  # the last tournament's messages are of no more use
                bot.states = asyncio.Queue()
            await director.ws.send(encode(CreateTournament(terms), VERSION))
            made = await director.state_where(
                lambda s, name=terms.name: s["summary"]["name"] == name
            )
            tournament_id = made["summary"]["tournament_id"]

            def this_one(state: dict[str, Any], wanted: str = tournament_id) -> bool:
                return bool(state["summary"]["tournament_id"] == wanted)

            for bot in bots:
                await bot.ws.send(encode(JoinTournament(tournament_id), VERSION))
            for bot in bots:
                await bot.state_where(this_one)
            await director.ws.send(encode(StartTournament(tournament_id), VERSION))
            tally.tournaments += 1
            started.set()
            paired = 0
            while True:
                waiting = asyncio.create_task(director.states.get())
                stopping = asyncio.create_task(stop_at.wait())
                await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not waiting.done():
                    waiting.cancel()
                    return
                stopping.cancel()
                state = waiting.result()
                if not this_one(state):
                    continue
                rounds = len(state["rounds"])
                tally.rounds += rounds - paired
                paired = rounds
                if state["summary"]["status"] == "finished":
                    break
    finally:
        for task in readers:
            task.cancel()
        for bot in bots:
            bot.stop()
            await bot.ws.close()


async def casual(
    port: int,
    args: argparse.Namespace,
    tally: Tally,
    stop_at: asyncio.Event,
    started: asyncio.Event,
) -> None:
    """--control: the same bots, the same games in rounds, without a tournament: each round
    pairs them at random, one of each pair makes a rated table at --clock and the other joins
    it, and the next round begins when the last game of this one ends. What a run of these
    costs the other tables is what the bots' games cost, the tournament's own work left out."""
    connections = await asyncio.gather(*(log_in(port, i) for i in range(args.players)))
    bots = [Bot(ws, args, tally, i) for i, ws in enumerate(connections)]
    readers = [asyncio.create_task(bot.read()) for bot in bots]
    initial, _, increment = args.clock.partition("+")
    clock = TimeControl(int(initial), int(increment or 0))
    rng = random.Random(7)
    loop = asyncio.get_running_loop()
    try:
        while not stop_at.is_set():
            order = list(range(len(bots)))
            rng.shuffle(order)
            ended: list[asyncio.Future[None]] = []
            for first, second in zip(order[::2], order[1::2], strict=False):
                maker, partner = bots[first], bots[second]
                maker.joined = loop.create_future()
                await maker.ws.send(encode(CreateTable(clock=clock, rated=True), VERSION))
                table_id = await maker.joined
                partner.joined = loop.create_future()
                await partner.ws.send(encode(Join(table_id), VERSION))
                await partner.joined
                ended += [maker.games[table_id].ended, partner.games[table_id].ended]
            tally.rounds += 1
            started.set()
            stopping = asyncio.create_task(stop_at.wait())
            waits: set[asyncio.Future[Any]] = {stopping, asyncio.gather(*ended)}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
    finally:
        for task in readers:
            task.cancel()
        for bot in bots:
            bot.stop()
            await bot.ws.close()


async def one_run(port: int, pid: int, args: argparse.Namespace, mode: str) -> str:
    """A run of the tables: `mode` "without" the bots, "with" their tournaments, or "casual"
    (--control: their games in rounds without a tournament)."""
    tally = Tally()
    stop_at = asyncio.Event()
    task = None
    with_tournament = mode != "without"
    if with_tournament:
        started = asyncio.Event()
        play = tournaments if mode == "with" else casual
        task = asyncio.create_task(play(port, args, tally, stop_at, started))
        waiting = asyncio.create_task(started.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # its failure
        # the first round under way before the tables are set up
    began = time.perf_counter()
    _, row = await load_bench.run_load(port, pid, args.tables, args.seconds, args.think, args)
    stop_at.set()
    if task is not None:
        await task
        spent = time.perf_counter() - began
        what = "the tournament" if mode == "with" else "the casual games"
        print(
            f"  {what}, {spent:.0f} s from the tables' setup to their end:"
            f" {tally.tournaments} Swiss made, {tally.rounds} rounds paired, {tally.resigned}"
            f" games resigned after {args.moves} moves each side at most, {tally.actions}"
            f" bot moves, errors: {dict(tally.errors) or 'none'}"
        )
    return f"{mode:<7} {row}"


async def main_async(args: argparse.Namespace) -> None:
    handshake = load_bench.setup_timeout(args.tables)
    os.environ[load_bench.SETUP_TIMEOUT_ENV] = f"{handshake:g}"  # for the client processes
    scratch = tempfile.TemporaryDirectory(prefix="kahuna-tournament-load-")
    db = str(Path(scratch.name) / "server.sqlite3")
    write_players(db, args.players)
    root = Path(args.server_root).resolve() if args.server_root else ROOT
    proc, port = load_bench.start_server(
        db, args.probe, 2 * (args.tables + args.quiet_tables + args.players), root, handshake
    )
    if root != ROOT:
        print(f"the server of {root} ({load_bench.git_commit(root)})")
    rows = []
    try:
        for turn in range(args.turns):
            for mode in ("without", "with", "casual") if args.control else ("without", "with"):
                what = "the bots' casual games" if mode == "casual" else f"{mode} the tournament"
                size = f"{args.tables} tables, {args.seconds:g} s"
                print(f"turn {turn + 1}, {what}: {size}")
                rows.append(await one_run(port, proc.pid, args, mode))
    finally:
        stop(proc, wait=30)
        scratch.cleanup()
    print(f"swiss   {load_bench.SUMMARY_HEAD}")
    print("\n".join(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--think", type=float, default=0.5, help="seconds before each move")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--turns", type=int, default=2, help="pairs of runs, without and with")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", default="300+3", help="INITIAL+INCREMENT seconds")
    parser.add_argument("--moves", type=int, default=6, help="a bot's moves before it resigns")
    parser.add_argument("--clients", type=int, default=2, help="client processes of the tables")
    parser.add_argument("--quiet-tables", type=int, default=20)
    parser.add_argument(
        "--server-root", help="drive the server of this checkout (git worktree add DIR REV)"
    )
    parser.add_argument(
        "--probe", help="run the server under bench/server_probe.py, its report in this file"
    )
    parser.add_argument("--py-spy", help="sample the server with py-spy into this directory")
    parser.add_argument(
        "--control",
        action="store_true",
        help="a third run each turn: the same bots play the same games in rounds, no tournament",
    )
    args = parser.parse_args()
    if args.server_root and not (Path(args.server_root) / "server" / "__main__.py").is_file():
        parser.error(f"--server-root: {args.server_root} is not a checkout of this project")
    if args.py_spy:
        Path(args.py_spy).mkdir(parents=True, exist_ok=True)
    # what load_bench.run_load reads besides
    args.computer_tables, args.level = 0, "strong"
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
