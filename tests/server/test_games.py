"""Whole games over real sockets: two people, a person against the computer, spectators."""

from __future__ import annotations

import asyncio
import random

from protocol.fields import TableOptions
from protocol.messages import Join, Joined, Spectate, Spectating, State, Update
from server.net.app import KahunaServer
from shared.types import Seat
from shared.views import public_from_dict
from tests.conftest import Client, create_table, play_random


async def follow(client: Client, table_id: str) -> list[Update]:
    """A spectator follows the game to its end; returns the updates it saw."""
    state = await client.expect(State)
    assert state.role == "spectator"
    assert "hand" not in state.view
    version = state.version
    updates: list[Update] = []
    while True:
        update = await client.expect(Update)
        assert update.table_id == table_id and update.version == version + 1
        version = update.version
        updates.append(update)
        view = public_from_dict(update.view)
        if view.result is not None:
            return updates


async def test_two_clients_play_a_whole_game_with_spectators(server: KahunaServer) -> None:
    white = await Client.connect(server.port, "Ana")
    black = await Client.connect(server.port, "Bo")
    joined, state = await create_table(white, first="white")
    assert joined.seat == "white" and len(joined.token) >= 32
    assert state.status == "waiting"
    watchers = [await Client.connect(server.port, f"Watcher{i}") for i in range(2)]
    for watcher in watchers:
        await watcher.send(Spectate(joined.table_id))
        await watcher.expect(Spectating)
    await black.send(Join(joined.table_id, None))
    joined_black = await black.expect(Joined)
    assert joined_black.seat == "black" and joined_black.token != joined.token
    black_state = await black.expect(State)
    assert black_state.status == "playing"
    white_view, black_view, spectator_updates, _ = await asyncio.gather(
        play_random(white, joined.table_id, random.Random(1), start=state),
        play_random(black, joined.table_id, random.Random(2), start=black_state),
        follow(watchers[0], joined.table_id),
        follow(watchers[1], joined.table_id),
    )
    assert white_view.public.result == black_view.public.result
    assert white_view.public.result is not None
    game = server.lobby.tables[joined.table_id].game
    assert game.is_over and game.result == white_view.public.result
    assert spectator_updates[-1].version == server.lobby.tables[joined.table_id].version
    for client in [white, black, *watchers]:
        await client.close()


async def test_a_client_plays_a_whole_game_against_the_computer(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    joined, state = await create_table(ana, vs_computer=True, seat="black", first="white")
    assert state.status == "playing"
    assert state.players.white is not None and state.players.white.computer
    view = await play_random(ana, joined.table_id, random.Random(5), start=state)
    assert view.public.result is not None
    table = server.lobby.tables[joined.table_id]
    # the computer played its turns through the same command path: the version counts them
    assert table.version == len(table.game.history)
    await ana.close()


async def test_the_computer_plays_sensibly(server: KahunaServer) -> None:
    """Against random play, the computer (shared.ai through the server) wins most games."""
    wins = 0
    games = 3
    for i in range(games):
        ana = await Client.connect(server.port, f"Ana{i}")
        joined, state = await create_table(ana, vs_computer=True, seat="white")
        view = await play_random(ana, joined.table_id, random.Random(100 + i), start=state)
        assert view.public.result is not None
        wins += view.public.result.winner is not None and view.public.result.winner.value == 1
        await ana.close()
    assert wins >= 2


async def test_handicap_and_variants_are_played(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    options = TableOptions(True, True, "black", 2)
    joined, state = await create_table(ana, vs_computer=True, seat="black", options=options)
    assert state.view["public"]["phase"] == "handicap"
    assert state.view["public"]["options"]["variant2"] is True
    view = await play_random(ana, joined.table_id, random.Random(9), start=state)
    assert view.public.result is not None
    await ana.close()


async def test_a_searching_computer_thinks_in_a_worker_process(server: KahunaServer) -> None:
    ana = await Client.connect(server.port, "Ana")
    joined, _ = await create_table(ana, vs_computer=True, seat="black", level="normal")
    update = await ana.expect(Update, timeout=30)  # its first action, decided in a worker
    assert update.table_id == joined.table_id and update.version == 1
    assert server._pool is not None
    table = server.lobby.tables[joined.table_id]
    assert table.level == "normal" and table.game.log[1].seat is Seat.WHITE  # type: ignore[union-attr]
    await ana.close()


async def test_a_version_1_client_plays_a_whole_game_at_a_table_with_a_clock(
    server: KahunaServer,
) -> None:
    """A client written from the released protocol joins a version-2 player's clocked table and
    plays to the end, receiving only what version 1 describes."""
    import msgpack

    from protocol.fields import TimeControl
    from protocol.messages import CreateTable

    ana = await Client.connect(server.port, "Ana")  # version 2
    old = await Client.connect(server.port, "Old", version=1)
    await ana.send(CreateTable(TableOptions(), False, "white", "white", TimeControl(600, 5, 0)))
    joined = await ana.expect(Joined)
    ana_state = await ana.expect(State)
    assert ana_state.view["table"]["clock"]["white"] == 600_000
    await old.send(Join(joined.table_id, None))
    await old.expect(Joined)
    old_state = await old.expect(State)
    first, second = await asyncio.gather(
        play_random(ana, joined.table_id, random.Random(5), start=ana_state),
        play_random(old, joined.table_id, random.Random(6), start=old_state),
    )
    assert first.public.result is not None and second.public.result is not None
    released = {"seat", "public", "hand"}
    for data in old.frames:
        frame = msgpack.unpackb(data)
        assert frame["type"] in {"welcome", "joined", "state", "update", "players", "lobby"}
        if "view" in frame:
            assert set(frame["view"]) == released
            assert "known" not in frame["view"]["public"]
            result = frame["view"]["public"]["result"]
            assert result is None or set(result) == {"winner", "reason"}
        for event in frame.get("events", []):
            assert "kind" not in event
    await ana.close()
    await old.close()
