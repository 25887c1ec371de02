"""Tournaments played by clients over real sockets (protocol version 4): a Swiss of nine
accounts and four rounds, each game ended by a resignation, to its final standings; and a
kahuna-server process killed (-9) in the middle of a round, on SQLite and on PostgreSQL, started
again on the same database, where the round goes on and the next is paired; the operator's
directors with `--tournaments directors`."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from protocol.messages import Error
from protocol.tournament_messages import (
    CreateTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
)
from tests.conftest import Backend, ServerFactory
from tests.server.test_accounts_cli import run
from tests.server.test_restart import free_port
from tests.server.tournament_sockets import (
    KILLED_ROUND,
    accounts_db,
    entered,
    goes_on,
    login,
    registered,
    resign,
    round_note,
    serve,
    state_with,
)

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")


async def test_a_swiss_of_nine_is_played_over_sockets_to_its_standings(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    server = await make_server(db=str(tmp_path / "db.sqlite3"), password_cost="test")
    clients = await registered(server.port, NAMES)
    ann = clients["Ann"]
    tournament_id = await entered(ann, clients.values(), TournamentTerms("Club night", "swiss", 4))
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


async def test_a_kill_in_the_middle_of_a_round_loses_nothing(
    tmp_path: Path, backend: Backend
) -> None:
    db = backend.db
    accounts_db(db)
    said = run("director", "Ann", "--db", db)
    assert said.returncode == 0 and "Ann may make tournaments" in said.stdout, said
    port = free_port()
    proc = await serve(port, db, tmp_path)
    try:
        clients = {name: await login(port, name) for name in KILLED_ROUND}
        bob = clients["Bob"]
        await bob.send(CreateTournament(TournamentTerms("Not his", "swiss", 2)))
        assert (await bob.expect(Error)).reason == "not_director"
        ann = clients["Ann"]
        tournament_id = await entered(ann, clients.values(), TournamentTerms("Cup", "swiss", 2))
        await ann.send(StartTournament(tournament_id))
        first, second = (await state_with(ann, 1)).rounds[0].games
        assert first.table_id is not None and second.table_id is not None
        await resign(clients[first.white], first.table_id)
        state = await ann.expect(TournamentState)
        assert [g.result for g in state.rounds[0].games] == ["black_won", None]
        proc.kill()
        assert await asyncio.wait_for(proc.wait(), 10) == -signal.SIGKILL

        proc = await serve(port, db, tmp_path)
        await goes_on(port, tournament_id, state, list(KILLED_ROUND), first, second)
    finally:
        proc.kill()
        await proc.wait()
