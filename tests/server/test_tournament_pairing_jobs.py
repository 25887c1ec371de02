"""A Swiss round paired off the event loop (server/jobs/pairing_jobs.py), in the core without
sockets: the event that ends a round (or starts the tournament) only hands out a PairingJob, and
the pairing coming back makes the round; a pairing that no longer fits the players (a join, a
withdrawal, the end meanwhile) is dropped and the round asked for again; a failed worker's round
is paired by the core; and a restart while a round is being paired (nothing of it stored) pairs
it again, on the first round as on a later one."""

from __future__ import annotations

from pathlib import Path

from protocol.messages import Resign
from protocol.player_messages import PlayerNote, Resume
from protocol.tournament_messages import (
    DirectTournament,
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
    WatchTournament,
    WithdrawTournament,
)
from server.core.core import ServerCore
from server.core.effects import PairingJob
from server.core.names import name_key
from server.core.store import RoundOp, TournamentOp
from server.core.table import MemberId
from server.core.tournaments.swiss import pair_round
from tests.server.test_core import WALL, codes, writes_of
from tests.server.test_logins import Accounts
from tests.server.tournament_harness import (
    NAMES,
    last_state,
    made_and_joined,
    v4_account,
    v4_login,
    written,
)

CUP = TournamentTerms("Cup", "swiss", 2)


def started(h: Accounts, names: tuple[str, ...]) -> tuple[dict[str, MemberId], str, PairingJob]:
    """A Swiss of `names` (Ann directs) started, its first round being paired (held)."""
    players = {name: v4_account(h, name) for name in names}
    tournament_id = made_and_joined(h, players["Ann"], players.values(), CUP)
    h.hold_pairings = True
    effects = h.send(players["Ann"], StartTournament(tournament_id))
    (job,) = effects.pairing_jobs
    return players, tournament_id, job


def end_round(h: Accounts, players: dict[str, MemberId]) -> None:
    """Every game of the current round resigned by its White."""
    for game in last_state(h, players["Ann"]).rounds[-1].games:
        assert game.table_id is not None
        h.send(players[game.white], Resume(game.table_id))
        h.send(players[game.white], Resign(game.table_id))


def test_the_round_is_made_when_its_pairing_comes_back() -> None:
    h = Accounts()
    players, tournament_id, job = started(h, NAMES[:4])
    assert (job.tournament_id, job.number) == (tournament_id, 1)
    assert [p.name for p in job.players] == [name_key(n) for n in NAMES[:4]]
    state = last_state(h, players["Ann"])
    assert state.summary.status == "started" and state.rounds == []
    assert writes_of(h.core.round_paired(99, None, h.now, WALL), RoundOp) == []  # no such job
    # started before it is paired: stored so, and no second start
    assert [op.tournament.status for op in h.batches[-1] if isinstance(op, TournamentOp)] == [
        "started"
    ]
    assert codes(h.send(players["Ann"], StartTournament(tournament_id)), players["Ann"]) == [
        "bad_tournament"
    ]
    paired = h.pair(job)
    (op,) = writes_of(paired, RoundOp)
    assert op.round.number == 1 and len(op.round.games) == 2
    for game in op.round.games:
        assert game.table_id in h.core.lobby.tables
        notes = [m for to, m in h.sent if isinstance(m, PlayerNote) and m.table_id == game.table_id]
        assert len(notes) == 2  # both players told
    assert len(last_state(h, players["Bob"]).rounds) == 1
    end_round(h, players)
    (second,) = h.pairings  # the last result hands out the next round
    assert second.number == 2 and second.job > job.job
    assert [g.result for g in last_state(h, players["Ann"]).rounds[0].games] == [None, None]
    h.advance(h.now + 1)  # the last results are told meanwhile, as any result
    assert len(last_state(h, players["Ann"]).rounds) == 1
    assert {g.result for g in last_state(h, players["Ann"]).rounds[0].games} == {"black_won"}
    h.pair(second)
    assert len(last_state(h, players["Ann"]).rounds) == 2


def test_a_pairing_for_other_players_is_dropped_and_the_round_asked_again() -> None:
    h = Accounts()
    players, tournament_id, job = started(h, NAMES[:4])
    cid = players["Cid"]
    h.send(cid, WithdrawTournament(tournament_id))  # before the pairing is back
    assert writes_of(h.pair(job), RoundOp) == []
    (again,) = h.pairings
    assert [p.name for p in again.players] == [name_key(n) for n in ("Ann", "Bob", "Dan")]
    eve = v4_account(h, "Eve")
    h.send(eve, JoinTournament(tournament_id))  # into round 1, not yet paired
    assert writes_of(h.pair(again), RoundOp) == []
    (third,) = h.pairings
    assert [p.name for p in third.players] == [name_key(n) for n in ("Ann", "Bob", "Dan", "Eve")]
    (op,) = writes_of(h.pair(third), RoundOp)
    paired = {key for game in op.round.games for key in (game.white, game.black)}
    assert paired == {name_key(n) for n in ("Ann", "Bob", "Dan", "Eve")} and op.round.bye is None


def test_a_pairing_after_the_end_is_dropped_and_a_failed_worker_is_made_good() -> None:
    h = Accounts()
    players, tournament_id, job = started(h, NAMES[:3])
    h.send(players["Ann"], DirectTournament(tournament_id, "end"))
    assert writes_of(h.pair(job), RoundOp) == [] and not h.pairings
    assert last_state(h, players["Ann"]).summary.status == "finished"
    other = made_and_joined(
        h, players["Ann"], players.values(), TournamentTerms("Other", "swiss", 1)
    )
    (job,) = h.send(players["Ann"], StartTournament(other)).pairing_jobs
    h.pairings.remove(job)
    # the worker failed: the core pairs the round itself, as the worker would have
    (op,) = writes_of(h.took(h.core.round_paired(job.job, None, h.now, WALL)), RoundOp)
    expected = pair_round(job.players)
    assert [(g.white, g.black) for g in op.round.games] == list(expected.games)
    assert op.round.bye == expected.bye


def test_a_pause_while_a_round_is_paired_comes_after_it() -> None:
    h = Accounts()
    players, tournament_id, job = started(h, NAMES[:4])
    h.send(players["Ann"], DirectTournament(tournament_id, "pause"))
    # as the pairing had been made at once: the pause holds back the round after this one
    assert len(writes_of(h.pair(job), RoundOp)) == 1
    end_round(h, players)
    assert not h.pairings
    h.send(players["Ann"], DirectTournament(tournament_id, "resume"))
    (second,) = h.pairings
    assert second.number == 2
    h.send(players["Ann"], DirectTournament(tournament_id, "resume"))  # asked for once only
    assert h.pairings == [second]


def restarted(h: Accounts, tmp_path: Path) -> list[PairingJob]:
    """A new core from what the first one wrote (as after a kill -9); the jobs it hands out."""
    storage, stored = written(h, tmp_path)
    core = ServerCore(h.config)
    h.took(core.restore_players(stored, 0.0, WALL))
    h.core, h.now, h.pairings = core, 0.0, []
    effects = h.took(core.restore(storage.load_open_tables(50), storage.table_ids(), 0.0, WALL))
    storage.close()
    return effects.pairing_jobs


def test_a_restart_while_the_first_round_is_paired_pairs_it(tmp_path: Path) -> None:
    h = Accounts()
    _, tournament_id, job = started(h, NAMES[:5])
    (again,) = restarted(h, tmp_path)
    assert (again.tournament_id, again.number, again.players) == (tournament_id, 1, job.players)
    h.pair(again)
    watcher = h.guest("Watcher", version=4)
    h.send(watcher, WatchTournament(tournament_id))
    state = last_state(h, watcher)
    assert len(state.rounds) == 1 and len(state.rounds[0].games) == 2 and state.rounds[0].bye


def test_a_restart_while_a_later_round_is_paired_pairs_it(tmp_path: Path) -> None:
    h = Accounts()
    players, tournament_id, job = started(h, NAMES[:4])
    h.pair(job)
    end_round(h, players)
    (second,) = h.pairings
    (again,) = restarted(h, tmp_path)
    assert (again.number, again.players) == (2, second.players)
    paired = h.pair(again)
    (op,) = writes_of(paired, RoundOp)
    assert op.round.number == 2 and all(g.table_id for g in op.round.games)
    ann = v4_login(h, "Ann")
    h.send(ann, WatchTournament(tournament_id))
    state = last_state(h, ann)
    assert [len(r.games) for r in state.rounds] == [2, 2]
    assert {g.result for g in state.rounds[0].games} == {"black_won"}
    # no pair of round 1 again (the pairing's rule, after the restart as before)
    first = {frozenset((g.white, g.black)) for g in state.rounds[0].games}
    assert not first & {frozenset((g.white, g.black)) for g in state.rounds[1].games}


def test_the_round_is_told_to_its_watchers_at_the_next_turn() -> None:
    """The round's tables made in one event, its state to the watchers in the next (the shell's
    next turn of the loop), so that the other tables' commands are answered between the two."""
    h = Accounts()
    players, _, job = started(h, NAMES[:4])
    h.pairings.remove(job)
    paired = h.took(h.core.round_paired(job.job, pair_round(job.players), h.now, WALL))
    assert len(writes_of(paired, RoundOp)) == 1
    assert not [m for _, m, _ in paired.sends if isinstance(m, (TournamentState, PlayerNote))]
    assert h.core.next_wake() == h.now
    told = h.advance(h.now)
    states = {to: m for to, m, _ in told.sends if isinstance(m, TournamentState)}
    assert set(states) == set(players.values())  # every watcher, the same message
    assert len({id(m) for m in states.values()}) == 1
    assert len(states[players["Ann"]].rounds) == 1
    # then each player's note: who hears of their game has the round already
    kinds = [type(m) for to, m, _ in told.sends if to == players["Bob"]]
    assert kinds == [TournamentState, PlayerNote]
