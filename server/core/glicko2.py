"""Glicko-2 ratings, as Lichess rates its games: Mark Glickman, "Example of the Glicko-2 system"
(2013), followed step by step, with the Illinois algorithm for the new volatility (step 5.4).

Each game is its own rating period for both players, computed from their ratings before it
(Lichess does the same). Pure: no clock; a rating period with no game only widens the
deviation (step 6), which `update` with no results gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

SCALE = 173.7178  # Glicko's scale to Glicko-2's
TAU = 0.5  # how much the volatility may change; the paper suggests 0.3 to 1.2
EPSILON = 1e-6  # convergence of the volatility
# Lichess keeps a deviation between 45 and 350 (lila's glicko2 Rating: ratingDeviation bounds);
# the lower bound keeps a long-standing rating able to move.
MIN_DEVIATION = 45.0
MAX_DEVIATION = 350.0


@attrs.frozen
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    tau: float = TAU,
    bounded: bool = True,
) -> Rating:
    """The player's rating after one rating period with these (opponent, score) results (score
    1 a win, 0.5 a draw, 0 a loss). `bounded` keeps the deviation between MIN_DEVIATION and
    MAX_DEVIATION (the paper's example has no bounds)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return _bounded(Rating(player.rating, phi_star * SCALE, sigma), bounded)
    opponents = [((o.rating - 1500.0) / SCALE, o.deviation / SCALE, score) for o, score in results]
    v = 1.0 / sum(
        _g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1.0 - _e(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in opponents
    )
    improvement = sum(_g(phi_j) * (score - _e(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return _bounded(Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma), bounded)


def _bounded(rating: Rating, bounded: bool) -> Rating:
    if not bounded:
        return rating
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation))
    return attrs.evolve(rating, deviation=deviation)


def rate_game(white: Rating, black: Rating, white_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, each from the ratings before it."""
    return (
        update(white, [(black, white_score)]),
        update(black, [(white, 1.0 - white_score)]),
    )
