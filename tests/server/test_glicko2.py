"""Glicko-2 against the worked example of Glickman's paper, and the properties a rating has."""

from __future__ import annotations

import pytest

from server.core.glicko2 import MAX_DEVIATION, MIN_DEVIATION, Rating, rate_game, update


def test_the_papers_worked_example() -> None:
    """'Example of the Glicko-2 system', section 'Example calculation'."""
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, results, tau=0.5, bounded=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_a_draw_between_equals_changes_nothing() -> None:
    a, b = Rating(), Rating()
    won, lost = rate_game(a, b, 1.0)
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    drawn_a, drawn_b = rate_game(a, b, 0.5)
    assert drawn_a.rating == pytest.approx(1500) and drawn_b.rating == pytest.approx(1500)
    assert drawn_a.deviation < 350  # a game played is information


def test_beating_a_stronger_player_gains_more() -> None:
    me = Rating(1500, 100)
    assert (
        update(me, [(Rating(1800, 100), 1.0)]).rating
        > update(me, [(Rating(1200, 100), 1.0)]).rating
    )


def test_a_period_without_games_widens_the_deviation_within_bounds() -> None:
    settled = Rating(1600, 60, 0.06)
    assert update(settled, []).deviation > 60
    wide = Rating(1500, 340)
    for _ in range(100):
        wide = update(wide, [])
    assert wide.deviation == MAX_DEVIATION
    assert update(Rating(1500, 30), [(Rating(1500, 30), 0.5)]).deviation == MIN_DEVIATION
