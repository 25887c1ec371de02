"""Version 4's moderation messages: each round-trips for a version-4 peer, none exists for an
older one (unknown to it both ways), and the optional fields (a mute's seconds, a report's
table) may be left out by a version-4 client."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from protocol.codec import decode, decode_client, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.moderation_messages import (
    CloseReport,
    GetModeration,
    Moderate,
    Moderation,
    ModerationEntry,
    ModerationNote,
    ReportChatLine,
    ReportInfo,
    ReportPlayer,
    Sanction,
)
from tests.protocol.version_4 import assert_unknown_before_version_4

MODERATION_CLIENT_SAMPLES: list[Any] = [
    Moderate("mute", "Bob", "spam in the lobby", 1800),
    Moderate("close_table", "t1", "abusive chat"),
    Moderate("ban", "203.0.113.0/24", "a flood", 86400),
    Moderate("unban", "203.0.113.0/24", "lifted early"),
    Moderate("close_tournament", "ab12", "an abusive name"),
    Moderate("hand_tournament", "ab12", "its director is gone", name="Bob"),
    ReportPlayer("Bob", "insults", "t1"),
    ReportPlayer("Bob", "spam"),
    GetModeration(),
    CloseReport(3, "muted for an hour"),
]
MODERATION_SERVER_SAMPLES: list[Any] = [
    Moderation(
        [
            ReportInfo(
                3,
                "Ann",
                "Bob",
                "spam",
                None,
                1.7e9,
                [
                    ReportChatLine("lobby", "Bob", "buy now", 1.7e9),
                    ReportChatLine("table", "Bob", "noob", None),
                ],
            )
        ],
        [
            ModerationEntry(1.7e9, "Mod", "mute", "Bob", "spam", 1.7e9 + 1800),
            ModerationEntry(1.7e9, "operator", "hand_tournament", "ab12", "away", None, "Bob"),
        ],
        [Sanction("Bob", 1.7e9 + 1800, "spam", "Mod")],
        [Sanction("203.0.113.0/24", 1.8e9, "a flood", "Mod")],
        ["Eve"],
    ),
    ModerationNote("muted", 1.7e9 + 1800, "spam"),
    ModerationNote("reported", None, None),
]


@pytest.mark.parametrize("message", MODERATION_CLIENT_SAMPLES + MODERATION_SERVER_SAMPLES)
def test_a_moderation_message_round_trips_in_version_4(message: Any) -> None:
    assert decode(encode(message, 4), version=4) == message


@pytest.mark.parametrize("version", [1, 2, 3])
def test_no_moderation_message_exists_before_version_4(version: int) -> None:
    assert_unknown_before_version_4(MODERATION_CLIENT_SAMPLES, MODERATION_SERVER_SAMPLES, version)


def test_the_optional_fields_may_be_left_out() -> None:
    wire = msgpack.packb({"type": "report_player", "name": "Bob", "reason": "spam"})
    assert decode_client(wire, version=4) == ReportPlayer("Bob", "spam", None)
    wire = msgpack.packb({"type": "moderate", "action": "unmute", "target": "Bob", "reason": "ok"})
    assert decode_client(wire, version=4) == Moderate("unmute", "Bob", "ok", None)
    wire = msgpack.packb(
        {"type": "moderate", "action": "close_tournament", "target": "ab12", "reason": "spam"}
    )
    assert decode_client(wire, version=4) == Moderate("close_tournament", "ab12", "spam")
    bad = msgpack.packb({"type": "moderate", "action": "delete", "target": "Bob", "reason": "x"})
    with pytest.raises(ProtocolError) as info:
        decode_client(bad, version=4)
    assert info.value.code is ErrorCode.BAD_FIELD
