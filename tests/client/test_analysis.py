"""The analysis of a finished game: its turns, each judged from its own player's view (never
from the cards the record reveals), chances between 0 and 1, costs and marks, the chart."""

from __future__ import annotations

import itertools
import random
import threading
from pathlib import Path

import pytest

from client.language.i18n import set_language
from client.screens.analysis_view import chart, luck_line, mark_count, report, start_analysis
from client.screens.replay import ReplayViewer, timeline
from shared.ai import choose_action
from shared.analysis import (
    analyse,
    calibrated,
    mark_of,
    raw_chance,
    summaries,
    turning_points,
    turns,
    white_chances,
)
from shared.game import Game
from shared.randomness import SeededSource
from shared.record import read_record, write_record
from shared.types import GameOptions, Seat, Termination
from shared.views import seat_view


def easy_game(seed: int) -> str:
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
    while not game.is_over:
        game.apply(choose_action(seat_view(game, game.to_move), rng, level="easy"))
    return write_record(game)


def resigned_game(seed: int, actions: int) -> str:
    """An easy game White resigns after `actions` actions: a few turns to analyse."""
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
    for _ in range(actions):
        game.apply(choose_action(seat_view(game, game.to_move), rng, level="easy"))
    game.end(Termination.RESIGNED, Seat.WHITE)
    return write_record(game)


@pytest.fixture(scope="module")
def record() -> str:
    return easy_game(7)


def test_turns_alternate_and_see_only_their_players_view(record: str) -> None:
    found = turns(read_record(record))
    assert len(found) > 20
    for previous, turn in itertools.pairwise(found):
        assert turn.number == previous.number + 1
        assert turn.step > previous.step
    for turn in found:
        assert turn.before.seat is turn.seat  # a seat's own view: its hand, the public rest
        assert turn.before.public.hand_sizes[turn.seat.other] >= 0
        assert not hasattr(turn.before, "pile")
    assert found[-1].after is None and found[-1].over_after is not False


def test_a_chance_is_a_share_of_playouts_and_a_won_position_is_won() -> None:
    rng = random.Random(3)
    game = Game.new(SeededSource(3), Seat.WHITE, GameOptions())
    view = seat_view(game, Seat.WHITE)
    share = raw_chance(view, rng, playouts=32)
    assert 0.0 <= share <= 1.0
    assert calibrated(0.5, True) == pytest.approx(0.5, abs=0.05)
    assert calibrated(0.9, False) > calibrated(0.6, False) > calibrated(0.3, False)


def test_marks_by_cost() -> None:
    assert [mark_of(c) for c in (0.0, 0.04, 0.05, 0.12, 0.3)] == [
        None, None, "inaccuracy", "mistake", "blunder",
    ]  # fmt: skip


def test_an_analysis_of_a_whole_game(record: str) -> None:
    analysis = analyse(read_record(record), playouts=8, search=50)  # the shape, not the search
    found = turns(read_record(record))
    assert [a.number for a in analysis] == list(range(1, len(analysis) + 1))
    for a, turn in zip(analysis, found, strict=True):
        assert 0.0 <= a.before <= 1.0 and 0.0 <= a.after <= 1.0 and 0.0 <= a.expected <= 1.0
        assert a.cost >= 0.0 and a.noise >= 0.0
        if a.mark is not None:
            assert a.cost > 2 * a.noise and a.cost >= 0.05
        if turn.revealed is None and not turn.reshuffled:  # no card turned up: no luck
            assert a.luck == 0.0
            assert turn.after is None or a.after == a.expected
        else:
            assert a.luck == pytest.approx(a.after - a.expected)
    last = analysis[-1]
    winner = read_record(record).replay().result
    assert winner is not None
    assert last.after == (1.0 if winner.winner is last.seat else 0.0 if winner.winner else 0.5)
    assert len(white_chances(analysis)) == len(analysis)
    assert {s.seat for s in summaries(analysis)} == {Seat.WHITE, Seat.BLACK}
    assert len(turning_points(analysis)) <= 3
    set_language("en")
    lines = report(analysis, 80)
    assert all(len(line) <= 80 for line in lines)
    assert any("average cost" in line for line in lines)
    assert [line for line in lines if "'s luck: " in line] == [
        luck_line(summary) for summary in summaries(analysis)
    ]


def test_the_chart_fits_its_width_and_reads_without_colour() -> None:
    rows = chart([i / 99 for i in range(100)], 80, height=8)
    assert len(rows) == 9 and all(len(row) <= 80 for row in rows)
    assert rows[0].startswith("100%") and rows[-1].startswith("     └")
    assert rows[-2].endswith("█")  # the last turn, White sure to win: a full column


def test_kahuna_client_analyse_plain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from client.cli.play import main

    path = tmp_path / "game.kahuna"
    # the command, not the engine: a few turns (each one's analysis at the command's own
    # budget, which it has no option to lower)
    path.write_text(resigned_game(11, 8), encoding="utf-8")
    assert main(["--analyse", str(path), "--plain", "--lang", "en"]) == 0
    out = capsys.readouterr()
    assert "Analysis" in out.out and "White's chance" in out.out
    assert out.err == ""  # no progress bar with --plain
    assert main(["--analyse", str(tmp_path / "missing"), "--plain"]) == 1


@pytest.mark.parametrize(
    ("language", "mark", "one", "two"),
    [("en", "mistake", "1 mistake", "2 mistakes"),
     ("de", "blunder", "1 grober Fehler", "2 grobe Fehler"),
     ("it", "inaccuracy", "1 imprecisione", "2 imprecisioni")],
)  # fmt: skip
def test_the_marks_are_counted_in_the_plural_of_the_language(
    language: str, mark: str, one: str, two: str
) -> None:
    set_language(language)
    try:
        assert (mark_count(mark, 1), mark_count(mark, 2)) == (one, two)
    finally:
        set_language("en")


def resigned_at_once() -> str:
    """The record of a game White resigned before its first turn, as the server writes it."""
    game = Game.new(SeededSource(3), Seat.WHITE, GameOptions())
    game.end(Termination.RESIGNED, Seat.WHITE)
    return write_record(game)


def test_a_game_over_before_its_first_turn_says_there_is_nothing_to_analyse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Resigned at once (as a server's --records writes it): no empty report, no silent viewer."""
    from client.cli.play import main

    path = tmp_path / "game.kahuna"
    record = resigned_at_once()
    path.write_text(record, encoding="utf-8")
    assert main(["--analyse", str(path), "--plain", "--lang", "en"]) == 0
    assert (
        capsys.readouterr().out
        == "The game ended before a turn was played: there is nothing to analyse.\n"
    )

    viewer = ReplayViewer(timeline(read_record(record), record), "game.kahuna", record)
    viewer.say("Saved the game record to game.kahuna")  # said before: its style is not kept
    start_analysis(viewer, lambda: None)
    for thread in threading.enumerate():
        if thread.name == "kahuna-analysis":
            thread.join(timeout=30)
    assert viewer.note == "The game ended before a turn was played: there is nothing to analyse."
    assert viewer.note_style == "class:msg.error"
    assert viewer.analysis is None and viewer.analysing == ""
