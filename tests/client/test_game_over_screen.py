"""The game-over screen, headless (a pipe in, a dummy terminal out): `analyse` replays the
finished game over the table, and q comes back to the table, its seat and its rematch."""

from __future__ import annotations

import attrs
import pytest

from client.language.i18n import set_language
from client.model.hint import reason_words
from client.model.state import ClientState
from client.model.table_talk import turn_words
from client.screens.analysis_view import chart, chart_with_marker
from client.screens.render import render_game
from client.screens.status_lines import message_lines
from protocol.messages import GetRecord, Joined, Leave, Record
from server.net.app import KahunaServer
from shared.game import Result
from shared.reasons import Reason
from shared.types import Seat
from tests.client.test_analysis import resigned_at_once
from tests.client.test_app import new_table, player, until
from tests.client.test_keys import running
from tests.client.test_render import known_state


def over_state() -> ClientState:
    """The known table's state once its game is over, White the winner on points."""
    state = known_state()
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    state.table_status = "over"
    return state


async def test_analyse_then_q_goes_back_to_the_table() -> None:
    state = over_state()
    async with running(state) as ui:
        ui.pipe.send_text("analyse\r")
        await until(lambda: ui.sent, "the record asked for")
        assert ui.sent == [GetRecord("t1")]  # the seat is kept: no Leave
        ui.app.received(Record("t1", resigned_at_once()))
        await until(lambda: state.screen == "lobby", "the replay")
        assert ui.app.lobby.replay is not None and state.table_id == "t1"
        assert "q back" in ui.app._all_hints()
        ui.pipe.send_text("q")  # and at once a line typed: it goes to the table's command line
        ui.pipe.send_text("rematch")
        await until(lambda: state.screen == "game", "back at the table")
        assert ui.app.lobby.replay is None
        assert state.table_id == "t1" and state.role == "white"
        assert not any(isinstance(m, Leave) for m in ui.sent)
        await until(lambda: ui.app.buffer.text == "rematch", "the table's command line")


async def test_a_rematch_started_while_replaying_shows_the_new_game() -> None:
    state = over_state()
    async with running(state) as ui:
        ui.pipe.send_text("analyse\r")
        await until(lambda: ui.sent, "the record asked for")
        ui.app.received(Record("t1", resigned_at_once()))
        await until(lambda: state.screen == "lobby", "the replay")
        joined = Joined("t2", "black", "token")
        state.handle(joined)  # the opponent accepted the rematch: its table comes on screen
        ui.app.received(joined)
        assert state.screen == "game" and state.table_id == "t2"
        assert ui.app.lobby.replay is None  # not shown again when the player leaves t2


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_the_game_over_line_keeps_the_maps_height(lang: str) -> None:
    """The message under the map is one line at 80 columns at the end, as the opponent's turn
    was: the map is not laid out again a row shorter as the player looks at the final position."""
    state = known_state()
    assert state.public is not None
    thinking = render_game(state, 80, 22).lines()
    over = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    set_language(lang)
    try:
        said = turn_words(over, Seat.WHITE, "over", True, None, "Bob")
        assert said is not None
        assert len(message_lines(said.text, 80)) == 1
        state.public = over
        state.say(said.text)
        lines = render_game(state, 80, 22).lines()
    finally:
        set_language("en")
    row = next(i for i, line in enumerate(thinking) if "LALE" in line)
    assert "LALE" in lines[row]  # the same row: the same layout


def test_the_hint_speaks_to_the_player() -> None:
    assert reason_words(Reason("discards", {"card": "ELAI"})) == (
        "discards ELAI: the card you need least"
    )
    assert reason_words(Reason("takes_card", {"card": "COCO"})) == (
        "ends the turn taking COCO, the face-up card you want most"
    )


async def test_without_a_seat_file_a_left_table_is_sat_at_again(server: KahunaServer) -> None:
    """--local keeps no seat file: the seats of the run are kept in memory, so Enter on the
    finished game's table in the lobby takes the seat back (and its rematch), not a watcher's
    place."""
    async with player(server, "Ann") as ann:  # no SeatStore, as --local
        await until(lambda: ann.state.screen == "lobby", "the lobby")
        await new_table(ann, "\r")  # against the computer
        await until(lambda: ann.state.seat is Seat.WHITE, "Ann seated")
        table = ann.state.table_id
        ann.line("resign")
        await until(lambda: ann.state.resign_armed, "the question")
        ann.line("yes")
        await until(lambda: ann.state.public is not None and ann.state.public.result, "the end")
        ann.line("lobby")
        await until(lambda: ann.state.screen == "lobby" and ann.state.tables, "the lobby")
        await until(lambda: ann.state.selected_table is not None, "the table listed")
        assert ann.state.selected_table is not None
        assert ann.state.selected_table.table_id == table
        ann.type("\r")
        await until(lambda: ann.state.screen == "game", "back at the table")
        await until(lambda: ann.state.role is not None, "the role")
        assert ann.state.role == "white" and not ann.state.is_spectator


def test_the_replays_small_chart_shows_a_one_sided_games_turns() -> None:
    """White ahead all game long, between 85% and 100%: on the full scale the four rows of the
    replay's chart were nearly all solid; zoomed, the turns differ and the scale says where."""
    chances = [0.85, 0.9, 0.95, 0.92, 0.97, 1.0]
    flat = chart(chances, 30, 4)
    assert all(set(row[6:]) == {"█"} for row in flat[1:4])  # the old picture: solid
    rows = chart_with_marker(chances, 30, 2)
    assert rows[0].startswith("100%") and rows[3].startswith(" 70%")
    assert len({row[6:] for row in rows[:4]}) >= 3  # the rows tell the turns apart
    assert not all(set(row[6:]) == {"█"} for row in rows[1:4])
    assert rows[-1] == "      " + "  ▲"  # the replay's turn marked under its column
