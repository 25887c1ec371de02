"""A tournament afterwards in the terminal client: a tournament's game replayed from where
nothing else says its tournament (a player's games list) names it from version 4's
`record.tournament`; and a finished tournament's screen and the list say neither that it is
paused (the server keeps the flag as it stood) nor, when a moderator ended it, the time for a
first move."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from client.language.i18n import set_language
from client.model.state import ClientState
from client.model.table import TableTournament
from client.screens.lobby_line import LobbyLine
from client.screens.lobby_screen import render_lobby
from client.screens.tournaments_screen import status_words
from protocol.fields import GameTournament
from protocol.messages import ClientMessage, GetRecord, Record
from tests.client.test_replay import EXAMPLE
from tests.client.test_tournaments import shown_state


def test_a_replay_from_the_games_list_names_its_tournament_from_the_record() -> None:
    state = ClientState(name="Ann")
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    line = LobbyLine(state, send, Path("/nonexistent"), lambda _said: None)
    line.open_record("77aa0b1f")  # Enter on a game over of a games list
    assert sent == [GetRecord("77aa0b1f")]
    said = GameTournament("5c0ffee1", "Club night", 2)
    line.received(Record("77aa0b1f", EXAMPLE.read_text(), said))
    assert line.replay is not None
    assert line.replay.tournament == TableTournament("5c0ffee1", "Club night", 2)
    text = line.replay.draw(80, 23).text()
    assert "Club night · round 2" in text and "Game: round" in text
    # a record of no tournament's game: the plain rounds
    line.open_record("77aa0b20")
    line.received(Record("77aa0b20", EXAMPLE.read_text()))
    assert line.replay is not None and line.replay.tournament is None
    assert "Club night" not in line.replay.draw(80, 23).text()


@pytest.mark.parametrize(
    ("lang", "paused", "first"),
    [
        ("en", "paused", "first move within"),
        ("de", "pausiert", "erster Zug binnen"),
        ("it", "in pausa", "prima mossa entro"),
    ],
)
def test_a_finished_tournament_says_no_pause_and_no_first_move(
    lang: str, paused: str, first: str
) -> None:
    set_language(lang)
    try:
        state = shown_state()
        shown = state.tournaments.current
        assert shown is not None
        held = attrs.evolve(shown.summary, paused=True)
        state.handle(attrs.evolve(shown, summary=held, forfeit_after=300))
        text = render_lobby(state, 80, 23).text()
        assert paused in text and first in text, text  # under way, paused: both hold
        for ended in (
            attrs.evolve(held, status="finished"),  # by its director while paused
            attrs.evolve(held, status="finished", closed=True),  # by a moderator
        ):
            state.handle(attrs.evolve(shown, summary=ended, forfeit_after=300))
            text = render_lobby(state, 80, 23).text()
            assert paused not in text and first not in text, text
            assert paused not in status_words(ended)
    finally:
        set_language("en")
