"""The table on its own (sans-I/O): seats, tokens, commands, the order of checks, timeouts."""

from __future__ import annotations

import random

import pytest

from protocol.errors import ErrorCode
from protocol.messages import Joined, Left, PlayersChanged, Spectating, State, TableClosed, Update
from server.core.table import Closing, Table, TableError
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import Seat, Termination

W, B, S, X = 1, 2, 3, 4  # members: white, black, a spectator, a stranger


def new_table() -> Table:
    return Table("t1", Game.new(SeededSource(3)), rng=random.Random(5), chat_history=3)


def seated() -> tuple[Table, str, str]:
    table = new_table()
    joined_w = table.join(W, "Ana", Seat.WHITE)[0][1]
    joined_b = table.join(B, "Bo")[0][1]
    table.spectate(S, "Eve")
    assert isinstance(joined_w, Joined) and isinstance(joined_b, Joined)
    return table, joined_w.token, joined_b.token


def code_of(call: object, *args: object) -> ErrorCode:
    with pytest.raises(TableError) as info:
        call(*args)  # type: ignore[operator]
    return info.value.code


def test_join_hands_out_distinct_long_tokens_and_a_state() -> None:
    table = new_table()
    out = table.join(W, "Ana", None)
    assert [type(m) for _, m in out] == [Joined, State]
    joined = out[0][1]
    assert isinstance(joined, Joined) and joined.seat == "white" and len(joined.token) >= 32
    state = out[1][1]
    assert isinstance(state, State) and state.status == "waiting" and state.role == "white"
    out = table.join(B, "Bo", None)
    assert isinstance(out[0][1], Joined) and out[0][1].token != joined.token
    assert table.status == "playing"
    assert [(m, type(msg)) for m, msg in out[2:]] == [(W, PlayersChanged)]


def test_seat_errors() -> None:
    table = new_table()
    table.join(W, "Ana", Seat.WHITE)
    assert code_of(table.join, X, "Zed", Seat.WHITE) is ErrorCode.SEAT_TAKEN
    assert code_of(table.join, W, "Ana", Seat.BLACK) is ErrorCode.ALREADY_AT_TABLE
    table.join(B, "Bo", None)
    assert code_of(table.join, X, "Zed", None) is ErrorCode.TABLE_FULL


def test_the_order_of_the_command_checks() -> None:
    table = new_table()
    table.join(W, "Ana", Seat.WHITE)
    assert code_of(table.command, W, 0, "draw") is ErrorCode.GAME_NOT_STARTED
    table.join(B, "Bo", Seat.BLACK)
    table.spectate(S, "Eve")
    assert code_of(table.command, S, 0, "draw") is ErrorCode.SPECTATOR_CANNOT_ACT
    assert code_of(table.command, X, 0, "draw") is ErrorCode.NOT_AT_TABLE
    assert code_of(table.command, W, 5, "draw") is ErrorCode.STALE_VERSION
    assert code_of(table.command, B, 0, "draw") is ErrorCode.NOT_YOUR_TURN
    assert code_of(table.command, W, 0, "jump") is ErrorCode.BAD_NOTATION
    assert code_of(table.command, W, 0, "end") is ErrorCode.ILLEGAL_ACTION
    assert table.version == 0 and table.game.history == []
    _, out = table.command(W, 0, "draw")
    assert [m for m, _ in out] == [W, B, S]  # the mover first
    assert all(isinstance(msg, Update) and msg.version == 1 for _, msg in out)
    white, black, spectator = (msg for _, msg in out)
    assert isinstance(white, Update) and isinstance(black, Update) and isinstance(spectator, Update)
    assert white.events[0]["card"] is not None  # white saw what it drew
    assert black.events[0]["card"] is None and spectator.events[0]["card"] is None
    assert "hand" not in spectator.view


def test_reclaim_moves_the_seat_and_lets_the_old_connection_go() -> None:
    table, token_w, _ = seated()
    assert code_of(table.reclaim, X, "nope") is ErrorCode.BAD_TOKEN
    out = table.reclaim(X, token_w)
    assert (W, Left("t1", "your seat was reclaimed from elsewhere", "reclaimed_elsewhere")) in out
    assert table.seat_of(X) is Seat.WHITE and table.seat_of(W) is None
    assert code_of(table.reclaim, B, token_w) is ErrorCode.ALREADY_AT_TABLE


def test_disconnect_keeps_the_seat_and_a_running_game_never_times_out_here() -> None:
    """An abandoned game ends by forfeit (server/core/lifecycle.py), never by closing its table."""
    table, token_w, _ = seated()
    out = table.disconnect(W, now=100.0)
    players = out[0][1]
    assert isinstance(players, PlayersChanged) and players.players.white is not None
    assert not players.players.white.connected
    white = table.seats[Seat.WHITE]
    assert white is not None and white.present_at == 100.0
    assert table.expired(1e6, abandon_timeout=60, over_linger=600, over_grace=60) is None
    table.reclaim(X, token_w, now=161.0)
    assert table.expired(161.0, abandon_timeout=60, over_linger=600, over_grace=60) is None


def test_leave_gives_up_a_waiting_seat_but_not_a_started_one() -> None:
    table = new_table()
    table.join(W, "Ana", Seat.WHITE)
    table.leave(W)
    assert table.empty and table.seats[Seat.WHITE] is None
    table, _, _ = seated()
    table.leave(W)
    holder = table.seats[Seat.WHITE]
    assert holder is not None and holder.member is None
    assert isinstance(table.spectate(W, "Ana")[0][1], Spectating)
    assert table.leave(S)[0][1] == Left("t1", "you stopped watching", "stopped_watching")
    assert code_of(table.leave, X) is ErrorCode.NOT_AT_TABLE


def test_chat_goes_to_everyone_and_its_history_is_bounded() -> None:
    table, _, _ = seated()
    for i in range(5):
        out = table.chat(W, f"hi {i}")
    assert sorted(m for m, _ in out) == [W, B, S]
    assert [e.text for e in table.state_for(S).chat] == ["hi 2", "hi 3", "hi 4"]
    assert all(e.role == "white" for e in table.state_for(S).chat)


def test_spectators_talk_among_themselves_while_the_game_runs() -> None:
    table, _, _ = seated()
    assert table.status == "playing"
    out = table.chat(S, "what a move")
    assert [m for m, _ in out] == [S]
    assert [e.text for e in table.state_for(S).chat] == ["what a move"]
    assert table.state_for(W).chat == []  # the players read it once the game is over
    table.end(Termination.RESIGNED, Seat.WHITE)
    assert [e.text for e in table.state_for(W).chat] == ["what a move"]
    assert sorted(m for m, _ in table.chat(S, "gg")) == [W, B, S]


def test_names_at_a_table_are_the_players_own() -> None:
    table, _, _ = seated()
    white = table.seats[Seat.WHITE]
    assert white is not None
    table.spectate(90, white.name)
    table.spectate(91, "computer")
    assert table.spectators[90] == f"{white.name} (2)"
    assert table.spectators[91] == "computer (2)"
    assert code_of(table.chat, X, "hi") is ErrorCode.NOT_AT_TABLE


def test_close_tells_everyone() -> None:
    table, _, _ = seated()
    out = table.close(Closing("over", "bye"))
    assert sorted(m for m, _ in out) == [W, B, S]
    assert all(msg == TableClosed("t1", "bye", "over", {}) for _, msg in out)
