"""Where the server answered otherwise than docs/protocol.md says (issue 40, item 5): what a
version-1 or 2 peer sees of a game of days, the order of `resume`'s checks, `lobby_chat` from a
connection that does not watch the lobby; and the password changed on one connection logging the
account's others out (item 4). In the core, without sockets; the bytes as each version gets them."""

from __future__ import annotations

from typing import Any

from protocol.codec import decode_server, encode, to_wire
from protocol.fields import TableOptions, TimeControl
from protocol.messages import (
    CreateTable,
    Join,
    Joined,
    Lobby,
    LobbySubscribe,
    Spectate,
    State,
    Update,
)
from protocol.player_messages import (
    ChangePassword,
    LobbyChat,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PasswordChanged,
    Resume,
)
from server.core.table import MemberId
from tests.server.test_core import codes, of, the
from tests.server.test_logins import SECRET, Accounts

DAY = 86400


def _game_of_days(h: Accounts) -> tuple[MemberId, MemberId, str]:
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    effects = h.send(ann, CreateTable(TableOptions(), False, "white", "white", TimeControl(days=3)))
    table_id = the(effects, ann, Joined).table_id
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    return ann, bob, table_id


def _clock(view: dict[str, Any]) -> dict[str, Any]:
    clock: dict[str, Any] = view["table"]["clock"]
    return clock


def test_a_version_2_spectator_sees_a_clock_of_days_as_a_clock_per_turn() -> None:
    h = Accounts()
    ann, _, table_id = _game_of_days(h)
    old = h.guest("Old", version=2)
    state = the(h.send(old, Spectate(table_id)), old, State)
    wire = decode_server(encode(state, 2), version=2)
    assert isinstance(wire, State)
    clock = _clock(wire.view)
    assert set(clock) == {"white", "black", "running", "initial", "increment", "per_turn"}
    assert (clock["initial"], clock["increment"], clock["per_turn"]) == (0, 0, 3 * DAY)
    assert clock["white"] == 3 * DAY * 1000 and clock["running"] == "white"
    # the update of a move too; a version-3 spectator keeps the keys of version 3
    new = h.guest("New", version=3)
    h.send(new, Spectate(table_id))
    moved = h.act(ann, table_id, "draw")
    old_update = the(moved, old, Update)
    clock = _clock(to_wire(old_update, 2)["view"])
    assert "days" not in clock and "deadline" not in clock and clock["per_turn"] == 3 * DAY
    assert clock["running"] == "black" and clock["black"] == 3 * DAY * 1000
    new_clock = _clock(to_wire(the(moved, new, Update), 3)["view"])
    assert new_clock["days"] == 3 and new_clock["deadline"] is not None
    assert new_clock["per_turn"] == 0


def test_versions_1_and_2_do_not_list_a_game_of_days() -> None:
    h = Accounts()
    _, _, days_id = _game_of_days(h)
    ann_live, _ = h.account("Cid")
    live = h.send(ann_live, CreateTable(TableOptions(), False, "white", "white", TimeControl(60)))
    live_id = the(live, ann_live, Joined).table_id
    listed: dict[int, list[str]] = {}
    for version in (1, 2, 3, 4):
        watcher = h.guest(f"W{version}", version=version)
        lobby = the(h.send(watcher, LobbySubscribe()), watcher, Lobby)
        decoded = decode_server(encode(lobby, version), version=version)
        assert isinstance(decoded, Lobby)
        listed[version] = sorted(t.table_id for t in decoded.tables)
    assert listed[1] == listed[2] == [live_id]
    assert listed[3] == listed[4] == sorted([days_id, live_id])


def test_resume_asks_for_the_login_before_looking_for_the_table() -> None:
    h = Accounts()
    guest = h.guest("Guest")
    assert codes(h.send(guest, Resume("no-such-table")), guest) == ["login_required"]
    ann, _ = h.account("Ann")
    assert codes(h.send(ann, Resume("no-such-table")), ann) == ["no_such_table"]


def test_lobby_chat_is_answered_when_the_sender_does_not_watch_the_lobby() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")  # not watching the lobby
    bob, _ = h.account("Bob")
    h.send(bob, LobbySubscribe())
    effects = h.send(ann, LobbyChat("hello all"))
    mine = the(effects, ann, LobbyChatMessage)
    assert [(e.sender, e.text) for e in mine.entries] == [("Ann", "hello all")]
    assert not mine.history
    assert the(effects, bob, LobbyChatMessage) == mine
    # a watcher gets it once, as before
    h.send(ann, LobbySubscribe())
    assert len(of(h.send(ann, LobbyChat("again")), ann, LobbyChatMessage)) == 1


def test_a_changed_password_logs_the_accounts_other_connections_out() -> None:
    h = Accounts()
    ann, token = h.account("Ann")
    tab = h.guest("Tab", version=4)  # a second tab of the page
    the(h.send(tab, Login("Ann", None, token)), tab, LoggedIn)
    old = h.guest("Old", version=3)
    the(h.send(old, Login("Ann", None, token)), old, LoggedIn)
    stranger, _ = h.account("Bob")
    effects = h.send(ann, ChangePassword(SECRET, "new secret words"))
    the(effects, ann, PasswordChanged)
    assert not of(effects, ann, LoggedOut)
    out = the(effects, tab, LoggedOut)
    assert out.reason == "password_changed" and out.name == "Ann (guest)"
    assert h.core.sessions[tab].account is None
    # version 3 gets the message it knows, without the reason
    old_out = the(effects, old, LoggedOut)
    assert to_wire(old_out, 3) == {"type": "logged_out", "name": "Ann (guest)"}
    assert h.core.sessions[old].account is None
    assert not of(effects, stranger, LoggedOut)
    # the tab, a guest now, speaks as nobody
    assert codes(h.send(tab, LobbyChat("still Ann?")), tab) == ["login_required"]
    # its own logout says no reason
    assert the(h.send(ann, Logout()), ann, LoggedOut).reason is None
