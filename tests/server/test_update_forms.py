"""The shortcuts on the way from a command to its update build exactly what the plain way
builds: view_dicts and event_dicts against the views' and events' own conversions, and the
version-1 cut-back of updates and states against attrs.evolve, down to the encoded bytes."""

from __future__ import annotations

import random

import attrs
import pytest

from protocol.codec import encode
from protocol.compat import for_version, v1_events, v1_view
from protocol.fields import ChatEntry, PlayerInfo, Players
from protocol.messages import State, Update
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import Seat
from shared.views import (
    event_dicts,
    events_to_dicts,
    public_to_dict,
    seat_events,
    seat_view,
    seat_view_to_dict,
    spectator_events,
    spectator_view,
    view_dicts,
)
from tests.options import OPTIONS


def test_view_dicts_are_the_views_wire_forms_in_every_position() -> None:
    for seed in range(12):
        options = OPTIONS[seed % len(OPTIONS)]
        rng = random.Random(seed)
        game = Game.new(SeededSource(seed), Seat.WHITE, options)
        while True:
            public, white, black = view_dicts(game)
            plain = public_to_dict(spectator_view(game))
            assert public == plain
            assert list(public) == list(plain)  # the same keys in the same order: same bytes
            assert white == seat_view_to_dict(seat_view(game, Seat.WHITE))
            assert black == seat_view_to_dict(seat_view(game, Seat.BLACK))
            assert white["public"] is public and black["public"] is public
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))


def test_event_dicts_are_each_viewers_filtered_events() -> None:
    for seed in range(12):
        rng = random.Random(100 + seed)
        game = Game.new(SeededSource(seed), Seat.BLACK, OPTIONS[seed % len(OPTIONS)])
        while not game.is_over:
            events = game.apply(rng.choice(game.legal_actions()))
            watched, white, black = event_dicts(events)
            assert watched == events_to_dicts(spectator_events(events))
            assert white == events_to_dicts(seat_events(events, Seat.WHITE))
            assert black == events_to_dicts(seat_events(events, Seat.BLACK))


@pytest.mark.parametrize("seed", range(4))
def test_version_1_bytes_of_updates_and_states_are_unchanged(seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, OPTIONS[seed % len(OPTIONS)])
    players = Players(PlayerInfo("Ana", True, False), PlayerInfo("Bo", False, False))
    chat = [ChatEntry("Ana", "hi", "white")]
    version = 0
    while True:
        public, *seats = view_dicts(game)
        events = game.apply(rng.choice(game.legal_actions())) if not game.is_over else []
        version += 1
        watched, *logs = event_dicts(events)
        for view, logged in ((public, watched), (seats[0], logs[0]), (seats[1], logs[1])):
            update = Update("t1", version, logged, view)
            # the cut-back as it was made before, which a second cut leaves as it is
            cut = attrs.evolve(update, view=v1_view(view), events=v1_events(logged))
            assert for_version(cut, 1) == cut
            assert for_version(update, 1) == cut
            assert encode(update, 1) == encode(cut, 1)
            state = State("t1", version, "white", "playing", view, players, chat)
            cut_state = attrs.evolve(state, view=v1_view(view))
            assert for_version(cut_state, 1) == cut_state
            assert encode(state, 1) == encode(cut_state, 1)
        if game.is_over and not events:
            break
