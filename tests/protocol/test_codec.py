"""The codec: every message round-trips, and every malformed frame becomes a typed error."""

from __future__ import annotations

import contextlib
from typing import Any

import attrs
import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.analysis_messages import (
    Analyse,
    AnalysedTurn,
    Analysis,
    AnalysisProgress,
    PlayerAnalysis,
)
from protocol.codec import decode, decode_client, decode_server, encode, to_wire
from protocol.errors import MEANINGS, ErrorCode, ProtocolError
from protocol.fields import ChatEntry, PlayerInfo, Players, TableInfo, TableOptions, TimeControl
from protocol.messages import (
    CLIENT_TYPES,
    SERVER_TYPES,
    V3_ONLY,
    Chat,
    ChatMessage,
    Claim,
    Command,
    CreateTable,
    DeclineDraw,
    Error,
    GetRecord,
    Hello,
    History,
    Join,
    Joined,
    Leave,
    Left,
    Lobby,
    LobbySubscribe,
    LobbyUnsubscribe,
    OfferDraw,
    PlayersChanged,
    Reclaim,
    Record,
    Rematch,
    Resign,
    Resync,
    Spectate,
    Spectating,
    State,
    TableClosed,
    TableNote,
    Update,
    Welcome,
)
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    ChallengeInfo,
    Challenges,
    ChallengeTerms,
    ChangePassword,
    GameEntry,
    Games,
    GetGames,
    GetRatings,
    Ignore,
    Ignoring,
    LobbyChat,
    LobbyChatEntry,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PasswordChanged,
    PlayerNote,
    PlayerStats,
    RatingEntry,
    Ratings,
    Register,
    Resume,
    Watchers,
)
from shared.types import GameOptions, Seat
from tests.protocol.test_account_messages import (
    ACCOUNT_CLIENT_SAMPLES,
    ACCOUNT_SERVER_SAMPLES,
)
from tests.protocol.test_mail_messages import MAIL_CLIENT_SAMPLES, MAIL_SERVER_SAMPLES
from tests.protocol.test_moderation_messages import (
    MODERATION_CLIENT_SAMPLES,
    MODERATION_SERVER_SAMPLES,
)
from tests.protocol.test_tournament_messages import (
    TOURNAMENT_CLIENT_SAMPLES,
    TOURNAMENT_SERVER_SAMPLES,
)

PLAYERS = Players(PlayerInfo("Ana", True, False), None)
CLIENT_SAMPLES: list[Any] = [
    Hello(1, "Ana"),
    GetRecord("t1"),
    Resign("t1"),
    OfferDraw("t1"),
    DeclineDraw("t1"),
    Claim("t1"),
    Rematch("t1"),
    CreateTable(TableOptions(), True, "black", "random", TimeControl(600, 5, 0), "strong", False),
    LobbySubscribe(),
    LobbyUnsubscribe(),
    CreateTable(TableOptions(True, True, "black", 2), True, "white", "random"),
    CreateTable(),
    Join("t1", None),
    Join("t1", "black"),
    Spectate("t1"),
    Reclaim("t1", "abc"),
    Leave("t1"),
    Command("t1", 7, "place BARI-DUDA"),
    Resync("t1"),
    Chat("t1", "hello"),
    Register("Ann", "secret-words"),
    Login("Ann", "secret-words", None),
    Login("Ann", None, "tok"),
    Logout(),
    ChangePassword("old-words", "new-words"),
    GetRatings(),
    GetGames(None),
    GetGames("Bob"),
    Challenge("Bob", ChallengeTerms(TableOptions(), "black", "random", TimeControl(days=3))),
    AnswerChallenge("c1", "accept"),
    LobbyChat("hello all"),
    Ignore("Bob", True),
    Resume("t1"),
    Analyse("t1"),
    *TOURNAMENT_CLIENT_SAMPLES,
    *MAIL_CLIENT_SAMPLES,
    *ACCOUNT_CLIENT_SAMPLES,
    *MODERATION_CLIENT_SAMPLES,
]
SERVER_SAMPLES: list[Any] = [
    Welcome(1, "kahuna", 16384, 300),
    History("t1", 2, [[{"type": "bridge_placed"}], []]),
    Record("t1", "kahuna-record 1\n"),
    TableNote("t1", "rematch_started", None, "t2"),
    TableNote("t1", "draw_offered", "white", None),
    ChatMessage("t1", "Ann", "hi", "spectator"),
    Error("stale_version", "old", "t1", 3, "command"),
    Error("bad_msgpack", "x"),
    Lobby([TableInfo("t1", TableOptions(), False, PLAYERS, 2, "waiting")]),
    Lobby([]),
    Joined("t1", "white", "tok"),
    Spectating("t1"),
    Left("t1", "you left"),
    State("t1", 0, "spectator", "playing", {"a": [1, "b"]}, PLAYERS, [ChatEntry("a", "b")]),
    Update("t1", 4, [{"type": "CardDrawn", "seat": "white", "card": None}], {"x": {}}),
    PlayersChanged("t1", "playing", PLAYERS),
    ChatMessage("t1", "Ana", "hi"),
    TableClosed("t1", "abandoned"),
    TableClosed("t1", "Ana did not come back", "abandoned", {"player": "Ana"}),
    Welcome(3, "kahuna", 16384, 300, "Ann 2", "name_registered", True),
    LoggedIn("Ann", 1500, 350, 0, "tok", ["Bob"], True),
    LoggedOut("Guest 1"),
    PasswordChanged("tok2"),
    Ratings([RatingEntry("Ann", 1620, 80, 12, 8, 3, 1, True)]),
    Games(
        "Ann",
        1620,
        [
            GameEntry(
                "t1",
                "Ann",
                "Bob",
                "over",
                None,
                "white",
                "scored",
                True,
                14,
                -14,
                1.0,
                2.0,
                None,
                False,
                None,
            ),
            GameEntry(
                "t2",
                "Ann",
                "Computer",
                "playing",
                "black",
                None,
                None,
                False,
                None,
                None,
                3.0,
                None,
                90000.0,
                True,
                "strong",
            ),
        ],
        PlayerStats([8, 3, 1], {"strong": [1, 2, 0]}),
    ),
    Challenges([ChallengeInfo("c1", "Ann", "Bob", ChallengeTerms(), 5.0)]),
    PlayerNote("your_move", "t2", "Bob"),
    LobbyChatMessage([LobbyChatEntry("Ann", "hi", 3.0)], False),
    Ignoring(["Bob"]),
    Watchers("a1b2c3d4", ["Cy", "Dee"]),
    AnalysisProgress("t1", 3, 40),
    Analysis(
        "t1",
        [
            AnalysedTurn(
                1,
                "white",
                ["place BARI-DUDA", "draw"],
                0.5,
                0.375,
                0.375,
                0.125,
                "mistake",
                "take COCO",
                "takes_card",
                {"card": "COCO"},
            ),
            AnalysedTurn(2, "black", ["end"], 0.25, 0.0, 1.0, 0.25, "blunder", None, None, None),
        ],
        [PlayerAnalysis("white", 0.125, 0, 1, 0), PlayerAnalysis("black", 0.25, 0, 0, 1)],
        [1, 2],
        128,
    ),
    *TOURNAMENT_SERVER_SAMPLES,
    *MAIL_SERVER_SAMPLES,
    *ACCOUNT_SERVER_SAMPLES,
    *MODERATION_SERVER_SAMPLES,
]


def test_every_message_type_has_a_sample() -> None:
    assert {type(m).TYPE for m in CLIENT_SAMPLES} == set(CLIENT_TYPES)
    assert {type(m).TYPE for m in SERVER_SAMPLES} == set(SERVER_TYPES)


@pytest.mark.parametrize("message", CLIENT_SAMPLES)
def test_client_messages_round_trip(message: Any) -> None:
    assert decode_client(encode(message)) == message
    assert decode(encode(message)) == message


@pytest.mark.parametrize("message", SERVER_SAMPLES)
def test_server_messages_round_trip(message: Any) -> None:
    assert decode_server(encode(message)) == message


def test_wire_form_is_a_flat_map_with_type() -> None:
    wire = to_wire(CreateTable(TableOptions(variant1=True), True, None, "white"), 1)
    assert wire == {
        "type": "create_table",
        "options": {
            "variant1": True,
            "variant2": False,
            "handicap_seat": None,
            "handicap_bridges": 0,
        },
        "vs_computer": True,
        "seat": None,
        "first": "white",
    }


def test_table_options_convert_to_and_from_the_engine() -> None:
    options = GameOptions(True, False, Seat.BLACK, 2)
    assert TableOptions.from_game_options(options).to_game_options() == options


def _code(data: Any, **kw: Any) -> ErrorCode:
    with pytest.raises(ProtocolError) as info:
        decode_client(data, **kw)
    return info.value.code


def pack(obj: Any) -> bytes:
    out: bytes = msgpack.packb(obj, use_bin_type=True)
    return out


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("hello", ErrorCode.TEXT_FRAME),
        (b"\xc1", ErrorCode.BAD_MSGPACK),
        (b"", ErrorCode.BAD_MSGPACK),
        (pack({"type": "leave", "table_id": "t"}) + b"\x00", ErrorCode.BAD_MSGPACK),
        (b"\xa2\xff\xfe", ErrorCode.BAD_MSGPACK),  # invalid UTF-8 string
        (pack([1, 2]), ErrorCode.NOT_A_MAP),
        (pack(5), ErrorCode.NOT_A_MAP),
        (pack({"table_id": "t"}), ErrorCode.MISSING_TYPE),
        (pack({"type": 3}), ErrorCode.MISSING_TYPE),
        (pack({1: 2}), ErrorCode.MISSING_TYPE),
        (pack({"type": "nope"}), ErrorCode.UNKNOWN_TYPE),
        (pack({"type": "welcome", "version": 1, "server": "x"}), ErrorCode.UNKNOWN_TYPE),
        (pack({"type": "leave"}), ErrorCode.MISSING_FIELD),
        (pack({"type": "leave", "table_id": "t", "x": 1}), ErrorCode.EXTRA_FIELD),
        (pack({"type": "leave", "table_id": "t", 7: 1}), ErrorCode.EXTRA_FIELD),
        (pack({"type": "leave", "table_id": 5}), ErrorCode.BAD_FIELD),
        (pack({"type": "leave", "table_id": b"t"}), ErrorCode.BAD_FIELD),
        (pack({"type": "hello", "version": "1", "name": "a"}), ErrorCode.BAD_FIELD),
        (pack({"type": "hello", "version": True, "name": "a"}), ErrorCode.BAD_FIELD),
        (pack({"type": "hello", "version": 1.0, "name": "a"}), ErrorCode.BAD_FIELD),
        (pack({"type": "join", "table_id": "t", "seat": "red"}), ErrorCode.BAD_FIELD),
        (
            pack(
                {
                    "type": "create_table",
                    "options": {"variant1": True},
                    "vs_computer": False,
                    "seat": None,
                    "first": "white",
                }
            ),
            ErrorCode.MISSING_FIELD,
        ),
        (
            pack(
                {
                    "type": "create_table",
                    "options": [],
                    "vs_computer": False,
                    "seat": None,
                    "first": "white",
                }
            ),
            ErrorCode.BAD_FIELD,
        ),
    ],
)
def test_bad_frames_have_codes(data: Any, code: ErrorCode) -> None:
    assert _code(data) is code


def test_oversized_frame() -> None:
    data = pack({"type": "chat", "table_id": "t", "text": "x" * 1000})
    assert _code(data, max_size=100) is ErrorCode.FRAME_TOO_LARGE


def test_every_code_has_a_meaning() -> None:
    assert set(MEANINGS) == set(ErrorCode)


msgpack_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text()
    | st.binary(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=64))
def test_random_bytes_never_escape(data: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        decode_client(data)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(CLIENT_TYPES)),
    st.dictionaries(st.sampled_from(["table_id", "version", "name", "text", "seat", "options",
                                      "action", "token", "first", "vs_computer", "x"]),
                    msgpack_values, max_size=6),
)  # fmt: skip
def test_random_maps_never_escape(kind: str, fields: dict[str, Any]) -> None:
    with contextlib.suppress(ProtocolError):
        decode_client(pack({"type": kind, **fields}))


# ----- versions -----------------------------------------------------------------------------


def test_version_1_peers_never_see_version_2_fields_and_may_not_send_them() -> None:
    create = CreateTable(TableOptions(), True, "white", "white", TimeControl(300, 2, 0), "easy")
    v1 = msgpack.unpackb(encode(create, 1))
    assert set(v1) == {"type", "options", "vs_computer", "seat", "first"}
    assert decode_client(encode(create, 1), version=1) == CreateTable(
        TableOptions(), True, "white", "white"
    )
    with pytest.raises(ProtocolError) as info:
        decode_client(encode(create, 2), version=1)
    assert info.value.code is ErrorCode.EXTRA_FIELD
    closed = TableClosed("t1", "Ann did not come back", "abandoned", {"player": "Ann"})
    assert set(msgpack.unpackb(encode(closed, 1))) == {"type", "table_id", "reason"}
    chat = ChatMessage("t1", "Ann", "hi", "white")
    assert set(msgpack.unpackb(encode(chat, 1))) == {"type", "table_id", "sender", "text"}


def test_version_2_fields_may_be_absent_from_a_version_2_peer() -> None:
    old_shape = encode(CreateTable(TableOptions(), False, None, "white"), 1)
    assert decode_client(old_shape, version=2) == CreateTable(TableOptions(), False, None)


def test_version_2_messages_do_not_exist_in_version_1() -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(encode(Resign("t1")), version=1)
    assert info.value.code is ErrorCode.UNKNOWN_TYPE
    with pytest.raises(ValueError):
        encode(TableNote("t1", "draw_offered", "white", None), 1)


def test_version_3_messages_and_fields_do_not_exist_before_version_3() -> None:
    for version in (1, 2):
        for message in CLIENT_SAMPLES:
            if message.TYPE in V3_ONLY:
                with pytest.raises(ProtocolError) as info:
                    decode_client(encode(message), version=version)
                assert info.value.code is ErrorCode.UNKNOWN_TYPE
        with pytest.raises(ValueError):
            encode(LoggedOut("Guest"), version)
    welcome = Welcome(3, "kahuna", 16384, 300, "Ann 2", "name_registered", True)
    assert set(msgpack.unpackb(encode(welcome, 2))) == {
        "type", "version", "server", "max_frame", "max_chat",
    }  # fmt: skip
    create = CreateTable(clock=TimeControl(days=3), rated=False)
    wire = msgpack.unpackb(encode(create, 2))
    assert "rated" not in wire and "days" not in wire["clock"]
    with pytest.raises(ProtocolError) as info:
        decode_client(encode(create, 3), version=2)
    assert info.value.code is ErrorCode.EXTRA_FIELD


def test_version_4_fields_do_not_exist_before_version_4() -> None:
    turn = AnalysedTurn(
        3, "white", ["draw"], 0.6, 0.55, 0.55, 0.0, None, "draw", "draws", {}, 0.62, -0.07, 0.01
    )
    analysis = Analysis("t1", [turn], [PlayerAnalysis("white", 0.0, 0, 0, 0, -0.07)], [], 128)
    for version in (1, 2):
        with pytest.raises(ValueError):
            encode(analysis, version)  # a version-3 message
    v3 = msgpack.unpackb(encode(analysis, 3))
    assert set(v3["turns"][0]) == {
        "number", "seat", "played", "before", "after", "white", "cost", "mark", "best", "reason",
        "params",
    }  # fmt: skip
    assert set(v3["players"][0]) == {
        "seat", "average_cost", "inaccuracies", "mistakes", "blunders",
    }  # fmt: skip
    assert decode_server(encode(analysis, 3), version=3) == attrs.evolve(
        analysis,
        turns=[attrs.evolve(turn, expected=0.0, luck=0.0, noise=0.0)],
        players=[PlayerAnalysis("white", 0.0, 0, 0, 0)],
    )
    with pytest.raises(ProtocolError) as info:
        decode_server(encode(analysis, 4), version=3)
    assert info.value.code is ErrorCode.EXTRA_FIELD
    assert decode_server(encode(analysis, 4), version=4) == analysis
    # from a version-4 peer, a version-4 field may be left out: its default
    shorter = decode_server(encode(analysis, 3), version=4)
    assert isinstance(shorter, Analysis) and shorter.turns[0].luck == 0.0


def test_version_1_views_are_cut_back_to_the_released_keys() -> None:
    view = {
        "seat": "white",
        "hand": ["ALOA"],
        "table": {"clock": None},
        "public": {
            "phase": "over",
            "undoable": 0,
            "result": {"winner": "black", "kind": "resigned"},
        },
    }
    events: list[dict[str, Any]] = [
        {"type": "PlaysUndone", "seat": "white", "actions": []},
        {"type": "GameOver", "winner": "black", "kind": "resigned", "scores": [0, 0]},
    ]
    wire = msgpack.unpackb(encode(Update("t1", 3, events, view), 1))
    assert set(wire["view"]) == {"seat", "hand", "public"}
    assert wire["view"]["public"] == {
        "phase": "over",
        "result": {"winner": "black", "reason": "White resigned"},
    }
    assert wire["events"] == [
        {"type": "GameOver", "winner": "black", "reason": "White resigned", "scores": [0, 0]}
    ]
    assert msgpack.unpackb(encode(Update("t1", 3, events, view), 2))["view"] == view
