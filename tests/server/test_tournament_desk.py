"""Tournaments in the core without sockets (protocol version 4): made, joined, left and started
by accounts, every round's tables made with both seats held at their colours, the players told,
results taken when the games end, the next round paired after the last game of a round, the
standings; the refusals; the first-move forfeit; a restart in the middle of a round from what
was written."""

from __future__ import annotations

from pathlib import Path

from protocol.codec import encode
from protocol.compat import for_version
from protocol.fields import TableOptions, TimeControl
from protocol.messages import CreateTable, Error, Rematch, Resign, State
from protocol.player_messages import PlayerNote, Resume
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    GetTournaments,
    JoinTournament,
    StartTournament,
    Tournaments,
    TournamentTerms,
    WatchTournament,
    WithdrawTournament,
)
from server.core.core import ServerCore
from server.core.names import name_key
from server.core.store import (
    ArchiveOp,
    EntrantGoneOp,
    EntrantOp,
    PairingResultOp,
    RoundOp,
    TournamentOp,
)
from shared.types import Seat
from tests.server.test_core import DAYS_SWEEP, WALL, codes, of, writes_of
from tests.server.test_logins import Accounts
from tests.server.tournament_harness import (
    NAMES,
    SWISS,
    last_state,
    made,
    made_and_joined,
    play_round,
    v4_account,
    v4_login,
    written,
)

BY_KEY = {name_key(name): name for name in NAMES}


def test_a_swiss_of_five_players_is_played_to_its_final_standings() -> None:
    h = Accounts()
    players = {name: v4_account(h, name) for name in NAMES}
    tournament_id = made(h, players["Ann"])
    for name in NAMES:
        h.send(players[name], JoinTournament(tournament_id))
    assert codes(h.send(players["Bob"], JoinTournament(tournament_id)), players["Bob"]) == [
        "bad_tournament"
    ]
    assert codes(h.send(players["Bob"], StartTournament(tournament_id)), players["Bob"]) == [
        "bad_tournament"
    ]  # only the director starts it
    started = h.send(players["Ann"], StartTournament(tournament_id))
    (paired,) = writes_of(started, RoundOp)
    assert paired.round.number == 1 and len(paired.round.games) == 2 and paired.round.bye
    for game in paired.round.games:
        table = h.core.lobby.tables[game.table_id or ""]
        assert table.status == "playing" and table.clock is not None and table.rated
        white, black = table.seats[Seat.WHITE], table.seats[Seat.BLACK]
        assert white is not None and black is not None
        assert (white.account, black.account) == (game.white, game.black)
        for key, other in ((game.white, game.black), (game.black, game.white)):
            member = players[BY_KEY[key]]
            note = [n for n in of(started, member, PlayerNote) if n.note == "tournament_round"]
            assert [(n.table_id, n.name) for n in note] == [(game.table_id, BY_KEY[other])]
    assert codes(h.send(players["Cid"], StartTournament(tournament_id)), players["Cid"])
    for number, loser in ((1, "Eve"), (2, "Dan"), (3, "Cid")):
        play_round(h, players, tournament_id, loser)
        state = last_state(h, players["Bob"])
        assert all(g.result is not None for g in state.rounds[number - 1].games)
    state = last_state(h, players["Ann"])
    assert state.summary.status == "finished" and len(state.rounds) == 3
    byes = [r.bye for r in state.rounds]
    assert None not in byes and len(set(byes)) == 3  # never twice to one player
    met = [frozenset((g.white, g.black)) for r in state.rounds for g in r.games]
    assert len(met) == len(set(met)) == 6  # no pairing twice
    points = {s.name: s.points for s in state.standings}
    assert sum(points.values()) == 3 * 2 + 3  # every game's point and the byes'
    assert state.standings[0].place == 1
    assert state.standings == sorted(state.standings, key=lambda s: s.place)
    finished = [op for b in h.batches for op in b if isinstance(op, TournamentOp)][-1]
    assert finished.tournament.status == "finished"
    assert finished.tournament.standings is not None
    archived = [op.game for b in h.batches for op in b if isinstance(op, ArchiveOp)]
    assert len(archived) == 6 and {(g.tournament_id, g.round) for g in archived} == {
        (tournament_id, 1), (tournament_id, 2), (tournament_id, 3),
    }  # fmt: skip
    assert not any(g.rated for g in archived)  # resigned at once: too short to rate
    listing = h.send(players["Eve"], GetTournaments())
    (listed,) = of(listing, players["Eve"], Tournaments)
    (summary,) = listed.tournaments
    assert (summary.status, summary.round, summary.rounds) == ("finished", 3, 3)


def test_joining_leaving_and_the_refusals() -> None:
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    guest = h.guest("Guest", version=4)
    assert codes(h.send(guest, CreateTournament(SWISS)), guest) == ["login_required"]
    bad_terms = [
        TournamentTerms("", "swiss", 3),
        TournamentTerms("Cup", "swiss", 0),
        TournamentTerms("Cup", "round_robin", 3),
        TournamentTerms("Cup", "swiss", 3, TimeControl(days=99)),
        TournamentTerms("Cup", "swiss", 3, forfeit_after=5),
        TournamentTerms("Cup", "swiss", 3, start=WALL - 1),
    ]
    for terms in bad_terms:
        refused = h.send(ann, CreateTournament(terms))
        assert codes(refused, ann) == ["bad_tournament"] and not refused.writes
    tournament_id = made(h, ann, TournamentTerms("Letters", "round_robin"))
    assert codes(h.send(bob, JoinTournament("nope")), bob) == ["no_such_tournament"]
    h.send(bob, JoinTournament(tournament_id))
    left = h.send(bob, WithdrawTournament(tournament_id))
    assert writes_of(left, EntrantGoneOp) and last_state(h, ann).players == []
    assert codes(h.send(bob, WithdrawTournament(tournament_id)), bob) == ["bad_tournament"]
    h.send(bob, JoinTournament(tournament_id))
    assert codes(h.send(ann, StartTournament(tournament_id)), ann) == ["bad_tournament"]
    h.send(ann, JoinTournament(tournament_id))
    h.send(ann, StartTournament(tournament_id))
    cid = v4_account(h, "Cid")
    late = h.send(cid, JoinTournament(tournament_id))
    assert [e.reason for e in of(late, cid, Error)] == ["round_robin_started"]
    h.send(cid, WatchTournament(tournament_id))
    assert last_state(h, cid).summary.status == "started"
    old = h.guest("Old", version=3)
    assert codes(h.raw(old, encode(GetTournaments(), 4)), old) == ["unknown_type"]


def test_a_player_without_a_first_move_loses_by_forfeit() -> None:
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    tournament_id = made(h, ann, TournamentTerms("Quick", "swiss", 1, forfeit_after=60))
    h.send(ann, JoinTournament(tournament_id))
    h.send(bob, JoinTournament(tournament_id))
    h.send(ann, StartTournament(tournament_id))
    (pairing,) = last_state(h, ann).rounds[0].games
    h.advance(h.now + 59)
    assert last_state(h, ann).rounds[0].games[0].result is None
    ended = h.advance(h.now + 2)
    (result,) = writes_of(ended, PairingResultOp)
    assert result.outcome == "black_won_by_forfeit"  # White never moved
    state = last_state(h, ann)
    assert state.summary.status == "finished"
    assert (state.standings[0].name, state.standings[0].points) == (pairing.black, 1.0)


def test_a_restart_in_the_middle_of_a_round_goes_on(tmp_path: Path) -> None:
    h = Accounts()
    players = {name: v4_account(h, name) for name in NAMES[:4]}
    tournament_id = made_and_joined(
        h, players["Ann"], players.values(), TournamentTerms("Cup", "swiss", 2)
    )
    h.send(players["Ann"], StartTournament(tournament_id))
    first, second = last_state(h, players["Ann"]).rounds[0].games
    assert first.table_id and second.table_id
    resigner = players[first.white]
    h.send(resigner, Resume(first.table_id))
    h.send(resigner, Resign(first.table_id))
    storage, stored = written(h, tmp_path)
    core = ServerCore(h.config)
    core.restore_players(stored, 0.0, WALL)
    core.restore(storage.load_open_tables(50), storage.table_ids(), 0.0, WALL)
    storage.close()
    h.core, h.now = core, 0.0
    watcher = h.guest("Watcher", version=4)
    h.send(watcher, WatchTournament(tournament_id))
    state = last_state(h, watcher)
    assert [g.result for g in state.rounds[0].games] == ["black_won", None]
    before = len(h.sent)  # the member ids of the first core's connections come again
    bob = v4_login(h, second.white)
    notes = [m for to, m in h.sent[before:] if to == bob and isinstance(m, PlayerNote)]
    assert [(n.note, n.table_id, n.name) for n in notes] == [
        ("tournament_round", second.table_id, second.black)
    ]  # at login: the game waiting for them
    h.send(bob, Resume(second.table_id))
    h.send(bob, Resign(second.table_id))
    state = last_state(h, watcher)
    assert len(state.rounds) == 2 and state.summary.round == 2  # the next round, paired


DAY = 86400.0


def test_a_double_round_robin_by_correspondence_goes_on_by_the_calendar() -> None:
    """Four players, every pairing twice with the seats swapped, a day a move: nobody moves, so
    every game is lost on time by White after a day, and each round is paired as the last game
    of the one before ends; no first-move forfeit in a game of days (the clock decides)."""
    h = Accounts(sweep_interval=DAYS_SWEEP)  # six days
    players = {name: v4_account(h, name) for name in NAMES[:4]}
    terms = TournamentTerms("Letters", "double_round_robin", clock=TimeControl(days=1))
    tournament_id = made_and_joined(h, players["Ann"], players.values(), terms)
    h.send(players["Ann"], StartTournament(tournament_id))
    assert last_state(h, players["Ann"]).summary.rounds == 6
    for number in range(1, 7):
        state = last_state(h, players["Bob"])
        assert len(state.rounds) == number and state.rounds[-1].bye is None
        assert all(g.result is None for g in state.rounds[-1].games)
        # the round was paired when the last flag of the one before fell, a day after it
        h.advance((number - 0.01) * DAY)
        assert all(g.result is None for g in last_state(h, players["Bob"]).rounds[-1].games)
        h.advance((number + 0.01) * DAY)
    state = last_state(h, players["Ann"])
    assert state.summary.status == "finished"
    games = [(g.white, g.black) for r in state.rounds for g in r.games]
    assert len(games) == len(set(games)) == 12  # every pairing twice, the seats swapped
    assert {frozenset(g) for g in games} == {
        frozenset((a, b)) for a in NAMES[:4] for b in NAMES[:4] if a < b
    }
    # White never moved: lost by the clock of days, a game not played (docs/tournaments.md)
    assert {g.result for r in state.rounds for g in r.games} == {"black_won_by_forfeit"}
    assert sorted(s.points for s in state.standings) == [3.0] * 4  # three games as Black each


def test_a_late_joiner_and_a_withdrawal_between_rounds_of_a_swiss() -> None:
    h = Accounts()
    players = {name: v4_account(h, name) for name in NAMES[:4]}
    tournament_id = made(h, players["Ann"], TournamentTerms("Cup", "swiss", 2))
    for name in ("Ann", "Bob", "Cid"):
        h.send(players[name], JoinTournament(tournament_id))
    h.send(players["Ann"], StartTournament(tournament_id))
    late = h.send(players["Dan"], JoinTournament(tournament_id))
    (entrant,) = [op.entrant for op in writes_of(late, EntrantOp)]
    assert (entrant.account, entrant.joined) == ("dan", 2)  # into the next round, no points
    (game,) = last_state(h, players["Ann"]).rounds[0].games
    out = next(name for name in ("Ann", "Bob", "Cid") if name not in (game.white, game.black))
    left = h.send(players[out], WithdrawTournament(tournament_id))  # the one with the bye
    assert [op.entrant.left for op in writes_of(left, EntrantOp)] == [1]
    h.send(players[game.white], Resume(game.table_id or ""))
    h.send(players[game.white], Resign(game.table_id or ""))
    state = last_state(h, players["Ann"])
    (second,) = state.rounds[1].games
    assert out not in (second.white, second.black) and state.rounds[1].bye is not None
    assert "Dan" in (second.white, second.black, state.rounds[1].bye)
    withdrawn = {p.name: p.withdrawn for p in state.players}
    assert withdrawn == {
        "Ann": out == "Ann",
        "Bob": out == "Bob",
        "Cid": out == "Cid",
        "Dan": False,
    }


def test_a_tournament_starts_at_its_time_or_ends_without_two_players() -> None:
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    timed = made(h, ann, TournamentTerms("At eight", "swiss", 1, start=WALL + 600))
    empty = made(h, ann, TournamentTerms("Nobody came", "round_robin", start=WALL + 600))
    h.send(ann, JoinTournament(timed))
    h.send(bob, JoinTournament(timed))
    h.send(ann, JoinTournament(empty))
    h.advance(h.now + 599)
    assert last_state(h, ann).summary.status == "open"
    started = h.advance(h.now + 2)
    assert [op.round.tournament_id for op in writes_of(started, RoundOp)] == [timed]
    statuses = {op.tournament.tournament_id: op.tournament.status
                for op in writes_of(started, TournamentOp)}  # fmt: skip
    assert statuses == {timed: "started", empty: "finished"}
    assert codes(h.send(ann, StartTournament(timed)), ann) == ["bad_tournament"]


def test_the_director_removes_a_player_draws_a_round_and_ends_the_tournament() -> None:
    h = Accounts()
    players = {name: v4_account(h, name) for name in NAMES[:4]}
    ann = players["Ann"]
    tournament_id = made_and_joined(h, ann, players.values(), TournamentTerms("Cup", "swiss", 3))
    bob = players["Bob"]
    direct = DirectTournament(tournament_id, "remove", "Dan")
    assert [e.reason for e in of(h.send(bob, direct), bob, Error)] == ["not_director"]
    h.send(ann, direct)
    assert [p.name for p in last_state(h, ann).players] == ["Ann", "Bob", "Cid"]
    h.send(ann, StartTournament(tournament_id))
    h.send(ann, DirectTournament(tournament_id, "draw_round"))
    state = last_state(h, ann)
    assert [g.result for g in state.rounds[0].games] == ["draw"]
    assert len(state.rounds) == 2  # the next round paired as the last game ended
    ended = h.send(ann, DirectTournament(tournament_id, "end"))
    state = last_state(h, ann)
    assert state.summary.status == "finished" and len(state.rounds) == 2
    assert [g.result for g in state.rounds[1].games] == ["draw"]
    assert not writes_of(ended, RoundOp)
    assert writes_of(ended, TournamentOp)[-1].tournament.status == "finished"
    refused = h.send(ann, DirectTournament(tournament_id, "draw_round"))
    assert [e.reason for e in of(refused, ann, Error)] == ["tournament_finished"]


def test_a_round_is_paired_on_a_full_server() -> None:
    """A tournament's tables are owed to its players: made even when the server holds all the
    tables it can (a round half made would leave the tournament stuck)."""
    h = Accounts(max_tables=2)
    players = {name: v4_account(h, name) for name in NAMES[:4]}
    tournament_id = made_and_joined(
        h, players["Ann"], players.values(), TournamentTerms("Cup", "swiss", 1)
    )
    for name in ("Guest", "Other"):  # the server is full: two games against the computer
        guest = h.guest(name, version=4)
        h.send(guest, CreateTable(TableOptions(), True, "white"))
    assert [t.status for t in h.core.lobby.tables.values()] == ["playing", "playing"]
    started = h.send(players["Ann"], StartTournament(tournament_id))
    (paired,) = writes_of(started, RoundOp)
    assert all(g.table_id in h.core.lobby.tables for g in paired.round.games)
    assert len(h.core.lobby.tables) == 4


def test_a_paused_tournament_pairs_no_round_until_resumed_and_a_players_list() -> None:
    h = Accounts()
    players = {name: v4_account(h, name) for name in NAMES[:3]}
    ann = players["Ann"]
    tournament_id = made(h, ann, TournamentTerms("Cup", "swiss", 2))
    other = made(h, ann, TournamentTerms("Other", "swiss", 1))
    for name in ("Ann", "Bob"):
        h.send(players[name], JoinTournament(tournament_id))
    h.send(ann, StartTournament(tournament_id))
    paused = h.send(ann, DirectTournament(tournament_id, "pause"))
    assert writes_of(paused, TournamentOp)[0].tournament.terms["paused"] is True
    assert last_state(h, ann).summary.paused
    (game,) = last_state(h, ann).rounds[0].games
    h.send(players[game.white], Resume(game.table_id or ""))
    h.send(players[game.white], Resign(game.table_id or ""))
    assert last_state(h, ann).rounds[0].games[0].result is None  # told within a second
    h.advance(h.now + 1)  # the results of a second go out together
    state = last_state(h, ann)
    assert state.rounds[0].games[0].result == "black_won" and len(state.rounds) == 1
    h.send(ann, DirectTournament(tournament_id, "resume"))
    state = last_state(h, ann)
    assert len(state.rounds) == 2 and not state.summary.paused
    cid = players["Cid"]
    (mine,) = of(h.send(cid, GetTournaments("bob")), cid, Tournaments)
    assert mine.name == "Bob" and [t.tournament_id for t in mine.tournaments] == [tournament_id]
    (every,) = of(h.send(cid, GetTournaments()), cid, Tournaments)
    assert [t.tournament_id for t in every.tournaments] == [other, tournament_id]  # newest first
    assert codes(h.send(cid, GetTournaments("Nobody")), cid) == ["no_such_player"]


def test_a_tournaments_table_says_so_and_has_no_rematch() -> None:
    """Version 4's view says a tournament's table with its name and round (versions 1 to 3 do
    not see it); a rematch there is refused: the tournament pairs the next game."""
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    tournament_id = made(h, ann, TournamentTerms("Club night", "swiss", 2))
    h.send(ann, JoinTournament(tournament_id))
    h.send(bob, JoinTournament(tournament_id))
    h.send(ann, StartTournament(tournament_id))
    (pairing,) = last_state(h, ann).rounds[0].games
    assert pairing.table_id is not None
    resumed = h.send(ann, Resume(pairing.table_id))
    (state,) = of(resumed, ann, State)
    said = {"tournament_id": tournament_id, "name": "Club night", "round": 1}
    assert state.view["table"]["tournament"] == said
    for version in (1, 2, 3):
        view = for_version(state, version)
        assert isinstance(view, State) and "tournament" not in view.view.get("table", {})
    assert for_version(state, 4) is state
    h.send(bob, Resume(pairing.table_id))
    h.send(ann, Resign(pairing.table_id))
    for member in (ann, bob):
        refused = h.send(member, Rematch(pairing.table_id))
        (error,) = of(refused, member, Error)
        assert (error.code, error.reason) == ("no_offer", "tournament_game")
    table = h.core.lobby.tables[pairing.table_id]
    assert table.rematch_offer is None and table.rematch_to is None
    (second,) = last_state(h, ann).rounds[1].games  # the tournament's own next game
    assert second.table_id is not None and second.table_id != pairing.table_id
    resumed = h.send(bob, Resume(second.table_id))
    (state,) = of(resumed, bob, State)
    assert state.view["table"]["tournament"] == {**said, "round": 2}
    elsewhere = h.send(ann, CreateTable(TableOptions()))
    (own,) = of(elsewhere, ann, State)
    assert "tournament" not in own.view["table"]  # any other table: no key at all
