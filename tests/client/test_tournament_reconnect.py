"""The terminal client's tournaments screen across a new connection (the server restarted on
the same database): the tournament shown is watched again, so that its start, its round and
its results keep coming; and a new round puts the cursor on the player's own game, so that
Enter goes there (a round paired with the cursor left on another board watched that one)."""

from __future__ import annotations

from pathlib import Path

import attrs

from client.model.state import ClientState
from protocol.tournament_messages import GetTournaments, TournamentState, WatchTournament
from server.net.app import KahunaServer
from tests.client.test_app import until
from tests.client.test_players import account_player
from tests.client.test_restart import free_port
from tests.client.test_tournaments import NAMES, shown_state
from tests.conftest import server_config


async def test_the_tournament_shown_is_followed_across_a_new_connection(tmp_path: Path) -> None:
    port = free_port()
    db = str(tmp_path / "db.sqlite3")
    server = KahunaServer(server_config(port=port, db=db, password_cost="test"))
    await server.start()
    try:
        async with (
            account_player(server, "Ann", tmp_path, True) as ann,
            account_player(server, "Bob", tmp_path, True) as bob,
        ):
            ann.type(":")
            ann.line('tournament new "Club night" swiss 1 5+3')
            await until(lambda: ann.state.tournaments.current is not None, "Ann's tournament")
            ann.type("j")
            bob.type("T")
            await until(lambda: bool(bob.state.tournaments.listing), "the list")
            bob.type("\r")
            await until(lambda: bob.state.tournaments.current is not None, "Bob's tournament")
            bob.type("j")

            def shown() -> TournamentState | None:
                return bob.state.tournaments.current

            await until(lambda: (s := shown()) is not None and len(s.players) == 2, "two in")
            await server.stop()
            await until(lambda: not bob.state.connected, "the drop")
            server = KahunaServer(server_config(port=port, db=db, password_cost="test"))
            await server.start()
            for who in (ann, bob):
                await until(lambda who=who: who.state.connected, "back")  # type: ignore[misc]
                await until(lambda who=who: who.state.accounts.account is not None, "logged in")  # type: ignore[misc]
            ann.type("s")
            await until(
                lambda: (s := shown()) is not None and s.summary.status == "started",
                "Bob's screen follows the start after the new connection",
            )
            # the round is paired off the server's event loop, a moment after the start
            await until(
                lambda: (s := shown()) is not None and len(s.rounds) == 1, "the first round"
            )
    finally:
        await server.stop()


def test_a_new_round_puts_the_cursor_on_ones_own_game() -> None:
    state: ClientState = shown_state()
    tours = state.tournaments
    tournament = tours.current
    assert tournament is not None
    me = NAMES[6]  # board 4 of the round shown
    state.accounts.account = me
    tours.game_cursor = 0
    state.handle(tournament)  # the same round again (a result): the cursor stays
    assert tours.game_cursor == 0
    fewer = tournament.rounds[:1]
    state.handle(attrs.evolve(tournament, rounds=fewer))
    state.handle(tournament)  # a round more: the cursor goes to this player's game
    assert tours.game_cursor == 3
    assert tours.again() == [WatchTournament(tournament.summary.tournament_id)]
    tours.watching, tours.view = None, "list"
    assert tours.again() == [GetTournaments()]
    tours.view = None
    assert tours.again() == []
