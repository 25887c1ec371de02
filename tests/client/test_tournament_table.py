"""A tournament's table in the terminal client (protocol version 4's `table.tournament`): the
side panel says the tournament's name and round apart from the game's own round, and the end
offers no rematch (the tournament pairs the next game), in en, de and it at 80 columns; the
replay of a tournament's game says them apart too."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from client.language.command_words import command_word
from client.language.i18n import set_language
from client.model.commands import interpret
from client.model.table import TableTournament, table_from_view
from client.screens.game_over import result_lines
from client.screens.lobby_line import LobbyLine
from client.screens.render import render_game
from client.screens.replay import ReplayViewer, timeline
from client.screens.tournament_keys import go_to_game
from protocol.messages import ClientMessage, GetRecord, Record
from shared.record import read_record
from shared.results import Result
from shared.types import Seat
from tests.client.test_render import known_state
from tests.client.test_replay import EXAMPLE
from tests.client.test_tournaments import shown_state

VIEW = {
    "table": {
        "clock": None, "draw_offer": None, "rematch_offer": None, "rematch_table": None,
        "claim": None, "level": None, "hints": True,
        "tournament": {"tournament_id": "5c0ffee1", "name": "Club night", "round": 2},
    }
}  # fmt: skip


def test_the_view_says_the_tournament() -> None:
    table = table_from_view(VIEW)
    assert table is not None and table.tournament == TableTournament("5c0ffee1", "Club night", 2)
    plain = table_from_view({"table": {**VIEW["table"], "tournament": None}})
    assert plain is not None and plain.tournament is None
    odd = table_from_view({"table": {**VIEW["table"], "tournament": {"name": "x", "round": "2"}}})
    assert odd is not None and odd.tournament is None  # what cannot be read is not guessed


@pytest.mark.parametrize(
    ("lang", "tournament", "game", "next_game"),
    [
        ("en", "Club night · round 2", "Game: round 1 of 3", "The tournament pairs your next"),
        ("de", "Club night · Runde 2", "Partie: Durchgang 1 von 3", "Das Turnier lost"),
        ("it", "Club night · turno 2", "Partita: manche 1 di 3", "Il torneo abbina"),
    ],
)
def test_the_panel_says_the_tournaments_round_and_the_end_no_rematch(
    lang: str, tournament: str, game: str, next_game: str
) -> None:
    state = known_state()
    assert state.public is not None
    before = render_game(state, 80, 30).text()
    assert "Round 1 of 3" in before and "Club night" not in before  # any other table
    state.table = table_from_view(VIEW)
    set_language(lang)
    try:
        text = render_game(state, 80, 30).text()
        assert tournament in text and game in text
        state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
        state.table_status = "over"
        over = "\n".join("".join(t for _, t in row) for row in result_lines(state, 40))
        assert next_game in over
        rematch = command_word("rematch")
        outcome = interpret("rematch", state.seat_view, state.public, state.table, "over")
    finally:
        set_language("en")
    assert rematch + ":" not in over  # not 'rematch: play again'
    assert outcome.kind == "refused"


@pytest.mark.parametrize(
    ("lang", "tournament", "game", "header"),
    [
        ("en", "Club night · round 2", "Game: round 1 of 3", "game round 1"),
        ("de", "Club night · Runde 2", "Partie: Durchgang 1 von 3", "Durchgang 1"),
        ("it", "Club night · turno 2", "Partita: manche 1 di 3", "manche della partita 1"),
    ],
)
def test_a_tournament_games_replay_says_the_tournaments_round_apart_from_the_games(
    lang: str, tournament: str, game: str, header: str
) -> None:
    """The replay of a tournament's game, at 80x24: the tournament's name and round, and the
    game's own round said as the game's (in the panel and the header), where any other replay
    says "Round 1 of 3"."""
    steps = timeline(read_record(EXAMPLE.read_text()), EXAMPLE.read_text())
    plain = ReplayViewer(steps, "77aa0b1e").draw(80, 23).text()
    assert "Round 1 of 3" in plain and "Club night" not in plain
    set_language(lang)
    try:
        said = TableTournament("5c0ffee1", "Club night", 2)
        text = ReplayViewer(steps, "77aa0b1e", tournament=said).draw(80, 23).text()
    finally:
        set_language("en")
    assert tournament in text and game in text and header in text.splitlines()[0]
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_replay_from_the_tournaments_screen_knows_its_tournament() -> None:
    """Enter on a game over of the tournament shown asks for its record, and the replay that
    comes names the tournament and the round the game was played in."""
    state = shown_state()
    tours = state.tournaments
    tours.game_cursor = 1  # board 2: over, white won
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    line = LobbyLine(state, send, Path("/nonexistent"), lambda _said: None)
    go_to_game(state, send, line.open_record)
    assert sent == [GetRecord("77aa0b1f")]
    line.received(Record("77aa0b1f", EXAMPLE.read_text()))
    assert line.replay is not None
    assert tours.current is not None
    assert line.replay.tournament == TableTournament("5c0ffee1", tours.current.summary.name, 2)
    white, black = tours.current.rounds[1].games[1].white, tours.current.rounds[1].games[1].black
    assert line.replay.players == (white, black)
    text = line.replay.draw(80, 23).text()  # the names beside the seats, cut to the panel
    assert white[:8] in text and black[:8] in text
    assert all(len(row) <= 80 for row in text.splitlines())
    assert tours.tournament_of("nowhere") is None


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_a_tournament_games_end_says_no_rematch_on_the_message_line(lang: str) -> None:
    """The message line at the end of a tournament's game: the tournament pairs the next (no
    'rematch', which it refuses), on one line of 80 columns, as any game's end."""
    state = known_state()
    assert state.public is not None
    state.table = table_from_view(VIEW)
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    set_language(lang)
    try:
        state._announce_turn()
        rematch = command_word("rematch")
    finally:
        set_language("en")
    assert f"'{command_word('lobby')}'" in state.message or "'lobby'" in state.message
    assert rematch not in state.message and len(state.message) < 80


def test_the_last_games_end_says_the_tournaments_end() -> None:
    """The end of the tournament's last game, at its table: the tournament's end and winner
    (the state saying it finished may come before the game's end or after it)."""
    state = known_state()
    assert state.public is not None
    state.table = table_from_view(VIEW)
    shown = shown_state().tournaments.current
    assert shown is not None
    finished = attrs.evolve(shown, summary=attrs.evolve(shown.summary, status="finished"))
    state.tournaments.watching, state.tournaments.current = "5c0ffee1", finished
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    state._announce_turn()
    assert state.message.startswith(f"{shown.summary.name} is over, won by ")
