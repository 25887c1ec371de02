"""Challenges, resume, the lobby chat with ignore, and games of days, in the core without
sockets; a game of days goes on through a restart, its clock on the calendar."""

from __future__ import annotations

from pathlib import Path

from protocol.codec import encode
from protocol.fields import TableOptions, TimeControl
from protocol.messages import CreateTable, Error, Hello, Join, Joined, LobbySubscribe, State, Update
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChallengeTerms,
    Ignore,
    Ignoring,
    LobbyChat,
    LobbyChatMessage,
    LoggedIn,
    Login,
    PlayerNote,
    Resume,
)
from server.core.core import ServerCore
from server.core.store import ChallengeGoneOp, ChallengeOp, StoredPlayers
from server.core.table import MemberId
from server.storage.sqlite_store import SqliteStorage
from shared.board import ISLANDS
from shared.types import Seat
from tests.server.test_core import DAYS_SWEEP, WALL, codes, of, the, writes_of
from tests.server.test_logins import Accounts

DAY = 86400.0
DAYS3 = ChallengeTerms(TableOptions(), "white", "white", TimeControl(days=3))


def days_table(h: Accounts, white: MemberId, days: int) -> str:
    """A new table for a game of `days` days a move, `white` at it as White: its id."""
    clock = TimeControl(days=days)
    effects = h.send(white, CreateTable(TableOptions(), False, "white", "white", clock))
    return the(effects, white, Joined).table_id


def login(h: Accounts, name: str, token: str) -> MemberId:
    member = h.guest(name)
    the(h.send(member, Login(name, None, token)), member, LoggedIn)
    return member


def test_a_challenge_to_an_offline_player_waits_and_is_accepted_when_they_come() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    bob, bob_token = h.account("Bob")
    h.disconnect(bob)
    effects = h.send(ann, Challenge("bob", DAYS3))
    (op,) = writes_of(effects, ChallengeOp)
    challenge_id = op.challenge.challenge_id
    assert [c.recipient for c in the(effects, ann, Challenges).challenges] == ["Bob"]
    bob = h.guest("Bob")
    logged = h.send(bob, Login("Bob", None, bob_token))
    (waiting,) = the(logged, bob, Challenges).challenges
    assert (waiting.sender, waiting.terms) == ("Ann", DAYS3)
    accepted = h.send(bob, AnswerChallenge(challenge_id, "accept"))
    joined = the(accepted, bob, Joined)
    assert joined.seat == "black"
    note = the(accepted, ann, PlayerNote)
    assert (note.note, note.table_id, note.name) == ("challenge_accepted", joined.table_id, "Bob")
    assert writes_of(accepted, ChallengeGoneOp)[0].answer == "accept"
    assert the(accepted, ann, Challenges).challenges == []
    table = h.table(joined.table_id)
    assert table.correspondence and table.rated and table.status == "playing"
    white = table.seats[Seat.WHITE]
    assert white is not None and white.member is None and white.account == "ann"
    resumed = h.send(ann, Resume(joined.table_id))
    assert the(resumed, ann, Joined).seat == "white"
    assert the(resumed, ann, State).role == "white"
    assert codes(h.send(ann, AnswerChallenge(challenge_id, "accept")), ann) == ["no_such_challenge"]


def test_declined_withdrawn_ignored_and_refused_challenges() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    first = writes_of(h.send(ann, Challenge("Bob", DAYS3)), ChallengeOp)[0].challenge
    assert codes(h.send(ann, AnswerChallenge(first.challenge_id, "accept")), ann) == [
        "no_such_challenge"
    ]  # the sender cannot accept their own
    declined = h.send(bob, AnswerChallenge(first.challenge_id, "decline"))
    assert the(declined, ann, PlayerNote).note == "challenge_declined"
    second = writes_of(h.send(ann, Challenge("Bob", DAYS3)), ChallengeOp)[0].challenge
    withdrawn = h.send(ann, AnswerChallenge(second.challenge_id, "withdraw"))
    assert the(withdrawn, bob, PlayerNote).note == "challenge_withdrawn"
    errors = {
        "self": h.send(ann, Challenge("ANN", DAYS3)),
        "nobody": h.send(ann, Challenge("Nobody", DAYS3)),
        "terms": h.send(ann, Challenge("Bob", ChallengeTerms(clock=TimeControl(days=99)))),
    }
    assert [e.reason for e in of(errors["self"], ann, Error)] == ["self"]
    assert codes(errors["nobody"], ann) == ["no_such_player"]
    assert codes(errors["terms"], ann) == ["bad_challenge"]
    the(h.send(bob, Ignore("Ann", True)), bob, Ignoring)
    assert codes(h.send(ann, Challenge("Bob", DAYS3)), ann) == ["bad_challenge"]
    live = writes_of(h.send(bob, Challenge("Ann", ChallengeTerms())), ChallengeOp)[0].challenge
    h.disconnect(bob)
    assert codes(h.send(ann, AnswerChallenge(live.challenge_id, "accept")), ann) == [
        "bad_challenge"
    ]  # a live game needs its challenger connected


def test_the_lobby_chat_reaches_version_3_watchers_who_do_not_ignore_the_sender() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    guest = h.guest("Guest")
    old = h.guest("Old", version=2)
    for member in (ann, bob, guest, old):
        h.send(member, LobbySubscribe())
    assert codes(h.send(guest, LobbyChat("hi")), guest) == ["login_required"]
    h.send(bob, Ignore("ann", True))
    said = h.send(ann, LobbyChat("hello \x1b[31mall"))
    line = the(said, guest, LobbyChatMessage).entries[0]
    assert (line.sender, line.text) == ("Ann", "hello [31mall")
    assert not of(said, bob, LobbyChatMessage) and not of(said, old, LobbyChatMessage)
    assert the(said, ann, LobbyChatMessage)
    late = h.guest("Late")
    history = the(h.send(late, LobbySubscribe()), late, LobbyChatMessage)
    assert history.history and [e.text for e in history.entries] == ["hello [31mall"]
    old_late = h.guest("Older", version=2)
    assert not of(h.send(old_late, LobbySubscribe()), old_late, LobbyChatMessage)
    assert codes(h.send(ann, LobbyChat("x" * 301)), ann) == ["chat_too_long"]
    for _ in range(5):
        h.send(ann, LobbyChat("again"))
    assert codes(h.send(ann, LobbyChat("and again")), ann) == ["chat_rate_limited"]


def test_a_game_of_days_waits_for_its_players_and_the_flag_falls_after_three_days() -> None:
    h = Accounts(sweep_interval=DAYS_SWEEP)
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    table_id = days_table(h, ann, 3)
    h.send(bob, CreateTable())  # elsewhere
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    table = h.table(table_id)
    h.act(ann, table_id, "draw")  # white's turn ends: black has 3 days
    h.disconnect(ann)
    h.disconnect(bob)
    h.advance(h.now + 2 * DAY)  # nobody claims, nothing closes
    assert table_id in h.core.lobby.tables and table.status == "playing"
    h.advance(h.now + 1.01 * DAY)
    result = table.game.result
    assert result is not None and result.winner is Seat.WHITE and result.kind.value == "time"


def test_your_move_reaches_the_player_elsewhere_and_time_low_warns() -> None:
    h = Accounts(sweep_interval=DAYS_SWEEP)
    ann, _ = h.account("Ann")
    bob, bob_token = h.account("Bob")
    table_id = days_table(h, ann, 1)
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    elsewhere = login(h, "Bob", bob_token)  # Bob's other terminal, in the lobby
    moved = h.act(ann, table_id, "draw")
    note = the(moved, elsewhere, PlayerNote)
    assert (note.note, note.table_id, note.name) == ("your_move", table_id, "Ann")
    assert not of(moved, bob, PlayerNote)  # at the table, the update says it
    low = h.advance(h.now + 0.95 * DAY)
    assert the(low, elsewhere, PlayerNote).note == "time_low"


def test_a_game_of_days_survives_a_restart_with_its_deadline(tmp_path: Path) -> None:
    h = Accounts()
    ann, ann_token = h.account("Ann")
    bob, bob_token = h.account("Bob")
    table_id = days_table(h, ann, 3)
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    h.act(ann, table_id, "draw")
    version = h.table(table_id).version
    storage = SqliteStorage(tmp_path / "db.sqlite3")
    for batch in h.batches:
        storage.write(batch)
    # the server is down for a day; it comes back on a fresh monotonic clock
    wall = WALL + DAY
    core = ServerCore(h.config)
    players = StoredPlayers(
        storage.load_accounts(), storage.load_login_tokens(), [], storage.load_archive(), []
    )
    core.restore_players(players, 0.0, wall)
    core.restore(storage.load_open_tables(50), storage.table_ids(), 0.0, wall)
    storage.close()
    table = core.lobby.tables[table_id]
    assert table.clock is not None and table.clock.running is Seat.BLACK
    assert table.clock.left_at(Seat.BLACK, 0.0) == 2 * DAY  # one of its three days is gone
    member = core.connect("10.1.1.1", 0.0)
    assert isinstance(member, int)
    core.frame(member, encode(Hello(3, "Bob")), 0.0, wall)
    core.frame(member, encode(Login("Bob", None, bob_token)), 0.0, wall)
    resumed = core.frame(member, encode(Resume(table_id)), 0.0, wall)
    state = next(m for to, m, _ in resumed.sends if isinstance(m, State))
    assert state.version == version
    assert state.view["table"]["clock"]["deadline"] == WALL + 3 * DAY
    assert ann_token  # Ann comes back whenever she likes


def test_challenges_and_notes_reveal_no_hidden_card() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    h.send(ann, LobbySubscribe())
    sent = h.send(ann, Challenge("Bob", DAYS3))
    challenge_id = writes_of(sent, ChallengeOp)[0].challenge.challenge_id
    accepted = h.send(bob, AnswerChallenge(challenge_id, "accept"))
    table_id = the(accepted, bob, Joined).table_id
    h.send(bob, LobbyChat("good luck"))
    messages = [
        m
        for _, m in h.sent
        if not isinstance(m, State | Update) and getattr(m, "TYPE", "") != "history"
    ]
    data = b"".join(encode(m) for m in messages)
    assert h.table(table_id).game.hand[0]
    for island in ISLANDS:
        assert island.encode() not in data
