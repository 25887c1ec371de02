"""The calibration of the analysis's chances (shared.analysis.calibrated): its shape, its
documented constants, and the fit that gives them (bench/calibration_bench.py)."""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from shared.analysis import (
    CALIBRATION_A,
    CALIBRATION_CLIP,
    CALIBRATION_M,
    calibrated,
    chance,
    raw_chance,
)
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import GameOptions, Seat
from shared.views import seat_view

SHARES = [i / 128 for i in range(129)]  # every raw share of the default 128 playouts


def test_the_documented_constants() -> None:
    # shared/analysis.py's comment, the README's analysis part: fitted by
    # bench/calibration_bench.py on 11,955 positions of 1,200 games
    assert (CALIBRATION_CLIP, CALIBRATION_A, CALIBRATION_M) == (0.02, 1.065, 0.103)


@pytest.mark.parametrize("to_move", [True, False])
def test_monotone_in_the_raw_share_and_strictly_between_0_and_1(to_move: bool) -> None:
    chances = [calibrated(share, to_move) for share in SHARES]
    assert all(0.0 < c < 1.0 for c in chances)
    assert all(a <= b for a, b in itertools.pairwise(chances))
    inside = [
        calibrated(s, to_move) for s in SHARES if CALIBRATION_CLIP <= s <= 1 - CALIBRATION_CLIP
    ]
    assert all(a < b for a, b in itertools.pairwise(inside))  # strictly, inside the clip


def test_the_clip_and_the_extremes() -> None:
    # a share of 0 or 1 is read as the clip: still some doubt, about 1.5 to 2.5 points
    for to_move in (True, False):
        assert calibrated(0.0, to_move) == calibrated(CALIBRATION_CLIP, to_move)
        assert calibrated(1.0, to_move) == calibrated(1 - CALIBRATION_CLIP, to_move)
    assert 0.01 < calibrated(0.0, False) < calibrated(0.0, True) < 0.03
    assert 0.97 < calibrated(1.0, False) < calibrated(1.0, True) < 0.99


def test_the_move_is_worth_a_few_points_and_the_two_seats_agree() -> None:
    for share in SHARES:
        mover, waiting = calibrated(share, True), calibrated(share, False)
        assert mover > waiting
        # one state seen from both seats: if the raw shares add up to 1, so do the chances
        assert mover == pytest.approx(1 - calibrated(1 - share, False), abs=1e-12)
    assert calibrated(0.5, True) - 0.5 == pytest.approx(0.026, abs=0.002)  # 2.6 points
    assert calibrated(0.5, False) == pytest.approx(1 - calibrated(0.5, True), abs=1e-12)


def test_the_formula() -> None:
    share = 0.7
    z = CALIBRATION_A * math.log(share / (1 - share)) + CALIBRATION_M
    assert calibrated(share, True) == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-12)


def test_a_chance_reads_whether_its_seat_is_to_move() -> None:
    game = Game.new(SeededSource(5), Seat.WHITE, GameOptions())
    white, black = seat_view(game, Seat.WHITE), seat_view(game, Seat.BLACK)
    assert white.public.to_move is Seat.WHITE
    raw = raw_chance(white, random.Random(2), 16)
    assert chance(white, random.Random(2), 16) == calibrated(raw, True)
    raw = raw_chance(black, random.Random(2), 16)
    assert chance(black, random.Random(2), 16) == calibrated(raw, False)


def bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "calibration_bench.py"
    spec = importlib.util.spec_from_file_location("calibration_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("calibration_bench", module)
    spec.loader.exec_module(module)
    return module


def test_the_bench_fit_finds_the_constants_outcomes_were_drawn_with() -> None:
    calibration = bench()
    rng = random.Random(21)
    positions = []
    for game in range(3000):
        raw = rng.random()
        to_move = rng.random() < 0.5
        share = min(max(raw, 0.02), 0.98)
        z = 1.3 * math.log(share / (1 - share)) + (0.25 if to_move else -0.25)
        won = float(rng.random() < 1 / (1 + math.exp(-z)))
        positions.append({"game": game, "raw": raw, "to_move": to_move, "won": won})
    a, m = calibration.fit(positions, lambda p: calibration.features(p, 0.02))
    assert a == pytest.approx(1.3, abs=0.15)
    assert m == pytest.approx(0.25, abs=0.1)
