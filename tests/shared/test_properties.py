"""Properties of the engine over random legal games, driven by hypothesis.

Each example is a whole game from a seeded deal (SeededSource) with random options and first
player; the moves are random legal actions, sometimes the AI's, so that the games also reach
the positions good play leads to (tokens won and lost, removals, rebuilds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.actions import (
    ABSTAIN,
    DRAW,
    END_TURN,
    UNDO,
    UNDO_TURN,
    Action,
    Discard,
    Handicap,
    Place,
    Remove,
    Take,
)
from shared.ai import choose_action
from shared.board import (
    BRIDGES_PER_PLAYER,
    CARDS_PER_ISLAND,
    HAND_LIMIT,
    LINES,
    NUM_ISLANDS,
    NUM_LINES,
)
from shared.control import majority_mask
from shared.events import CardDiscarded, CardDrawn, Event
from shared.game import Game
from shared.legality import IllegalAction
from shared.randomness import SeededSource
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

MAX_ACTIONS = 3000  # a random game is about a hundred actions; this bounds every game


@st.composite
def game_options(draw: st.DrawFn) -> GameOptions:
    handicap = draw(st.sampled_from([None, Seat.WHITE, Seat.BLACK]))
    return GameOptions(
        variant1=draw(st.booleans()),
        variant2=draw(st.booleans()),
        handicap_seat=handicap,
        handicap_bridges=0 if handicap is None else draw(st.integers(1, 3)),
    )


@attrs.frozen
class Setup:
    seed: int
    options: GameOptions
    first: Seat
    ai_share: float  # how often the AI picks the move instead of a uniform random choice


setups = st.builds(
    Setup,
    seed=st.integers(0, 2**32 - 1),
    options=game_options(),
    first=st.sampled_from([Seat.WHITE, Seat.BLACK]),
    ai_share=st.sampled_from([0.0, 0.5, 0.9]),
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(setup: Setup) -> Iterator[tuple[Game, Action, list[Event]]]:
    """Play a random legal game; yield the game before each action, and then the events."""
    game = Game.new(SeededSource(setup.seed), first=setup.first, options=setup.options)
    rng = random.Random(setup.seed)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        if rng.random() < setup.ai_share:
            action = choose_action(seat_view(game, game.to_move), rng)
        else:
            action = rng.choice(game.legal_actions())
        events = game.apply(action)
        yield game, action, events
    raise AssertionError(f"{setup}: no end after {MAX_ACTIONS} actions")


def run(setup: Setup, check: Callable[[Game], None]) -> Game:
    game = Game.new(SeededSource(setup.seed), first=setup.first, options=setup.options)
    check(game)
    for game, _, _ in play(setup):
        check(game)
    return game


def freeze(value: object) -> object:
    """A comparable copy: lists and dicts become tuples; everything else in a Game is immutable."""
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, freeze(v)) for k, v in value.items())
    return value


def snapshot(game: Game) -> dict[str, object]:
    """Every field of the game except the card source, copied."""
    return {k: freeze(v) for k, v in vars(game).items() if k != "source"}


# ----- invariants of the state -----------------------------------------------------------------


def check_invariants(game: Game) -> None:
    # The 24 cards are always all somewhere.
    where: Counter[int] = Counter()
    for seat in Seat:
        for island in range(NUM_ISLANDS):
            # game.hand counts every card in hand, open ones (Variant 2) included.
            assert 0 <= game.open[seat][island] <= game.hand[seat][island]
            where[island] += game.hand[seat][island]
    where.update(game.face_up)
    where.update(game.pile)
    where.update(game.played)
    where.update(game.face_down)
    assert where == Counter({i: CARDS_PER_ISLAND for i in range(NUM_ISLANDS)})
    if not game.options.variant2:
        assert game.open == [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
    # A token stands exactly where its owner holds a strict majority.
    for seat in Seat:
        assert game.tokens[seat] == majority_mask(game.bridges[seat]), seat
    assert not game.tokens[0] & game.tokens[1]
    # Hands, bridges, the face-up row.
    for seat in Seat:
        assert game.hand_size(seat) <= HAND_LIMIT
        assert game.bridges[seat] >> NUM_LINES == 0
        assert game.bridges[seat].bit_count() <= BRIDGES_PER_PLAYER
    assert not game.bridges[0] & game.bridges[1]
    assert len(game.face_up) <= 3
    if game.pile:
        assert len(game.face_up) == 3
    if game.phase is Phase.PLAY:
        assert game.face_up, "a round ends when the last face-up card is taken"
    assert 1 <= game.round <= 3
    # Interim scorings so far, plus the final scoring once the game ended normally.
    # (A game that ended early, a player without bridges, had no final scoring.)
    final = game.phase is Phase.OVER and bool(game.bridges[0]) and bool(game.bridges[1])
    assert len(game.round_points) == game.round - 1 + final
    if game.phase is Phase.OVER:
        assert game.result is not None
    # Rounds 2 and 3: nobody plays on without a bridge on the board.
    if game.round >= 2 and not game.is_over:
        assert game.bridges[0] and game.bridges[1]


@SETTINGS
@given(setups)
def test_state_invariants_hold_throughout(setup: Setup) -> None:
    run(setup, check_invariants)


@SETTINGS
@given(setups)
def test_every_game_ends(setup: Setup) -> None:
    game = Game.new(SeededSource(setup.seed), first=setup.first, options=setup.options)
    count = 0
    for game, _, _ in play(setup):  # noqa: B007 (the last game is checked below)
        count += 1
    assert game.is_over and game.result is not None
    assert count < MAX_ACTIONS
    assert game.legal_actions() == []
    assert game.why_illegal(DRAW) is not None


# ----- legal and illegal actions ---------------------------------------------------------------


def check_legal_actions_apply(game: Game) -> None:
    legal = game.legal_actions()
    if game.is_over:
        assert legal == []
        return
    assert legal, "a game that is not over always offers an action"
    assert len(set(legal)) == len(legal), "no action is listed twice"
    for action in legal:
        assert game.why_illegal(action) is None, action
        trial = game.clone()
        trial.apply(action)
        check_invariants(trial)
    ends = [a for a in legal if not isinstance(a, Place | Remove | Discard | Handicap)]
    if game.phase is not Phase.HANDICAP:
        assert ends or game.hand_size(game.to_move) == HAND_LIMIT, "a turn can always end"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups)
def test_every_legal_action_applies(setup: Setup) -> None:
    run(setup, check_legal_actions_apply)


ENDINGS: tuple[Action, ...] = (DRAW, ABSTAIN, END_TURN)


def random_actions(rng: random.Random, count: int) -> list[Action]:
    """Actions of every class with random arguments, most of them illegal."""
    out: list[Action] = list(ENDINGS)
    for _ in range(count):
        kind = rng.randrange(6)
        card = rng.randrange(NUM_ISLANDS)
        line = rng.randrange(NUM_LINES)
        if kind == 0:
            # Mostly cards that fit the line, sometimes any card.
            if rng.random() < 0.7:
                card = rng.choice(LINES[line])
            out.append(Place(card, line))
        elif kind == 1:
            ends = LINES[line]
            pair = (
                (rng.choice(ends), rng.choice(ends))
                if rng.random() < 0.7
                else (card, rng.randrange(NUM_ISLANDS))
            )
            c1, c2 = sorted(pair)
            out.append(Remove(line, (c1, c2), rng.random() < 0.5))
        elif kind == 2:
            out.append(Discard(card))
        elif kind == 3:
            out.append(Take(card))
        elif kind == 4:
            out.append(Handicap(line))
        else:
            out.append(rng.choice(ENDINGS))
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups, st.integers(0, 2**32 - 1))
def test_illegal_actions_are_refused_and_change_nothing(setup: Setup, salt: int) -> None:
    rng = random.Random(salt)

    def check(game: Game) -> None:
        legal = set(game.legal_actions())
        before = snapshot(game)
        for action in random_actions(rng, 12):
            if action in legal:
                assert game.why_illegal(action) is None
                continue
            reason = game.why_illegal(action)
            assert reason, f"{action} is not listed as legal but why_illegal finds nothing"
            try:
                game.apply(action)
            except IllegalAction as exc:
                assert exc.reason
            else:
                raise AssertionError(f"{action} was applied although it is not legal")
            assert snapshot(game) == before, f"refusing {action} changed the state"

    run(setup, check)


def every_action() -> list[Action]:
    """Every well-formed action (Remove cards sorted, as the notation gives them)."""
    out: list[Action] = list(ENDINGS)
    for line, (a, b) in enumerate(LINES):
        out.append(Handicap(line))
        for card in range(NUM_ISLANDS):
            out.append(Place(card, line))
        for pair in ((a, a), (a, b), (b, b)):
            out.append(Remove(line, pair))
            out.append(Remove(line, pair, True))
    for card in range(NUM_ISLANDS):
        out.append(Discard(card))
        out.append(Take(card))
    return out


ALL_ACTIONS = every_action()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups)
def test_legal_actions_and_why_illegal_agree_on_every_action(setup: Setup) -> None:
    def check(game: Game) -> None:
        legal = set(game.legal_actions())
        allowed = {a for a in ALL_ACTIONS if game.why_illegal(a) is None}
        assert legal == allowed, (legal - allowed, allowed - legal)
        # An undo is never listed, and allowed exactly while the turn has a play to take back
        # (these games never undo, so every move since the turn began was a play).
        plays = game.phase in (Phase.PLAY, Phase.FINAL) and (
            game.move_count > game.turn_start.move_count
        )
        for undo in (UNDO, UNDO_TURN):
            assert undo not in legal
            assert (game.why_illegal(undo) is None) == plays, (undo, plays)
            ctx = seat_view(game, game.to_move).turn_context()
            assert ctx is not None and ctx.undoable == game.undoable
            if not plays:
                with pytest.raises(IllegalAction):
                    game.clone().apply(undo)

    run(setup, check)


# ----- what each seat may know -----------------------------------------------------------------


def hidden_twin(game: Game, seat: Seat | None, rng: random.Random) -> Game:
    """The same table with what `seat` cannot see reshuffled: other hidden hands, pile order,
    face-down discards. For a spectator (None) both hidden hands are reshuffled."""
    twin = game.clone()
    others = [s for s in Seat if s != seat]
    unseen: list[int] = list(twin.pile) + list(twin.face_down)
    for s in others:
        hidden = [h - o for h, o in zip(twin.hand[s], twin.open[s], strict=True)]
        unseen += [i for i in range(NUM_ISLANDS) for _ in range(hidden[i])]
    rng.shuffle(unseen)
    for s in others:
        size = sum(twin.hand[s]) - sum(twin.open[s])
        twin.hand[s] = list(twin.open[s])
        for card in unseen[:size]:
            twin.hand[s][card] += 1
        unseen = unseen[size:]
    twin.pile = unseen[: len(game.pile)]
    twin.face_down = unseen[len(game.pile) :]
    return twin


def check_views(game: Game, rng: random.Random) -> None:
    public = spectator_view(game)
    assert not hasattr(public, "hand")
    assert "hand" not in public_to_dict(public)
    assert public_from_dict(public_to_dict(public)) == public
    # undoable is left out of == (see PublicView): compared here on its own.
    assert public_from_dict(public_to_dict(public)).undoable == public.undoable == game.undoable
    for seat in Seat:
        view = seat_view(game, seat)
        assert view.seat is seat
        true_hand = sorted(i for i, n in enumerate(game.hand_counts(seat)) for _ in range(n))
        assert list(view.hand) == true_hand
        assert view.public == public
        opp = seat.other
        assert view.public.hand_sizes[opp] == game.hand_size(opp)
        opened = sorted(i for i in range(NUM_ISLANDS) for _ in range(game.open[opp][i]))
        assert list(view.public.open_cards[opp]) == opened
        assert view.public.pile_size == len(game.pile)
        assert view.public.face_down_count == len(game.face_down)
        assert seat_view_from_dict(seat_view_to_dict(view)) == view
        # Nothing in the view depends on what the seat cannot see.
        twin = hidden_twin(game, seat, rng)
        assert seat_view(twin, seat) == view
        assert seat_view_to_dict(seat_view(twin, seat)) == seat_view_to_dict(view)
        ctx = view.turn_context()
        if ctx is not None:
            true = game.turn_context()
            assert ctx._replace(hand=(), face_up=()) == true._replace(hand=(), face_up=())
            assert list(ctx.hand) == list(true.hand)
            assert list(ctx.face_up) == list(true.face_up)
    assert spectator_view(hidden_twin(game, None, rng)) == public


def check_events(game: Game, events: list[Event]) -> None:
    for seat in Seat:
        seen = seat_events(events, seat)
        assert len(seen) == len(events)
        for original, shown in zip(events, seen, strict=True):
            assert type(original) is type(shown)
            if isinstance(original, CardDrawn):
                assert isinstance(shown, CardDrawn)
                assert shown.card == (original.card if original.seat is seat else None)
            elif isinstance(original, CardDiscarded):
                assert isinstance(shown, CardDiscarded)
                visible = original.seat is seat or original.open
                assert shown.card == (original.card if visible else None)
            else:
                assert shown == original
    for original, shown in zip(events, spectator_events(events), strict=True):
        if isinstance(original, CardDrawn):
            assert isinstance(shown, CardDrawn) and shown.card is None
        elif isinstance(original, CardDiscarded):
            assert isinstance(shown, CardDiscarded)
            assert shown.card == (original.card if original.open else None)
        else:
            assert shown == original


@SETTINGS
@given(setups, st.integers(0, 2**32 - 1))
def test_views_and_events_hide_what_a_seat_cannot_know(setup: Setup, salt: int) -> None:
    rng = random.Random(salt)
    game = Game.new(SeededSource(setup.seed), first=setup.first, options=setup.options)
    check_views(game, rng)
    for game, action, events in play(setup):
        check_views(game, rng)
        check_events(game, events)
        # A face-down discard by one seat never shows its card to the other seat or spectators.
        if isinstance(action, Discard):
            mover = next(e.seat for e in events if isinstance(e, CardDiscarded))
            shown = [e for e in seat_events(events, mover.other) if isinstance(e, CardDiscarded)]
            assert shown and (shown[0].open or shown[0].card is None)
