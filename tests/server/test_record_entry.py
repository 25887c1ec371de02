"""Version 4's `record.game`: a game's record carries its entry as a games list gives it (the
players, the result, the rating changes), in the core without sockets: for an archived game at
its open table, once the table closed (the record read from storage) and after a restart on an
SQLite database; for a game of guests at its open table, from the table, to its members only;
nil for a record the server keeps no entry of. The entry holds the public facts and nothing of
the accounts behind the names."""

from __future__ import annotations

from pathlib import Path

import attrs
import msgpack

from protocol.codec import encode
from protocol.fields import TableOptions
from protocol.messages import CreateTable, GetRecord, Joined, Record, Resign
from protocol.player_messages import GameEntry, Games, GetGames
from server.core.core import ServerCore
from server.core.store import StoredPlayers
from server.storage.sqlite_store import SqliteStorage
from tests.server.test_archive import new_table, play_turns, rated_table
from tests.server.test_core import WALL, codes, the
from tests.server.test_logins import Accounts
from tests.server.test_tournament_records import record_for

# every key of a game's entry on the wire: the public facts, nothing else
ENTRY_KEYS = {field.name for field in attrs.fields(GameEntry)}


def listed(h: Accounts, name: str, table_id: str) -> GameEntry:
    """The game as the player's games list gives it to anyone."""
    viewer = h.guest("Lister", version=4)
    games = the(h.send(viewer, GetGames(name)), viewer, Games).games
    (entry,) = [game for game in games if game.table_id == table_id]
    return entry


def rated_and_resigned(h: Accounts) -> str:
    """A rated game of Ann (white) and Bob, Ann resigning after two turns each: rated."""
    ann, _, table_id = rated_table(h)
    play_turns(h, table_id, 2)
    h.send(ann, Resign(table_id))
    return table_id


def test_an_archived_games_record_carries_its_entry_at_its_table_and_once_closed() -> None:
    h = Accounts()
    table_id = rated_and_resigned(h)
    zed = h.guest("Zed", version=4)  # a stranger: the archive's game is everyone's once over
    record, version = record_for(h, zed, table_id)
    game = record.game
    assert version == 4 and game is not None
    assert (game.white, game.black, game.status) == ("Ann", "Bob", "over")
    assert (game.winner, game.ending, game.rated) == ("black", "resigned", True)
    assert game.white_change is not None and game.black_change is not None
    assert game.white_change < 0 < game.black_change
    assert (game.computer, game.guests, game.finished) == (None, [], WALL)
    assert game == listed(h, "Ann", table_id)  # one entry, whichever way it is asked for
    # on the wire: the entry's fields and nothing else of the accounts (their keys, e-mail)
    wire = msgpack.unpackb(encode(record, 4))["game"]
    assert set(wire) == ENTRY_KEYS
    # the table closed: the record read from storage carries the same entry
    text = record.text
    h.advance(h.now + h.config.over_linger + 1)
    assert table_id not in h.core.lobby.tables
    assert record_for(h, zed, table_id, text)[0] == Record(table_id, text, None, game)


def test_the_entry_comes_back_after_a_restart_on_sqlite(tmp_path: Path) -> None:
    h = Accounts()
    table_id = rated_and_resigned(h)
    zed = h.guest("Zed", version=4)
    before = record_for(h, zed, table_id)[0].game
    h.advance(h.now + h.config.over_linger + 1)  # closed: its record only in the database
    storage = SqliteStorage(str(tmp_path / "db.sqlite3"))
    for batch in h.batches:
        storage.write(batch)
    # the server again, on what the database holds
    h.core = ServerCore(h.config)
    stored = StoredPlayers(
        storage.load_accounts(), storage.load_login_tokens(), [], storage.load_archive(), []
    )
    h.took(h.core.restore_players(stored, h.now, WALL))
    h.took(h.core.restore(storage.load_open_tables(50), storage.table_ids(), h.now, WALL))
    assert table_id not in h.core.lobby.tables
    zed = h.guest("Zed", version=4)
    (read,) = h.send(zed, GetRecord(table_id)).record_reads
    text = storage.finished_record(table_id)
    storage.close()
    assert text is not None
    answer = h.took(h.core.record_read(read.member, table_id, text, h.now, WALL))
    assert the(answer, zed, Record) == Record(table_id, text, None, before)
    assert before is not None and before.white_change is not None and before.rated


def test_a_game_of_no_entry_has_none_and_an_unknown_one_no_record() -> None:
    h = Accounts()
    zed = h.guest("Zed", version=4)
    assert codes(h.send(zed, GetRecord("nothere")), zed) == ["no_such_game"]
    # a record from storage that no game of the archive and no table has: no entry is made up
    answer = h.took(h.core.record_read(zed, "gone", "kahuna-record 1\n", h.now, WALL))
    assert the(answer, zed, Record) == Record("gone", "kahuna-record 1\n")


def test_a_guests_game_at_its_table_has_its_entry_for_its_members_only() -> None:
    h = Accounts()
    cid = h.guest("Cid", version=4)
    effects = h.send(cid, CreateTable(TableOptions(), True, "black", "white", level="strong"))
    table_id = the(effects, cid, Joined).table_id
    h.send(cid, Resign(table_id))
    game = record_for(h, cid, table_id)[0].game
    assert game is not None and game.table_id == table_id
    assert (game.white, game.black, game.status) == ("Computer", "Cid", "over")
    assert (game.winner, game.ending, game.rated) == ("white", "resigned", False)
    assert (game.white_change, game.black_change, game.finished) == (None, None, None)
    assert (game.vs_computer, game.level, game.computer, game.guests) == (
        True, "strong", "white", ["black"],
    )  # fmt: skip
    # no game of the archive (no account at it): a stranger gets neither record nor entry
    zed = h.guest("Zed", version=4)
    assert codes(h.send(zed, GetRecord(table_id)), zed) == ["not_at_table"]


def test_an_archived_games_guest_and_computer_are_said() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    guest = h.guest("Dot", version=4)
    table_id = new_table(h, ann, guest)
    h.send(guest, Resign(table_id))
    game = record_for(h, guest, table_id)[0].game
    assert game is not None and (game.computer, game.guests) == (None, ["black"])
    assert (game.winner, game.rated) == ("white", False)
    assert game == listed(h, "Ann", table_id)
    # against the computer: its seat, and no guest
    effects = h.send(ann, CreateTable(TableOptions(), True, "white", "white", level="easy"))
    computer_table = the(effects, ann, Joined).table_id
    h.send(ann, Resign(computer_table))
    game = record_for(h, ann, computer_table)[0].game
    assert game is not None and (game.computer, game.guests) == ("black", [])
    assert (game.black, game.level) == ("Computer", "easy")
