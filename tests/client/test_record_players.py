"""The terminal client's replay names the players from version 4's `record.game` (the record's
text names no one): a game opened by its table id, from a games list or over the player's own
table, says who sat at each seat; a record without the entry names no one, as before."""

from __future__ import annotations

from pathlib import Path

from client.model.state import ClientState
from client.screens.lobby_line import LobbyLine
from protocol.messages import ClientMessage, GetRecord, Record
from protocol.player_messages import GameEntry
from tests.client.test_replay import EXAMPLE

GAME = GameEntry(
    "77aa0b1f", "Ann", "Cid", "over", None, "black", "scored", True, -12, 12, 1.7e9, 1.7e9 + 900,
    None, False, None,
)  # fmt: skip


def test_a_replay_names_its_players_from_the_record() -> None:
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    line = LobbyLine(ClientState(name="Zed"), send, Path("/nonexistent"), lambda _said: None)
    line.open_record("77aa0b1f")
    assert sent == [GetRecord("77aa0b1f")]
    line.received(Record("77aa0b1f", EXAMPLE.read_text(), None, GAME))
    assert line.replay is not None and line.replay.players == ("Ann", "Cid")
    text = line.replay.draw(80, 23).text()
    assert "White Ann" in text and "Black Cid" in text, text
    # a record without its game's entry (an older server): no names made up
    line.open_record("77aa0b20")
    line.received(Record("77aa0b20", EXAMPLE.read_text()))
    assert line.replay is not None and line.replay.players is None
    assert "Ann" not in line.replay.draw(80, 23).text()
