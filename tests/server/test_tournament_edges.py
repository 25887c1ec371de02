"""Tournaments at the edges the issue names (issue 38, "Checks" and "Bad input"): a round-robin
of twelve by correspondence, moved on by an injected clock, to its final table; a first move
racing its forfeit (docs/tournaments.md, "Edges"), at the forfeit time and either side of it,
the move or the timer handled first; a director who leaves (a dropped connection, a logout, a
withdrawal as a player) and a tournament that goes on; a player who withdraws, or is removed,
while their own game of the round is played."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from protocol.fields import TimeControl
from protocol.messages import Command, Error, Resign, State
from protocol.player_messages import LoggedIn, Login, Logout, Resume
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    JoinTournament,
    Pairing,
    StartTournament,
    TournamentState,
    TournamentTerms,
    WatchTournament,
    WithdrawTournament,
)
from server.core.store import ArchiveOp, PairingResultOp
from server.core.table import MemberId
from shared.history import Move
from shared.types import Seat
from tests.conftest import Client, ServerFactory
from tests.server.test_core import codes, of
from tests.server.test_logins import SECRET, Accounts
from tests.server.tournament_harness import last_state, made, made_and_joined, v4_account, v4_login
from tests.server.tournament_sockets import (
    entered,
    login,
    registered,
    resign,
    round_note,
    state_with,
)

TWELVE = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea")
DAY = 86_400.0


def test_a_round_robin_of_twelve_by_correspondence_goes_to_its_final_table() -> None:
    """A day a move and nobody moves: each game is lost on time by White a day after its round
    is paired (the clock moved by the core's ticks, as a suspended machine's would be), and the
    next round is paired as the last game of the one before ends; eleven rounds, every pair
    once, no bye (an even count), twelve lines in the final table."""
    h = Accounts()
    players = {name: v4_account(h, name) for name in TWELVE}
    terms = TournamentTerms("Winter letters", "round_robin", clock=TimeControl(days=1))
    tournament_id = made_and_joined(h, players["Ann"], players.values(), terms)
    h.send(players["Ann"], StartTournament(tournament_id))
    assert last_state(h, players["Ann"]).summary.rounds == 11
    for number in range(1, 12):
        state = last_state(h, players["Lea"])
        assert len(state.rounds) == number and state.rounds[-1].bye is None
        assert len(state.rounds[-1].games) == 6
        assert all(g.result is None for g in state.rounds[-1].games)
        # the clock jumps (a tick at every second of eleven days would take half a minute):
        # a second before the round's flags fall nothing has, a second after all have
        paired = h.now
        h.tick(paired + DAY - 1)
        assert all(g.result is None for g in last_state(h, players["Lea"]).rounds[-1].games)
        h.tick(paired + DAY + 1)
    state = last_state(h, players["Ann"])
    assert state.summary.status == "finished"
    pairs = [frozenset((g.white, g.black)) for r in state.rounds for g in r.games]
    assert len(pairs) == len(set(pairs)) == 66  # every pair once
    assert set(pairs) == {frozenset((a, b)) for a in TWELVE for b in TWELVE if a < b}
    # White never moved in any game: each lost by the clock of days, a game not played
    assert {g.result for r in state.rounds for g in r.games} == {"black_won_by_forfeit"}
    whites = {name: sum(g.white == name for r in state.rounds for g in r.games) for name in TWELVE}
    assert all(5 <= count <= 6 for count in whites.values())  # Berger's tables balance the seats
    assert sorted(s.name for s in state.standings) == sorted(TWELVE)
    assert sorted(s.points for s in state.standings) == sorted(11.0 - w for w in whites.values())


# ----- a first move racing its forfeit ---------------------------------------------------------

FORFEIT = 60.0  # the director's time for a first move


def a_game(h: Accounts, terms: TournamentTerms) -> tuple[dict[str, MemberId], str, Pairing]:
    """Ann, Bob, Cid and Dan in a Swiss of `terms`, started, both players of the first board
    at their seats: the players, the tournament and that board's pairing."""
    players = {name: v4_account(h, name) for name in ("Ann", "Bob", "Cid", "Dan")}
    tournament_id = made_and_joined(h, players["Ann"], players.values(), terms)
    h.send(players["Ann"], StartTournament(tournament_id))
    pairing = last_state(h, players["Ann"]).rounds[0].games[0]
    assert pairing.table_id is not None
    for name in (pairing.white, pairing.black):
        h.send(players[name], Resume(pairing.table_id))
    return players, tournament_id, pairing


def results_of(h: Accounts, table_id: str) -> tuple[list[str], int]:
    """Everything written of one game's end: its tournament results, its archive entries."""
    ops = [op for batch in h.batches for op in batch]
    board = [
        op for op in ops if isinstance(op, PairingResultOp) and (op.number, op.board) == (1, 1)
    ]
    archived = [op for op in ops if isinstance(op, ArchiveOp) and op.game.table_id == table_id]
    return [op.outcome for op in board], len(archived)


QUICK = TournamentTerms("Quick", "swiss", 2, TimeControl(300, 3), forfeit_after=int(FORFEIT))


@pytest.mark.parametrize(
    ("offset", "timer_first"),
    [(0.0, True), (0.0, False), (0.25, False)],
    ids=["at-the-time-timer-first", "at-the-time-move-first", "just-after-timer-late"],
)
def test_a_first_move_at_or_after_the_forfeit_time_loses_by_forfeit(
    offset: float, timer_first: bool
) -> None:
    """White's first move comes at the forfeit time (the timer handled before it, or not yet),
    or a quarter second after it with the timer not yet handled (a busy loop): each time the
    forfeit falls first, as a clock's flag does before a late move, the move is refused as
    game over, and the game has one result, written once."""
    h = Accounts()
    players, _tournament_id, pairing = a_game(h, QUICK)
    table_id = pairing.table_id or ""
    white = players[pairing.white]
    due = h.now + FORFEIT
    if timer_first:
        h.advance(due)
    else:
        h.now = due + offset  # the move is handled before the timer that is due
    version = h.core.lobby.tables[table_id].version
    moved = h.send(white, Command(table_id, version, "draw"))
    assert codes(moved, white) == ["game_over"]
    h.advance(due + FORFEIT * 3)  # any timer left over finds the game over
    assert results_of(h, table_id) == (["black_won_by_forfeit"], 1)
    state = last_state(h, players["Ann"])
    assert state.rounds[0].games[0].result == "black_won_by_forfeit"
    table = h.core.lobby.tables[table_id]
    result = table.game.result
    assert result is not None and result.winner is Seat.BLACK
    assert result.kind.value == "forfeit"
    assert not [e for e in table.game.log if isinstance(e, Move)]  # the move was not made


def test_a_first_move_just_before_the_forfeit_time_stands() -> None:
    """A quarter second before the forfeit time White's first move is made; the timer, due a
    moment later, finds White has moved and waits for Black's first move, whose time counts
    from White's; Black missing it loses by forfeit then, and only then."""
    h = Accounts()
    players, _tournament_id, pairing = a_game(h, QUICK)
    table_id = pairing.table_id or ""
    white = players[pairing.white]
    h.now = h.now + FORFEIT - 0.25
    moved_at = h.now
    version = h.core.lobby.tables[table_id].version
    moved = h.send(white, Command(table_id, version, "draw"))
    assert not of(moved, white, Error)
    assert [e.seat for e in h.core.lobby.tables[table_id].game.log if isinstance(e, Move)] == [
        Seat.WHITE
    ]
    h.advance(moved_at + FORFEIT - 0.01)
    assert results_of(h, table_id) == ([], 0)
    assert h.core.lobby.tables[table_id].game.to_move is Seat.BLACK
    h.advance(moved_at + FORFEIT)
    # Black never moved: a game not played, as the tie-breaks count it (_outcome)
    assert results_of(h, table_id) == (["white_won_by_forfeit"], 1)
    assert last_state(h, players["Ann"]).rounds[0].games[0].result == "white_won_by_forfeit"


# ----- a director who leaves -------------------------------------------------------------------


def resign_round(
    h: Accounts, players: dict[str, MemberId], watcher: MemberId, away: str = ""
) -> None:
    """Every game of the current round still played ended by a resignation: its White's, or
    its Black's where White is `away`."""
    for pairing in last_state(h, watcher).rounds[-1].games:
        if pairing.result is None and pairing.table_id is not None:
            resigner = players[pairing.black if pairing.white == away else pairing.white]
            h.send(resigner, Resume(pairing.table_id))
            h.send(resigner, Resign(pairing.table_id))


@pytest.mark.parametrize("how", ["connection_drops", "logs_out", "withdraws", "removes_self"])
def test_a_tournament_goes_on_when_its_director_leaves(how: str) -> None:
    """Ann makes and directs a Swiss of three rounds and plays in it. In round one she goes:
    her connection drops, she logs out, she withdraws as a player, or removes herself. The
    tournament needs no director to go on: the round's games end, the next rounds are paired
    (without her once she is out as a player) and it finishes with its standings. Nobody
    else may direct it meanwhile; back (logged in again, anywhere) she directs it as before."""
    h = Accounts()
    players = {name: v4_account(h, name) for name in ("Ann", "Bob", "Cid", "Dan")}
    ann, bob = players["Ann"], players["Bob"]
    tournament_id = made_and_joined(h, ann, players.values(), TournamentTerms("Cup", "swiss", 3))
    h.send(ann, StartTournament(tournament_id))
    watcher = h.guest("Watcher", version=4)
    h.send(watcher, WatchTournament(tournament_id))
    if how == "connection_drops":
        h.disconnect(ann)
    elif how == "logs_out":
        h.send(ann, Logout())
    else:
        leave = (
            WithdrawTournament(tournament_id)
            if how == "withdraws"
            else DirectTournament(tournament_id, "remove", "Ann")
        )
        assert not of(h.send(ann, leave), ann, Error)
    refused = h.send(bob, DirectTournament(tournament_id, "pause"))
    assert [e.reason for e in of(refused, bob, Error)] == ["not_director"]
    if how == "logs_out":
        assert codes(h.send(ann, DirectTournament(tournament_id, "pause")), ann) == [
            "login_required"
        ]
    out = how in ("withdraws", "removes_self")
    away = "Ann" if how in ("connection_drops", "logs_out") else ""
    resign_round(h, players, watcher, away)  # her game too: its seats are held for its players
    state = last_state(h, watcher)
    assert len(state.rounds) == 2 and all(g.result for g in state.rounds[0].games)
    second = {n for g in state.rounds[1].games for n in (g.white, g.black)} | {state.rounds[1].bye}
    assert ("Ann" in second) is not out
    if how == "connection_drops":
        ann = players["Ann"] = v4_login(h, "Ann")  # back, on a new connection
    elif how == "logs_out":  # back with her password (the logout forgot the token)
        assert of(h.send(ann, Login("Ann", SECRET, None)), ann, LoggedIn)
    paused = h.send(ann, DirectTournament(tournament_id, "pause"))
    assert not of(paused, ann, Error) and last_state(h, watcher).summary.paused
    h.send(ann, DirectTournament(tournament_id, "resume"))
    for _round in (2, 3):
        resign_round(h, players, watcher)
        h.advance(h.now + 1)  # the results of a second go out together
    state = last_state(h, watcher)
    assert state.summary.status == "finished" and len(state.rounds) == 3
    assert [s.withdrawn for s in state.standings if s.name == "Ann"] == [out]
    assert state.summary.director == "Ann"


def test_a_director_who_left_ends_the_tournament_from_anywhere() -> None:
    """The director's connection dropped in the middle of a round; logged in again on another
    connection, she ends the tournament: the games still played are drawn, the final standings
    kept, her own game's result among them."""
    h = Accounts()
    players = {name: v4_account(h, name) for name in ("Ann", "Bob", "Cid", "Dan")}
    tournament_id = made_and_joined(
        h, players["Ann"], players.values(), TournamentTerms("Cup", "swiss", 3)
    )
    h.send(players["Ann"], StartTournament(tournament_id))
    h.disconnect(players["Ann"])
    ann = v4_login(h, "Ann")
    h.send(ann, DirectTournament(tournament_id, "end"))
    state = last_state(h, players["Bob"])
    assert state.summary.status == "finished" and len(state.rounds) == 1
    assert [g.result for g in state.rounds[0].games] == ["draw", "draw"]
    assert sorted(s.points for s in state.standings) == [0.5] * 4


# ----- a player who withdraws while their game is played ---------------------------------------


@pytest.mark.parametrize("removed", [False, True], ids=["withdraws", "is-removed"])
def test_a_player_out_while_their_game_is_played_keeps_that_game_and_its_result(
    removed: bool,
) -> None:
    """Bob leaves the Swiss (or its director removes him) while his game of round one is
    played: the game goes on at its table, his moves are taken, and its result counts for
    both players, in points and tie-breaks (a game played: both moved); from round two he is
    paired no more, and he stays in the standings, marked withdrawn."""
    h = Accounts()
    players = {name: v4_account(h, name) for name in ("Ann", "Bob", "Cid", "Dan")}
    ann, bob = players["Ann"], players["Bob"]
    tournament_id = made_and_joined(
        h, ann, players.values(), TournamentTerms("Cup", "swiss", 2, TimeControl(300, 3))
    )
    h.send(ann, StartTournament(tournament_id))
    (game,) = [g for g in last_state(h, ann).rounds[0].games if "Bob" in (g.white, g.black)]
    table_id = game.table_id or ""
    opponent = game.black if game.white == "Bob" else game.white
    h.send(bob, Resume(table_id))
    h.send(players[opponent], Resume(table_id))
    white, black = players[game.white], players[game.black]
    version = h.core.lobby.tables[table_id].version
    assert not of(h.send(white, Command(table_id, version, "draw")), white, Error)
    gone = (
        h.send(ann, DirectTournament(tournament_id, "remove", "Bob"))
        if removed
        else h.send(bob, WithdrawTournament(tournament_id))
    )
    assert not of(gone, bob, Error) and not of(gone, ann, Error)
    table = h.core.lobby.tables[table_id]
    assert table.status == "playing" and not table.game.is_over  # the game goes on
    state = last_state(h, ann)
    assert [p.withdrawn for p in state.players if p.name == "Bob"] == [True]
    assert [g.result for g in state.rounds[0].games if "Bob" in (g.white, g.black)] == [None]
    # Black's first move, made after Bob left: taken as any, whoever of the two it is
    assert not of(h.send(black, Command(table_id, table.version, "draw")), black, Error)
    h.send(players[opponent], Resign(table_id))  # Bob wins the game he left the tournament in
    for other in last_state(h, ann).rounds[0].games:
        if other.result is None and other.table_id != table_id:
            h.send(players[other.white], Resume(other.table_id or ""))
            h.send(players[other.white], Resign(other.table_id or ""))
    state = last_state(h, ann)
    bob_won = "white_won" if game.white == "Bob" else "black_won"
    assert [g.result for g in state.rounds[0].games if g.table_id == table_id] == [bob_won]
    assert len(state.rounds) == 2  # paired when the last game of round one ended
    second = state.rounds[1]
    assert "Bob" not in {n for g in second.games for n in (g.white, g.black)} | {second.bye}
    assert second.bye is not None  # three left: one has the bye
    (bob_line,) = [s for s in state.standings if s.name == "Bob"]
    assert (bob_line.points, bob_line.wins, bob_line.withdrawn) == (1.0, 1, True)
    (their_line,) = [s for s in state.standings if s.name == opponent]
    assert their_line.points == 0.0


async def test_over_sockets_a_director_whose_connection_drops_comes_back_to_end_it(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    """A real server: Ann makes a Swiss of three rounds for four, starts it, sits down at her
    game of round one and her connection closes. The round is played out without her (her
    opponent resigns), round two is paired; she logs in again, is told of her game waiting,
    and ends the tournament: the games still played drawn, the final standings sent to those
    who watch it."""
    server = await make_server(db=str(tmp_path / "db.sqlite3"), password_cost="test")
    clients = await registered(server.port, ("Ann", "Bob", "Cid", "Dan"))
    ann, bob = clients["Ann"], clients["Bob"]
    tournament_id = await entered(ann, clients.values(), TournamentTerms("Cup", "swiss", 3))
    await ann.send(StartTournament(tournament_id))
    first = (await state_with(bob, 1)).rounds[0]
    (hers,) = [g for g in first.games if "Ann" in (g.white, g.black)]
    assert hers.table_id is not None
    await ann.send(Resume(hers.table_id))
    await ann.expect(State)
    await ann.close()
    for game in first.games:
        resigner = game.black if game.white == "Ann" else game.white  # never Ann
        assert game.table_id is not None
        await resign(clients[resigner], game.table_id)
    second = await state_with(bob, 2)
    assert [g.result for g in second.rounds[0].games if g.table_id == hers.table_id] == [
        "white_won" if hers.white == "Ann" else "black_won"
    ]  # her opponent resigned: her point, though she had gone
    ann = await login(server.port, "Ann")
    note = await round_note(ann)  # her game of round two, waiting for her
    (waiting,) = [g for g in second.rounds[1].games if "Ann" in (g.white, g.black)]
    assert note.table_id == waiting.table_id
    await ann.send(DirectTournament(tournament_id, "end"))
    final = await state_with(bob, 2, finished=True)
    assert [g.result for g in final.rounds[1].games] == ["draw", "draw"]
    assert len(final.standings) == 4 and final.summary.director == "Ann"
    for client in (ann, *list(clients.values())[1:]):
        await client.close()


@pytest.mark.parametrize("forfeit_after", [120, 300], ids=["same-moment", "clock-first"])
def test_a_player_who_never_moved_loses_a_game_not_played_by_clock_or_forfeit(
    forfeit_after: int,
) -> None:
    """A clock of two minutes and a first-move time of two minutes fall at the same moment
    (the defaults, 5+3 and 300 s, do too), or the clock first: either way White, who never
    moved, loses a game not played, whichever timer the server handles first."""
    h = Accounts()
    clock = TimeControl(120, 1)
    terms = TournamentTerms("Quick", "swiss", 2, clock, forfeit_after=forfeit_after)
    _players, _tournament_id, pairing = a_game(h, terms)
    table_id = pairing.table_id or ""
    h.advance(h.now + 121)
    assert results_of(h, table_id) == (["black_won_by_forfeit"], 1)
    result = h.core.lobby.tables[table_id].game.result
    assert result is not None
    assert result.kind.value in ("time", "forfeit")  # the table's own record says which


def test_the_state_says_the_time_for_a_first_move_in_force() -> None:
    """What the players are told of the first-move forfeit is the time the server keeps: the
    director's, else the server's (`--tournament-forfeit`), none in a game of days."""
    h = Accounts(tournament_forfeit=90.0)
    ann = v4_account(h, "Ann")
    for terms, said in (
        (TournamentTerms("Theirs", "swiss", 1, forfeit_after=45), 45),
        (TournamentTerms("Server's", "swiss", 1), 90),
        (TournamentTerms("Letters", "swiss", 1, TimeControl(days=2)), None),
    ):
        made(h, ann, terms)
        assert last_state(h, ann).forfeit_after == said, terms.name


async def state_of(client: Client, name: str, done: int, finished: bool = False) -> TournamentState:
    """The first `tournament` of the tournament `name` with `done` rounds paired (and
    finished): the states of an earlier one, still coming (a result's are sent at most every
    second), are passed over."""
    while True:
        state = await client.expect(TournamentState)
        right = state.summary.name == name and len(state.rounds) == done
        if right and (state.summary.status == "finished") == finished:
            return state


async def test_over_sockets_a_first_move_near_its_forfeit_time_has_one_result(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    """A real server whose first-move time is 0.3 s (`--tournament-forfeit`): White's first
    move is sent a little before, at and after it, three tournaments. Whatever the network
    and the event loop make of it, each game has exactly one of the documented outcomes:
    the move refused as game over and White's forfeit, or the move taken and then Black's
    forfeit (Black never moves); never the move taken and White's forfeit, never two."""
    server = await make_server(
        db=str(tmp_path / "db.sqlite3"), password_cost="test", tournament_forfeit=0.3
    )
    clients = await registered(server.port, ("Ann", "Bob"))
    ann = clients["Ann"]
    seen: list[str] = []
    for number, delay in enumerate((0.2, 0.3, 0.4)):
        name = f"Race {number}"
        await ann.send(CreateTournament(TournamentTerms(name, "swiss", 1)))
        tournament_id = (await state_of(ann, name, 0)).summary.tournament_id
        for client in clients.values():
            await client.send(JoinTournament(tournament_id))
        while len((await state_of(ann, name, 0)).players) < 2:
            pass  # both in, as Ann's screen shows, before she starts it
        await ann.send(StartTournament(tournament_id))
        (game,) = (await state_of(ann, name, 1)).rounds[0].games
        assert game.table_id is not None
        white = clients[game.white]
        await white.send(Resume(game.table_id))
        state = await white.expect(State)
        await asyncio.sleep(delay - 0.05)  # the resume took some of the time already
        await white.send(Command(game.table_id, state.version, "draw"))
        final = await state_of(ann, name, 1, finished=True)
        (result,) = [g.result for g in final.rounds[0].games]
        refused = [
            m for m in await white.quiet(0.3) if isinstance(m, Error) and m.refused == "command"
        ]
        if refused:
            assert [e.code for e in refused] == ["game_over"]
            assert result == "black_won_by_forfeit"  # the move came too late: White's forfeit
        else:
            assert result == "white_won_by_forfeit"  # taken in time: Black never moved
        seen.append(result or "")
    assert len(seen) == 3
    for client in clients.values():
        await client.close()
