"""A finished game's full record: kept for the host with --records, and given over protocol
version 2 to its players and spectators once the game is over (never before)."""

from __future__ import annotations

import random
from pathlib import Path

from protocol.messages import GetRecord, Record, Spectate
from shared.record import game_to_json, replay
from tests.conftest import Client, ServerFactory, create_table, play_random


async def test_finished_games_are_kept_as_replayable_records(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(records_dir=tmp_path / "records")
    ana = await Client.connect(server.port, "Ana")
    joined, state = await create_table(ana, vs_computer=True, seat="white", first="black")
    await ana.send(GetRecord(joined.table_id))
    await ana.expect_error("game_not_over")  # the record holds every hidden card
    await play_random(ana, joined.table_id, random.Random(11), start=state)
    table = server.lobby.tables[joined.table_id]
    assert table.game.is_over
    await ana.send(GetRecord(joined.table_id))
    fetched = await ana.expect(Record)
    assert game_to_json(replay(fetched.text)) == game_to_json(table.game)
    await server.stop()  # waits for the record file to be written
    kept = list((tmp_path / "records").glob(f"kahuna-{joined.table_id}-*.kahuna"))
    assert len(kept) == 1
    assert kept[0].read_text() == fetched.text
    await ana.close()


async def test_spectators_get_the_record_and_strangers_do_not(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server()
    assert server.config.records_dir is None
    ana = await Client.connect(server.port, "Ana")
    joined, state = await create_table(ana, vs_computer=True, seat="white", first="white")
    await play_random(ana, joined.table_id, random.Random(12), start=state)
    eve = await Client.connect(server.port, "Eve")
    await eve.send(GetRecord(joined.table_id))
    await eve.expect_error("not_at_table")
    await eve.send(Spectate(joined.table_id))
    await eve.send(GetRecord(joined.table_id))
    record = await eve.expect(Record)
    assert replay(record.text).is_over
    assert not list(tmp_path.iterdir())
    await ana.close()
    await eve.close()


async def test_version_1_clients_cannot_ask_for_records(server: object) -> None:
    from server.net.app import KahunaServer

    assert isinstance(server, KahunaServer)
    old = await Client.connect(server.port, "Old", version=1)
    await old.send(GetRecord("whatever"))
    error = await old.expect_error("unknown_type")
    assert error.refused == "get_record"
    await old.close()
