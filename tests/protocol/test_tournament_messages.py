"""Version 4's tournament messages: each round-trips for a version-4 peer, none exists for an
older one (unknown to it both ways), nor does player_note's `tournament_round`, and a version-4
client may leave the terms' optional fields out."""

from __future__ import annotations

from typing import Any

import attrs
import msgpack
import pytest

from protocol.codec import decode, decode_client, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import TableOptions, TimeControl
from protocol.player_messages import PlayerNote
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    GetTournaments,
    JoinTournament,
    Pairing,
    StandingEntry,
    StartTournament,
    TournamentPlayer,
    TournamentRound,
    Tournaments,
    TournamentState,
    TournamentSummary,
    TournamentTerms,
    WatchTournament,
    WithdrawTournament,
)
from tests.protocol.version_4 import assert_unknown_before_version_4

TERMS = TournamentTerms(
    "Club night", "swiss", 5, TimeControl(300, 3), True, TableOptions(variant1=True), None, 120
)
SUMMARY = TournamentSummary(
    "ab12",
    "Club night",
    "swiss",
    "Ann",
    "started",
    5,
    1,
    5,
    TimeControl(300, 3),
    True,
    None,
    False,
)

TOURNAMENT_CLIENT_SAMPLES: list[Any] = [
    GetTournaments(),
    GetTournaments("Bob"),
    CreateTournament(TERMS),
    CreateTournament(TournamentTerms("Letters", "double_round_robin", clock=TimeControl(days=3))),
    JoinTournament("ab12"),
    WithdrawTournament("ab12"),
    StartTournament("ab12"),
    WatchTournament("ab12", False),
    DirectTournament("ab12", "remove", "Bob"),
    DirectTournament("ab12", "end"),
    DirectTournament("ab12", "pause"),
]
TOURNAMENT_SERVER_SAMPLES: list[Any] = [
    Tournaments([SUMMARY], None),
    Tournaments([], "Bob"),
    TournamentState(
        SUMMARY,
        TableOptions(),
        300,
        [TournamentPlayer("Ann", 1612, 1, False), TournamentPlayer("Bob", 1500, 1, True)],
        [
            TournamentRound(
                1,
                "Cid",
                [Pairing(1, "Ann", "Bob", "t1", "draw"), Pairing(2, "Dan", "Eve", None, None)],
            )
        ],
        [StandingEntry(1, "Ann", 1.5, 2.0, 1.25, 0.0, 1, False)],
    ),
    Tournaments([attrs.evolve(SUMMARY, status="finished", closed=True)], None),
]


@pytest.mark.parametrize("message", TOURNAMENT_CLIENT_SAMPLES + TOURNAMENT_SERVER_SAMPLES)
def test_a_tournament_message_round_trips_in_version_4(message: Any) -> None:
    assert decode(encode(message, 4), version=4) == message


@pytest.mark.parametrize("version", [1, 2, 3])
def test_no_tournament_message_exists_before_version_4(version: int) -> None:
    assert_unknown_before_version_4(TOURNAMENT_CLIENT_SAMPLES, TOURNAMENT_SERVER_SAMPLES, version)
    for later in ("tournament_closed", "tournament_director"):
        with pytest.raises(ValueError):
            encode(PlayerNote(later, None, "Club night"), version)
    note = PlayerNote("tournament_round", "t1", "Bob")
    with pytest.raises(ValueError):
        encode(note, version)
    if version == 3:
        with pytest.raises(ProtocolError) as info:
            decode(encode(note, 4), version=3)
        assert info.value.code in (ErrorCode.BAD_FIELD, ErrorCode.EXTRA_FIELD)
        shaped = msgpack.packb(
            {"type": "player_note", "note": "tournament_round", "table_id": "t", "name": "B"}
        )
        with pytest.raises(ProtocolError) as info:
            decode(shaped, version=3)
        assert info.value.code is ErrorCode.BAD_FIELD


def test_the_terms_need_only_a_name_and_a_format() -> None:
    wire = msgpack.packb(
        {"type": "create_tournament", "terms": {"name": "Quick", "format": "round_robin"}}
    )
    assert decode_client(wire, version=4) == CreateTournament(
        TournamentTerms("Quick", "round_robin")
    )
    bad = msgpack.packb({"type": "create_tournament", "terms": {"name": "Q", "format": "knockout"}})
    with pytest.raises(ProtocolError) as info:
        decode_client(bad, version=4)
    assert info.value.code is ErrorCode.BAD_FIELD


def test_a_moderators_close_is_a_finished_summary_that_says_so() -> None:
    """`closed` (moderate's close_tournament) is version 4's like the rest of the summary, and
    may be left out by a peer that does not know it: false."""
    closed = attrs.evolve(SUMMARY, status="finished", closed=True)
    for note in ("tournament_closed", "tournament_director"):
        told = PlayerNote(note, None, "Club night")
        assert decode(encode(told, 4), version=4) == told
    wire = msgpack.unpackb(encode(Tournaments([closed], None), 4))
    assert wire["tournaments"][0]["closed"] is True
    del wire["tournaments"][0]["closed"]
    assert decode(msgpack.packb(wire), version=4) == Tournaments(
        [attrs.evolve(closed, closed=False)], None
    )
