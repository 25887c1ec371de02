"""The host keeps the complete record of each finished game; clients are never sent one."""

from __future__ import annotations

import random
from pathlib import Path

from shared.record import game_to_json, replay
from tests.conftest import Client, ServerFactory, create_table, play_random


async def test_finished_games_are_kept_as_replayable_records(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(records_dir=tmp_path / "records")
    ana = await Client.connect(server.port, "Ana")
    joined, state = await create_table(ana, vs_computer=True, seat="white", first="black")
    assert server.finished_record(joined.table_id) is None  # not while the game goes on
    await play_random(ana, joined.table_id, random.Random(11), start=state)
    table = server.lobby.tables[joined.table_id]
    assert table.game.is_over
    kept = list((tmp_path / "records").glob(f"kahuna-{joined.table_id}-*.kahuna.txt"))
    assert len(kept) == 1
    text = kept[0].read_text()
    assert text == server.finished_record(joined.table_id)
    assert game_to_json(replay(text)) == game_to_json(table.game)
    await ana.close()


async def test_no_records_are_kept_without_the_option(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server()
    assert server.config.records_dir is None
    ana = await Client.connect(server.port, "Ana")
    joined, state = await create_table(ana, vs_computer=True, seat="white", first="white")
    await play_random(ana, joined.table_id, random.Random(12), start=state)
    assert server.finished_record(joined.table_id) is not None
    await ana.close()
