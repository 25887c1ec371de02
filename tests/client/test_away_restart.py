"""Issue 40: two guests in the lobby, each stepped away from the same running game, across a
restart of the server. Their clients come back to the lobby and take back, quietly, every seat
whose token they keep, then step away again: the server knows both players connected and in the
lobby, and its abandonment timer forfeits no one. Neither player sees the table meanwhile; Enter
still sits each one down again, in the same game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from client.files.seats import SeatStore
from client.model.state import ClientState
from client.net.seats_away import SeatsAway
from client.screens.lobby_actions import join
from protocol.fields import PlayerInfo, Players, StatusName, TableInfo, TableOptions
from protocol.messages import (
    ClientMessage,
    Error,
    Joined,
    Leave,
    Left,
    LobbySubscribe,
    LobbyUnsubscribe,
    Reclaim,
    State,
    Update,
)
from server.net.app import KahunaServer
from shared.types import Seat
from tests.client.test_app import Player, new_table, player, until
from tests.client.test_restart import free_port
from tests.client.test_standby import QUICK
from tests.conftest import server_config

ABANDON = 1.5  # --abandon-timeout, seconds: room for the restart and the reconnections


async def started(port: int, db: str) -> KahunaServer:
    """The server on this port and database, started (the first time or again)."""
    server = KahunaServer(
        server_config(port=port, db=db, abandon_timeout=ABANDON, sweep_interval=0.05)
    )
    await server.start()
    return server


@contextlib.asynccontextmanager
async def ann_and_bob(server: KahunaServer, tmp_path: Path) -> AsyncIterator[tuple[Player, Player]]:
    """Ann and Bob, guests in the lobby, each client keeping its seats' tokens in its own file."""
    async with (
        player(server, "Ann", seats=SeatStore(tmp_path / "ann.json")) as ann,
        player(server, "Bob", seats=SeatStore(tmp_path / "bob.json")) as bob,
    ):
        yield ann, bob


def watch(p: Player) -> list[tuple[str, str | None, str]]:
    """Every screen the player is shown from now on: (screen, table, message)."""
    seen: list[tuple[str, str | None, str]] = []
    state: ClientState = p.state
    redraw = p.client.session.on_change

    def noted() -> None:
        seen.append((state.screen, state.table_id, state.message))
        redraw()

    p.client.session.on_change = noted
    return seen


async def game_of_two(ann: Player, bob: Player) -> str:
    """Ann makes a table for two people in the lobby and Bob sits down at it: its id, once
    the game runs."""
    await new_table(ann, "c\r")  # a table for two people
    await until(lambda: ann.state.seat is Seat.WHITE, "Ann seated")
    table = ann.state.table_id
    assert table is not None
    await until(lambda: len(bob.state.tables) == 1, "the table in Bob's lobby")
    bob.type("\r")
    await until(lambda: bob.state.seat is Seat.BLACK, "Bob seated")
    await until(lambda: ann.state.game_running, "the game")
    return table


async def test_guests_in_the_lobby_keep_their_game_across_a_restart(tmp_path: Path) -> None:
    port, db = free_port(), str(tmp_path / "kahuna.sqlite3")
    server = await started(port, db)
    try:
        async with ann_and_bob(server, tmp_path) as (ann, bob):
            table = await game_of_two(ann, bob)
            for p in (ann, bob):
                p.line("lobby")
                await until(lambda p=p: p.state.screen == "lobby", "back in the lobby")  # type: ignore[misc]
                p.client.session.backoff = QUICK
            await until(
                lambda: all(
                    h is not None and h.away is not None
                    for h in server.lobby.tables[table].seats.values()
                ),
                "both stepped away",
            )
            await server.stop()
            await until(lambda: not ann.state.connected and not bob.state.connected, "the drop")
            seen = {p.state.name: watch(p) for p in (ann, bob)}
            server = await started(port, db)
            await until(lambda: ann.state.connected and bob.state.connected, "the reconnections")
            restored = server.lobby.tables[table]
            # each client took its seat back and stepped away again: connected, in the lobby
            await until(
                lambda: all(h is not None and h.away is not None for h in restored.seats.values()),
                "the seats held by players in the lobby",
            )
            await asyncio.sleep(3 * ABANDON)  # past the timeout: nobody is forfeited
            assert restored.status == "playing" and restored.game.result is None
            for p in (ann, bob):
                shown = seen[p.state.name]
                assert shown and all(s[:2] == ("lobby", None) for s in shown), shown
                assert p.state.message_kind != "error", p.state.message
                assert p.state.message == f"You have a seat at table {table}: Enter takes it back."
                listed = {t.table_id: t for t in p.state.tables}
                assert listed[table].status == "playing"
                assert p.state.my_seat(listed[table]) is not None
            # Enter sits each one down again, in the same game
            for p, seat in ((ann, Seat.WHITE), (bob, Seat.BLACK)):
                p.type("\r")
                await until(lambda p=p, seat=seat: p.state.seat is seat, "the seat taken back")  # type: ignore[misc]
                assert p.state.table_id == table and p.state.game_running
    finally:
        await server.stop()


async def test_a_player_at_another_table_keeps_the_seat_stepped_away_from(
    tmp_path: Path,
) -> None:
    """Ann stepped away from her game with Bob and plays the computer at another table when
    the server restarts: she is back at that table, and her seat in the game with Bob is held
    again by her connection, away, without her seeing it; the lobby asked for its listing
    only is not watched any longer."""
    port, db = free_port(), str(tmp_path / "kahuna.sqlite3")
    server = await started(port, db)
    try:
        async with ann_and_bob(server, tmp_path) as (ann, bob):
            with_bob = await game_of_two(ann, bob)
            ann.line("lobby")
            await until(lambda: ann.state.screen == "lobby", "Ann in the lobby")
            await new_table(ann, "c\r")  # the form kept 'a person': back to the computer
            await until(lambda: ann.state.table_id not in (None, with_bob), "the computer's table")
            await until(lambda: ann.state.game_running, "the game against the computer")
            computer = ann.state.table_id
            assert ann.state.form.vs_computer
            ann.client.session.backoff = bob.client.session.backoff = QUICK
            await server.stop()
            await until(lambda: not ann.state.connected, "the drop")
            seen = watch(ann)
            server = await started(port, db)
            await until(lambda: ann.state.connected and bob.state.connected, "the reconnections")
            held = server.lobby.tables[with_bob].seats[Seat.WHITE]
            await until(lambda: held is not None and held.away is not None, "Ann's seat held away")
            await until(lambda: not server.lobby.watchers, "the lobby no longer watched")
            assert ann.state.table_id == computer and ann.state.screen == "game"
            assert all(s[:2] == ("game", computer) for s in seen), seen
            await asyncio.sleep(3 * ABANDON)
            assert server.lobby.tables[with_bob].status == "playing"
    finally:
        await server.stop()


def listed(
    table_id: str, white: PlayerInfo | None, black: PlayerInfo | None, status: StatusName
) -> TableInfo:
    return TableInfo(table_id, TableOptions(), False, Players(white, black), 0, status)


def recorder() -> tuple[list[ClientMessage], Callable[[ClientMessage], bool]]:
    """A connection's send that keeps what it is given, and the list it keeps it in."""
    sent: list[ClientMessage] = []

    def send(msg: ClientMessage) -> bool:
        sent.append(msg)
        return True

    return sent, send


def test_at_a_table_the_other_seats_are_taken_back_one_at_a_time() -> None:
    """A player at table t0 (taken back as usual) who stepped away from t1 and t2 earlier: the
    lobby is asked for its listing only, then t1 and t2 are taken back and left in turn; a seat
    in use by a client of the same name (t3), a game over (t4) and a refused token change
    nothing the player sees."""
    state = ClientState(name="Ann", table_id="t0", role="white", token="k0", screen="game")
    state.saved_seats = {t: ("white", f"k{t[1]}") for t in ("t0", "t1", "t2", "t3", "t4", "t5")}
    sent, send = recorder()
    away = SeatsAway()
    away.welcomed(state, send)
    assert sent == [LobbySubscribe()]
    ann, here, bob = (
        PlayerInfo("Ann", False, False),
        PlayerInfo("Ann", True, False),
        PlayerInfo("Bob", True, False),
    )
    tables = [
        listed("t0", ann, bob, "playing"),
        listed("t1", ann, bob, "playing"),
        listed("t5", ann, bob, "playing"),
        listed("t3", here, bob, "playing"),
        listed("t4", ann, bob, "over"),
        listed("t2", ann, bob, "playing"),
    ]
    sent.clear()
    away.listed(state, tables, send)
    assert sent == [LobbyUnsubscribe(), Reclaim("t1", "k1")]
    away.listed(state, tables, send)  # a later listing starts nothing
    assert sent == [LobbyUnsubscribe(), Reclaim("t1", "k1")]
    sent.clear()
    assert away.take(Joined("t1", "white", "k1"), send)
    assert away.take(State("t1", 5, "white", "playing", {}, Players(ann, bob), []), send)
    assert not away.take(Update("t0", 6, [], {}), send)  # the table the player is at
    assert sent == [Leave("t1")]
    assert away.take(Left("t1", "you left the table", "stepped_away"), send)
    assert sent == [Leave("t1"), Reclaim("t5", "k5")]
    refused = Error("bad_token", "no", table_id="t5", refused="reclaim")
    assert away.take(refused, send)
    assert sent[-1] == Reclaim("t2", "k2")
    assert away.take(Joined("t2", "white", "k2"), send)
    assert away.take(Left("t2", "you left the table", "stepped_away"), send)
    assert sent[-2:] == [Reclaim("t2", "k2"), Leave("t2")]
    assert away.current is None
    assert not away.take(Left("t2", "again", "stepped_away"), send)


def test_a_seat_the_player_asks_for_while_it_is_taken_back_quietly_is_theirs() -> None:
    """Enter on a seat the client is taking back quietly: before the quiet leave is sent, the
    reclaim under way is the player's (not sent twice, not left again) and its answer reaches
    the screen; after it, the player's reclaim is sent once the leave is answered. The lobby,
    which shows that seat in use by this very client meanwhile, does not ask to take it over."""
    state = ClientState(name="Ann")
    state.saved_seats = {"t1": ("white", "k1"), "t2": ("white", "k2")}
    sent, send = recorder()
    away = SeatsAway()
    away.welcomed(state, send)
    ann, bob = PlayerInfo("Ann", False, False), PlayerInfo("Bob", True, False)
    away.listed(state, [listed("t1", ann, bob, "playing"), listed("t2", ann, bob, "playing")], send)
    assert sent == [Reclaim("t1", "k1")] and state.quiet_table == "t1"

    # the lobby shows t1 in use by this client: Enter takes it without asking
    state.tables = [listed("t1", PlayerInfo("Ann", True, False), bob, "playing")]
    asked: list[ClientMessage] = []

    def through(msg: ClientMessage) -> bool:  # the connection's send: the quiet part first
        if isinstance(msg, Reclaim) and away.wanted(msg):
            return True
        asked.append(msg)
        return True

    join(state, through, None)
    assert state.confirm_takeover is None
    assert asked == [LobbyUnsubscribe()]  # no second reclaim of t1
    assert not away.take(Joined("t1", "white", "k1"), send)  # the player's to see
    assert sent == [Reclaim("t1", "k1"), Reclaim("t2", "k2")]  # no leave; t2 goes on quietly
    assert state.quiet_table == "t2"
    assert not away.take(Update("t1", 6, [], {}), send)

    # t2 is wanted once its leave is sent: the player's reclaim goes when the leave is answered
    assert away.take(Joined("t2", "white", "k2"), send)
    assert sent[-1] == Leave("t2")
    assert away.wanted(Reclaim("t2", "k2"))
    assert away.take(Update("t2", 3, [], {}), send)  # still the quiet part's
    assert away.take(Left("t2", "you left the table", "stepped_away"), send)
    assert sent[-1:] == [Reclaim("t2", "k2")] and away.current is None
    assert state.quiet_table is None
    assert not away.take(Joined("t2", "white", "k2"), send)
