"""A tournament's rounds in the server core: a script, not a test.

    .venv/bin/python bench/tournament_bench.py                  # 200 players, 5 rounds
    .venv/bin/python bench/tournament_bench.py --players 64 --rounds 7

--players accounts (logged in by token, each on a protocol-version-4 connection) join a Swiss
of --rounds rounds; each round is paired in the core (server/core/tournament_desk.py) and its
games ended by resignations. Printed per round: the time on the event loop of the events that
pair it, in all and each (the director's start, then the last resignation of the round before,
which hand the round to a worker process; the pairing's coming back: the round's tables made,
dealt and written as storage operations, the notes; the next tick: the standings and the state
sent to the watchers),
the pairing's own time (a worker's, off the loop: server/jobs/pairing_jobs.py), how many
storage operations and messages it made, and the size of the `tournament` message encoded;
then the median and longest of the other results' events (the watchers get those at most
every second, so that the standings are not worked out for each).
--black-wins (White resigns every game) makes colour histories all alike, the pairing's
hardest case. --processor times everything in this process's processor time (on a busy
machine the wall clock's times are those of the other processes too). pairing_bench.py times
the pairing alone; the issue's target is a round of 200
players paired in under 1 s.
"""

from __future__ import annotations

import argparse
import random
import time

from protocol.codec import encode
from protocol.messages import Hello, Resign
from protocol.player_messages import Login, Resume
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
)
from server.cli.serve import tune_gc
from server.core.config import ServerConfig
from server.core.core import ServerCore
from server.core.effects import Effects
from server.core.store import AccountRow, StoredPlayers, hash_token
from server.core.tournaments.swiss import pair_round

WALL = 1.8e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--black-wins", action="store_true",
        help="White resigns every game (else a seeded random one of the two)",
    )  # fmt: skip
    parser.add_argument(
        "--processor", action="store_true", help="time in processor time, not the wall clock's"
    )
    args = parser.parse_args()
    config = ServerConfig(
        rate=1e6, burst=10**6, flood_limit=10**6, max_per_address=10**6, max_connections=10**6,
        max_tables=10**6, rng=random.Random(1),
    )  # fmt: skip
    core = ServerCore(config)
    names = [f"P{i:03d}" for i in range(args.players)]
    rng = random.Random(2)
    rows = [
        AccountRow(n.lower(), n, "$argon2id$x", rng.uniform(1200, 2200), 80.0, 0.06, 1.0, 1.0,
                   False, {})
        for n in names
    ]  # fmt: skip
    tokens = [(hash_token(n), n.lower()) for n in names]
    core.restore_players(StoredPlayers(rows, tokens), 0.0, WALL)
    now = 0.0
    members: dict[str, int] = {}
    for name in names:
        member = core.connect("10.0.0.1", now)
        assert isinstance(member, int)
        core.frame(member, encode(Hello(4, name)), now, WALL)
        core.frame(member, encode(Login(name, None, name)), now, WALL)
        members[name] = member
    tune_gc()  # as the server's: what was made at start-up frozen out of the collections
    director = members[names[0]]
    terms = TournamentTerms("Bench", "swiss", args.rounds)
    effects = core.frame(director, encode(CreateTournament(terms)), now, WALL)
    state = next(m for _, m, _ in effects.sends if isinstance(m, TournamentState))
    tournament_id = state.summary.tournament_id
    for name in names:
        core.frame(members[name], encode(JoinTournament(tournament_id)), now, WALL)

    # --processor: this process's processor time, which other processes on a busy machine
    # inflate far less than the wall clock's
    clock = time.process_time if args.processor else time.perf_counter
    worker: list[float] = []  # each round's pairing, as a worker process makes it
    parts: list[tuple[float, ...]] = []  # each round's events on the loop

    def timed(member: int, message: object) -> tuple[float, Effects]:
        """The event's time on the loop: the frame's, and if it asked for a pairing, the
        pairing's coming back and the tick that tells the watchers (the pairing itself, a
        worker's, is timed apart in `worker`); each round's three parts in `parts`."""
        start = clock()
        effects = core.frame(member, encode(message), now, WALL)  # type: ignore[arg-type]
        seconds = clock() - start
        for job in effects.pairing_jobs:
            start = clock()
            pairing = pair_round(job.players)
            worker.append(clock() - start)
            start = clock()
            done = core.round_paired(job.job, pairing, now, WALL)
            made = clock() - start
            start = clock()
            told = core.tick(now, WALL)
            tell = clock() - start
            parts.append((seconds, made, tell))
            seconds += made + tell
            for more in (done, told):
                effects.writes += more.writes
                effects.sends += more.sends
        return seconds, effects

    def report(number: int, seconds: float, effects: Effects) -> TournamentState:
        states = [m for _, m, _ in effects.sends if isinstance(m, TournamentState)]
        size = len(encode(states[-1])) if states else 0
        asked, made, told = (f"{part * 1000:.1f}" for part in parts[-1])
        print(
            f"round {number}: {seconds * 1000:5.1f} ms on the loop ({asked} + {made} + {told}),"
            f" paired in {worker[-1] * 1000:5.1f} ms by a worker, {len(effects.writes)} storage"
            f" ops, {len(effects.sends)} messages, tournament message {size} bytes"
        )
        return states[-1]

    seconds, effects = timed(director, StartTournament(tournament_id))
    state = report(1, seconds, effects)
    results: list[float] = []  # the resignations that pair nothing
    for number in range(2, args.rounds + 2):
        games = [g for g in state.rounds[-1].games if g.result is None and g.table_id]
        for i, game in enumerate(games):
            assert game.table_id is not None
            loser = game.white if args.black_wins else rng.choice((game.white, game.black))
            member = members[loser]
            core.frame(member, encode(Resume(game.table_id)), now, WALL)
            seconds, effects = timed(member, Resign(game.table_id))
            if i < len(games) - 1:
                results.append(seconds)
        if number > args.rounds:
            print(f"finished: the last resignation took {seconds * 1000:.1f} ms")
            break
        state = report(number, seconds, effects)
    results.sort()
    print(
        f"a result alone: median {results[len(results) // 2] * 1000:.2f} ms,"
        f" max {results[-1] * 1000:.2f} ms ({len(results)} results)"
    )


if __name__ == "__main__":
    main()
