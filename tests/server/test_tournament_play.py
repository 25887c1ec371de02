"""Tournaments played by clients over real sockets (protocol version 4): a Swiss of nine
accounts and four rounds, each game ended by a resignation, to its final standings; and a
kahuna-server process killed (-9) in the middle of a round, on SQLite and on PostgreSQL, started
again on the same database, where the round goes on and the next is paired; the operator's
directors with `--tournaments directors`."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from protocol.messages import Error, Resign, State
from protocol.player_messages import LoggedIn, Login, PlayerNote, Register, Resume
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    Pairing,
    StartTournament,
    TournamentState,
    TournamentTerms,
    WatchTournament,
)
from server.core.store import AccountOp, AccountRow
from server.jobs.password_hashing import Passwords
from server.storage.storage_open import open_storage
from tests.conftest import Backend, Client, ServerFactory
from tests.server.test_accounts_cli import run
from tests.server.test_restart import free_port

ROOT = Path(__file__).resolve().parent.parent.parent
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")
WORDS = "long enough words"


async def state_with(client: Client, done: int, finished: bool = False) -> TournamentState:
    """The first `tournament` in which `done` rounds are paired (and the tournament finished)."""
    while True:
        state = await client.expect(TournamentState)
        if len(state.rounds) == done and (state.summary.status == "finished") == finished:
            return state


async def round_note(client: Client) -> PlayerNote:
    while True:
        note = await client.expect(PlayerNote)
        if note.note == "tournament_round":
            return note


async def resign(client: Client, table_id: str) -> None:
    await client.send(Resume(table_id))
    await client.expect(State)
    await client.send(Resign(table_id))


async def test_a_swiss_of_nine_is_played_over_sockets_to_its_standings(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server = await make_server(db=str(tmp_path / "db.sqlite3"), password_cost="test")
    clients: dict[str, Client] = {}
    for name in NAMES:
        client = await Client.connect(server.port, name)
        await client.send(Register(name, WORDS))
        await client.expect(LoggedIn)
        clients[name] = client
    ann = clients["Ann"]
    await ann.send(CreateTournament(TournamentTerms("Club night", "swiss", 4)))
    tournament_id = (await ann.expect(TournamentState)).summary.tournament_id
    for client in clients.values():
        await client.send(JoinTournament(tournament_id))
        await client.expect(TournamentState)  # joined: the joiner watches it
    await clients["Bob"].send(StartTournament(tournament_id))
    assert (await clients["Bob"].expect_error("bad_tournament")).reason == "not_director"
    await ann.send(StartTournament(tournament_id))
    for number in (1, 2, 3, 4):
        state = await state_with(ann, number)
        paired = state.rounds[-1]
        assert paired.bye is not None and len(paired.games) == 4
        for pairing in paired.games:
            assert pairing.table_id is not None and pairing.result is None
            for me, other in ((pairing.white, pairing.black), (pairing.black, pairing.white)):
                note = await round_note(clients[me])
                assert (note.table_id, note.name) == (pairing.table_id, other)
            # the one later in NAMES resigns: Ivy loses every game she plays
            loser = max(pairing.white, pairing.black, key=NAMES.index)
            await resign(clients[loser], pairing.table_id)
    final = await state_with(ann, 4, finished=True)
    results = [g.result for r in final.rounds for g in r.games]
    assert len(results) == 16 and set(results) <= {"white_won", "black_won"}
    assert sum(s.points for s in final.standings) == 16 + 4  # the games' points and the byes'
    assert len({r.bye for r in final.rounds}) == 4  # never twice to one player
    met = [frozenset((g.white, g.black)) for r in final.rounds for g in r.games]
    assert len(set(met)) == 16  # no pairing twice
    standing = {s.name: s for s in final.standings}
    assert standing["Ivy"].points <= 1.0  # a bye at most
    assert standing["Ann"].points == final.standings[0].points == 4.0  # she never resigns
    assert [s.place for s in final.standings] == sorted(s.place for s in final.standings)
    for client in clients.values():
        await client.close()


def _accounts_db(db: str) -> None:
    hashed = Passwords("test").hash(WORDS)
    storage = open_storage(db)
    storage.write(
        [
            AccountOp(AccountRow(n.lower(), n, hashed, 1500.0, 350.0, 0.06, 1.0, 1.0, False, {}))
            for n in ("Ann", "Bob", "Dan", "Eve")
        ]
    )
    storage.close()


async def _serve(port: int, db: str, logs: Path) -> asyncio.subprocess.Process:
    log = (logs / "server.log").open("ab")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
        "--db", db, "--log-level", "warning", "--tournaments", "directors",
        "--rate", "1000", "--burst", "1000", "--flood-limit", "1000", "--no-web",
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=log,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    log.close()
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    if "standby" in line:
        # on PostgreSQL, right after a kill -9 the killed server's session may not have ended
        # yet: the new one waits a moment as its standby, then serves (tests/server/test_restart.py)
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    assert f":{port}" in line, line
    return proc


async def _login(port: int, name: str) -> Client:
    client = await Client.connect(port, name)
    await client.send(Login(name, WORDS))
    await client.expect(LoggedIn)
    return client


async def goes_on(
    port: int,
    tournament_id: str,
    before: TournamentState,
    names: list[str],
    first: Pairing,
    second: Pairing,
) -> tuple[Client, Client, TournamentState]:
    """After a kill or a standby's takeover in the middle of a two-game first round whose
    `first` game ended: the tournament is as it was, `second`'s Black is told at login of the
    game waiting, resigns, and the second round is paired with no pairing again. The watcher,
    that player and the paired state."""
    watcher = await Client.connect(port, "Watcher")
    await watcher.send(WatchTournament(tournament_id))
    again = await watcher.expect(TournamentState)
    assert again.rounds == before.rounds and again.summary.status == "started"
    assert [p.name for p in again.players] == names
    player = await _login(port, second.black)
    note = await round_note(player)  # the game waiting for them, said at login
    assert (note.table_id, note.name) == (second.table_id, second.white)
    assert second.table_id is not None
    await resign(player, second.table_id)
    paired = await state_with(watcher, 2)
    assert [g.result for g in paired.rounds[0].games] == ["black_won", "white_won"]
    assert {s.name: s.points for s in paired.standings} == {
        first.black: 1.0, second.white: 1.0, first.white: 0.0, second.black: 0.0,
    }  # fmt: skip
    met = {frozenset((g.white, g.black)) for g in paired.rounds[0].games}
    assert not met & {frozenset((g.white, g.black)) for g in paired.rounds[1].games}
    return watcher, player, paired


async def test_a_kill_in_the_middle_of_a_round_loses_nothing(
    tmp_path: Path, backend: Backend
) -> None:
    db = backend.db
    _accounts_db(db)
    said = run("director", "Ann", "--db", db)
    assert said.returncode == 0 and "Ann may make tournaments" in said.stdout, said
    port = free_port()
    proc = await _serve(port, db, tmp_path)
    try:
        clients = {name: await _login(port, name) for name in ("Ann", "Bob", "Dan", "Eve")}
        bob = clients["Bob"]
        await bob.send(CreateTournament(TournamentTerms("Not his", "swiss", 2)))
        assert (await bob.expect(Error)).reason == "not_director"
        ann = clients["Ann"]
        await ann.send(CreateTournament(TournamentTerms("Cup", "swiss", 2)))
        tournament_id = (await ann.expect(TournamentState)).summary.tournament_id
        for client in clients.values():
            await client.send(JoinTournament(tournament_id))
            await client.expect(TournamentState)
        await ann.send(StartTournament(tournament_id))
        first, second = (await state_with(ann, 1)).rounds[0].games
        assert first.table_id is not None and second.table_id is not None
        await resign(clients[first.white], first.table_id)
        state = await ann.expect(TournamentState)
        assert [g.result for g in state.rounds[0].games] == ["black_won", None]
        proc.kill()
        assert await asyncio.wait_for(proc.wait(), 10) == -signal.SIGKILL

        proc = await _serve(port, db, tmp_path)
        await goes_on(port, tournament_id, state, ["Ann", "Bob", "Dan", "Eve"], first, second)
    finally:
        proc.kill()
        await proc.wait()
