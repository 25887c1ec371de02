"""The analysis tells skill from luck (issue 40): a turn's cost is judged before the card it turned
up was seen, against the best turn in the same samples, and marked only beyond the noise; the luck
of the card is apart, and summed per player. Small sample counts with fixed seeds: these are the
rules' tests, the figures are bench/calibration_bench.py's."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from client.model.hint import suggest
from shared.actions import Abstain, Action, Draw, Place
from shared.ai import choose_action, choose_plan
from shared.analysis import (
    SEARCH_ITERATIONS,
    TurnAnalysis,
    analyse_turn,
    summaries,
    turn_seed,
    turns,
)
from shared.game import FULL_DECK, Game
from shared.judging import reveal
from shared.legality import legal_actions
from shared.randomness import RecordedSource, SeededSource
from shared.reasons import reason
from shared.record import read_record, write_record
from shared.sampling import Sampler
from shared.types import GameOptions, Seat, Termination
from shared.views import seat_view

PLAYOUTS = 32
SEARCH = 200  # where the search's choice is not what a test is about

Chooser = Callable[[Game, int], Action]


def played_game(seed: int, white: Chooser, turns_played: int) -> str:
    """White chooses by `white(game, step)`, Black is the easy level; after `turns_played`
    turns (or at the game's end) the record, Black resigning if it is not over."""
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
    step = changes = 0
    mover = game.to_move
    while not game.is_over and changes < turns_played:
        if game.to_move is Seat.WHITE:
            action = white(game, step)
        else:
            action = choose_action(seat_view(game, game.to_move), rng, level="easy")
        game.apply(action)
        step += 1
        if game.to_move is not mover:
            changes, mover = changes + 1, game.to_move
    if not game.is_over:
        game.end(Termination.RESIGNED, Seat.BLACK)
    return write_record(game)


# ----- the card on top ----------------------------------------------------------------------


def test_a_card_revealed_is_on_top_and_the_hidden_cards_are_the_same() -> None:
    game = Game.new(SeededSource(4), Seat.WHITE, GameOptions())
    view = seat_view(game, Seat.WHITE)
    sampler = Sampler(view, view.public.known)
    rng = random.Random(1)
    for _ in range(30):
        hidden = sampler.sample(rng)
        places = Counter(hidden.hands[1]) + Counter(hidden.pile) + Counter(hidden.face_down)
        for card in set(sampler.pool):
            shown = reveal(sampler, hidden, card, rng)
            assert shown is not None and shown.pile[0] == card
            assert len(shown.pile) == len(hidden.pile)
            assert len(shown.hands[1]) == len(hidden.hands[1])
            assert (
                Counter(shown.hands[1]) + Counter(shown.pile) + Counter(shown.face_down) == places
            )
            assert shown.hands[0] == hidden.hands[0]  # the mover's own hand is never touched
    assert reveal(sampler, hidden._replace(pile=()), 0, rng) is None


def test_a_card_revealed_deals_the_rest_evenly() -> None:
    """With a card put on top, every other hidden card is where an even deal of the rest puts
    it: e.g. the second card of the pile is any unseen card in proportion to its copies."""
    game = Game.new(SeededSource(4), Seat.WHITE, GameOptions())
    view = seat_view(game, Seat.WHITE)
    sampler = Sampler(view, view.public.known)
    rng = random.Random(2)
    card = sampler.pool[0]
    rest = Counter(sampler.pool) - Counter([card])
    seconds: Counter[int] = Counter()
    trials = 6000
    for _ in range(trials):
        shown = reveal(sampler, sampler.sample(rng), card, rng)
        assert shown is not None
        seconds[shown.pile[1]] += 1
    total = rest.total()
    for island, copies in rest.items():
        assert seconds[island] / trials == pytest.approx(copies / total, abs=0.025)


# ----- the card drawn is luck, not skill ------------------------------------------------------


def two_deals(seed: int) -> tuple[str, str, Action]:
    """Two games alike but for the top of the draw pile, White's first turn being the search's
    plan ending with a draw (so White's view is the same in both until it draws); Black then
    resigns. The records, and the plan's first action."""
    first = list(SeededSource(seed).shuffled(FULL_DECK))
    other = next(i for i in range(10, 24) if first[i] != first[9])
    second = first[:]
    second[9], second[other] = second[other], second[9]
    records = []
    plan: tuple[Action, ...] = ()
    for deck in (first, second):
        game = Game.new(RecordedSource([deck]), Seat.WHITE, GameOptions())
        view = seat_view(game, Seat.WHITE)
        seed_of_turn = 1 * 100_003 + 1  # shared.analysis.turn_seed(1, the first turn)
        plan = choose_plan(view, random.Random(seed_of_turn), level="normal", iterations=SEARCH)
        for action in plan:
            game.apply(action)
        game.end(Termination.RESIGNED, Seat.BLACK)
        records.append(write_record(game))
    assert isinstance(plan[-1], Draw)
    return records[0], records[1], plan[0]


def test_the_card_drawn_changes_the_luck_never_the_cost() -> None:
    one, two, _first = two_deals(3)
    judged = []
    for record in (one, two):
        (turn,) = turns(read_record(record))
        assert turn.revealed is not None
        judged.append(analyse_turn(turn, turn_seed(1, turn), PLAYOUTS, SEARCH))
    a, b = judged
    assert a.actions == b.actions and a.actions[-1] == "draw"
    # judged before the card is seen: the same in both games, and no cost (the best turn)
    assert (a.before, a.expected, a.cost, a.noise, a.mark) == (b.before, b.expected, 0, 0, None)
    assert (b.cost, b.mark) == (0, None)
    # the card: different luck, after - expected
    assert a.after != b.after
    for x in (a, b):
        assert x.luck == pytest.approx(x.after - x.expected)


def test_a_turn_that_loses_an_island_it_could_win_is_marked() -> None:
    """A real error is still found: White draws where a bridge would win an island."""
    found = None
    for seed in range(1, 60):
        rng = random.Random(seed)
        game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
        while not game.is_over and found is None:
            view = seat_view(game, game.to_move)
            ctx = view.turn_context()
            if game.to_move is Seat.WHITE and ctx is not None and Draw() in legal_actions(ctx):
                winning = [
                    a for a in legal_actions(ctx)
                    if isinstance(a, Place) and reason(view, a).code in ("wins", "wins_sweeping")
                ]  # fmt: skip
                if winning and game.undoable == 0:
                    found = game
                    break
            game.apply(choose_action(view, rng, level="easy"))
        if found is not None:
            break
    assert found is not None
    found.apply(Draw())
    found.end(Termination.RESIGNED, Seat.BLACK)
    last = turns(read_record(write_record(found)))[-1]
    assert last.kept == (Draw(),)
    judged = analyse_turn(last, turn_seed(1, last), 64)
    assert judged.mark in ("mistake", "blunder")
    assert judged.cost > 2 * judged.noise
    assert isinstance(judged.best, Place)


# ----- the hint's moves are not charged -------------------------------------------------------


@pytest.fixture(scope="module")
def hinted() -> list[TurnAnalysis]:
    """White plays every action as the hint says (client.model.hint.suggest: the normal level, at
    the analysis's budget; seeded by the table's version, as the client does); the analysis of
    its turns."""

    def hint(game: Game, step: int) -> Action:
        return suggest(seat_view(game, Seat.WHITE), step, SEARCH_ITERATIONS)[0]

    record = played_game(5, hint, 20)
    return [
        analyse_turn(turn, turn_seed(1, turn), PLAYOUTS)
        for turn in turns(read_record(record))
        if turn.seat is Seat.WHITE
    ]


def test_a_game_played_by_the_hints_moves_has_no_mark(hinted: list[TurnAnalysis]) -> None:
    assert len(hinted) >= 10
    assert [(a.number, a.mark) for a in hinted if a.mark] == []
    # what the analysis before issue 40 charged them: the chance lost over the turn, the card
    # drawn included
    assert any(a.before - a.after >= 0.05 for a in hinted)


def test_a_turn_that_only_draws_is_not_marked(hinted: list[TurnAnalysis]) -> None:
    only_draws = [a for a in hinted if a.actions == ("draw",)]
    assert only_draws
    assert all(a.mark is None and a.luck == pytest.approx(a.after - a.expected) for a in only_draws)


# ----- luck in sum ----------------------------------------------------------------------------


def test_luck_is_summed_per_player_and_zero_where_nothing_turned_up() -> None:
    rng = random.Random(6)

    def easy(game: Game, step: int) -> Action:
        return choose_action(seat_view(game, Seat.WHITE), rng, level="easy")

    record = played_game(6, easy, 12)
    found = turns(read_record(record))
    judged = [analyse_turn(t, turn_seed(1, t), 16, 50) for t in found]
    for turn, a in zip(found, judged, strict=True):
        if turn.revealed is None and not turn.reshuffled:
            assert a.luck == 0.0
        if isinstance(turn.kept[-1], Abstain):
            assert turn.revealed is None
    white, black = summaries(judged)
    assert white.luck == pytest.approx(sum(a.luck for a in judged if a.seat is Seat.WHITE))
    assert black.luck == pytest.approx(sum(a.luck for a in judged if a.seat is Seat.BLACK))
    assert white.luck != 0.0 and black.luck != 0.0
