"""The game-over screen, headless (a pipe in, a dummy terminal out): `analyse` replays the
finished game over the table, and q comes back to the table, its seat and its rematch."""

from __future__ import annotations

import attrs

from protocol.messages import GetRecord, Joined, Leave, Record
from shared.game import Result
from shared.types import Seat
from tests.client.test_analysis import resigned_at_once
from tests.client.test_app import until
from tests.client.test_keys import running
from tests.client.test_render import known_state


async def test_analyse_then_q_goes_back_to_the_table() -> None:
    state = known_state()
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    state.table_status = "over"
    async with running(state) as ui:
        ui.pipe.send_text("analyse\r")
        await until(lambda: ui.sent, "the record asked for")
        assert ui.sent == [GetRecord("t1")]  # the seat is kept: no Leave
        ui.app.received(Record("t1", resigned_at_once()))
        await until(lambda: state.screen == "lobby", "the replay")
        assert ui.app.lobby.replay is not None and state.table_id == "t1"
        assert "q back" in ui.app._all_hints()
        ui.pipe.send_text("q")
        await until(lambda: state.screen == "game", "back at the table")
        assert ui.app.lobby.replay is None
        assert state.table_id == "t1" and state.role == "white"
        assert not any(isinstance(m, Leave) for m in ui.sent)
        ui.pipe.send_text("rematch")  # typed on the table's command line again
        await until(lambda: ui.app.buffer.text == "rematch", "the table's command line")


async def test_a_rematch_started_while_replaying_shows_the_new_game() -> None:
    state = known_state()
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    state.table_status = "over"
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
