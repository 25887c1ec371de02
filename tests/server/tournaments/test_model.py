"""The tournament's changes and refusals: joining (twice, late into a Swiss, a started
round-robin), withdrawing and a director's removal, results (final once recorded), rounds
paired only when the last one is done, the end."""

from __future__ import annotations

import pytest

from server.core.tournaments.model import Format, Tournament, TournamentError
from server.core.tournaments.outcomes import Outcome
from shared.types import Seat


def swiss(players: str = "abcd", rounds: int = 3) -> Tournament:
    t = Tournament(Format.SWISS, rounds_planned=rounds)
    for i, name in enumerate(players):
        t = t.join(name, 2000 - 10 * i)
    return t


def finish_round(t: Tournament, outcome: Outcome = Outcome.WHITE_WON) -> Tournament:
    for game in t.rounds[-1].games:
        if game.outcome is None:
            t = t.record(len(t.rounds), game.white, outcome)
    return t


def refused(code: str) -> pytest.RaisesExc[TournamentError]:
    return pytest.raises(TournamentError, match=f"^{code}$")


def test_joining_twice_is_refused_and_leaving_before_the_start_is_leaving_the_list() -> None:
    t = swiss()
    with refused("already_joined"):
        t.join("a", 1500)
    t = t.withdraw("b")
    assert [e.name for e in t.entrants] == ["a", "c", "d"]
    with refused("not_joined"):
        t.withdraw("b")


def test_a_late_joiner_comes_into_the_next_round_with_no_points_for_those_missed() -> None:
    t = swiss().pair_next_round()
    t = t.join("late", 2500)  # during round 1: into round 2
    assert t.entrant("late") is not None and t.entrant("late").joined == 2  # type: ignore[union-attr]
    with refused("round_unfinished"):
        t.pair_next_round()
    t = finish_round(t).pair_next_round()
    assert t.rounds[1].bye is not None or t.rounds[1].game_of("late") is not None
    assert t.rounds[0].game_of("late") is None
    assert t.half_points("late", 1) == 0
    # the top seed by rating, though it joined last
    assert t.seeded()[0].name == "late"


def test_no_late_join_once_every_round_is_paired() -> None:
    t = finish_round(swiss(rounds=1).pair_next_round())
    with refused("no_round_left"):
        t.join("late", 1500)
    with refused("no_round_left"):
        t.pair_next_round()


def test_a_started_round_robin_takes_nobody_new() -> None:
    t = Tournament(Format.ROUND_ROBIN)
    for name in "abc":
        t = t.join(name, 1500)
    t = t.pair_next_round()
    with refused("round_robin_started"):
        t.join("d", 1500)


def test_withdrawing_between_rounds_keeps_the_games_played_and_pairs_no_more() -> None:
    t = finish_round(swiss().pair_next_round())
    t = t.withdraw("a")
    with refused("already_withdrawn"):
        t.withdraw("a")
    t = t.pair_next_round()
    assert t.rounds[1].game_of("a") is None and t.rounds[1].bye != "a"
    assert t.rounds[0].game_of("a") is not None
    assert t.entrant("a").left == 1  # type: ignore[union-attr]


def test_a_director_removal_is_a_withdrawal_marked_as_such() -> None:
    t = swiss().pair_next_round()
    t = t.withdraw("c", removed=True)
    entrant = t.entrant("c")
    assert entrant is not None and entrant.removed and entrant.left == 1
    # the game of the round under way stands: its result is still taken
    assert t.rounds[0].game_of("c") is not None
    t = finish_round(t).pair_next_round()
    assert t.rounds[1].game_of("c") is None


def test_a_result_is_recorded_once() -> None:
    t = swiss().pair_next_round()
    game = t.rounds[0].games[0]
    t = t.record(1, game.black, Outcome.BLACK_WON_BY_FORFEIT)
    assert t.half_points(game.black) == 2 and t.half_points(game.white) == 0
    with refused("result_recorded"):
        t.record(1, game.white, Outcome.DRAW)
    with refused("no_such_round"):
        t.record(2, game.white, Outcome.DRAW)
    with refused("no_such_game"):
        t.record(1, "nobody", Outcome.DRAW)


def test_the_bye_is_worth_a_win_in_a_swiss_and_white_moves_first() -> None:
    t = swiss("abcde").pair_next_round()
    bye = t.rounds[0].bye
    assert bye == "e"  # the lowest seed
    assert t.half_points(bye) == 2
    assert all(g.first is Seat.WHITE for g in t.rounds[0].games)


def test_an_ended_tournament_changes_no_more() -> None:
    t = swiss().end()
    with refused("tournament_finished"):
        t.join("z", 1500)
    with refused("tournament_finished"):
        t.pair_next_round()
