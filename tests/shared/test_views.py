"""The seat and spectator views: what they show, what they hide, and validation from a view."""

from __future__ import annotations

import random

from shared.actions import parse_action
from shared.board import ISLAND_INDEX
from shared.events import CardDiscarded, CardDrawn, CardTaken
from shared.game import Game
from shared.legality import legal_actions, why_illegal
from shared.randomness import DrawnSource, SeededSource
from shared.types import GameOptions, Seat
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
from tests.positions import game

W, B = Seat.WHITE, Seat.BLACK


def test_a_seat_sees_its_hand_and_only_the_size_of_the_opponents() -> None:
    # Both HUNA cards are in Black's hand, both GOLA cards face down: White cannot know them.
    g = game(white_hand="ALOA BARI", black_hand="HUNA HUNA ELAI", face_down="GOLA GOLA")
    view = seat_view(g, W)
    assert view.hand == (ISLAND_INDEX["ALOA"], ISLAND_INDEX["BARI"])
    assert view.public.hand_sizes == (2, 3)
    assert view.public.face_down_count == 2
    wire = seat_view_to_dict(view)
    text = repr(wire)
    assert "HUNA" not in text and "GOLA" not in text
    assert seat_view_from_dict(wire) == view
    spectator = public_to_dict(spectator_view(g))
    assert "hand" not in spectator and public_from_dict(spectator) == spectator_view(g)


def test_the_pile_order_never_appears_in_a_view() -> None:
    g = game(white_hand="ALOA", black_hand="KAHU", pile="FAAA GOLA FAAA GOLA")
    for view in (seat_view_to_dict(seat_view(g, W)), public_to_dict(spectator_view(g))):
        assert "FAAA" not in repr(view) and "GOLA" not in repr(view)
    assert seat_view(g, W).public.pile_size == 4


def test_events_blank_what_the_viewer_could_not_see() -> None:
    g = game(white_hand="ALOA BARI", black_hand="KAHU", face_up="COCO DUDA ELAI", pile="FAAA")
    events = g.apply(parse_action("discard ALOA"))
    assert events == [CardDiscarded(W, ISLAND_INDEX["ALOA"], False)]
    assert seat_events(events, B) == [CardDiscarded(W, None, False)]
    assert spectator_events(events) == [CardDiscarded(W, None, False)]
    drawn = g.apply(parse_action("draw"))
    assert seat_events(drawn, W)[0] == CardDrawn(W, ISLAND_INDEX["FAAA"])
    assert seat_events(drawn, B)[0] == CardDrawn(W, None)
    taken = g.apply(parse_action("take COCO"))
    assert isinstance(spectator_events(taken)[0], CardTaken)  # face-up draws are public
    assert spectator_events(taken) == taken


def test_legality_from_the_view_alone_matches_the_game() -> None:
    """The client validates from its view: the same legal actions, the same reasons."""
    for seed in range(40):
        options = GameOptions(variant1=seed % 2 == 1, variant2=seed % 3 == 0)
        g = Game.new(SeededSource(seed), Seat(seed % 2), options)
        rng = random.Random(seed)
        while not g.is_over:
            ctx = seat_view_from_dict(seat_view_to_dict(seat_view(g, g.to_move))).turn_context()
            assert ctx is not None
            legal = g.legal_actions()
            assert legal_actions(ctx) == legal
            assert seat_view(g, g.to_move.other).turn_context() is None
            probe = rng.choice(legal)
            assert why_illegal(ctx, probe) is None
            g.apply(probe)


def test_a_source_drawn_from_the_systems_csprng_deals_a_full_deck() -> None:
    g = Game.new(DrawnSource(random.SystemRandom()))
    assert sorted(g.deal) == sorted(c for c in range(12) for _ in range(2))


def test_events_come_back_from_their_wire_form() -> None:
    from shared.events import EventFormatError, event_from_dict, event_to_dict

    seen: set[str] = set()
    for seed in range(15):
        g = Game.new(SeededSource(seed), options=GameOptions(variant1=True, variant2=seed % 2 == 0))
        rng = random.Random(seed)
        while not g.is_over:
            for event in g.apply(rng.choice(g.legal_actions())):
                for shown in (event, *seat_events([event], Seat.WHITE)):
                    assert event_from_dict(event_to_dict(shown)) == shown
                seen.add(type(event).__name__)
    assert {"BridgePlaced", "TokenPlaced", "RoundScored", "Reshuffled", "GameOver"} <= seen
    for bad in ({"type": "Nope"}, {"type": "TokenPlaced", "seat": "white"}, {}):
        try:
            event_from_dict(bad)
        except EventFormatError:
            continue
        raise AssertionError(f"{bad} was accepted")
