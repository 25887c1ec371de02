"""Issue 40, item 1: a player who stepped into the lobby is told when their game ends there
(protocol version 4's player_note game_over): the lobby's status line says against whom, at
which table, and how it ended for them, in English, German and Italian."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client.language.i18n import set_language
from client.model.players import PlayersState
from client.model.state import ClientState
from client.screens.lobby_screen import render_lobby
from protocol.player_messages import PlayerNote
from server.net.app import KahunaServer
from shared.types import Seat
from tests.client.test_app import new_table, player, until


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


OVER = {
    "en": "Your game against Bob at table t1 is over: ",
    "de": "Deine Partie gegen Bob an Tisch t1 ist beendet: ",
    "it": "La tua partita contro Bob al tavolo t1 è finita: ",
}


@pytest.mark.parametrize(
    ("language", "outcome", "ending", "how"),
    [
        ("en", "lost", "forfeit", "you forfeited, Bob won."),
        ("en", "won", "time", "Bob ran out of time, you won."),
        ("en", "won", "points", "you won."),
        ("en", "drawn", "agreed", "a draw."),
        ("en", "lost", "a_new_ending", "Bob won."),
        ("de", "won", "forfeit", "Bob hat verloren gegeben, du hast gewonnen."),
        ("de", "lost", "time", "du hast die Zeit überschritten, Bob hat gewonnen."),
        ("it", "lost", "resigned", "hai abbandonato, ha vinto Bob."),
        ("it", "drawn", "tie", "patta."),
    ],
)
def test_the_note_in_words(language: str, outcome: str, ending: str, how: str) -> None:
    set_language(language)
    people = PlayersState()
    people.waiting_moves = ["t1"]
    note = PlayerNote("game_over", "t1", "Bob", outcome, ending)  # type: ignore[arg-type]
    assert people.handle(note, "Ann") == OVER[language] + how
    assert people.waiting_moves == [] and people.attention is not None


async def test_a_player_in_the_lobby_sees_their_game_end(server: KahunaServer) -> None:
    async with player(server, "Ann") as ann, player(server, "Bob") as bob:
        await new_table(ann, "c\r")  # a table for two people: Ann is white
        await until(lambda: len(bob.state.tables) == 1, "the table in Bob's lobby")
        bob.type("\r")
        await until(lambda: bob.state.seat is Seat.BLACK, "Bob seated")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        table_id = ann.state.table_id
        ann.line("lobby")  # Ann steps away; her seat waits for her
        await until(lambda: ann.state.screen == "lobby", "Ann in the lobby")
        bob.line("resign")
        bob.line("yes")
        said = f"Your game against Bob at table {table_id} is over: Bob resigned, you won."
        await until(lambda: ann.state.message == said, "the note in Ann's status line")
        assert said in render_lobby(ann.state, 100, 24).text()
        assert ann.state.screen == "lobby"  # told, not taken to the table


def test_a_lobby_shows_the_note_at_80_columns() -> None:
    state = ClientState(name="Ann")
    state.handle(PlayerNote("game_over", "4f3581b6", "Bob", "lost", "time"))
    text = render_lobby(state, 80, 24).text()
    assert "Your game against Bob at table 4f3581b6 is over: you ran out of time," in text
    assert "Bob won." in text  # the second line of the message, wrapped
