"""web/legality.mjs against the engine: over thousands of positions reached by play with every
option set, the page's legal actions, computed in Chromium from the seat's view as the server
sends it, are exactly shared/legality.py's, in the same notation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.actions import Action, Discard, Draw, Place, Remove, Take
from shared.game import Game
from shared.randomness import SeededSource
from shared.views import seat_view, seat_view_to_dict
from tests.options import OPTIONS
from tests.web.conftest import Pages

pytestmark = pytest.mark.browser

GAMES_PER_OPTIONS = 8


def builders_action(rng: random.Random, legal: list[Action], builds: float) -> Action:
    """A builder's pick among the legal actions: a placement or removal with odds `builds`,
    else mostly a draw or take, seldom a discard."""
    building = [a for a in legal if isinstance(a, Place | Remove)]
    ends = [a for a in legal if isinstance(a, Draw | Take)]
    if building and rng.random() < builds:
        return rng.choice(building)
    if ends and rng.random() < 0.8:
        return rng.choice(ends)
    return rng.choice([a for a in legal if not isinstance(a, Discard)] or legal)


def positions(seed: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(the mover's view, the engine's legal actions) at every action of games played by a
    builder: it places and removes most of the time, so that games reach full supplies, full
    hands and Variant 1's rebuilds, and draws often enough to end."""
    rng = random.Random(seed)
    found = []
    for options in OPTIONS:
        for _ in range(GAMES_PER_OPTIONS):
            game = Game.new(SeededSource(rng.getrandbits(32)), options=options)
            while not game.is_over:
                legal = game.legal_actions()
                view = seat_view_to_dict(seat_view(game, game.to_move))
                found.append((view, [str(a) for a in legal]))
                game.apply(builders_action(rng, legal, 0.75))
    return found


COMPARE = """
async (text) => {
  const cases = JSON.parse(text);
  const { makeRules } = await import("/assets/legality.mjs");
  const board = await (await fetch("/board.json")).json();
  const rules = makeRules(board);
  const wrong = [];
  for (const [view, expected] of cases) {
    const ctx = rules.contextFromView(view);
    const got = ctx ? rules.legalActions(ctx) : null;
    const same = got !== null && got.length === expected.length
      && [...got].sort().join("|") === [...expected].sort().join("|");
    if (!same) wrong.push({ view, expected, got });
    if (wrong.length > 3) break;
  }
  return { checked: cases.length, wrong };
}
"""


async def test_the_page_allows_what_the_engine_allows(pages: Pages) -> None:
    cases = positions(20)
    assert len(cases) > 5000
    # the positions cover what the rules distinguish
    every = [a for _, legal in cases for a in legal]
    assert any(a.endswith(" rebuild") for a in every)
    assert any(a.startswith("handicap ") for a in every)
    assert any(a == "end" for a in every)
    assert any(v["public"]["opponent_abstained"] for v, _ in cases)
    assert any(len(v["hand"]) == 5 for v, _ in cases)
    page = await pages.open("/")
    # one string: Playwright's own serialisation of a large argument is slow
    result = await page.evaluate(COMPARE, json.dumps(cases))
    assert result["wrong"] == []
    assert result["checked"] == len(cases)
