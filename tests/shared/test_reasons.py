"""Why a play is good, as a code: every legal play of played games has one of the documented
codes, with exactly its parameters, each a string (the protocol sends them as they are)."""

from __future__ import annotations

import random

from shared.board import ISLANDS, LINES, line_name
from shared.game import Game
from shared.legality import legal_actions
from shared.randomness import SeededSource
from shared.reasons import reason
from shared.types import GameOptions, Seat
from shared.views import seat_view

PARAMS = {
    "wins": {"islands"},
    "wins_sweeping": {"islands", "n", "other"},
    "blocks": {"other", "islands"},
    "toward": {"island", "have", "needed"},
    "strengthens": {"a", "b"},
    "takes": {"islands", "other", "line"},
    "breaks": {"other", "line"},
    "discards": {"card"},
    "takes_card": {"card"},
    "draws": set(),
    "abstains": set(),
    "ends": set(),
}
LINE_NAMES = {line_name(i) for i in range(len(LINES))}


def test_every_play_has_a_documented_code_with_string_parameters() -> None:
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions(variant1=seed % 2 == 0))
        while not game.is_over:
            view = seat_view(game, game.to_move)
            ctx = view.turn_context()
            assert ctx is not None
            actions = legal_actions(ctx)
            for action in actions:
                found = reason(view, action)
                seen.add(found.code)
                extra = set(found.params) - PARAMS[found.code]
                assert extra <= {"rebuild", "won"}, found
                assert PARAMS[found.code] <= set(found.params), found
                assert all(isinstance(v, str) for v in found.params.values())
                for key in ("islands", "won"):
                    if key in found.params:
                        assert set(found.params[key].split("+")) <= set(ISLANDS)
                if "line" in found.params:
                    assert found.params["line"] in LINE_NAMES
                if "other" in found.params:
                    assert found.params["other"] == view.seat.other.name.lower()
            game.apply(rng.choice(actions))
    assert {"wins", "toward", "takes_card", "draws", "discards", "breaks"} <= seen
