"""The fast playout engine (shared.playout) against the checked engine (shared.game), action by
action: the same legal actions, then the same full state after each action, over random games
with every option set. More games:
`KAHUNA_PLAYOUT_GAMES=5000 pytest tests/shared/test_playout.py`."""

from __future__ import annotations

import contextlib
import copy
import os
import random
from collections.abc import Sequence

import pytest

from shared.board import ISLAND_MASK, LINES, NEEDED, NUM_ISLANDS, NUM_LINES
from shared.game import Game
from shared.playout import (
    ACTIONS,
    HANDICAP,
    OVER,
    PHASES,
    TAKE_BASE,
    RandomSource,
    Sim,
    from_action,
    held_mask,
    play_random,
    random_action,
    to_action,
)
from shared.randomness import SeededSource
from shared.types import GameOptions, Seat
from tests.options import OPTIONS

GAMES = int(os.environ.get("KAHUNA_PLAYOUT_GAMES", "300"))
PER_OPTIONS = max(1, GAMES // len(OPTIONS))

State = tuple[object, ...]


def game_state(game: Game) -> State:
    result = game.result
    return (
        tuple(game.bridges), tuple(game.tokens),
        tuple(map(tuple, game.hand)), tuple(map(tuple, game.open)),
        tuple(game.face_up), tuple(game.pile), tuple(game.played), tuple(game.face_down),
        game.round, tuple(game.round_points), int(game.to_move), game.phase,
        game.opponent_abstained, game.final_turns_left, game.handicap_left, result,
    )  # fmt: skip


def sim_state(sim: Sim) -> State:
    return (
        tuple(sim.bridges), tuple(sim.tokens),
        tuple(map(tuple, sim.hand)), tuple(map(tuple, sim.open)),
        tuple(sim.face_up), tuple(reversed(sim.pile)), tuple(sim.played),
        tuple(sim.face_down), sim.round, tuple(sim.points), sim.to_move, PHASES[sim.phase],
        sim.abstained, sim.final_left, sim.handicap_left, sim.result,
    )  # fmt: skip


def test_action_codes_round_trip() -> None:
    assert len(set(ACTIONS)) == len(ACTIONS)
    for code, action in enumerate(ACTIONS):
        assert from_action(action) == code
        assert to_action(code) == action


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_same_legal_actions_and_states_as_the_checked_engine(options: GameOptions) -> None:
    seen_over = 0
    for seed in range(PER_OPTIONS):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        # The simulation reshuffles with a copy of the game's source: the same orders.
        sim = Sim.from_game(game, copy.deepcopy(game.source))
        rng = random.Random(seed)
        while True:
            assert sim_state(sim) == game_state(game), f"seed {seed}, after {game.history}"
            legal = game.legal_actions()
            codes = sim.legal()
            assert len(codes) == len(set(codes))
            assert sorted(codes) == sorted(from_action(a) for a in legal)
            if not legal:
                break
            action = rng.choice(legal)
            game.apply(action)
            sim.apply(from_action(action))
        seen_over += 1
    assert seen_over == PER_OPTIONS


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_fast_random_games_are_legal_games(options: GameOptions) -> None:
    """play_random's inlined loop: replayed in the checked engine, every action is legal and
    the final states agree."""
    for seed in range(max(1, PER_OPTIONS // 3)):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        sim = Sim.from_game(game, copy.deepcopy(game.source))
        taken: list[int] = []
        play_random(sim, random.Random(seed), taken)
        for code in taken:
            game.apply(to_action(code))  # checked: raises on an illegal action
        assert game.is_over
        assert sim_state(sim) == game_state(game)


def test_random_source_shuffles_the_cards_it_is_given() -> None:
    source = RandomSource(random.Random(3))
    cards = [0, 0, 1, 5, 7, 11]
    out = source.shuffled(cards)
    assert sorted(out) == cards and out is not cards


def test_random_source_shuffles_as_random_shuffle() -> None:
    """The same orders as random.Random.shuffle from the same state (searches replay)."""
    for seed in range(50):
        for n in (*range(25), 64, 65, 100):
            cards = list(range(n))
            expected = cards[:]
            random.Random(seed).shuffle(expected)
            assert RandomSource(random.Random(seed)).shuffled(cards) == expected


class Scripted(random.Random):
    """A Random whose random() returns the given values, then raises IndexError."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = values

    def random(self) -> float:
        return self.values.pop(0)


def sample_positions(options: GameOptions, games: int) -> list[Sim]:
    """Positions (not over, past the handicap) from random games."""
    out: list[Sim] = []
    for seed in range(games):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        sim = Sim.from_game(game, RandomSource(random.Random(seed)))
        rng = random.Random(seed)
        while sim.phase != OVER:
            if sim.phase != HANDICAP:
                out.append(sim.copy())
            sim.apply(rng.choice(sim.legal()))
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_random_choices_are_uniform_over_legal(options: GameOptions) -> None:
    """random_action and play_random's first draw map the n equal parts of [0, 1) onto the
    n legal actions one to one: each legal action is equally likely."""
    for sim in sample_positions(options, max(1, PER_OPTIONS // 10)):
        legal = sim.legal()
        n = len(legal)
        draws = [(k + 0.5) / n for k in range(n)]
        draw = iter(draws).__next__
        assert sorted(random_action(sim, draw) for _ in range(n)) == sorted(legal)
        firsts: list[int] = []
        for u in draws:
            taken: list[int] = []
            with contextlib.suppress(IndexError):
                play_random(sim.copy(), Scripted([u]), taken)
            firsts.append(taken[0])
        assert sorted(firsts) == sorted(legal)


class Sorted:
    """A card source with no state: every reshuffle puts the cards in order."""

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        return sorted(cards)


def assert_uniform_run(sim: Sim, prefix: list[float]) -> None:
    """At each decision of play_random's run from `sim` on the draws of `prefix`, the n equal
    parts of [0, 1) map one to one onto the n actions legal there (`sim`'s reshuffles must
    not depend on what ran before)."""
    taken: list[int] = []
    with contextlib.suppress(IndexError):
        play_random(sim.copy(), Scripted(prefix[:]), taken)
    there = sim.copy()
    for i in range(1, len(taken)):
        there.apply(taken[i - 1])
        legal = there.legal()
        if not legal:
            break
        n = len(legal)
        chosen: list[int] = []
        for j in range(n):
            run: list[int] = []
            with contextlib.suppress(IndexError):
                play_random(sim.copy(), Scripted([*prefix[:i], (j + 0.5) / n]), run)
            assert run[:i] == taken[:i]
            chosen.append(run[i])
        assert sorted(chosen) == sorted(legal)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_later_random_choices_are_uniform_over_legal(options: GameOptions) -> None:
    """play_random carries counts from one decision to the next and from one turn to the
    next: the first six decisions of a run (plays, turn ends, the next turns) are uniform."""
    for k, sim in enumerate(sample_positions(options, max(1, PER_OPTIONS // 10))[::6]):
        sim.source = Sorted()  # copies reshuffle alike
        rng = random.Random(k)
        assert_uniform_run(sim, [rng.random() for _ in range(6)])


def crowded(sim: Sim, mine: int, theirs: int, rng: random.Random) -> Sim:
    """The position with the mover's bridges on `mine` lines and the opponent's on `theirs`
    others, tokens where they make a majority, and each hand one card of each end of the
    lines left free (random games never come near the supply)."""
    lines = list(range(NUM_LINES))
    rng.shuffle(lines)
    out = sim.copy()
    out.bridges = [0, 0]
    out.bridges[sim.to_move] = sum(1 << k for k in lines[:mine])
    out.bridges[1 - sim.to_move] = sum(1 << k for k in lines[mine : mine + theirs])
    out.tokens = [
        sum(1 << i for i in range(NUM_ISLANDS) if (b & ISLAND_MASK[i]).bit_count() >= NEEDED[i])
        for b in out.bridges
    ]
    ends = {end for k in lines[mine + theirs :] for end in LINES[k]}
    hand = [1 if i in ends else 0 for i in range(NUM_ISLANDS)]
    out.hand = [hand[:], hand[:]]
    out.open = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
    out.held = [held_mask(hand)] * 2
    out.size = [sum(hand)] * 2
    out.source = Sorted()
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_play_random_near_a_spent_supply(options: GameOptions) -> None:
    """A seat with its last bridge or none left to place (BRIDGES_PER_PLAYER of the 27
    lines), the free lines' cards in hand: the same states as Sim.apply after a few turns,
    and uniform choices."""
    rng = random.Random(7)
    cases = [(24, 1), (25, 1), (1, 25), (1, 24), (24, 2), (23, 2), (2, 23)]
    for k, sim in enumerate(sample_positions(options, 1)[::4]):
        mine, theirs = cases[k % len(cases)]
        sim = crowded(sim, mine, theirs, rng)
        fast, slow = sim.copy(), sim.copy()
        taken: list[int] = []
        play_random(fast, random.Random(k), taken, max_turns=6)
        for code in taken:
            slow.apply(code)
        assert full_state(fast) == full_state(slow)
        assert_uniform_run(sim, [rng.random() for _ in range(10)])


def full_state(sim: Sim) -> State:
    """Every slot of a Sim but its card source."""
    return tuple(copy.deepcopy(getattr(sim, name)) for name in Sim.__slots__ if name != "source")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_play_random_turns_leave_the_state_apply_leaves(options: GameOptions) -> None:
    """play_random keeps some of the state in locals during a turn: after each turn, every
    slot is what Sim.apply makes of the same actions."""
    for k, sim in enumerate(sample_positions(options, max(1, PER_OPTIONS // 10))):
        fast = sim.copy()
        fast.source = copy.deepcopy(sim.source)  # the same reshuffles, not the next ones
        taken: list[int] = []
        play_random(fast, random.Random(k), taken, max_turns=1)
        for code in taken:
            sim.apply(code)
        assert full_state(fast) == full_state(sim)


def test_play_random_ends_a_round_into_a_premature_end() -> None:
    """The last face-up card taken ends round 1 while black has no bridge: white wins at once,
    with black to move, as in Sim.apply."""
    game = Game.new(SeededSource(5), first=Seat.WHITE)
    sim = Sim.from_game(game, RandomSource(random.Random(5)))
    sim.hand[0] = [0] * 12
    sim.held[0] = sim.size[0] = 0
    sim.bridges = [1, 0]
    sim.pile = []
    sim.face_up = [4]
    sim.abstained = True  # taking the card is white's only action
    by_apply = sim.copy()
    by_apply.source = copy.deepcopy(sim.source)
    by_apply.apply(TAKE_BASE + 4)
    assert by_apply.over and by_apply.winner == 0 and by_apply.to_move == 1
    taken: list[int] = []
    play_random(sim, random.Random(0), taken)
    assert taken == [TAKE_BASE + 4]
    assert full_state(sim) == full_state(by_apply)
