"""Version 4's messages about one's own account: each round-trips for a version-4 peer, none
exists for an older one (unknown to it both ways), the password is never in a repr, and
logged_out's account_deleted reaches a version-3 peer without its reason."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from protocol.account_messages import DeleteAccount, GameRecord, GameRecords, GetGameRecords
from protocol.codec import decode, decode_client, decode_server, encode
from protocol.player_messages import LoggedOut
from tests.protocol.version_4 import assert_unknown_before_version_4

ACCOUNT_CLIENT_SAMPLES: list[Any] = [
    DeleteAccount("correct horse battery"),
    GetGameRecords(0),
    GetGameRecords(3),
]
ACCOUNT_SERVER_SAMPLES: list[Any] = [
    GameRecords("Ann", 0, 0, []),
    GameRecords("Ann", 1, 2, [GameRecord("t1", "Ann", "deleted #1", 5.0, "kahuna-record 1\n")]),
]


@pytest.mark.parametrize("message", ACCOUNT_CLIENT_SAMPLES + ACCOUNT_SERVER_SAMPLES)
def test_an_account_message_round_trips_in_version_4(message: Any) -> None:
    assert decode(encode(message, 4), version=4) == message


@pytest.mark.parametrize("version", [1, 2, 3])
def test_no_account_message_exists_before_version_4(version: int) -> None:
    assert_unknown_before_version_4(ACCOUNT_CLIENT_SAMPLES, ACCOUNT_SERVER_SAMPLES, version)


def test_the_page_may_be_left_out_and_the_password_is_never_shown() -> None:
    assert decode_client(msgpack.packb({"type": "get_game_records"}), version=4) == (
        GetGameRecords(0)
    )
    assert "horse" not in repr(DeleteAccount("correct horse battery"))


def test_account_deleted_is_a_reason_of_version_4_only() -> None:
    deleted = LoggedOut("Ann (guest)", "account_deleted")
    assert decode_server(encode(deleted, 4), version=4) == deleted
    assert decode_server(encode(deleted, 3), version=3) == LoggedOut("Ann (guest)")
