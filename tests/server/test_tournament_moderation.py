"""A moderator's hand on a tournament, in the core without sockets (protocol version 4):
`moderate` `close_tournament` ends one at once with its standings as they stand, its game under
way abandoned, unrated and its table closed as close_table's is, its players and director told;
`hand_tournament` gives it another director. A non-moderator is refused and nothing changes; a
version-3 client sees nothing it did not see of a moderator's close_table; a restart finds the
tournament closed and its new director; the operator's commands (kahuna-server tournaments) are
applied as a moderator's and logged as the operator's."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol.codec import encode
from protocol.messages import Error, Resign, Spectate, TableClosed
from protocol.moderation_messages import Moderate, Moderation
from protocol.player_messages import Login, PlayerNote, Resume
from protocol.tournament_messages import (
    DirectTournament,
    JoinTournament,
    StartTournament,
    TournamentTerms,
    WatchTournament,
)
from server.core.core import ServerCore
from server.core.names import name_key
from server.core.store import (
    ArchiveOp,
    CloseOp,
    ModerationLogOp,
    PairingResultOp,
    StoredPlayers,
    TournamentAction,
    TournamentActionDoneOp,
    TournamentOp,
)
from server.core.table import MemberId
from server.storage.sqlite_store import SqliteStorage
from tests.server.test_core import WALL, codes, of, writes_of
from tests.server.test_logins import Accounts
from tests.server.tournament_harness import TOKENS, last_state, made, v4_account

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve")
CUP = TournamentTerms("Club night", "swiss", 3)


def moderator(h: Accounts, name: str = "Mira") -> MemberId:
    """A new account, logged in on version 4, that the operator made a moderator."""
    member = v4_account(h, name)
    h.took(h.core.moderators_now([name_key(name)], h.now, WALL))
    return member


def under_way(h: Accounts) -> tuple[dict[str, MemberId], str, str, str]:
    """Ann's Swiss of five, started: the first board's game resigned by its White, the second
    one's players at their seats, its game under way. The players, the tournament, the game
    decided's table and the one under way's."""
    players = {name: v4_account(h, name) for name in NAMES}
    tournament_id = made(h, players["Ann"], CUP)
    for member in players.values():
        h.send(member, JoinTournament(tournament_id))
    h.send(players["Ann"], StartTournament(tournament_id))
    decided, playing = last_state(h, players["Ann"]).rounds[0].games
    assert decided.table_id and playing.table_id
    h.send(players[decided.white], Resume(decided.table_id))
    h.send(players[decided.white], Resign(decided.table_id))
    for name in (playing.white, playing.black):
        h.send(players[name], Resume(playing.table_id))
    h.advance(h.now + 1)  # the result told to the watchers
    return players, tournament_id, decided.table_id, playing.table_id


def test_a_moderator_closes_a_tournament_under_way() -> None:
    h = Accounts()
    players, tournament_id, decided, playing = under_way(h)
    mira = moderator(h)
    ann, bob = players["Ann"], players["Bob"]
    before = last_state(h, ann)
    # anyone else is refused, and nothing changes: no write, nothing sent but the refusal
    for member in (bob, ann):  # a player, the director
        refused = h.send(member, Moderate("close_tournament", tournament_id, "spam"))
        assert codes(refused, member) == ["not_moderator"]
        assert not refused.writes and [to for to, _m, _v in refused.sends] == [member]
    assert codes(h.send(mira, Moderate("close_tournament", "nope", "spam")), mira) == [
        "no_such_tournament"
    ]
    closed = h.send(mira, Moderate("close_tournament", tournament_id, "an abusive name"))
    assert not codes(closed, mira)
    # the game under way: abandoned, unrated, archived, its table closed; no result in the cup
    (archived,) = [op.game for op in writes_of(closed, ArchiveOp)]
    assert (archived.table_id, archived.ending, archived.rated) == (playing, "abandoned", False)
    assert [op.table_id for op in writes_of(closed, CloseOp)] == [playing]
    assert playing not in h.core.lobby.tables and decided in h.core.lobby.tables
    assert not writes_of(closed, PairingResultOp)
    for name in NAMES:
        member = players[name]
        at_table = [m for m in of(closed, member, TableClosed) if m.table_id == playing]
        if name in (before.rounds[0].games[1].white, before.rounds[0].games[1].black):
            assert [m.code for m in at_table] == ["closed_by_moderator"]
        else:
            assert not at_table
        # every player and the director told, once
        notes = of(closed, member, PlayerNote)
        assert [(n.note, n.name) for n in notes] == [("tournament_closed", "Club night")]
    assert not of(closed, mira, PlayerNote)  # the moderator is in no tournament
    # finished and closed, with the standings as they stood: the bye and the resigned game
    (row,) = writes_of(closed, TournamentOp)
    assert row.tournament.status == "finished" and row.tournament.terms["closed"] is True
    assert row.tournament.standings is not None
    state = last_state(h, ann)
    assert state.summary.status == "finished" and state.summary.closed
    assert [g.result for g in state.rounds[0].games] == [before.rounds[0].games[0].result, None]
    assert len(state.rounds) == 1
    assert [(s.name, s.points) for s in state.standings] == [
        (s.name, s.points) for s in before.standings
    ]
    # the log, to every moderator
    (line,) = writes_of(closed, ModerationLogOp)
    assert (line.moderator, line.action, line.target, line.reason, line.name) == (
        "Mira", "close_tournament", tournament_id, "an abusive name", None,
    )  # fmt: skip
    (panel,) = of(closed, mira, Moderation)
    assert (panel.log[0].action, panel.log[0].target) == ("close_tournament", tournament_id)
    # over: neither its director nor a moderator ends it again
    again = h.send(ann, DirectTournament(tournament_id, "end"))
    assert [e.reason for e in of(again, ann, Error)] == ["tournament_finished"]
    again = h.send(mira, Moderate("close_tournament", tournament_id, "twice"))
    assert [(e.code, e.reason) for e in of(again, mira, Error)] == [
        ("bad_moderation", "tournament_finished")
    ]
    assert not again.writes
    h.advance(h.now + 3600)  # no round is paired later, no forfeit falls
    assert len(last_state(h, ann).rounds) == 1


def test_an_open_tournament_closed_by_a_moderator_takes_nobody() -> None:
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    mira = moderator(h)
    tournament_id = made(h, ann, TournamentTerms("Buy cheap gold", "swiss", 2, start=WALL + 600))
    h.send(bob, JoinTournament(tournament_id))
    closed = h.send(mira, Moderate("close_tournament", tournament_id, "spam"))
    assert [n.note for n in of(closed, bob, PlayerNote)] == ["tournament_closed"]
    assert [n.note for n in of(closed, ann, PlayerNote)] == ["tournament_closed"]
    state = last_state(h, ann)
    assert state.summary.status == "finished" and state.summary.closed
    assert state.standings == [] and state.rounds == []
    cid = v4_account(h, "Cid")
    refused = h.send(cid, JoinTournament(tournament_id))
    assert [e.reason for e in of(refused, cid, Error)] == ["tournament_finished"]
    h.advance(h.now + 3600)  # its start time passes: it does not start
    assert last_state(h, ann).rounds == []


def test_a_version_3_client_sees_of_it_only_what_a_closed_table_shows() -> None:
    """A version-3 spectator of the game under way and a version-3 connection of one of its
    players get, byte for byte, what a moderator's close_table of that table sends them:
    nothing of the tournament's closing is new to them."""

    def frames(action: str) -> tuple[list[bytes], list[bytes]]:
        TOKENS.clear()
        h = Accounts()
        players, tournament_id, _decided, playing = under_way(h)
        mira = moderator(h)
        spectator = h.guest("Vic", version=3)
        h.send(spectator, Spectate(playing))
        eve = h.guest("Eve3", version=3)  # Eve's second client, of version 3
        h.send(eve, Login("Eve", None, TOKENS["Eve"]))
        target = playing if action == "close_table" else tournament_id
        done = h.send(mira, Moderate(action, target, "spam"))  # type: ignore[arg-type]
        assert not codes(done, mira)
        assert players  # the cup's players are logged in throughout
        return (
            [encode(m, 3) for to, m, _v in done.sends if to == spectator],
            [encode(m, 3) for to, m, _v in done.sends if to == eve],
        )

    by_table = frames("close_table")
    by_tournament = frames("close_tournament")
    assert by_tournament == by_table
    assert by_tournament[0]  # the spectator was told: the game's end, the table closed


def test_a_moderator_hands_a_tournament_to_another_director() -> None:
    h = Accounts()
    ann, bob, cid = (v4_account(h, name) for name in ("Ann", "Bob", "Cid"))
    mira = moderator(h)
    tournament_id = made(h, ann, TournamentTerms("Cup", "swiss", 2))
    for member in (ann, bob, cid):
        h.send(member, JoinTournament(tournament_id))
    hand = Moderate("hand_tournament", tournament_id, "Ann left the club", name="Bob")
    refused = h.send(cid, hand)
    assert codes(refused, cid) == ["not_moderator"] and not refused.writes
    assert last_state(h, ann).summary.director == "Ann"
    for name, reason in (("Ann", "already_director"), ("Nobody", None), (None, None)):
        wrong = h.send(mira, Moderate("hand_tournament", tournament_id, "x", name=name))
        (error,) = of(wrong, mira, Error)
        assert (error.code, error.reason) == (
            ("bad_moderation", reason) if reason else ("no_such_player", None)
        )
        assert not wrong.writes
    handed = h.send(mira, hand)
    (row,) = writes_of(handed, TournamentOp)
    assert row.tournament.director == name_key("Bob") and row.tournament.status == "open"
    assert [(n.note, n.name) for n in of(handed, bob, PlayerNote)] == [
        ("tournament_director", "Cup")
    ]
    assert not of(handed, ann, PlayerNote)
    assert last_state(h, ann).summary.director == "Bob"
    (line,) = writes_of(handed, ModerationLogOp)
    assert (line.action, line.target, line.name) == ("hand_tournament", tournament_id, "Bob")
    (panel,) = of(handed, mira, Moderation)
    assert panel.log[0].name == "Bob"
    # the director's hand is Bob's now
    assert [e.reason for e in of(h.send(ann, StartTournament(tournament_id)), ann, Error)] == [
        "not_director"
    ]
    h.send(bob, StartTournament(tournament_id))
    assert last_state(h, ann).summary.status == "started"
    # a disabled account directs nothing
    dan = v4_account(h, "Dan")
    h.send(mira, Moderate("disable", "Dan", "spam"))
    assert dan not in h.core.sessions or h.core.sessions[dan].account is None
    disabled = h.send(mira, Moderate("hand_tournament", tournament_id, "x", name="Dan"))
    assert [(e.code, e.reason) for e in of(disabled, mira, Error)] == [
        ("bad_moderation", "disabled")
    ]


def restarted(h: Accounts, path: Path) -> None:
    """The core started again on what the first one wrote, as the server does."""
    storage = SqliteStorage(path / "db.sqlite3")
    for batch in h.batches:
        storage.write(batch)
    core = ServerCore(h.config)
    stored = StoredPlayers(
        storage.load_accounts(), storage.load_login_tokens(), [], storage.load_archive(), [],
        tournaments=storage.load_tournaments(), directors=storage.load_directors(),
    )  # fmt: skip
    core.restore_players(stored, h.now, WALL)
    core.restore_moderation(storage.load_moderation(100), h.now, WALL)
    core.restore(storage.load_open_tables(50), storage.table_ids(), h.now, WALL)
    assert storage.load_tournament_actions() == []
    storage.close()
    h.core = core


def test_a_closed_tournament_stays_closed_and_a_handed_one_directed_after_a_restart(
    tmp_path: Path,
) -> None:
    h = Accounts()
    players, tournament_id, _decided, playing = under_way(h)
    mira = moderator(h)
    other = made(h, players["Bob"], TournamentTerms("Other", "swiss", 1))
    h.send(mira, Moderate("close_tournament", tournament_id, "spam"))
    h.send(mira, Moderate("hand_tournament", other, "Bob is away", name="Cid"))
    closed = last_state(h, players["Ann"])
    restarted(h, tmp_path)
    watcher = h.guest("Watcher", version=4)
    h.send(watcher, WatchTournament(tournament_id))
    state = last_state(h, watcher)
    assert state.summary.status == "finished" and state.summary.closed
    assert state.rounds == closed.rounds and state.standings == closed.standings
    assert playing not in h.core.lobby.tables
    h.send(watcher, WatchTournament(other))
    assert last_state(h, watcher).summary.director == "Cid"
    assert not last_state(h, watcher).summary.closed
    again = moderator(h, "Mona")
    (panel,) = [m for m in h.sent_to(again) if isinstance(m, Moderation)]
    tournaments = [e for e in panel.log if e.action.endswith("_tournament")]
    assert [(e.moderator, e.action, e.target, e.name) for e in tournaments] == [
        ("Mira", "hand_tournament", other, "Cid"),
        ("Mira", "close_tournament", tournament_id, None),
    ]
    h.advance(h.now + 3600)
    assert len(last_state(h, watcher).rounds) == 0  # "Other", never started, waits


@pytest.mark.parametrize("when", ["running", "at_start"])
def test_the_operators_commands_are_applied_and_logged_as_the_operators(
    when: str, tmp_path: Path
) -> None:
    h = Accounts()
    players, tournament_id, _decided, playing = under_way(h)
    other = made(h, players["Bob"], TournamentTerms("Other", "swiss", 1))
    actions = [
        TournamentAction(1, other, "hand", name_key("Dan"), "Bob asked"),
        TournamentAction(2, tournament_id, "close", None, "the director is gone"),
        TournamentAction(3, tournament_id, "close", None, "again"),  # over by then: not done
        TournamentAction(4, other, "hand", "nobody", "no such account"),
    ]
    if when == "at_start":
        restarted(h, tmp_path)
        for name in ("Ann", "Dan"):
            member = h.guest(name, version=4)
            h.send(member, Login(name, None, TOKENS[name]))
            players[name] = member
        h.send(players["Ann"], WatchTournament(tournament_id))
    applied = h.took(h.core.tournament_actions(actions, h.now, WALL))
    assert [op.seq for op in writes_of(applied, TournamentActionDoneOp)] == [1, 2, 3, 4]
    assert [(op.moderator, op.action, op.target, op.name) for op in
            writes_of(applied, ModerationLogOp)] == [
        ("operator", "hand_tournament", other, "Dan"),
        ("operator", "close_tournament", tournament_id, None),
    ]  # fmt: skip
    state = last_state(h, players["Ann"])
    assert state.summary.closed and state.summary.status == "finished"
    assert playing not in h.core.lobby.tables
    notes = [n.note for n in of(applied, players["Dan"], PlayerNote)]
    assert [n for n in notes if n.startswith("tournament")] == [
        "tournament_director", "tournament_closed",
    ]  # fmt: skip
