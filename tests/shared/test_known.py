"""Known cards: what every attentive player knows the other still holds (cards taken from the
face-up row), kept sound through plays, face-down discards and undo. Public: in every view."""

from __future__ import annotations

import random

import pytest

from shared.actions import Discard, Draw, Place, Take, Undo
from shared.board import ISLANDS, LINES
from shared.game import Game
from shared.randomness import SeededSource
from shared.search import PlanSearch
from shared.types import GameOptions, Seat
from shared.views import public_from_dict, public_to_dict, seat_view, spectator_view


def assert_sound(game: Game) -> None:
    for seat in Seat:
        for island, known in enumerate(game.known[seat]):
            hidden = game.hand[seat][island] - game.open[seat][island]
            assert 0 <= known <= hidden, (seat, ISLANDS[island], known, hidden)


@pytest.mark.parametrize(
    "options",
    [GameOptions(), GameOptions(variant1=True), GameOptions(variant2=True)],
    ids=["standard", "variant1", "variant2"],
)
def test_known_cards_are_always_held_through_random_games_with_undos(
    options: GameOptions,
) -> None:
    rng = random.Random(3)
    taken = 0
    for seed in range(40):
        game = Game.new(SeededSource(seed), options=options)
        for _ in range(400):
            if game.is_over:
                break
            if game.undoable and rng.random() < 0.2:
                game.apply(Undo(rng.random() < 0.5))
            else:
                action = rng.choice(game.legal_actions())
                taken += isinstance(action, Take)
                game.apply(action)
            assert_sound(game)
        rebuilt = Game.from_log(options, game.first_player, game.log, source=SeededSource(0))
        assert rebuilt.known == game.known
    assert taken > 100


def test_a_taken_card_is_known_until_it_may_have_gone() -> None:
    game = Game.new(SeededSource(11))
    card = game.face_up[0]
    game.apply(Take(card))  # white takes it: everyone saw
    game.apply(Draw())
    assert game.known[Seat.WHITE][card] == 1
    view = public_to_dict(spectator_view(game))
    assert view["known"] == {"white": [ISLANDS[card]], "black": []}
    assert public_from_dict(view).known == ((card,), ())
    # a face-down discard: any known card may be the one that went
    other = next(i for i, n in enumerate(game.hand[Seat.WHITE]) if n and i != card)
    game.apply(Discard(other))
    assert game.known[Seat.WHITE][card] == 0
    game.apply(Undo(False))  # taken back: known again
    assert game.known[Seat.WHITE][card] == 1
    line = next(k for k, ends in enumerate(LINES) if card in ends)
    game.apply(Place(card, line))  # played face up: it is gone (or another of that island)
    assert game.known[Seat.WHITE][card] == 0


def test_a_seats_view_shows_both_players_known_cards() -> None:
    game = Game.new(SeededSource(12))
    card = game.face_up[1]
    game.apply(Take(card))
    assert seat_view(game, Seat.BLACK).public.known == ((card,), ())
    assert seat_view(game, Seat.WHITE).public.known == ((card,), ())


def test_the_computers_samples_keep_the_cards_everyone_saw_taken() -> None:
    """The search deals the hidden cards anew in every sample; the card the opponent took from
    the row is in the opponent's hand in every one of them."""
    game = Game.new(SeededSource(21))
    card = game.face_up[0]
    game.apply(Take(card))  # white takes it in view of black
    view = seat_view(game, Seat.BLACK)
    assert view.public.known[Seat.WHITE] == (card,)
    search = PlanSearch(view)
    rng = random.Random(1)
    for _ in range(200):
        assert card in search.sampler.sample(rng).hands[Seat.WHITE]
