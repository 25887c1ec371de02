"""A player's own account over real sockets (protocol version 4), on a SQLite database, with the
server's wall clock moved by the test (the injected clock): Ann downloads her games, every
finished one, and each parses and replays as a record; a wrong password deletes nothing; the
right one logs out both her connections; her games stay, replayable, and no frame Bob gets
after it, nor any row of the database, names her; her name is refused for the cooling time,
across a restart, and free after it, for someone who has none of her games."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import server.net.app as app_module
from protocol.account_messages import DeleteAccount, GameRecords, GetGameRecords
from protocol.messages import GetRecord, Join, Joined, Record, Resign
from protocol.player_messages import (
    Games,
    GetGames,
    GetRatings,
    LoggedIn,
    LoggedOut,
    Login,
    Ratings,
    Register,
)
from shared.record import replay, split_records
from tests.conftest import Client, ServerFactory, create_table

WORDS = "long enough words"
DAY = 86400.0


class ShiftedTime:
    """The `time` module as the server's shell reads it, its wall clock `ahead` seconds on."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ShiftedTime:
    shifted = ShiftedTime()
    monkeypatch.setattr(app_module, "time", shifted)
    return shifted


async def registered(port: int, name: str) -> tuple[Client, LoggedIn]:
    client = await Client.connect(port, name)
    await client.send(Register(name, WORDS))
    return client, await client.expect(LoggedIn)


async def a_game(white: Client, black: Client, loser: Client) -> str:
    joined, _ = await create_table(white)
    await black.send(Join(joined.table_id, "black"))
    await black.expect(Joined)
    await loser.send(Resign(joined.table_id))
    for _ in range(100):
        await white.send(GetGames(None))
        listed = await white.expect(Games)
        if any(g.table_id == joined.table_id and g.status == "over" for g in listed.games):
            return joined.table_id
    raise AssertionError("the game did not end")


async def test_a_player_downloads_then_deletes_their_account(
    tmp_path: Path, make_server: ServerFactory, clock: ShiftedTime
) -> None:
    db = str(tmp_path / "db.sqlite3")
    server = await make_server(db=db, password_cost="test")
    ann, logged = await registered(server.port, "Ann")
    bob, _ = await registered(server.port, "Bob")
    games = [await a_game(ann, bob, bob), await a_game(bob, ann, ann)]

    await ann.send(GetGameRecords(0))
    download = await ann.expect(GameRecords)
    assert (download.page, download.pages) == (0, 1)
    assert [g.table_id for g in download.games] == games
    whole = "\n".join(g.text for g in download.games)
    pieces = split_records(whole)
    assert len(pieces) == 2
    ends = [replay(text).result for _, text in pieces]
    assert [e.kind.value if e else None for e in ends] == ["resigned", "resigned"]
    assert "# game " in pieces[0][1] and "Ann (white) against Bob (black)" in pieces[0][1]

    # a second connection of hers, by the login token
    again = await Client.connect(server.port, "Annie")
    await again.send(Login("Ann", None, logged.token))
    await again.expect(LoggedIn)

    await ann.send(DeleteAccount("not her password"))
    refused = await ann.expect_error("bad_password")
    assert refused.reason == "wrong_password"
    await bob.send(GetGames(None))
    assert {g.white for g in (await bob.expect(Games)).games} == {"Ann", "Bob"}

    await ann.send(DeleteAccount(WORDS))
    for client in (ann, again):
        assert (await client.expect(LoggedOut)).reason == "account_deleted"
    seen = len(bob.frames)
    await bob.send(GetGames(None))
    listed = await bob.expect(Games)
    assert {(g.white, g.black) for g in listed.games} == {
        ("deleted #1", "Bob"),
        ("Bob", "deleted #1"),
    }
    for table_id in games:
        await bob.send(GetRecord(table_id))
        record = await bob.expect(Record)
        assert replay(record.text).result is not None  # still replayable
    await bob.send(GetRatings())
    await bob.expect(Ratings)
    after = b"".join(bob.frames[seen:])
    assert b"Ann" not in after and b"ann" not in after

    stranger = await Client.connect(server.port, "Someone")
    await stranger.send(Register("Ann", WORDS))
    cooling = await stranger.expect_error("name_registered")
    assert (cooling.reason, cooling.params) == ("deleted_recently", {"days": "30"})
    await stranger.send(Login("Ann", None, logged.token))
    await stranger.expect_error("bad_login")

    # nothing in the database names her: only the name's reservation holds its key
    rows = every_row(db)
    assert not [v for row in rows for v in row if "Ann" in str(v)]
    (holding,) = [row for row in rows if "ann" in row]
    assert len(holding) == 2  # deleted_names: (name_key, deleted)

    for client in (ann, again, bob, stranger):
        await client.close()
    await server.stop()

    # a restart 29 days on: still refused; her games still under the stand-in
    clock.ahead = 29 * DAY
    server = await make_server(db=db, password_cost="test")
    stranger = await Client.connect(server.port, "Someone")
    await stranger.send(Register("Ann", WORDS))
    assert (await stranger.expect_error("name_registered")).params == {"days": "1"}
    bob = await Client.connect(server.port, "Bobby")
    await bob.send(Login("Bob", WORDS))
    await bob.expect(LoggedIn)
    await bob.send(GetGames(None))
    assert {g.white for g in (await bob.expect(Games)).games} == {"deleted #1", "Bob"}

    # and 31 days on, the name is free, for someone none of her games belong to
    clock.ahead = 31 * DAY
    await stranger.send(Register("Ann", WORDS))
    assert (await stranger.expect(LoggedIn)).created
    await stranger.send(GetGames(None))
    assert (await stranger.expect(Games)).games == []
    await stranger.send(GetGameRecords(0))
    assert (await stranger.expect(GameRecords)).games == []
    for client in (stranger, bob):
        await client.close()


def every_row(db: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    rows = [row for name in names for row in conn.execute(f"SELECT * FROM {name}")]
    conn.close()
    return rows
