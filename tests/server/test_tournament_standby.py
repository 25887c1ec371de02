"""A tournament across a standby's takeover: two kahuna-server processes on one PostgreSQL
database; a Swiss in its first round on the first, which is killed with -9 after one game of the
round ended; the standby takes over, where the result stands, the round's other game ends, the
next round is paired without a repeat, and the tournament is played to its final standings."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from protocol.tournament_messages import (
    StartTournament,
    TournamentState,
    TournamentTerms,
)
from tests.postgres import Cluster
from tests.server.standby_pair import first_and_standby, taken_over
from tests.server.tournament_sockets import (
    KILLED_ROUND,
    accounts_db,
    entered,
    goes_on,
    login,
    resign,
    state_with,
)

NAMES = KILLED_ROUND  # the accounts accounts_db writes


async def test_a_tournament_survives_a_standby_takeover(tmp_path: Path, postgres: Cluster) -> None:
    url = postgres.database()
    accounts_db(url)
    first, first_port, standby, standby_port = await first_and_standby(url, tmp_path)
    try:
        clients = {name: await login(first_port, name) for name in NAMES}
        ann = clients["Ann"]
        terms = TournamentTerms("Standby cup", "swiss", 2)
        tournament_id = await entered(ann, clients.values(), terms)
        await ann.send(StartTournament(tournament_id))
        one, two = (await state_with(ann, 1)).rounds[0].games
        assert one.table_id is not None and two.table_id is not None
        await resign(clients[one.white], one.table_id)
        state = await ann.expect(TournamentState)  # told, so on disk
        assert [g.result for g in state.rounds[0].games] == ["black_won", None]

        first.kill()
        assert await asyncio.wait_for(first.wait(), 10) == -signal.SIGKILL
        await taken_over(standby, standby_port)

        watcher, player, paired = await goes_on(
            standby_port, tournament_id, state, list(NAMES), one, two
        )

        # the second round is played on the standby too, to the final standings
        on_standby = {two.black: player}
        for name in NAMES:
            if name not in on_standby:
                on_standby[name] = await login(standby_port, name)
        for game in paired.rounds[1].games:
            assert game.table_id is not None
            await resign(on_standby[game.black], game.table_id)
        final = await state_with(watcher, 2, finished=True)
        assert [g.result for g in final.rounds[1].games] == ["white_won", "white_won"]
        assert final.rounds[0] == paired.rounds[0]  # nothing of the first round lost
        assert sum(s.points for s in final.standings) == 4.0
        for client in (*on_standby.values(), watcher):
            await client.close()
    finally:
        for proc in (first, standby):
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
