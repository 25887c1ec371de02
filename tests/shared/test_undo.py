"""Undo within the turn: 'undo' takes back the last play, 'undo turn' every play of the turn.
The state goes back exactly; the undo is logged, so the log and the record rebuild the game;
nobody else learns a card discarded face down."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.actions import (
    DRAW,
    PLAYS,
    UNDO,
    UNDO_TURN,
    Action,
    Discard,
    Undo,
    parse_action,
)
from shared.board import ISLAND_INDEX
from shared.events import (
    Event,
    GameOver,
    PlayUndone,
    describe,
    event_from_dict,
    event_to_dict,
)
from shared.game import Game
from shared.history import Move, entry_from_wire, entry_to_wire
from shared.legality import IllegalAction, legal_actions, why_illegal
from shared.randomness import SeededSource
from shared.record import replay, write_record
from shared.types import GameOptions, Phase, Seat
from shared.views import (
    public_from_dict,
    public_to_dict,
    seat_events,
    seat_view,
    seat_view_from_dict,
    seat_view_to_dict,
    spectator_events,
    spectator_view,
)
from tests.positions import game as position_game
from tests.shared.test_history import state_key
from tests.shared.test_properties import game_options

W, B = Seat.WHITE, Seat.BLACK


def board_state(game: Game) -> dict[str, object]:
    """Every field of the game but the log and the move count (an undo is a logged move)."""
    key = state_key(game)
    del key["log"], key["move_count"]
    return key


def plays(game: Game) -> list[Action]:
    return [a for a in game.legal_actions() if isinstance(a, PLAYS)]


# ----- the notation -------------------------------------------------------------------------------


def test_the_notation() -> None:
    assert parse_action("undo") == UNDO and str(UNDO) == "undo"
    assert parse_action(" UNDO  Turn ") == UNDO_TURN and str(UNDO_TURN) == "undo turn"
    for bad in ("undo 2", "undo turn now", "undo BARI"):
        with pytest.raises(ValueError, match="undo"):
            parse_action(bad)
    assert entry_to_wire(Move(W, UNDO_TURN)) == ["m", "white", "undo turn"]
    assert entry_from_wire(["m", "black", "undo"]) == Move(B, UNDO)


# ----- what an undo restores ----------------------------------------------------------------------


def test_undo_takes_back_a_placement_that_won_an_island_and_removed_bridges() -> None:
    # A placement on ALOA-DUDA gives White ALOA (2 of 3) and removes Black's ALOA-HUNA; the
    # undo puts everything back.
    g = position_game(
        white="ALOA-BARI", black="ALOA-HUNA DUDA-ELAI", white_hand="ALOA DUDA", black_hand="KAHU"
    )
    before = board_state(g)
    events = g.apply(parse_action("place ALOA-DUDA"))
    assert any(type(e).__name__ == "TokenPlaced" for e in events)
    assert g.undoable == 1
    undone = g.apply(UNDO)
    assert undone == [PlayUndone(W, parse_action("place ALOA-DUDA"), False)]
    assert board_state(g) == before and g.undoable == 0
    assert g.history[-1] == UNDO and g.move_count == 2


def test_undo_turn_takes_back_every_play_last_first() -> None:
    g = position_game(
        white="ALOA-BARI",
        black="ALOA-HUNA DUDA-ELAI",
        white_hand="ALOA DUDA ELAI ELAI",
        black_hand="KAHU",
        options=GameOptions(variant1=True),
    )
    before = board_state(g)
    turn = [
        parse_action("discard ALOA"),
        parse_action("remove DUDA-ELAI ELAI+ELAI rebuild"),
        parse_action("place DUDA-BARI"),
    ]
    for action in turn:
        g.apply(action)
    mid = board_state(g)
    assert g.undoable == 3
    undone = g.apply(UNDO_TURN)
    assert [e.action for e in undone if isinstance(e, PlayUndone)] == turn[::-1]
    assert board_state(g) == before
    # Played again, the turn reaches the same state.
    for action in turn:
        g.apply(action)
    assert board_state(g) == mid


def test_an_open_card_goes_back_to_the_open_cards_and_its_discard_stays_public() -> None:
    g = position_game(
        white_hand="BARI", white_open="COCO", black_hand="KAHU", options=GameOptions(variant2=True)
    )
    before = board_state(g)
    g.apply(parse_action("discard COCO"))
    g.apply(parse_action("discard BARI"))
    events = g.apply(UNDO_TURN)
    coco, bari = ISLAND_INDEX["COCO"], ISLAND_INDEX["BARI"]
    assert events == [PlayUndone(W, Discard(bari), False), PlayUndone(W, Discard(coco), True)]
    assert board_state(g) == before and g.open[W][coco] == 1
    for shown in (seat_events(events, B), spectator_events(events)):
        assert shown == [PlayUndone(W, None, False), PlayUndone(W, Discard(coco), True)]
    assert seat_events(events, W) == events


def test_undo_in_a_final_turn() -> None:
    g = position_game(
        white="ALOA-BARI",
        black="KAHU-LALE",
        white_hand="BARI DUDA",
        black_hand="KAHU",
        face_up="",
        pile="",
        round=3,
        round_points=((0, 0), (0, 0)),
        phase=Phase.FINAL,
        final_turns_left=2,
    )
    before = board_state(g)
    g.apply(parse_action("place BARI-DUDA"))
    g.apply(UNDO)
    assert board_state(g) == before


# ----- when an undo is refused --------------------------------------------------------------------


def refused(g: Game, action: Undo, reason: str) -> None:
    before = state_key(g)
    assert g.why_illegal(action) is not None
    with pytest.raises(IllegalAction, match=reason):
        g.apply(action)
    assert state_key(g) == before


def test_refused_without_a_play_after_a_draw_in_the_handicap_and_after_the_end() -> None:
    g = position_game(white="ALOA-BARI", black="KAHU-LALE", white_hand="BARI", black_hand="KAHU")
    for action in (UNDO, UNDO_TURN):
        refused(g, action, "nothing to take back")
    g.apply(parse_action("discard BARI"))
    g.apply(DRAW)  # the draw ends the turn: the discard stands
    for action in (UNDO, UNDO_TURN):
        refused(g, action, "nothing to take back")
    g.apply(parse_action("place KAHU-GOLA"))
    g.apply(UNDO)
    refused(g, UNDO, "nothing to take back")  # one play, taken back once
    handicap = Game.new(SeededSource(2), W, GameOptions(handicap_seat=B, handicap_bridges=2))
    handicap.apply(handicap.legal_actions()[0])
    refused(handicap, UNDO, "handicap")
    # A play that ends the game at once cannot be taken back: round 2, Black's last bridge.
    over = position_game(
        white="ALOA-BARI",
        black="KAHU-LALE",
        white_hand="KAHU LALE",
        black_hand="LALE",
        round=2,
        round_points=((0, 0),),
    )
    events = over.apply(parse_action("remove KAHU-LALE KAHU+LALE"))
    assert isinstance(events[-1], GameOver) and over.is_over and over.undoable == 0
    for action in (UNDO, UNDO_TURN):
        refused(over, action, "the game is over")


def test_legal_actions_never_list_an_undo_but_the_view_knows_it() -> None:
    g = position_game(white="ALOA-BARI", black="KAHU-LALE", white_hand="BARI", black_hand="KAHU")
    g.apply(parse_action("discard BARI"))
    assert g.why_illegal(UNDO) is None and g.why_illegal(UNDO_TURN) is None
    assert not any(isinstance(a, Undo) for a in g.legal_actions())
    view = seat_view_from_dict(seat_view_to_dict(seat_view(g, W)))
    assert view.public.undoable == 1
    assert public_to_dict(spectator_view(g))["undoable"] == 1
    assert public_from_dict(public_to_dict(spectator_view(g))).undoable == 1
    ctx = view.turn_context()
    assert ctx is not None and ctx.undoable == 1
    assert why_illegal(ctx, UNDO) is None
    assert not any(isinstance(a, Undo) for a in legal_actions(ctx))
    # A view from before undo existed has none.
    old = public_to_dict(spectator_view(g))
    del old["undoable"]
    assert public_from_dict(old).undoable == 0


# ----- the log, the record and the views ----------------------------------------------------------


def test_a_game_with_undos_replays_from_its_log_and_its_record() -> None:
    g = position_game(
        white="ALOA-BARI", black="KAHU-LALE", white_hand="BARI DUDA", black_hand="KAHU"
    )
    for text in ("place BARI-DUDA", "discard DUDA", "undo", "undo", "discard BARI", "draw"):
        g.apply(parse_action(text))
    text = write_record(g)
    assert "white undo" in text.splitlines()
    again = replay(text)
    assert state_key(again) == state_key(g)


def test_the_wire_form_and_the_sentence() -> None:
    event = PlayUndone(W, parse_action("place BARI-DUDA"), False)
    wire = event_to_dict(event)
    assert wire == {
        "type": "PlayUndone",
        "seat": "white",
        "action": "place BARI-DUDA",
        "open": False,
    }
    assert event_from_dict(wire) == event
    assert describe(event) == "White took back place BARI-DUDA"
    hidden = PlayUndone(B, None, False)
    assert event_from_dict(event_to_dict(hidden)) == hidden
    assert describe(hidden) == "Black took back a card discarded face down"
    with pytest.raises(ValueError):
        PlayUndone(W, DRAW, False)


def test_nobody_else_sees_a_face_down_discard_taken_back() -> None:
    g = position_game(white="ALOA-BARI", black="KAHU-LALE", white_hand="GOLA", black_hand="KAHU")
    g.apply(parse_action("discard GOLA"))
    events = g.apply(UNDO)
    for shown in (seat_events(events, B), spectator_events(events)):
        assert "GOLA" not in repr([event_to_dict(e) for e in shown])
        assert shown == [PlayUndone(W, None, False)]
    assert seat_events(events, W) == events


# ----- random games with undos --------------------------------------------------------------------


def play_with_undos(
    seed: int, options: GameOptions, share: float
) -> tuple[Game, list[list[Event]]]:
    """A random game in which, after a play, an undo or 'undo turn' comes now and then; each
    undo is checked against the state before the plays it takes back."""
    rng = random.Random(seed)
    g = Game.new(SeededSource(seed), Seat(seed % 2), options)
    states: list[dict[str, object]] = []  # the state before each play of the turn
    all_events: list[list[Event]] = []
    for _ in range(5000):
        if g.is_over:
            return g, all_events
        assert g.undoable == len(states)
        if states and rng.random() < share:
            whole = rng.random() < 0.3
            events = g.apply(UNDO_TURN if whole else UNDO)
            assert len(events) == (len(states) if whole else 1)
            target = states[0] if whole else states[-1]
            del states[0 if whole else -1 :]
            assert board_state(g) == target
            for e in events:
                assert isinstance(e, PlayUndone)
                for seat in Seat:
                    shown = seat_events([e], seat)[0]
                    assert isinstance(shown, PlayUndone)
                    if isinstance(e.action, Discard) and not e.open:
                        assert (shown.action is None) == (seat is not e.seat)
                    else:
                        assert shown == e
        else:
            action = rng.choice(g.legal_actions())
            before = board_state(g)
            events = g.apply(action)
            if isinstance(action, PLAYS):
                states.append(before)
            else:  # the turn ended (or a handicap bridge, which is never taken back)
                states = []
        all_events.append(events)
    raise AssertionError("no end")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=game_options(), share=st.sampled_from([0.2, 0.5]))
def test_random_games_with_undos_rebuild_from_the_log(
    seed: int, options: GameOptions, share: float
) -> None:
    g, events = play_with_undos(seed, options, share)
    assert any(isinstance(m.action, Undo) for m in g.log if isinstance(m, Move))
    rebuilt_events: list[list[Event]] = []
    rebuilt = Game.from_log(
        g.options, g.first_player, g.log, events=rebuilt_events, source=SeededSource(0)
    )
    assert state_key(rebuilt) == state_key(g)
    assert rebuilt_events == events
    assert state_key(replay(write_record(g))) == state_key(g)
    # Spectators never see a card discarded face down, taken back or not.
    for batch in events:
        for shown in spectator_events(batch):
            if isinstance(shown, PlayUndone) and isinstance(shown.action, Discard):
                assert shown.open
