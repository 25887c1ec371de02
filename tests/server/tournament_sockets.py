"""Tournaments played by clients over real sockets, as the server's tests (test_tournament_play,
test_tournament_edges, test_tournament_standby) and the page's (tests/web) play them: accounts
registered or logged in, a tournament made by its director and joined by each, a game resigned,
the states and notes awaited; and a kahuna-server process killed or taken over in the middle of
a round, and what must hold after it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

from protocol.messages import Resign, State
from protocol.player_messages import LoggedIn, Login, PlayerNote, Register, Resume
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    Pairing,
    TournamentState,
    TournamentTerms,
    WatchTournament,
)
from server.core.store import AccountOp, AccountRow
from server.jobs.password_hashing import Passwords
from server.storage.storage_open import open_storage
from tests.conftest import Client
from tests.server.test_restart import start_server

WORDS = "long enough words"
KILLED_ROUND = ("Ann", "Bob", "Dan", "Eve")  # the accounts of accounts_db, in that order


async def registered(port: int, names: Iterable[str]) -> dict[str, Client]:
    """A connection for each name, registered (with WORDS) and logged in, by name."""
    clients: dict[str, Client] = {}
    for name in names:
        client = await Client.connect(port, name)
        await client.send(Register(name, WORDS))
        await client.expect(LoggedIn)
        clients[name] = client
    return clients


async def login(port: int, name: str) -> Client:
    """A connection logged in to the account `name` (its password WORDS)."""
    client = await Client.connect(port, name)
    await client.send(Login(name, WORDS))
    await client.expect(LoggedIn)
    return client


async def entered(director: Client, entrants: Iterable[Client], terms: TournamentTerms) -> str:
    """A tournament of these terms made by `director` and joined by each of `entrants`, each
    sent its state (a joiner watches it): its id. Not started."""
    await director.send(CreateTournament(terms))
    tournament_id = (await director.expect(TournamentState)).summary.tournament_id
    for client in entrants:
        await client.send(JoinTournament(tournament_id))
        await client.expect(TournamentState)  # joined: the joiner watches it
    return tournament_id


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


def accounts_db(db: str) -> None:
    """The accounts of KILLED_ROUND written straight into a new database, their password WORDS
    (a server started on it has them at once, without registering over a socket)."""
    hashed = Passwords("test").hash(WORDS)
    storage = open_storage(db)
    storage.write(
        [
            AccountOp(AccountRow(n.lower(), n, hashed, 1500.0, 350.0, 0.06, 1.0, 1.0, False, {}))
            for n in KILLED_ROUND
        ]
    )
    storage.close()


async def serve(port: int, db: str, logs: Path) -> asyncio.subprocess.Process:
    """A kahuna-server process on `db` where only the operator's directors make tournaments."""
    return await start_server(port, db, logs, options=("--tournaments", "directors", "--no-web"))


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
    player = await login(port, second.black)
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
