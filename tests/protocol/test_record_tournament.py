"""Version 4's `record.tournament`: a tournament's game's record names its tournament and
round; versions 1 to 3 get the bytes they always got, and refuse the field from a peer."""

from __future__ import annotations

import msgpack
import pytest

from protocol.codec import decode_server, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import GameTournament
from protocol.messages import Record

TEXT = "kahuna-record 1\ndeal ALOA BARI\n"
OF_CLUB = Record("t1", TEXT, GameTournament("5c0ffee1", "Club night", 2))


@pytest.mark.parametrize("message", [OF_CLUB, Record("t1", TEXT)])
def test_a_record_round_trips_in_version_4(message: Record) -> None:
    assert decode_server(encode(message, 4), version=4) == message


def test_version_4_sends_the_tournament_or_nil() -> None:
    wire = msgpack.unpackb(encode(OF_CLUB, 4))
    assert wire == {
        "type": "record",
        "table_id": "t1",
        "text": TEXT,
        "tournament": {"tournament_id": "5c0ffee1", "name": "Club night", "round": 2},
        "game": None,  # its entry: tests/protocol/test_record_game.py
    }
    assert msgpack.unpackb(encode(Record("t1", TEXT), 4))["tournament"] is None
    # from a version-4 peer that leaves it out: nil
    shorter = msgpack.packb({"type": "record", "table_id": "t1", "text": TEXT})
    assert decode_server(shorter, version=4) == Record("t1", TEXT)


@pytest.mark.parametrize("version", [2, 3])
def test_versions_before_4_get_the_same_bytes_as_ever(version: int) -> None:
    before = msgpack.packb({"type": "record", "table_id": "t1", "text": TEXT}, use_bin_type=True)
    assert encode(OF_CLUB, version) == before
    assert encode(Record("t1", TEXT), version) == before
    with pytest.raises(ProtocolError) as info:
        decode_server(encode(OF_CLUB, 4), version=version)
    assert info.value.code is ErrorCode.EXTRA_FIELD


def test_version_1_has_no_record() -> None:
    with pytest.raises(ValueError):
        encode(OF_CLUB, 1)
