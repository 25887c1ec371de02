"""web/record.mjs against the engine: whole games played with every option set, undos and
endings that are not a move among them, written as records (shared/record.py) and replayed in
Chromium by the page's replay; after every step the page's game (bridges, tokens, both hands,
the face-up row, the pile, the discards, the round, the points, who is to move, the phase, the
result) is the Python engine's after the same action, and each step's turn is the analysis's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.actions import Action, Undo
from shared.analysis import turns
from shared.board import ISLANDS, iter_bits, line_name
from shared.game import Game
from shared.history import Ending
from shared.randomness import SeededSource
from shared.record import read_record, write_record
from shared.types import Seat, Termination
from tests.options import OPTIONS
from tests.web.conftest import Pages
from tests.web.test_legality import builders_action

pytestmark = pytest.mark.browser

GAMES_PER_OPTIONS = 3


def state(game: Game) -> dict[str, Any]:
    """What the page's publicOf says of a game, from the engine."""

    def cards(counts: list[int]) -> list[str]:
        return [ISLANDS[i] for i, n in enumerate(counts) for _ in range(n)]

    result = game.result
    return {
        "phase": game.phase.value,
        "to_move": game.to_move.name.lower(),
        "round": game.round,
        "round_points": [list(p) for p in game.round_points],
        "scores": list(game.scores),
        "bridges": {
            s.name.lower(): [line_name(k) for k in iter_bits(game.bridges[s])] for s in Seat
        },
        "tokens": {s.name.lower(): [ISLANDS[i] for i in iter_bits(game.tokens[s])] for s in Seat},
        "hands": {s.name.lower(): cards(game.hand[s]) for s in Seat},
        "face_up": [ISLANDS[c] for c in game.face_up],
        "pile_size": len(game.pile),
        "played": [ISLANDS[c] for c in game.played],
        "face_down_count": len(game.face_down),
        "result": None
        if result is None
        else {
            "winner": None if result.winner is None else result.winner.name.lower(),
            "kind": result.kind.value,
        },
    }


def games(seed: int) -> list[tuple[str, list[dict[str, Any]], list[int | None]]]:
    """(record, the engine's state at every step, the analysis's turn of each step) for games
    of a builder that undoes now and then; some end by resigning or an agreed draw."""
    rng = random.Random(seed)
    found = []
    for options in OPTIONS:
        for number in range(GAMES_PER_OPTIONS):
            game = Game.new(SeededSource(rng.getrandbits(32)), options=options)
            states = [state(game)]
            stop = rng.randrange(20, 120) if number == 1 else None
            while not game.is_over:
                if stop is not None and len(states) > stop:
                    kind = rng.choice([Termination.RESIGNED, Termination.AGREED])
                    game.end(kind, None if kind is Termination.AGREED else game.to_move)
                    states.append(state(game))
                    break
                legal = game.legal_actions()
                action: Action
                if game.undoable and rng.random() < 0.1:
                    action = Undo(whole_turn=rng.random() < 0.5)
                else:
                    action = builders_action(rng, legal, 0.7)
                game.apply(action)
                states.append(state(game))
            record = write_record(game)
            numbers: list[int | None] = [None] * len(states)
            analysed = turns(read_record(record))
            for turn in analysed:
                for entry in range(turn.step, turn.step + len(turn.actions)):
                    numbers[entry + 1] = turn.number
            last = analysed[-1] if analysed else None
            if isinstance(game.log[-1], Ending) and last and last.over_after is not False:
                numbers[-1] = last.number  # an ending in the middle of a turn closes it
            found.append((record, states, numbers))
    return found


COMPARE = """
async (text) => {
  const cases = JSON.parse(text);
  const { readRecord, replaySteps, publicOf } = await import("/assets/record.mjs");
  const board = await (await fetch("/board.json")).json();
  const wrong = [];
  let checked = 0;
  for (const [record, states, numbers] of cases) {
    const steps = replaySteps(readRecord(record, board), board);
    if (steps.length !== states.length) {
      wrong.push({ record, steps: steps.length, states: states.length });
      continue;
    }
    steps.forEach((step, i) => {
      checked += 1;
      const got = publicOf(step, board);
      const same = JSON.stringify(got) === JSON.stringify(states[i]);
      if ((!same || step.turn !== numbers[i]) && wrong.length < 3) {
        wrong.push({ step: i, got, expected: states[i], turn: step.turn, number: numbers[i] });
      }
    });
  }
  return { checked, wrong };
}
"""


async def test_the_replay_steps_are_the_engines(pages: Pages) -> None:
    cases = games(37)
    records = [record for record, _, _ in cases]
    assert any(" undo" in r for r in records) and any("undo turn" in r for r in records)
    assert any("shuffle " in r for r in records) and any(" rebuild" in r for r in records)
    assert any("resigns" in r for r in records) and any("draw agreed" in r for r in records)
    assert any("handicap " in r for r in records)
    page = await pages.open("/")
    result = await page.evaluate(COMPARE, json.dumps(cases))
    assert result["wrong"] == [], json.dumps(result["wrong"])[:3000]
    assert result["checked"] == sum(len(states) for _, states, _ in cases) > 2000
