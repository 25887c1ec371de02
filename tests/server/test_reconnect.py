"""Seats are claimed with a token: a dropped player takes the seat back from a new connection."""

from __future__ import annotations

import asyncio
import random

from protocol.messages import (
    Command,
    Join,
    Joined,
    Left,
    PlayersChanged,
    Reclaim,
    Resync,
    State,
    TableClosed,
    Update,
)
from server.net.app import KahunaServer
from shared.legality import legal_actions
from shared.types import Seat
from shared.views import seat_view, seat_view_from_dict, seat_view_to_dict
from tests.conftest import Client, ServerFactory, create_table, play_random


async def start_game(server: KahunaServer) -> tuple[Client, Client, Joined, Joined, State, State]:
    white = await Client.connect(server.port, "Ana")
    black = await Client.connect(server.port, "Bo")
    joined_w, state_w = await create_table(white, first="white")
    await black.send(Join(joined_w.table_id, None))
    joined_b = await black.expect(Joined)
    state_b = await black.expect(State)
    await white.expect(PlayersChanged)
    return white, black, joined_w, joined_b, state_w, state_b


async def play_one(client: Client, table_id: str, state: State) -> Update:
    view = seat_view_from_dict(state.view)
    ctx = view.turn_context()
    assert ctx is not None
    await client.send(
        Command(table_id, state.version, str(random.Random(0).choice(legal_actions(ctx))))
    )
    return await client.expect(Update)


async def test_dropped_player_reclaims_the_seat_and_resumes(server: KahunaServer) -> None:
    white, black, joined_w, _, state_w, _ = await start_game(server)
    table_id = joined_w.table_id
    await play_one(white, table_id, state_w)  # white plays a card, still white's turn
    await black.expect(Update)
    await white.ws.close()  # the connection drops
    changed = await black.expect(PlayersChanged)
    assert changed.players.white is not None and not changed.players.white.connected
    table = server.lobby.tables[table_id]
    version = table.version
    # the game waits: black cannot move for white
    await black.send(Command(table_id, version, "draw"))
    await black.expect_error("not_your_turn")
    assert table.version == version

    again = await Client.connect(server.port, "Ana again")
    await again.send(Reclaim(table_id, joined_w.token))
    joined = await again.expect(Joined)
    assert joined.seat == "white" and joined.token == joined_w.token
    resync = await again.expect(State)
    assert resync.version == version and resync.role == "white"
    assert resync.view["seat"] == "white"
    assert resync.view["hand"] == seat_view_to_dict(seat_view(table.game, Seat.WHITE))["hand"]
    back = await black.expect(PlayersChanged)
    assert back.players.white is not None and back.players.white.connected
    results = await asyncio.gather(
        play_random(again, table_id, random.Random(1), start=resync),
        play_random(black, table_id, random.Random(2), start=await _resync(black, table_id)),
    )
    assert results[0].public.result is not None
    await again.close()
    await black.close()


async def _resync(client: Client, table_id: str) -> State:
    await client.quiet(0.05)
    await client.send(Resync(table_id))
    return await client.expect(State)


async def test_wrong_token_is_refused(server: KahunaServer) -> None:
    white, black, joined_w, _, state_w, _ = await start_game(server)
    table_id = joined_w.table_id
    table = server.lobby.tables[table_id]
    holder = table.seats[Seat.WHITE]
    assert holder is not None and holder.member is not None
    white_member = holder.member
    intruder = await Client.connect(server.port, "Mallory")
    for token in ["", "x" * 32, joined_w.token[:-1] + "A", joined_w.token + "x"]:
        if token == joined_w.token:
            continue
        await intruder.send(Reclaim(table_id, token))
        await intruder.expect_error("bad_token")
    # a token of another table does not claim this one
    other = await Client.connect(server.port, "Other")
    other_joined, _ = await create_table(other)
    await intruder.send(Reclaim(table_id, other_joined.token))
    await intruder.expect_error("bad_token")
    # without a seat nobody acts for white
    await intruder.send(Command(table_id, table.version, "draw"))
    await intruder.expect_error("not_at_table")
    assert table.version == 0
    assert table.seat_of(white_member) is Seat.WHITE
    # white still plays normally
    await play_one(white, table_id, state_w)
    await black.expect(Update)


async def test_reclaim_from_a_second_connection_lets_the_first_go(server: KahunaServer) -> None:
    white, _, joined_w, _, _, _ = await start_game(server)
    table_id = joined_w.table_id
    second = await Client.connect(server.port, "Ana on the laptop")
    await second.send(Reclaim(table_id, joined_w.token))
    await second.expect(Joined)
    state = await second.expect(State)
    left = await white.expect(Left)
    assert left.table_id == table_id
    # the old connection no longer acts for the seat
    await white.send(Command(table_id, state.version, "draw"))
    await white.expect_error("not_at_table")
    await play_one(second, table_id, state)


async def test_an_abandoned_game_is_forfeited_not_closed(make_server: ServerFactory) -> None:
    """Issue 40: the one who stayed wins by forfeit, and the finished table stays open for the
    result (as every finished table does): the one who left finds it on coming back."""
    server = await make_server(abandon_timeout=0.2, sweep_interval=0.05)
    white, black, joined_w, _, _, _ = await start_game(server)
    await white.ws.close()
    update = await black.expect(Update, timeout=5)
    assert update.view["public"]["result"] == {"winner": "black", "kind": "forfeit"}
    assert not [m for m in await black.quiet(0.5) if isinstance(m, TableClosed)]
    late = await Client.connect(server.port, "Ana")
    await late.send(Reclaim(joined_w.table_id, joined_w.token))
    await late.expect(Joined)
    state = await late.expect(State)
    assert state.status == "over"
    assert state.view["public"]["result"] == {"winner": "black", "kind": "forfeit"}
