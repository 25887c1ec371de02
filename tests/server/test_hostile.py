"""Hostile input: each bad message gets its documented error, no game changes, and every other
client is served throughout."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from protocol.codec import encode
from protocol.fields import PROTOCOL_VERSION, TableOptions
from protocol.messages import (
    Chat,
    ChatMessage,
    Command,
    CreateTable,
    Error,
    Hello,
    Join,
    Joined,
    LobbySubscribe,
    Resync,
    Spectate,
    Spectating,
    State,
    Update,
    Welcome,
)
from server.net.app import KahunaServer
from shared.legality import legal_actions
from shared.types import Seat
from shared.views import seat_view, seat_view_from_dict, seat_view_to_dict
from tests.conftest import Client, ServerFactory, create_table, play_random


def pack(obj: Any) -> bytes:
    out: bytes = msgpack.packb(obj, use_bin_type=True)
    return out


async def two_players(server: KahunaServer) -> tuple[Client, Client, str, State]:
    white = await Client.connect(server.port, "Ana")
    black = await Client.connect(server.port, "Bo")
    joined, _ = await create_table(white, first="white")
    await black.send(Join(joined.table_id, "black"))
    await black.expect(Joined)
    await black.expect(State)
    await white.send(Resync(joined.table_id))
    state = await white.expect(State)
    return white, black, joined.table_id, state


def snapshot(server: KahunaServer, table_id: str) -> Any:
    table = server.lobby.tables[table_id]
    return (
        table.version,
        list(table.game.history),
        seat_view_to_dict(seat_view(table.game, Seat.WHITE)),
        seat_view_to_dict(seat_view(table.game, Seat.BLACK)),
    )


BAD_FRAMES: list[tuple[Any, str]] = [
    (b"\xc1\xc1", "bad_msgpack"),
    (b"not msgpack at all", "bad_msgpack"),
    ("a text frame", "text_frame"),
    (pack([1, 2, 3]), "not_a_map"),
    (pack({"no": "type"}), "missing_type"),
    (pack({"type": "teleport"}), "unknown_type"),
    (pack({"type": "update", "table_id": "x"}), "unknown_type"),  # a server message
    (pack({"type": "command", "table_id": "x", "version": 0}), "missing_field"),
    (pack({"type": "resync", "table_id": "x", "extra": 1}), "extra_field"),
    (pack({"type": "command", "table_id": "x", "version": "0", "action": "draw"}), "bad_field"),
    (pack({"type": "join", "table_id": "x", "seat": "purple"}), "bad_field"),
]


async def test_bad_frames_get_their_error_and_change_nothing(server: KahunaServer) -> None:
    white, black, table_id, state = await two_players(server)
    before = snapshot(server, table_id)
    for data, code in BAD_FRAMES:
        await black.send_raw(data)
        error = await black.expect_error(code)
        assert error.message
    oversized = pack({"type": "chat", "table_id": table_id, "text": "x" * 20000})
    await black.send_raw(oversized)
    await black.expect_error("frame_too_large")
    assert snapshot(server, table_id) == before
    # the connection survived all of it, and so did the game
    view = seat_view_from_dict(state.view)
    ctx = view.turn_context()
    assert ctx is not None
    await white.send(Command(table_id, state.version, str(legal_actions(ctx)[0])))
    assert (await white.expect(Update)).version == 1
    assert (await black.expect(Update)).version == 1


async def test_frames_over_the_hard_limit_close_with_1009(make_server: ServerFactory) -> None:
    server = await make_server(max_frame=1000, hard_max_frame=4000)
    client = await Client.connect(server.port, "Big")
    await client.send_raw(pack({"type": "chat", "table_id": "t", "text": "x" * 2000}))
    await client.expect_error("frame_too_large")
    await client.send_raw(b"\x00" * 5000)
    with pytest.raises(ConnectionClosed) as info:
        await client.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 1009


async def test_bad_commands_are_refused_and_change_nothing(server: KahunaServer) -> None:
    white, black, table_id, state = await two_players(server)
    watcher = await Client.connect(server.port, "Eve")
    await watcher.send(Spectate(table_id))
    await watcher.expect(Spectating)
    await watcher.expect(State)
    before = snapshot(server, table_id)
    version = state.version
    cases: list[tuple[Client, Any, str]] = [
        (black, Command(table_id, version, "draw"), "not_your_turn"),  # out of turn
        (white, Command(table_id, version + 1, "draw"), "stale_version"),
        (white, Command(table_id, version - 1, "draw"), "stale_version"),
        (white, Command(table_id, version, "fly away"), "bad_notation"),
        (white, Command(table_id, version, ""), "bad_notation"),
        (white, Command(table_id, version, "end"), "illegal_action"),  # not in the final turn
        (white, Command(table_id, version, "handicap ALOA-BARI"), "illegal_action"),
        (watcher, Command(table_id, version, "draw"), "spectator_cannot_act"),
        (white, Command("nope", version, "draw"), "no_such_table"),
        (white, Join(table_id, "black"), "already_at_table"),
        (watcher, Join(table_id, None), "table_full"),
        (watcher, Spectate(table_id), "already_at_table"),
        (white, Hello(PROTOCOL_VERSION, "Again"), "already_greeted"),
        (white, CreateTable(TableOptions(handicap_bridges=2), False, None, "white"), "bad_options"),
    ]
    hand = seat_view_from_dict(state.view).hand
    missing = next(c for c in range(12) if c not in hand)
    from shared.board import ISLAND_LINES, ISLANDS, line_name

    card_line = line_name(ISLAND_LINES[missing][0])
    other_end = card_line.replace(ISLANDS[missing], "").strip("-")
    place = f"place {ISLANDS[missing]}-{other_end}"
    cases.append((white, Command(table_id, version, place), "illegal_action"))  # no such card
    for client, message, code in cases:
        await client.send(message)
        error = await client.expect_error(code)
        if code == "stale_version":
            assert error.version == version and error.table_id == table_id
        assert snapshot(server, table_id) == before, (message, code)
    # nobody else saw anything of it
    for client in (black, watcher):
        assert not [m for m in await client.quiet(0.05) if isinstance(m, Update)]


async def test_the_session_rules(server: KahunaServer) -> None:
    silent = await Client.connect(server.port, None)
    await silent.send(LobbySubscribe())
    await silent.expect_error("hello_required")
    await silent.send(Hello(PROTOCOL_VERSION, " \x1b\x07\u202e "))  # only control characters
    await silent.expect_error("bad_name")
    await silent.send(Hello(PROTOCOL_VERSION, "x" * 200))
    await silent.expect_error("bad_name")
    await silent.send(Hello(PROTOCOL_VERSION, "Zoe\x07"))
    welcome = await silent.expect(Welcome)
    assert welcome.version == PROTOCOL_VERSION

    old = await Client.connect(server.port, None)
    await old.send(Hello(PROTOCOL_VERSION + 1, "Future"))
    error = await old.expect_error("version_mismatch")
    assert error.version == PROTOCOL_VERSION
    with pytest.raises(ConnectionClosed):
        await old.recv()


async def test_hello_timeout_closes(make_server: ServerFactory) -> None:
    server = await make_server(hello_timeout=0.1)
    mute = await Client.connect(server.port, None)
    await mute.expect_error("hello_required")
    with pytest.raises(ConnectionClosed):
        await mute.recv()


async def test_chat_limits(server: KahunaServer) -> None:
    white, black, table_id, _ = await two_players(server)
    await white.send(Chat(table_id, "hello \x1b[31mthere"))
    for client in (white, black):
        chat = await client.expect(ChatMessage)
        assert chat.text == "hello [31mthere" and chat.sender == "Ana"
    await white.send(Chat(table_id, "\x00\x1b "))
    await white.expect_error("chat_empty")
    await white.send(Chat(table_id, "x" * 301))
    await white.expect_error("chat_too_long")
    outsider = await Client.connect(server.port, "Out")
    await outsider.send(Chat(table_id, "hi"))
    await outsider.expect_error("not_at_table")
    codes = []
    for i in range(8):
        await black.send(Chat(table_id, f"spam {i}"))
    for message in await black.quiet(0.2):
        if isinstance(message, Error):
            codes.append(message.code)
    assert "chat_rate_limited" in codes
    # the chat history comes with a resync
    await white.quiet(0.05)
    await white.send(Resync(table_id))
    state = await white.expect(State)
    assert state.chat[0].text == "hello [31mthere"


async def test_a_flood_is_limited_and_others_are_served(make_server: ServerFactory) -> None:
    server = await make_server(rate=100.0, burst=100, flood_limit=100)
    white, black, table_id, state = await two_players(server)
    flooder = await Client.connect(server.port, "Flood")
    before = snapshot(server, table_id)
    frame = encode(Command(table_id, 0, "draw"))

    async def flood() -> list[str]:
        codes: list[str] = []
        try:
            for _ in range(1000):
                await flooder.ws.send(frame)
            while True:
                message = await flooder.recv(timeout=5)
                if isinstance(message, Error):
                    codes.append(message.code)
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1008
        return codes

    await black.send(Resync(table_id))
    black_state = await black.expect(State)
    codes, white_view, _ = await asyncio.gather(
        flood(),
        play_random(white, table_id, random.Random(3), start=state),
        play_random(black, table_id, random.Random(4), start=black_state),
    )
    assert "rate_limited" in codes and "not_at_table" in codes
    assert codes.count("rate_limited") <= 3  # a flood does not turn into a flood of replies
    assert white_view.public.result is not None  # the game went on to its end meanwhile
    assert before[0] == 0


async def test_connections_per_address_are_limited(make_server: ServerFactory) -> None:
    server = await make_server(max_per_address=3)
    clients = [await Client.connect(server.port, f"C{i}") for i in range(3)]
    ws = await connect(f"ws://127.0.0.1:{server.port}", compression=None)
    data = await ws.recv()
    assert isinstance(data, bytes)
    assert msgpack.unpackb(data)["code"] == "too_many_connections"
    with pytest.raises(ConnectionClosed):
        await ws.recv()
    await clients[0].close()
    await asyncio.sleep(0.05)
    await Client.connect(server.port, "Later")  # a freed slot is usable again


def random_frame(rng: random.Random, table_id: str) -> bytes:
    """A random, mostly well-formed client frame: real types, fields of random values."""
    values: list[Any] = [
        None, True, 0, -1, 2**40, "", "x" * 50, table_id, "white", "black", "random",
        "draw", "place BARI-DUDA", "abstain", [], {}, {"variant1": True}, 1.5, b"\x00",
    ]  # fmt: skip
    kinds = ["hello", "lobby_subscribe", "create_table", "join", "spectate", "reclaim", "leave",
             "command", "resync", "chat", "welcome", "bogus"]  # fmt: skip
    names = ["version", "name", "options", "vs_computer", "seat", "first", "table_id", "token",
             "action", "text", "extra"]  # fmt: skip
    frame = {"type": rng.choice(kinds)}
    for name in rng.sample(names, rng.randint(0, 5)):
        frame[name] = rng.choice(values)
    return pack(frame)


async def test_random_frames_never_hurt_the_server(server: KahunaServer) -> None:
    white, _, table_id, state = await two_players(server)
    before = snapshot(server, table_id)
    fuzzer = await Client.connect(server.port, "Fuzz")
    rng = random.Random(11)
    for _ in range(300):
        await fuzzer.send_raw(random_frame(rng, table_id))
    await fuzzer.quiet(0.3)
    # the fuzzer's connection and the server are both fine, and the game is untouched
    await fuzzer.send(Resync(table_id))
    reply = await fuzzer.recv()
    assert isinstance(reply, Error | State)
    assert snapshot(server, table_id)[:2] == before[:2]
    await play_random(white, table_id, random.Random(1), start=state, max_actions=1)
    assert server.lobby.tables[table_id].version == 1
