"""Results as codes, and endings that are not a move: resigning, a draw agreed, a clock run
out, a game abandoned. Each is a log entry, so the log and the record still rebuild the game."""

from __future__ import annotations

import json
import random

import msgpack
import pytest

from shared.actions import parse_action
from shared.events import Event, GameOver, event_from_dict, event_to_dict
from shared.game import Game, Result
from shared.history import (
    Ending,
    LogError,
    LogFormatError,
    entry_from_wire,
    entry_to_wire,
)
from shared.legality import IllegalAction
from shared.randomness import SeededSource
from shared.record import read_record, replay, write_record
from shared.results import english_reason, termination
from shared.types import GameOptions, Phase, Seat, Termination
from shared.views import public_from_dict, public_to_dict, spectator_view
from tests.shared.test_history import state_key

W, B = Seat.WHITE, Seat.BLACK
T = Termination


def midgame(seed: int = 3, actions: int = 30, options: GameOptions | None = None) -> Game:
    game = Game.new(SeededSource(seed), W, options or GameOptions())
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.is_over
    return game


def finished(seed: int = 3) -> Game:
    game = Game.new(SeededSource(seed), W)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


# ----- each ending --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "seat", "winner", "words"),
    [
        (T.RESIGNED, B, W, "Black resigned"),
        (T.RESIGNED, W, B, "White resigned"),
        (T.AGREED, None, None, "draw agreed"),
        (T.ABANDONED, None, None, "abandoned: a moderator closed the table"),
        (T.TIME, W, B, "White ran out of time"),
        (T.FORFEIT, W, B, "White forfeited"),
    ],
)
def test_each_ending_finishes_the_game_with_its_code(
    kind: Termination, seat: Seat | None, winner: Seat | None, words: str
) -> None:
    game = midgame()
    points, bridges, hands = game.round_points[:], game.bridges[:], game.hand_counts(W)
    events = game.end(kind, seat)
    assert events == [GameOver(winner, kind, game.scores)]
    assert game.is_over and game.phase is Phase.OVER and game.legal_actions() == []
    assert game.result == Result(winner, kind)
    assert english_reason(game.result) == words
    # The scores, the board and the hands stay as they were: no final scoring.
    assert game.round_points == points and game.bridges == bridges
    assert game.hand_counts(W) == hands
    assert game.log[-1] == Ending(kind, seat)


def test_a_player_may_resign_whoever_is_to_move_mid_turn_and_in_the_handicap() -> None:
    game = midgame()
    mover = game.to_move
    play = next(a for a in game.legal_actions() if str(a).startswith(("place", "discard")))
    game.apply(play)
    game.end(T.RESIGNED, mover.other)  # the player not to move resigns in the mover's turn
    assert game.result == Result(mover, T.RESIGNED)
    handicap = Game.new(SeededSource(1), W, GameOptions(handicap_seat=B, handicap_bridges=2))
    assert handicap.phase is Phase.HANDICAP
    handicap.end(T.FORFEIT, B)
    assert handicap.result == Result(W, T.FORFEIT)


def test_endings_are_refused_once_the_game_is_over_and_change_nothing() -> None:
    for game in (finished(), midgame()):
        if not game.is_over:
            game.end(T.AGREED, None)
        before = state_key(game)
        for kind, seat in ((T.RESIGNED, W), (T.AGREED, None), (T.TIME, B), (T.FORFEIT, W)):
            assert game.why_not_end(kind, seat) == "the game is over"
            with pytest.raises(IllegalAction, match="the game is over"):
                game.end(kind, seat)
        assert state_key(game) == before


@pytest.mark.parametrize(
    ("kind", "seat"),
    [(T.AGREED, W), (T.RESIGNED, None), (T.TIME, None), (T.POINTS, W), (T.TIE, None)],
)
def test_an_ending_must_name_the_right_seat_and_be_one_that_is_declared(
    kind: Termination, seat: Seat | None
) -> None:
    game = midgame()
    before = state_key(game)
    assert game.why_not_end(kind, seat)
    with pytest.raises(IllegalAction):
        game.end(kind, seat)
    assert state_key(game) == before
    with pytest.raises(ValueError):
        Ending(kind, seat)


# ----- the log and the record ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ending", "wire", "line"),
    [
        (Ending(T.RESIGNED, W), ["e", "resigned", "white"], "white resigns"),
        (Ending(T.AGREED, None), ["e", "agreed", None], "draw agreed"),
        (Ending(T.ABANDONED, None), ["e", "abandoned", None], "game abandoned"),
        (Ending(T.TIME, B), ["e", "time", "black"], "black loses on time"),
        (Ending(T.FORFEIT, W), ["e", "forfeit", "white"], "white forfeits"),
    ],
)
def test_an_ending_rebuilds_from_the_log_and_the_record(
    ending: Ending, wire: list[object], line: str
) -> None:
    game = midgame(options=GameOptions(variant2=True))
    game.end(ending.kind, ending.seat)
    assert entry_to_wire(ending) == wire
    stored = [entry_to_wire(e) for e in game.log]
    for back in (
        [entry_from_wire(e) for e in stored],
        [entry_from_wire(e) for e in msgpack.unpackb(msgpack.packb(stored))],
        [entry_from_wire(e) for e in json.loads(json.dumps(stored))],
    ):
        assert back == game.log
    events: list[list[Event]] = []
    rebuilt = Game.from_log(game.options, W, game.log, events=events, source=SeededSource(0))
    assert state_key(rebuilt) == state_key(game)
    assert events[-1] == [GameOver(ending.winner, ending.kind, game.scores)]
    text = write_record(game)
    assert line in text.splitlines()
    assert f"({english_reason(Result(ending.winner, ending.kind))})" in text.splitlines()[-1]
    again = replay(text)
    assert state_key(again) == state_key(game) and write_record(again) == text


def test_record_words_are_read_in_any_case_and_an_entry_after_an_ending_is_refused() -> None:
    game = midgame()
    game.end(T.RESIGNED, B)
    text = write_record(game).replace("black resigns", "Black RESIGNS")
    assert read_record(text).log[-1] == Ending(T.RESIGNED, B)
    with pytest.raises(LogError) as info:
        Game.from_log(game.options, W, [*game.log, Ending(T.AGREED, None)], source=SeededSource(0))
    assert info.value.kind == "over" and info.value.index == len(game.log)
    done = finished()
    with pytest.raises(LogError) as info:
        Game.from_log(done.options, W, [*done.log, Ending(T.RESIGNED, W)], source=SeededSource(0))
    assert info.value.kind == "over"
    with pytest.raises(LogError) as info:
        Game.from_log(game.options, W, [*game.log, game.log[1]], source=SeededSource(0))
    assert info.value.kind == "over"


@pytest.mark.parametrize(
    "data",
    [
        ["e"],
        ["e", "resigned"],
        ["e", "points", "white"],
        ["e", "resigned", None],
        ["e", "agreed", "white"],
        ["e", "resigned", "green"],
        ["e", ["resigned"], "white"],
        ["e", 3, "white"],
    ],
)
def test_malformed_endings_are_a_log_format_error(data: list[object]) -> None:
    with pytest.raises(LogFormatError):
        entry_from_wire(data)


def test_old_records_and_logs_still_read() -> None:
    game = finished(5)
    text = write_record(game)
    assert not any(isinstance(e, Ending) for e in read_record(text).log)
    assert state_key(replay(text)) == state_key(game)


# ----- results as codes on the wire ---------------------------------------------------------------


def test_the_result_wire_form_is_the_winner_and_the_kind() -> None:
    game = midgame()
    game.end(T.TIME, B)
    assert game.result is not None
    assert game.result.to_dict() == {"winner": "white", "kind": "time"}
    assert Result.from_dict(game.result.to_dict()) == game.result
    over = game.log[-1]
    assert isinstance(over, Ending)
    event = GameOver(W, T.TIME, game.scores)
    assert event_to_dict(event) == {
        "type": "GameOver",
        "winner": "white",
        "kind": "time",
        "scores": list(game.scores),
    }
    assert event_from_dict(event_to_dict(event)) == event
    wire = public_to_dict(spectator_view(game))
    assert wire["result"] == {"winner": "white", "kind": "time"}
    assert public_from_dict(wire).result == game.result
    # version 1's form: the winner, and the English sentence in place of the kind
    assert (game.result.to_dict()["winner"], english_reason(game.result)) == (
        "white",
        "Black ran out of time",
    )


def test_the_older_english_forms_are_still_read() -> None:
    assert Result.from_dict({"winner": "black", "reason": "more points"}) == Result(B, T.POINTS)
    assert Result(None, "neither player has a bridge on the board").kind is T.NO_BRIDGES
    assert termination("White has no bridge on the board") is T.NO_BRIDGES
    old = {
        "type": "GameOver",
        "winner": None,
        "reason": "tied on points and bridges: no winner",
        "scores": [3, 3],
    }
    assert event_from_dict(old) == GameOver(None, T.TIE, (3, 3))
    with pytest.raises(ValueError):
        termination("White has more points")
    with pytest.raises(ValueError):
        Result(None, T.POINTS)  # more points has a winner
    with pytest.raises(ValueError):
        Result(W, T.AGREED)  # a draw agreed has none


@pytest.mark.parametrize(
    ("result", "words"),
    [
        (Result(W, T.POINTS), "more points"),
        (Result(B, T.FINAL), "tied on points, more in the final scoring"),
        (Result(W, T.BRIDGES), "tied on points, more bridges on the board"),
        (Result(None, T.TIE), "tied on points and bridges: no winner"),
        (Result(None, T.NO_BRIDGES), "neither player has a bridge on the board"),
        (Result(W, T.NO_BRIDGES), "Black has no bridge on the board"),
        (Result(B, T.NO_BRIDGES), "White has no bridge on the board"),
        (Result(W, T.RESIGNED), "Black resigned"),
        (Result(None, T.AGREED), "draw agreed"),
        (Result(None, T.ABANDONED), "abandoned: a moderator closed the table"),
        (Result(B, T.TIME), "White ran out of time"),
        (Result(B, T.FORFEIT), "White forfeited"),
    ],
)
def test_english_reason_gives_todays_sentences(result: Result, words: str) -> None:
    assert english_reason(result) == words == result.reason
    # Every sentence of the rules' endings reads back as its code.
    if result.kind not in (T.RESIGNED, T.AGREED, T.TIME, T.FORFEIT, T.ABANDONED):
        assert termination(words) is result.kind


def test_a_normal_game_reports_its_kind_in_the_game_over_event() -> None:
    for seed in range(6):
        game = Game.new(SeededSource(seed), W)
        rng = random.Random(seed)
        last: list[Event] = []
        while not game.is_over:
            last = list(game.apply(rng.choice(game.legal_actions())))
        over = last[-1]
        assert isinstance(over, GameOver) and game.result is not None
        assert over.result == game.result and over.kind in set(T)
        assert game.result.kind not in (T.RESIGNED, T.AGREED, T.TIME, T.FORFEIT)


def test_an_ending_is_not_an_action() -> None:
    for text in ("resign", "resigns", "white resigns"):
        with pytest.raises(ValueError):
            parse_action(text)
