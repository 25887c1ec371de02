"""Seats remembered in seats.json: a token belongs to the name that earned it, a seat another
client sits in is never taken without asking, the file is private from the start, and the lobby
cursor starts on the user's own table."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from client.files.seats import SeatStore
from client.model.state import ClientState
from client.screens.lobby_actions import join
from client.screens.lobby_screen import render_lobby
from protocol.fields import PlayerInfo, Players, TableInfo, TableOptions
from protocol.messages import ClientMessage, Lobby, LobbyUnsubscribe
from protocol.player_messages import Resume
from server.net.app import KahunaServer
from shared.types import Seat
from tests.client.test_app import new_table, player, until


async def test_two_names_on_one_account_keep_their_own_seats(
    server: KahunaServer, tmp_path: Path
) -> None:
    store = SeatStore(tmp_path / "seats.json")  # one account: one file for both clients
    url = f"ws://127.0.0.1:{server.port}"
    async with player(server, "Ann", seats=store) as ann:
        await new_table(ann, "c\r")  # a table for two people
        await until(lambda: ann.state.seat is Seat.WHITE, "Ann seated")
        table = ann.state.table_id
        assert table is not None
        await until(lambda: bool(store.seats(url, "Ann")), "Ann's seat stored")
        async with player(server, "Bob", seats=store) as bob:
            await until(lambda: len(bob.state.tables) == 1, "Bob's lobby")
            assert bob.state.saved_seats == {}  # Ann's token is not Bob's
            bob.type("\r")  # Enter: the free seat, not Ann's
            await until(lambda: bob.state.seat is Seat.BLACK, "Bob in the free seat")
            await until(lambda: ann.state.table_status == "playing", "the game")
            assert ann.state.seat is Seat.WHITE and ann.state.table_id == table
            # both tokens are kept, each with its name
            assert store.seats(url, "Ann")[table][0] == "white"
            assert store.seats(url, "Bob")[table][0] == "black"


async def test_a_seat_in_use_elsewhere_is_taken_only_when_asked_twice(
    server: KahunaServer, tmp_path: Path
) -> None:
    store = SeatStore(tmp_path / "seats.json")
    async with player(server, "Ann", seats=store) as ann:
        await new_table(ann, "c\r")
        await until(lambda: ann.state.seat is Seat.WHITE, "Ann seated")
        async with player(server, "Ann", seats=store) as again:
            await until(lambda: len(again.state.tables) == 1, "the second client's lobby")
            again.type("\r")
            await until(lambda: "in use by another client" in again.state.message, "the ask")
            assert again.state.table_id is None and ann.state.seat is Seat.WHITE
            again.type("\r")  # asked twice: take it over
            await until(lambda: again.state.seat is Seat.WHITE, "taken over")
            await until(lambda: ann.state.table_id is None, "the first client sent away")


def test_a_token_is_stored_with_its_name_in_a_private_file(tmp_path: Path) -> None:
    path = tmp_path / "state" / "seats.json"
    store = SeatStore(path)
    old = os.umask(0)  # even with a careless umask
    try:
        store.remember("ws://h:1", "t1", "white", "tokA", "Ann")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store.remember("ws://h:1", "t1", "black", "tokB", "Bob")
    assert store.seats("ws://h:1", "Ann") == {"t1": ("white", "tokA")}
    assert store.seats("ws://h:1", "Bob") == {"t1": ("black", "tokB")}
    assert store.seats("ws://h:1", "Eve") == {}
    store.forget("ws://h:1", "t1", "Bob")
    assert store.seats("ws://h:1") == {"t1": ("white", "tokA")}
    store.forget("ws://h:1", "t1")
    assert store.seats("ws://h:1") == {}
    # a file from before names were kept still reads
    path.write_text('{"ws://h:1": {"t2": {"seat": "black", "token": "old"}}}')
    assert store.seats("ws://h:1", "Ann") == {"t2": ("black", "old")}


def table(table_id: str, white: PlayerInfo | None, black: PlayerInfo | None) -> TableInfo:
    return TableInfo(table_id, TableOptions(), False, Players(white, black), 0, "playing")


def test_the_lobby_cursor_starts_on_the_users_table_and_stays_on_its_table() -> None:
    state = ClientState(name="Ann")
    bob, ann = PlayerInfo("Bob", True, False), PlayerInfo("Ann", False, False)
    tables = [table("t1", bob, None), table("t2", None, bob), table("t3", ann, bob)]
    state.saved_seats = {"t3": ("white", "tok"), "t1": ("white", "tok1")}  # t1: Bob sits there
    state.handle(Lobby(tables))
    state.place_lobby_cursor()
    assert state.selected_table is not None and state.selected_table.table_id == "t3"
    # a new table listed first: the cursor stays on t3
    state.handle(Lobby([table("t0", None, None), *tables]))
    state.place_lobby_cursor()
    assert state.selected_table is not None and state.selected_table.table_id == "t3"
    assert state.my_seat(tables[0]) is None  # a token for a seat another name sits in


def test_clients_of_one_user_taking_seats_at_once_keep_every_seat(tmp_path: Path) -> None:
    """Two clients of one user sharing seats.json (seen in tmux: a challenge accepted seats
    both players at once) each read and rewrite it: neither write may lose the other's seat."""
    path = tmp_path / "seats.json"
    url = "ws://h:1"

    def take(name: str) -> None:
        store = SeatStore(path)  # each its own, as two processes
        for i in range(40):
            store.remember(url, f"{name}{i}", "white", f"tok-{name}-{i}", name)

    threads = [threading.Thread(target=take, args=(name,)) for name in ("Ann", "Bob", "Cy")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name in ("Ann", "Bob", "Cy"):
        assert len(SeatStore(path).seats(url, name)) == 40
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_enter_takes_back_an_accounts_seat_without_its_token() -> None:
    """Logged in, the player's seat at a game under way whose token this client does not keep
    (taken on another machine, or the token lost) is theirs: marked so, and Enter resumes it,
    where it used to watch the game."""
    state = ClientState(name="Dieter")
    state.accounts.accounts, state.accounts.account = True, "Dieter"
    dieter, erika = PlayerInfo("Dieter", False, False, 1500), PlayerInfo("Erika", True, False, 1500)
    state.handle(Lobby([table("cd52a96c", dieter, erika)]))
    assert state.own_seat(state.tables[0]) == "white" and state.my_seat(state.tables[0]) is None
    assert "(yours) Dieter" in render_lobby(state, 80, 24).text()
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    join(state, send, None)
    assert sent == [Resume("cd52a96c"), LobbyUnsubscribe()]
    # a guest of that name, or a table still waiting, is not the account's
    state.accounts.account = None
    assert state.own_seat(state.tables[0]) is None
