"""Sampling hidden states from a seat's view (shared.sampling) and the information-set search
(shared.search) that decides from them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.actions import Handicap, Take
from shared.game import FULL_DECK, Game
from shared.playout import PHASES, RandomSource
from shared.randomness import RecordedSource, SeededSource
from shared.sampling import Sampler, SamplingError
from shared.types import GameOptions, Phase, Seat
from shared.views import SeatView, seat_view

OPTIONS = [
    GameOptions(),
    GameOptions(variant1=True),
    GameOptions(variant2=True),
    GameOptions(variant1=True, variant2=True),
    GameOptions(handicap_seat=Seat.WHITE, handicap_bridges=3),
    GameOptions(handicap_seat=Seat.BLACK, handicap_bridges=1),
    GameOptions(variant2=True, handicap_seat=Seat.BLACK, handicap_bridges=2),
]


def views_along_a_random_game(seed: int, options: GameOptions, every: int = 7) -> list[SeatView]:
    """Both seats' views at every `every`-th position of a random game, to its end."""
    game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
    rng = random.Random(seed)
    out: list[SeatView] = []
    step = 0
    while not game.is_over:
        if step % every == 0:
            out += [seat_view(game, Seat.WHITE), seat_view(game, Seat.BLACK)]
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    return out


def game_of(sampler: Sampler, view: SeatView, rng: random.Random) -> Game:
    """A checked-engine game holding one sample of the hidden cards."""
    hidden = sampler.sample(rng)
    pub = view.public
    if pub.phase is not Phase.HANDICAP:
        return Game.from_position(sampler.position(hidden), SeededSource(0))
    # Before the first turn: the same deal, and the handicap bridges placed so far.
    deal = [*hidden.hands[0], *hidden.hands[1], *pub.face_up, *hidden.pile]
    game = Game.new(RecordedSource([deal]), options=pub.options)
    for line in range(27):
        if pub.bridges[pub.to_move] >> line & 1:
            game.apply(Handicap(line))
    return game


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_every_sample_shows_the_seat_its_view(options: GameOptions) -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for view in views_along_a_random_game(seed, options):
            if view.public.result is not None:
                continue
            sampler = Sampler(view)
            for _ in range(3):
                assert seat_view(game_of(sampler, view, rng), view.seat) == view
                sim = sampler.sim(rng, RandomSource(rng))
                assert sim.hand[view.seat] == [view.hand.count(i) for i in range(12)]
                assert sim.size == list(view.public.hand_sizes)
                assert PHASES[sim.phase] is view.public.phase
                assert len(sim.pile) == view.public.pile_size
                everywhere = Counter(sim.pile + sim.face_up + sim.played + sim.face_down)
                everywhere += Counter({i: sim.hand[0][i] + sim.hand[1][i] for i in range(12)})
                assert everywhere == Counter(FULL_DECK)
                checked += 1
    assert checked > 50


def test_samples_differ_and_cover_the_unseen_cards() -> None:
    game = Game.new(SeededSource(4))
    view = seat_view(game, Seat.WHITE)
    sampler = Sampler(view)
    rng = random.Random(0)
    hands = {sampler.sample(rng).hands[Seat.BLACK] for _ in range(200)}
    assert len(hands) > 50
    in_hands = Counter(card for hand in hands for card in hand)
    unseen = Counter(FULL_DECK) - Counter(view.hand) - Counter(view.public.face_up)
    assert set(in_hands) == set(unseen)


def test_known_cards_are_in_the_sampled_hand() -> None:
    # Black takes face-up cards everyone sees; a sample keeps them in Black's hand.
    game = Game.new(SeededSource(9), first=Seat.WHITE)
    taken: list[int] = []
    while game.hand_size(Seat.BLACK) < 5:
        take = next(a for a in game.legal_actions() if isinstance(a, Take))
        if game.to_move is Seat.BLACK:
            taken.append(take.card)
        game.apply(take)
    view = seat_view(game, Seat.WHITE)
    rng = random.Random(9)
    sampler = Sampler(view, (list(view.hand[:1]), taken))
    plain = Sampler(view)
    for _ in range(50):
        assert not Counter(taken) - Counter(sampler.sample(rng).hands[Seat.BLACK])
    # Without them, samples do put other cards there.
    assert any(Counter(taken) - Counter(plain.sample(rng).hands[Seat.BLACK]) for _ in range(50))
    with pytest.raises(SamplingError):
        Sampler(view, ((), taken * 3))  # more cards than the hand holds
    missing = next(c for c in range(12) if view.hand.count(c) == 0)
    with pytest.raises(SamplingError):
        Sampler(view, ([missing], ()))  # not in White's own hand
