"""Where the server answered otherwise than docs/protocol.md says (issue 40, item 5): what a
version-1 or 2 peer sees of a game of days, the order of `resume`'s checks, `lobby_chat` from a
connection that does not watch the lobby; and the password changed on one connection logging the
account's others out (item 4). In the core, without sockets; the bytes as each version gets them."""

from __future__ import annotations

from typing import Any

from protocol.analysis_messages import Analyse
from protocol.codec import decode_server, encode, to_wire
from protocol.fields import TableOptions, TimeControl
from protocol.messages import (
    CreateTable,
    GetRecord,
    Join,
    Joined,
    Leave,
    Lobby,
    LobbySubscribe,
    Reclaim,
    Spectate,
    State,
    Update,
)
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChallengeTerms,
    ChangePassword,
    Ignore,
    Ignoring,
    LobbyChat,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PasswordChanged,
    PlayerNote,
    Resume,
)
from server.core.table import MemberId
from tests.server.test_core import DAYS_SWEEP, WALL, codes, of, the
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


# ----- what docs/protocol.md now says (issue 40, item 5's gaps), as the core does it --------


def test_login_with_both_or_neither_of_password_and_token_is_bad_login() -> None:
    h = Accounts()
    _, token = h.account("Ann")
    other = h.guest("Other")
    assert codes(h.send(other, Login("Ann", SECRET, token)), other) == ["bad_login"]
    assert codes(h.send(other, Login("Ann", None, None)), other) == ["bad_login"]


def test_resume_gives_a_new_seat_token_and_the_old_one_claims_nothing() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    joined = the(h.send(ann, CreateTable(TableOptions(), True, "white", "white")), ann, Joined)
    again, _ = h.account("Annie")  # another account's connection cannot resume it
    assert codes(h.send(again, Resume(joined.table_id)), again) == ["not_at_table"]
    other = h.guest("Tab")
    the(h.send(other, Login("Ann", SECRET, None)), other, LoggedIn)
    resumed = the(h.send(other, Resume(joined.table_id)), other, Joined)
    assert resumed.token != joined.token
    third = h.guest("Third")
    assert codes(h.send(third, Reclaim(joined.table_id, joined.token)), third) == ["bad_token"]
    the(h.send(third, Reclaim(joined.table_id, resumed.token)), third, Joined)


def test_ignore_refuses_oneself_and_unknown_names() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    h.account("Bob")
    guest = h.guest("Guest")
    assert codes(h.send(guest, Ignore("Bob", True)), guest) == ["login_required"]
    assert codes(h.send(ann, Ignore("Nobody", True)), ann) == ["no_such_player"]
    assert codes(h.send(ann, Ignore("ANN", True)), ann) == ["bad_name"]
    assert the(h.send(ann, Ignore("bob", True)), ann, Ignoring).names == ["Bob"]


def test_a_challenge_and_its_answers_are_answered_by_the_challenges_lists() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    sent = h.send(ann, Challenge("Bob", ChallengeTerms()))
    (info,) = the(sent, ann, Challenges).challenges  # the new id is in the sender's list
    assert the(sent, bob, Challenges).challenges == [info]
    assert the(sent, bob, PlayerNote).note == "challenge_received"
    # the challenger cannot accept (nor decline) their own challenge
    for answer in ("accept", "decline"):
        own = h.send(ann, AnswerChallenge(info.challenge_id, answer))
        assert codes(own, ann) == ["no_such_challenge"]
    assert codes(h.send(bob, AnswerChallenge(info.challenge_id, "withdraw")), bob) == [
        "no_such_challenge"
    ]
    declined = h.send(bob, AnswerChallenge(info.challenge_id, "decline"))
    assert the(declined, bob, Challenges).challenges == []
    assert the(declined, ann, Challenges).challenges == []
    assert the(declined, ann, PlayerNote).note == "challenge_declined"
    (again,) = the(h.send(ann, Challenge("Bob", ChallengeTerms())), ann, Challenges).challenges
    withdrawn = h.send(ann, AnswerChallenge(again.challenge_id, "withdraw"))
    assert the(withdrawn, ann, Challenges).challenges == []
    assert the(withdrawn, bob, PlayerNote).note == "challenge_withdrawn"


def test_a_game_of_days_against_the_computer_is_played_unrated() -> None:
    h = Accounts(sweep_interval=DAYS_SWEEP)
    ann, _ = h.account("Ann")
    create = CreateTable(TableOptions(), True, "white", "white", TimeControl(days=2), rated=True)
    effects = h.send(ann, create)
    state = the(effects, ann, State)
    assert state.status == "playing"
    clock = _clock(state.view)
    assert (clock["days"], clock["white"], clock["running"]) == (2, 2 * DAY * 1000, "white")
    assert clock["deadline"] == WALL + 2 * DAY
    table = h.table(state.table_id)
    assert not table.rated
    moved = h.act(ann, state.table_id, "draw")
    assert moved.computer_turns  # the computer moves as at any table
    h.disconnect(ann)
    h.advance(h.now + DAY)  # nobody gone is forfeited: the deadline decides
    assert table.status == "playing" and not table.closed


def test_the_clock_of_days_before_the_start() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    create = CreateTable(TableOptions(), False, "white", "white", TimeControl(days=3))
    clock = _clock(the(h.send(ann, create), ann, State).view)
    assert clock == {
        "white": 3 * DAY * 1000, "black": 3 * DAY * 1000, "running": None, "initial": 0,
        "increment": 0, "per_turn": 0, "days": 3, "deadline": None,
    }  # fmt: skip


def test_an_outsider_gets_neither_record_nor_analysis_of_a_running_game() -> None:
    h = Accounts()
    ann, _, table_id = _game_of_days(h)
    outsider, _ = h.account("Cid")
    old = h.guest("Old", version=2)
    for member in (outsider, old):
        assert codes(h.send(member, GetRecord(table_id)), member) == ["not_at_table"]
    assert codes(h.send(outsider, Analyse(table_id)), outsider) == ["not_at_table"]
    assert codes(h.send(ann, GetRecord(table_id)), ann) == ["game_not_over"]


def test_spectating_a_closed_table_is_no_such_table() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    joined = the(h.send(ann, CreateTable()), ann, Joined)
    h.send(ann, Leave(joined.table_id))  # a waiting table left by its only player closes
    guest = h.guest("Guest")
    assert codes(h.send(guest, Spectate(joined.table_id)), guest) == ["no_such_table"]
