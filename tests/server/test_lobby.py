"""The lobby: live table listings, joining, leaving, and tables closing."""

from __future__ import annotations

import random

from protocol.fields import TableOptions
from protocol.messages import (
    CreateTable,
    Join,
    Joined,
    Leave,
    Left,
    Lobby,
    LobbySubscribe,
    LobbyUnsubscribe,
    PlayersChanged,
    Reclaim,
    Spectate,
    State,
    TableClosed,
)
from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory, create_table, play_random


async def test_lobby_watchers_see_tables_come_and_go(server: KahunaServer) -> None:
    watcher = await Client.connect(server.port, "Watcher")
    await watcher.send(LobbySubscribe())
    assert (await watcher.expect(Lobby)).tables == []
    ana = await Client.connect(server.port, "Ana")
    joined, _ = await create_table(ana, options=TableOptions(variant1=True), seat="black")
    listing = await watcher.expect(Lobby)
    assert [t.table_id for t in listing.tables] == [joined.table_id]
    table = listing.tables[0]
    assert table.status == "waiting" and table.options.variant1 and not table.vs_computer
    assert table.players.black is not None and table.players.black.name == "Ana"
    assert table.players.white is None
    bo = await Client.connect(server.port, "Bo")
    await bo.send(Join(joined.table_id, None))
    assert (await bo.expect(Joined)).seat == "white"
    listing = await watcher.expect(Lobby)
    assert listing.tables[0].status == "playing"
    assert listing.tables[0].players.white is not None
    await watcher.send(Spectate(joined.table_id))
    await watcher.expect(State)
    listing = await watcher.expect(Lobby)
    assert listing.tables[0].spectators == 1
    await watcher.send(LobbyUnsubscribe())
    await ana.close()
    await bo.close()
    assert not [m for m in await watcher.quiet(0.3) if isinstance(m, Lobby)]


async def test_leaving_a_waiting_table_gives_up_the_seat(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    joined, _ = await create_table(ana)
    await ana.send(Leave(joined.table_id))
    await ana.expect(Left)
    closed = await ana.quiet(0.1)
    assert joined.table_id not in server.lobby.tables
    assert not [m for m in closed if isinstance(m, TableClosed)]  # she had already left
    bo = await Client.connect(server.port, "Bo")
    await bo.send(Join(joined.table_id, None))
    await bo.expect_error("no_such_table")


async def test_leaving_a_started_game_keeps_the_seat_for_the_token(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    bo = await Client.connect(server.port, "Bo")
    joined, _ = await create_table(ana)
    await bo.send(Join(joined.table_id, None))
    await bo.expect(State)
    await ana.send(Leave(joined.table_id))
    await ana.expect(Left)
    changed = await bo.expect(PlayersChanged)
    while changed.players.white is None or changed.players.white.connected:
        changed = await bo.expect(PlayersChanged)
    assert changed.status == "playing"
    await ana.send(Reclaim(joined.table_id, joined.token))
    assert (await ana.expect(Joined)).seat == "white"


async def test_seat_choice_and_errors(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    joined, _ = await create_table(ana, seat="white")
    bo = await Client.connect(server.port, "Bo")
    await bo.send(Join(joined.table_id, "white"))
    await bo.expect_error("seat_taken")
    await bo.send(Join("missing", None))
    await bo.expect_error("no_such_table")
    await bo.send(Leave(joined.table_id))
    await bo.expect_error("not_at_table")


async def test_too_many_tables(make_server: ServerFactory) -> None:
    server = await make_server(max_tables=1)
    ana = await Client.connect(server.port, "Ana")
    await create_table(ana, vs_computer=True)  # a game under way: not closed to make room
    await ana.send(CreateTable(TableOptions(), False, None, "white"))
    await ana.expect_error("too_many_tables")


async def test_finished_game_closes_when_players_leave(make_server: ServerFactory) -> None:
    server = await make_server(sweep_interval=0.05, over_grace=0.2)
    ana = await Client.connect(server.port, "Ana")
    watcher = await Client.connect(server.port, "Eve")
    joined, state = await create_table(ana, vs_computer=True)
    await watcher.send(Spectate(joined.table_id))
    await watcher.expect(State)
    await play_random(ana, joined.table_id, random.Random(4), start=state)
    await ana.close()
    closed = await watcher.expect(TableClosed)
    assert closed.table_id == joined.table_id


async def test_one_connection_sits_at_a_limited_number_of_tables(
    make_server: ServerFactory,
) -> None:
    server = await make_server(tables_per_connection=2)
    ana = await Client.connect(server.port, "Ana")
    first, _ = await create_table(ana)
    await create_table(ana)
    await ana.send(CreateTable(TableOptions(), False, None, "white"))
    await ana.expect_error("too_many_tables")
    bo = await Client.connect(server.port, "Bo")
    third, _ = await create_table(bo)
    await ana.send(Spectate(third.table_id))
    await ana.expect_error("too_many_tables")
    await ana.send(Leave(first.table_id))
    await ana.expect(Left)
    await ana.send(Spectate(third.table_id))
    await ana.expect(State)
