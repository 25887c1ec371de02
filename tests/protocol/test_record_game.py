"""Version 4's `record.game`: a record carries its game's entry as a games list gives it, and a
game entry says which seat was the computer's and which were guests' (`computer`, `guests`);
versions 2 and 3 get `record` and `games` byte for byte as before, and refuse the new fields
from a peer."""

from __future__ import annotations

from typing import Any

import attrs
import msgpack
import pytest

from protocol.codec import decode_server, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import GameTournament
from protocol.messages import Record
from protocol.player_messages import GameEntry, Games, PlayerStats

TEXT = "kahuna-record 1\ndeal ALOA BARI\n"
RATED = GameEntry(
    "t1", "Ann", "Cid", "over", None, "white", "scored", True, 14, -14, 1.7e9, 1.7e9 + 600,
    None, False, None,
)  # fmt: skip
WITH_GUEST = GameEntry(
    "t2", "Ann", "Dot", "over", None, None, "agreed_draw", False, None, None, 1.0, 2.0, None,
    False, None, None, ["black"],
)  # fmt: skip
VS_COMPUTER = GameEntry(
    "t3", "Computer", "Ann", "over", None, "black", "resigned", False, None, None, 1.0, 2.0,
    None, True, "strong", "white",
)  # fmt: skip
# the keys a version-3 peer has always had in a game entry
V3_ENTRY = {
    "table_id": "t1", "white": "Ann", "black": "Cid", "status": "over", "to_move": None,
    "winner": "white", "ending": "scored", "rated": True, "white_change": 14,
    "black_change": -14, "started": 1.7e9, "finished": 1.7e9 + 600, "deadline": None,
    "vs_computer": False, "level": None,
}  # fmt: skip


def unpacked(data: bytes) -> Any:
    return msgpack.unpackb(data)


@pytest.mark.parametrize(
    "message",
    [
        Record("t1", TEXT, None, RATED),
        Record("t2", TEXT, None, WITH_GUEST),
        Record("t3", TEXT, GameTournament("5c0ffee1", "Club night", 2), VS_COMPUTER),
        Record("t1", TEXT),
    ],
)
def test_a_record_with_its_game_round_trips_in_version_4(message: Record) -> None:
    assert decode_server(encode(message, 4), version=4) == message


def test_version_4_sends_the_game_or_nil() -> None:
    wire = unpacked(encode(Record("t1", TEXT, None, RATED), 4))
    assert wire == {
        "type": "record", "table_id": "t1", "text": TEXT, "tournament": None,
        "game": {**V3_ENTRY, "computer": None, "guests": []},
    }  # fmt: skip
    assert unpacked(encode(Record("t1", TEXT), 4))["game"] is None
    game = unpacked(encode(Record("t3", TEXT, None, VS_COMPUTER), 4))["game"]
    assert (game["computer"], game["guests"], game["level"]) == ("white", [], "strong")
    # from a version-4 peer that leaves the record's game out, or the entry's new keys: nil, none
    shorter = msgpack.packb({"type": "record", "table_id": "t1", "text": TEXT})
    assert decode_server(shorter, version=4) == Record("t1", TEXT)
    older_entry = msgpack.packb(
        {"type": "record", "table_id": "t1", "text": TEXT, "game": V3_ENTRY}
    )
    assert decode_server(older_entry, version=4) == Record("t1", TEXT, None, RATED)


def test_a_bad_game_is_refused() -> None:
    wire = unpacked(encode(Record("t2", TEXT, None, WITH_GUEST), 4))
    wire["game"]["guests"] = ["grey"]
    with pytest.raises(ProtocolError) as info:
        decode_server(msgpack.packb(wire), version=4)
    assert info.value.code is ErrorCode.BAD_FIELD
    assert info.value.message.startswith("game.guests[0]")


@pytest.mark.parametrize("version", [2, 3])
def test_versions_before_4_get_the_records_bytes_as_ever(version: int) -> None:
    before = msgpack.packb({"type": "record", "table_id": "t1", "text": TEXT}, use_bin_type=True)
    for game in (RATED, WITH_GUEST, VS_COMPUTER, None):
        assert encode(Record("t1", TEXT, None, game), version) == before
    with pytest.raises(ProtocolError) as info:
        decode_server(encode(Record("t1", TEXT, None, RATED), 4), version=version)
    assert info.value.code is ErrorCode.EXTRA_FIELD


def test_version_3_gets_the_games_bytes_as_ever() -> None:
    games = Games("Ann", 1520, [RATED, WITH_GUEST], PlayerStats([1, 0, 0], {}))
    guest_v3 = {**V3_ENTRY, "table_id": "t2", "black": "Dot", "winner": None}
    guest_v3 |= {"ending": "agreed_draw", "rated": False, "white_change": None}
    guest_v3 |= {"black_change": None, "started": 1.0, "finished": 2.0}
    before = msgpack.packb(
        {
            "type": "games", "name": "Ann", "rating": 1520, "games": [V3_ENTRY, guest_v3],
            "stats": {"rated": [1, 0, 0], "computer": {}},
        },
        use_bin_type=True,
    )  # fmt: skip
    assert encode(games, 3) == before
    # version 4 adds the two keys to each entry; a version-3 peer refuses them
    assert unpacked(encode(games, 4))["games"][1]["guests"] == ["black"]
    with pytest.raises(ProtocolError) as info:
        decode_server(encode(games, 4), version=3)
    assert info.value.code is ErrorCode.EXTRA_FIELD
    # and a version-3 frame reads as entries without them
    unmarked = attrs.evolve(WITH_GUEST, guests=[])
    assert decode_server(before, version=3) == attrs.evolve(games, games=[RATED, unmarked])
