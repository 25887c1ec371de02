"""The game as an action log: the log rebuilds the game exactly, its stored form round-trips,
a tampered log is refused with LogError, clones are complete, and the turn start is kept."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import attrs
import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.actions import DRAW, END_TURN, UNDO, UNDO_TURN, Action, Handicap, Place
from shared.board import LINES, NUM_ISLANDS
from shared.events import Event, TurnEnded
from shared.game import FULL_DECK, Game, TurnStart
from shared.history import (
    LOG_ERROR_KINDS,
    Chance,
    Ending,
    LogEntry,
    LogError,
    LogFormatError,
    Move,
    entry_from_wire,
    entry_to_wire,
)
from shared.position import Position, PositionError
from shared.randomness import SeededSource
from shared.record import record_from_log, replay, write_record
from shared.types import DECLARED_ENDINGS, SEATLESS_ENDINGS, GameOptions, Phase, Seat
from tests.shared.test_properties import ALL_ACTIONS, game_options

W, B = Seat.WHITE, Seat.BLACK
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every option the game has, alone and combined, so that each is replayed at least once.
OPTION_SETS = [
    GameOptions(),
    GameOptions(variant1=True),
    GameOptions(variant2=True),
    GameOptions(variant1=True, variant2=True),
    *(GameOptions(handicap_seat=s, handicap_bridges=n) for s in Seat for n in (1, 2, 3)),
    GameOptions(True, True, W, 2),
    GameOptions(False, True, B, 3),
    GameOptions(True, False, B, 1),
]


def freeze(value: object) -> object:
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def state_key(game: Game) -> dict[str, object]:
    """Every field of the game, hidden ones included; the card source is left out because a
    rebuilt game has its own (it is only asked for new outcomes)."""
    return {k: freeze(v) for k, v in vars(game).items() if k != "source"}


def play(game: Game, rng: random.Random, limit: int = 3000) -> Iterator[list[Event]]:
    for _ in range(limit):
        if game.is_over:
            return
        yield game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no end")


def random_game(seed: int, options: GameOptions, first: Seat) -> tuple[Game, list[list[Event]]]:
    game = Game.new(SeededSource(seed), first, options)
    events = list(play(game, random.Random(seed)))
    return game, events


# ----- the log rebuilds the game ---------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: repr(attrs.astuple(o)))
def test_every_option_set_rebuilds_from_its_log(options: GameOptions) -> None:
    for seed in (1, 2):
        first = Seat(seed % 2)
        game, events = random_game(seed, options, first)
        assert game.is_over and isinstance(game.log[0], Chance)
        rebuilt_events: list[list[Event]] = []
        rebuilt = Game.from_log(
            options, first, game.log, events=rebuilt_events, source=SeededSource(0)
        )
        assert state_key(rebuilt) == state_key(game)
        assert rebuilt_events == events


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    options=game_options(),
    first=st.sampled_from(Seat),
    cuts=st.lists(st.integers(0, 10_000), max_size=4),
)
def test_every_prefix_of_the_log_rebuilds_the_game_at_that_point(
    seed: int, options: GameOptions, first: Seat, cuts: list[int]
) -> None:
    game = Game.new(SeededSource(seed), first, options)
    states = {len(game.log): state_key(game)}
    for _ in play(game, random.Random(seed)):
        states[len(game.log)] = state_key(game)
    assert state_key(Game.from_log(options, first, game.log, source=SeededSource(0))) == state_key(
        game
    )
    lengths = sorted(states)
    for cut in cuts:
        length = lengths[cut % len(lengths)]
        rebuilt = Game.from_log(options, first, game.log[:length], source=SeededSource(0))
        assert state_key(rebuilt) == states[length]


def position_of(game: Game) -> Position:
    """The game's state as a set-up position (at a turn start in the play phase)."""

    def cards(counts: list[int]) -> tuple[int, ...]:
        return tuple(i for i in range(NUM_ISLANDS) for _ in range(counts[i]))

    hidden = game.hidden
    return Position(
        options=game.options,
        bridges=(game.bridges[0], game.bridges[1]),
        hands=(cards(hidden[0]), cards(hidden[1])),
        open_cards=(cards(game.open[0]), cards(game.open[1])),
        face_up=tuple(game.face_up),
        pile=tuple(game.pile),
        played=tuple(game.played),
        face_down=tuple(game.face_down),
        round=game.round,
        round_points=tuple(game.round_points),
        to_move=game.to_move,
        phase=game.phase,
        final_turns_left=game.final_turns_left,
        opponent_abstained=game.opponent_abstained,
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=game_options(), stop=st.integers(0, 80))
def test_a_game_from_a_position_rebuilds_from_its_log(
    seed: int, options: GameOptions, stop: int
) -> None:
    rng = random.Random(seed)
    start = Game.new(SeededSource(seed), Seat(seed % 2), options)
    while start.phase is Phase.HANDICAP or (stop > 0 and not start.is_over):
        before = start.move_count
        start.apply(rng.choice(start.legal_actions()))
        stop -= start.move_count - before
    if start.is_over:
        return
    # Move on to the start of a turn, where a position is written down.
    while start.turn_start.move_count != start.move_count and not start.is_over:
        start.apply(rng.choice(start.legal_actions()))
    if start.is_over:
        return
    position = position_of(start)
    game = Game.from_position(position, SeededSource(seed + 1))
    events = list(play(game, rng))
    assert game.log[:1] != [Chance(tuple(position.pile))]  # no deal entry
    rebuilt_events: list[list[Event]] = []
    rebuilt = Game.from_log(
        options,
        position.to_move,
        game.log,
        position=position,
        events=rebuilt_events,
        source=SeededSource(0),
    )
    assert state_key(rebuilt) == state_key(game)
    assert rebuilt_events == events
    text = write_record(game)
    assert text == record_from_log(
        options, position.to_move, game.log, position=position, result=game.result,
        scores=game.scores,
    )  # fmt: skip
    assert state_key(replay(text)) == state_key(game)


def test_a_position_must_match_the_options_and_first_player() -> None:
    position = attrs.evolve(position_of(Game.new(SeededSource(4), B)), to_move=B)
    with pytest.raises(PositionError, match="options"):
        Game.from_log(GameOptions(variant1=True), B, [], position=position, source=SeededSource(0))
    with pytest.raises(PositionError, match="Black to move, not White"):
        Game.from_log(GameOptions(), W, [], position=position, source=SeededSource(0))
    assert (
        Game.from_log(GameOptions(), B, [], position=position, source=SeededSource(0)).to_move is B
    )


def test_the_source_is_asked_only_after_the_log() -> None:
    class Counting(SeededSource):
        asked = 0

        def shuffled(self, cards: Any) -> list[int]:
            Counting.asked += 1
            return super().shuffled(cards)

    game, _ = random_game(5, GameOptions(), W)
    source = Counting(0)
    Game.from_log(GameOptions(), W, game.log, source=source)
    assert Counting.asked == 0 and len(game.shuffles) == 2
    # A log that stops before the first reshuffle goes on with the source's shuffles.
    cut = next(k for k in range(1, len(game.log)) if isinstance(game.log[k], Chance))
    short = Game.from_log(GameOptions(), W, game.log[: cut - 1], source=source)
    short.apply(game.history[len(short.history)])
    assert Counting.asked == 1 and isinstance(short.log[-1], Chance)


def test_the_log_and_the_older_lists_agree() -> None:
    game, _ = random_game(6, GameOptions(variant2=True), B)
    moves = [e for e in game.log if isinstance(e, Move)]
    assert game.move_count == len(moves) == len(game.history)
    assert game.history == [m.action for m in moves]
    deal = game.log[0]
    assert isinstance(deal, Chance) and game.deal == list(deal.order)
    assert sorted(game.deal) == sorted(FULL_DECK)
    chances = [list(e.order) for e in game.log[1:] if isinstance(e, Chance)]
    assert game.shuffles == chances and len(chances) == 2
    # A reshuffle follows the move that drew the last card.
    for k, entry in enumerate(game.log[1:], start=1):
        if isinstance(entry, Chance):
            before = game.log[k - 1]
            assert isinstance(before, Move) and not isinstance(before.action, Place)


# ----- the stored form ------------------------------------------------------------------------

# A placement with a card of neither end is never legal and has no notation.
WRITABLE = [a for a in ALL_ACTIONS if not (isinstance(a, Place) and a.card not in LINES[a.line])]
WRITABLE += [UNDO, UNDO_TURN]
moves = st.builds(Move, st.sampled_from(Seat), st.sampled_from(WRITABLE))
chances = st.builds(
    Chance, st.lists(st.integers(0, NUM_ISLANDS - 1), max_size=24).map(tuple)
)  # fmt: skip
endings = st.sampled_from(
    [Ending(k, None) for k in SEATLESS_ENDINGS]
    + [Ending(k, s) for k in DECLARED_ENDINGS - SEATLESS_ENDINGS for s in Seat]
)
entries: st.SearchStrategy[LogEntry] = st.one_of(moves, chances, endings)


@settings(max_examples=200, deadline=None)
@given(st.lists(entries, max_size=8))
def test_entries_round_trip_through_msgpack_and_json(log: list[LogEntry]) -> None:
    wire = [entry_to_wire(e) for e in log]
    assert [entry_from_wire(e) for e in wire] == log
    assert [entry_from_wire(e) for e in msgpack.unpackb(msgpack.packb(wire))] == log
    assert [entry_from_wire(e) for e in msgpack.unpackb(msgpack.packb(wire), use_list=False)] == log
    assert [entry_from_wire(e) for e in json.loads(json.dumps(wire))] == log
    for entry in log:
        assert entry_from_wire(entry_to_wire(entry)) == entry


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), options=game_options(), first=st.sampled_from(Seat))
def test_a_stored_log_rebuilds_the_game(seed: int, options: GameOptions, first: Seat) -> None:
    game, _ = random_game(seed, options, first)
    stored = msgpack.packb([entry_to_wire(e) for e in game.log])
    log = [entry_from_wire(e) for e in msgpack.unpackb(stored)]
    assert log == game.log
    assert state_key(Game.from_log(options, first, log, source=SeededSource(0))) == state_key(game)
    assert record_from_log(options, first, log, result=game.result, scores=game.scores) == (
        write_record(game)
    )


def test_the_wire_form_is_short_and_plain() -> None:
    assert entry_to_wire(Move(W, Handicap(0))) == ["m", "white", "handicap ALOA-BARI"]
    assert entry_to_wire(Move(W, Place(1, 0))) == ["m", "white", "place BARI-ALOA"]
    with pytest.raises(LogFormatError, match="ALOA-BARI with another card"):
        entry_to_wire(Move(W, Place(3, 0)))
    assert entry_to_wire(Move(B, DRAW)) == ["m", "black", "draw"]
    assert entry_to_wire(Chance((3, 0, 11))) == ["c", [3, 0, 11]]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (None, "non-empty list"),
        ([], "non-empty list"),
        ("m white draw", "non-empty list"),
        (["x"], "starts with 'm', 'c' or 'e'"),
        (["m", "white"], r"\['m', seat, action\]"),
        (["m", "green", "draw"], "not a seat"),
        (["m", 0, "draw"], "not a seat"),
        (["m", "white", 7], "as a string"),
        (["m", "white", "fly away"], "bad action"),
        (["m", "white", "place ALOA-LALE"], "not connected"),
        (["c"], "chance entry"),
        (["c", "ALOA"], "chance entry"),
        (["c", [1, 12]], "12 is not a card"),
        (["c", [1, -1]], "-1 is not a card"),
        (["c", [True]], "True is not a card"),
        (["c", [1.0]], "1.0 is not a card"),
    ],
)
def test_malformed_entries_are_refused_with_a_reason(data: Any, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        entry_from_wire(data)


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["m", "c", "white", "black", "draw", "take ALOA", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_like, st.lists(json_like, max_size=3).map(lambda v: ["m", *v])))
def test_anything_else_is_a_log_format_error(data: Any) -> None:
    try:
        entry = entry_from_wire(data)
    except LogFormatError:
        return
    assert entry_from_wire(entry_to_wire(entry)) == entry


# ----- a tampered log is refused ------------------------------------------------------------------


def refused(game: Game, log: list[LogEntry]) -> LogError:
    with pytest.raises(LogError) as info:
        Game.from_log(game.options, game.first_player, log, source=SeededSource(0))
    assert info.value.kind in LOG_ERROR_KINDS and info.value.reason
    assert str(info.value).startswith(f"log entry {info.value.index}: ")
    return info.value


def test_each_kind_of_tampering_is_named() -> None:
    game, _ = random_game(11, GameOptions(), W)
    log = list(game.log)
    shuffle_at = next(k for k in range(1, len(log)) if isinstance(log[k], Chance))
    first = log[1]
    assert isinstance(first, Move)

    deal = log[0]
    assert isinstance(deal, Chance)
    error = refused(game, log[1:])
    assert (error.index, error.kind) == (0, "deal")
    error = refused(game, [Chance(deal.order[1:]), *log[1:]])
    assert (error.index, error.kind) == (0, "deal")
    assert refused(game, []).kind == "deal"
    error = refused(game, [log[0], Move(first.seat.other, first.action), *log[2:]])
    assert (error.index, error.kind) == (1, "seat")
    assert error.reason == "it is white's turn, not black's"
    error = refused(game, [log[0], Move(W, END_TURN), *log[2:]])
    assert (error.index, error.kind) == (1, "illegal") and "illegal action 'end'" in error.reason
    error = refused(game, log[:shuffle_at] + log[shuffle_at + 1 :])
    assert (error.index, error.kind) == (shuffle_at - 1, "chance-missing")
    error = refused(game, [log[0], log[1], log[shuffle_at], *log[2:]])
    assert (error.index, error.kind) == (2, "chance-stray")
    error = refused(game, [log[0], log[shuffle_at], *log[1:]])
    assert (error.index, error.kind) == (1, "chance-stray")
    bad = log[shuffle_at]
    assert isinstance(bad, Chance)
    error = refused(game, [*log[:shuffle_at], Chance(bad.order[1:]), *log[shuffle_at + 1 :]])
    assert (error.index, error.kind) == (shuffle_at, "chance-impossible")
    error = refused(game, [*log, Move(W, DRAW)])
    assert (error.index, error.kind) == (len(log), "over")
    error = refused(game, [*log, bad])
    assert (error.index, error.kind) == (len(log), "chance-stray")


def tamper(log: list[LogEntry], rng: random.Random) -> list[LogEntry]:
    out = list(log)
    k = rng.randrange(len(out))
    entry = out[k]
    how = rng.randrange(6)
    if how == 0:
        del out[k]
    elif how == 1:
        out.insert(k, out[rng.randrange(len(out))])
    elif how == 2:
        j = rng.randrange(len(out))
        out[k], out[j] = out[j], out[k]
    elif how == 3 and isinstance(entry, Move):
        out[k] = Move(entry.seat.other, entry.action)
    elif how == 3 and isinstance(entry, Chance):
        order = list(entry.order)
        if order:
            order[rng.randrange(len(order))] = rng.randrange(NUM_ISLANDS)
        out[k] = Chance(tuple(order))
    elif how == 4:
        action: Action = rng.choice(ALL_ACTIONS)
        out[k] = Move(rng.choice(list(Seat)), action)
    else:
        out[k:] = []
        out.append(Chance(tuple(rng.sample(range(NUM_ISLANDS), 3))))
    return out


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    options=game_options(),
    first=st.sampled_from(Seat),
    salt=st.integers(0, 2**32 - 1),
)
def test_a_tampered_log_is_refused_or_replays_the_same_way_twice(
    seed: int, options: GameOptions, first: Seat, salt: int
) -> None:
    game, _ = random_game(seed, options, first)
    rng = random.Random(salt)
    for _ in range(10):
        log = tamper(game.log, rng)
        try:
            rebuilt = Game.from_log(options, first, log, source=SeededSource(0))
        except LogError as exc:
            assert exc.kind in LOG_ERROR_KINDS and 0 <= exc.index <= len(log)
            continue
        # A change that still replays (two equal entries swapped, a card for its twin...) is
        # a game of its own, and its log is exactly the one given.
        assert rebuilt.log == log


# ----- clones and the turn start ----------------------------------------------------------------


def test_a_clone_copies_every_field_and_shares_no_list() -> None:
    rng = random.Random(7)
    game = Game.new(SeededSource(7), W, GameOptions(variant2=True))
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    other = game.clone()
    # A field added to Game but not to clone() is missing from the clone's vars().
    assert vars(other).keys() == vars(game).keys()
    assert state_key(other) == state_key(game) and other.source is game.source
    before = state_key(game)
    for action in [*other.legal_actions()[:3], DRAW]:
        if other.why_illegal(action) is None:
            other.apply(action)
    for value in vars(other).values():
        if isinstance(value, list):
            value.append(0)
            for item in value:
                if isinstance(item, list):
                    item.append(0)
    assert state_key(game) == before


def full_turn_start(game: Game) -> TurnStart:
    """The snapshot taken honestly, from every field, for comparison with game.turn_start."""
    return TurnStart(
        game.move_count, game.to_move, game.phase,
        (game.bridges[0], game.bridges[1]), (game.tokens[0], game.tokens[1]),
        (tuple(game.hand[0]), tuple(game.hand[1])), (tuple(game.open[0]), tuple(game.open[1])),
        tuple(game.face_up), tuple(game.pile), tuple(game.played), tuple(game.face_down),
        game.handicap_left,
    )  # fmt: skip


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), options=game_options(), first=st.sampled_from(Seat))
def test_the_turn_start_is_kept_and_restores_the_turn(
    seed: int, options: GameOptions, first: Seat
) -> None:
    game = Game.new(SeededSource(seed), first, options)
    rng = random.Random(seed)
    began, began_state = full_turn_start(game), state_key(game)
    assert game.turn_start == began
    while not game.is_over:
        phase = game.phase
        events = game.apply(rng.choice(game.legal_actions()))
        turn_over = any(isinstance(e, TurnEnded) and e.next_seat is not None for e in events) or (
            phase is Phase.HANDICAP and game.phase is not Phase.HANDICAP
        )
        if turn_over:
            began, began_state = full_turn_start(game), state_key(game)
        assert game.turn_start == began
        if not game.is_over:
            undone = game.clone()
            undone.restore_turn_start()
            assert state_key(undone) == began_state
    with pytest.raises(ValueError, match="over"):
        game.restore_turn_start()


def test_an_undone_turn_plays_on_like_the_original() -> None:
    game = Game.new(SeededSource(8), W, GameOptions())
    before = state_key(game)
    played: list[Action] = []
    while not any(isinstance(e, TurnEnded) for e in game.apply(game.legal_actions()[0])):
        played.append(game.history[-1])
        game.restore_turn_start()
        assert state_key(game) == before
        for action in played:
            game.apply(action)
    assert game.move_count == len(played) + 1 and game.to_move is B
