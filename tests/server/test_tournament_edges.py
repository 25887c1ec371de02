"""Tournaments at the edges the issue names (issue 38, "Checks"): a round-robin of twelve by
correspondence, moved on by an injected clock, to its final table."""

from __future__ import annotations

from protocol.fields import TimeControl
from protocol.tournament_messages import JoinTournament, StartTournament, TournamentTerms
from tests.server.test_logins import Accounts
from tests.server.test_tournament_desk import last_state, made, v4_account

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
    tournament_id = made(h, players["Ann"], terms)
    for member in players.values():
        h.send(member, JoinTournament(tournament_id))
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
    assert {g.result for r in state.rounds for g in r.games} == {"black_won"}
    whites = {name: sum(g.white == name for r in state.rounds for g in r.games) for name in TWELVE}
    assert all(5 <= count <= 6 for count in whites.values())  # Berger's tables balance the seats
    assert sorted(s.name for s in state.standings) == sorted(TWELVE)
    assert sorted(s.points for s in state.standings) == sorted(11.0 - w for w in whites.values())
