"""Protocol version 2 in the client: the game's log from `history` (a late spectator, a seat
taken back, a resync) and the saved record of a finished game, asked of the server."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from client.files.seats import SeatStore
from client.model.commands import legal_now
from client.model.state import ClientState
from protocol.fields import ChatEntry, PlayerInfo, Players
from protocol.messages import ChatMessage, History, Joined, State, Update
from server.net.app import KahunaServer
from shared.record import replay
from shared.types import Seat
from shared.views import seat_view, seat_view_to_dict
from tests.client.test_app import Player, a_place, new_table, player, seat_in_use, until
from tests.client.test_render import known_game

Events = list[dict[str, Any]]
PLAYERS = Players(PlayerInfo("Ann", True, False), PlayerInfo("Bob", True, False))
TURN_1: Events = [
    {"type": "BridgePlaced", "seat": "white", "line": "ALOA-BARI", "card": "ALOA"},
    {"type": "CardDrawn", "seat": "white", "card": "COCO"},
    {"type": "TurnEnded", "seat": "white", "next_seat": "black"},
]
TURN_2: Events = [
    {"type": "Abstained", "seat": "black"},
    {"type": "TurnEnded", "seat": "black", "next_seat": "white"},
]
TURN_3: Events = [
    {"type": "CardDrawn", "seat": "white", "card": "DUDA"},
    {"type": "TurnEnded", "seat": "white", "next_seat": "black"},
]
TURN_4: Events = [
    {"type": "CardDrawn", "seat": "black", "card": None},
    {"type": "TurnEnded", "seat": "black", "next_seat": "white"},
]
LINE_1 = (
    "White placed a bridge on ALOA-BARI with ALOA; White drew COCO from the pile; Black to move"
)
LINE_2 = "Black abstained from drawing; White to move"
LINE_3 = "White drew DUDA from the pile; Black to move"
LINE_4 = "Black drew a card from the pile; White to move"


def full_state(version: int, chat: list[ChatEntry] | None = None) -> State:
    view = seat_view_to_dict(seat_view(known_game(), Seat.WHITE))
    return State("t1", version, "white", "playing", view, PLAYERS, chat or [])


def texts(state: ClientState) -> list[str]:
    return [line.text for line in state.log]


def events(state: ClientState) -> list[str]:
    return [line.text for line in state.log if line.kind == "event"]


def test_history_rebuilds_the_log_in_place_never_twice() -> None:
    state = ClientState(name="Ann")
    state.handle(Joined("t1", "white", "token"))
    intro = texts(state)
    assert len(intro) == 1 and intro[0].startswith("Table t1.")
    # a seat taken back in a fresh client: the whole log, then the chat the state carries
    state.handle(History("t1", 2, [TURN_1, TURN_2]))
    state.handle(full_state(2, [ChatEntry("Bob", "hi")]))
    assert texts(state) == [*intro, LINE_1, LINE_2, "<Bob> hi"]
    # an update continues it; a chat after it
    view = seat_view_to_dict(seat_view(known_game(), Seat.WHITE))
    state.handle(Update("t1", 3, TURN_3, view))
    state.handle(ChatMessage("t1", "Bob", "hmm"))
    before = texts(state)
    assert before == [*intro, LINE_1, LINE_2, "<Bob> hi", LINE_3, "<Bob> hmm"]
    # a resync (or a reconnection) at the same version: the same log, nothing twice
    state.handle(History("t1", 3, [TURN_1, TURN_2, TURN_3]))
    state.handle(full_state(3))
    assert texts(state) == before
    # a reconnection after a missed action: its line in its place, then the notice
    state.handle(History("t1", 4, [TURN_1, TURN_2, TURN_3, TURN_4]))
    state.handle(full_state(4))
    assert texts(state) == [
        *before,
        LINE_4,
        "Caught up with 1 missed action; the log tells it.",
    ]
    # the transcript told each action once, in the order the client learned them
    told = [entry.split(" ", 1)[1] for entry in state.transcript]
    assert [t for t in told if t in (LINE_1, LINE_2, LINE_3, LINE_4)] == [
        LINE_1,
        LINE_2,
        LINE_3,
        LINE_4,
    ]


def test_a_history_for_another_table_starts_that_table() -> None:
    state = ClientState(name="Ann")
    state.handle(Joined("t0", "white", "token"))
    state.handle(ChatMessage("t0", "Bob", "old table"))
    state.handle(History("t1", 1, [TURN_1]))
    state.handle(full_state(1))
    assert state.table_id == "t1"
    assert events(state) == [LINE_1] and "<Bob> old table" not in texts(state)


async def start_against_the_computer(ann: Player, keys: str = "") -> None:
    """A table against the computer, as the form stands (its level normal) once `keys` are
    pressed in it."""
    await new_table(ann, keys + "\r")
    await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")


async def play_a_turn(ann: Player) -> None:
    """A bridge and a draw; then the computer's whole turn."""
    version = ann.state.version
    ann.line(a_place(ann))
    await until(lambda: ann.state.version == version + 1, "the bridge")
    ann.line("draw")
    await until(lambda: ann.state.version >= version + 2, "the draw")

    def my_turn_again() -> bool:
        public = ann.state.public
        return public is not None and public.to_move is Seat.WHITE and ann.state.pending is None

    await until(my_turn_again, "the computer's turn")


async def test_a_late_spectator_and_a_seat_taken_back_see_the_whole_log(
    server: KahunaServer, tmp_path: Path
) -> None:
    store = SeatStore(tmp_path / "seats.json")
    async with player(server, "Ann", seats=store) as ann:
        await start_against_the_computer(ann)
        table = ann.state.table_id
        async with player(server, "Sam", table_id=table, role="spectator", screen="game") as sam:
            await until(lambda: sam.state.public is not None, "Sam's view")
            await play_a_turn(ann)
            await play_a_turn(ann)
            version = ann.state.version
            await until(lambda: sam.state.version == version, "Sam to see it all")
            # Eve comes to watch now: she reads what Sam, who watched all along, read
            async with player(
                server, "Eve", table_id=table, role="spectator", screen="game"
            ) as eve:
                await until(lambda: eve.state.version == version, "Eve's view")
                assert len(events(sam.state)) >= 4
                assert events(eve.state) == events(sam.state)
                assert any("placed a bridge on" in line for line in events(eve.state))
            ann_log = events(ann.state)
            assert any(" drew " in line and "a card" not in line for line in ann_log)
            # the connection drops and comes back: the log is the same, nothing twice
            for conn in list(server.connections.values()):
                if server.core.sessions[conn.member].name == "Ann":
                    await conn.ws.close(1011, "dropped for the test")
            await until(lambda: not ann.state.connected, "the drop")
            await until(lambda: ann.state.connected, "the reconnection")
            await until(lambda: ann.state.pending is None and ann.state.seat_view, "the state")
            await asyncio.sleep(0.1)
            assert events(ann.state) == ann_log
    # Ann starts the client again and takes her seat back: the whole log, her own cards named
    async with player(server, "Ann", seats=store) as again:
        await until(lambda: len(again.state.tables) == 1, "the lobby")
        await until(lambda: not seat_in_use(again.state.tables[0]), "the seat shown free")
        # the new client may be taking the seat back quietly at its first listing
        # (client/net/seats_away.py): Enter makes it the player's all the same, without asking
        again.type("\r")
        await until(lambda: again.state.version == version, "the seat taken back")
        assert again.state.seat is Seat.WHITE
        assert events(again.state) == ann_log
        await play_a_turn(again)
        after = events(again.state)
        assert after[: len(ann_log)] == ann_log and len(after) > len(ann_log)


async def test_save_at_the_end_writes_a_record_that_replays_to_the_same_result(
    server: KahunaServer, tmp_path: Path
) -> None:
    rng = random.Random(5)
    async with player(server, "Ann", tmp_path) as ann:
        ann.line("save")  # nothing yet
        # the easy level (l: normal, strong, easy), a whole game's decisions in milliseconds
        # where the normal level's take seconds
        await start_against_the_computer(ann, "ll")
        assert ann.state.form.level == "easy"
        state = ann.state
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while state.public is not None and state.public.result is None:
            assert loop.time() < end, "the game did not end"
            legal = legal_now(state.seat_view)
            if legal and state.pending is None:
                ann.client.ui.submit(str(rng.choice(legal)))
            await asyncio.sleep(0.005)
        assert state.public is not None and state.public.result is not None
        target = tmp_path / "ann.kahuna"
        ann.line(f"save {target}")
        await until(lambda: target.exists(), "the record")
        assert state.message == f"Saved the game record to {target}"
        game = replay(target.read_text())
        assert game.result == state.public.result
        assert (game.scores[Seat.WHITE], game.scores[Seat.BLACK]) == state.public.scores
        assert game.move_count == state.version
