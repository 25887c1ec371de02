"""Berger's tables: FIDE's published tables for 4 and 6, every pair once a cycle (twice in a
double round-robin, the seats swapped), each player once a round, the seats balanced, one round
off each for an odd count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.core.tournaments.model import Format, Tournament
from server.core.tournaments.outcomes import Outcome
from server.core.tournaments.round_robin import berger_round, cycle_length, draw_numbers


def numbered(players: int, number: int) -> list[tuple[int, int]]:
    return [
        (0 if w is None else w + 1, 0 if b is None else b + 1)
        for w, b in berger_round(players, number)
    ]


def test_fide_berger_tables_for_four_and_six() -> None:
    assert [numbered(4, r) for r in (1, 2, 3)] == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]
    assert [numbered(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("players", range(2, 17))
def test_every_pair_once_a_cycle_each_player_once_a_round_seats_balanced(players: int) -> None:
    cycle = cycle_length(players)
    seen: Counter[frozenset[int]] = Counter()
    whites: Counter[int] = Counter()
    rests: Counter[int] = Counter()
    for r in range(1, cycle + 1):
        pairs = berger_round(players, r)
        in_round = [p for pair in pairs for p in pair if p is not None]
        assert sorted(in_round) == list(range(players))
        for w, b in pairs:
            if w is None or b is None:
                rests[b if w is None else w] += 1  # type: ignore[index]
                continue
            seen[frozenset((w, b))] += 1
            whites[w] += 1
    assert len(seen) == players * (players - 1) // 2
    assert set(seen.values()) == {1}
    games = players - 1
    for p in range(players):
        assert abs(whites[p] - (games - whites[p])) <= 1
    assert rests == (Counter(range(players)) if players % 2 else Counter())


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_second_cycle_swaps_the_seats(players: int) -> None:
    cycle = cycle_length(players)
    for r in range(1, cycle + 1):
        assert berger_round(players, r + cycle) == [(b, w) for w, b in berger_round(players, r)]
    with pytest.raises(ValueError):
        berger_round(players, 2 * cycle + 1)


def test_a_double_round_robin_tournament_meets_every_pair_twice_once_each_way() -> None:
    t = Tournament(Format.DOUBLE_ROUND_ROBIN)
    for name in "abcde":
        t = t.join(name, 1500)
    assert t.total_rounds == 10
    while len(t.rounds) < t.total_rounds:
        t = t.pair_next_round()
        for game in t.rounds[-1].games:
            t = t.record(len(t.rounds), game.white, Outcome.WHITE_WON)
    seatings = Counter((g.white, g.black) for r in t.rounds for g in r.games)
    assert set(seatings.values()) == {1}
    assert len(seatings) == 5 * 4
    assert Counter(r.bye for r in t.rounds) == Counter({n: 2 for n in "abcde"})
    assert all(t.half_points(n) == 4 * 2 for n in "abcde")  # 4 Whites won, a bye is nothing


def test_a_withdrawn_players_later_games_are_forfeit_wins_to_the_opponents() -> None:
    t = Tournament(Format.ROUND_ROBIN)
    for name in "abcd":
        t = t.join(name, 1500)
    t = t.pair_next_round()
    for game in t.rounds[-1].games:
        t = t.record(1, game.white, Outcome.DRAW)
    t = t.withdraw("d")
    t = t.pair_next_round()
    forfeited = t.rounds[-1].game_of("d")
    assert forfeited is not None and forfeited.outcome is not None
    winner = forfeited.seat_of(forfeited.opponent("d"))
    assert winner is not None and forfeited.outcome.half_points(winner) == 2
    assert not forfeited.outcome.played


def test_the_numbers_are_drawn_by_the_callers_randomness() -> None:
    names = [f"p{i}" for i in range(10)]
    assert draw_numbers(names, random.Random(7)) == draw_numbers(names, random.Random(7))
    assert sorted(draw_numbers(names, random.Random(7))) == names
    t = Tournament(Format.ROUND_ROBIN)
    for name in names:
        t = t.join(name, 1500)
    order = draw_numbers(names, random.Random(7))
    assert [e.name for e in t.numbered(order).entrants] == order
