"""A tournament afterwards in the terminal client: a tournament's game replayed from where
nothing else says its tournament (a player's games list) names it from version 4's
`record.tournament`."""

from __future__ import annotations

from pathlib import Path

from client.model.state import ClientState
from client.model.table import TableTournament
from client.screens.lobby_line import LobbyLine
from protocol.fields import GameTournament
from protocol.messages import ClientMessage, GetRecord, Record
from tests.client.test_replay import EXAMPLE


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
