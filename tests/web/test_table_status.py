"""The table's status line says what can be done now (web/table-status.mjs), from the legal
actions and the view: a full hand places or discards first, an empty pile leaves the face-up
cards, the opponent's turn is waited for, the game over says who won and what next."""

from __future__ import annotations

import pytest

from tests.web.conftest import Pages

pytestmark = pytest.mark.browser

STATUS = """
async () => {
  const { statusOf } = await import("/assets/table-status.mjs");
  const pub = (changes) => ({ phase: "play", to_move: "white", pile_size: 20, face_up: ["ALOA"],
    opponent_abstained: false, handicap_left: 0, result: null, ...changes });
  const known = (hand, changes = {}) => ({ status: "playing", pending: false,
    players: { white: { name: "Ann" }, black: { name: "Bob" } }, view: { hand }, ...changes });
  const five = ["ALOA", "BARI", "COCO", "DUDA", "ELAI"];
  const say = (k, p, seat, actions, offline = false) => statusOf(k, p, seat, actions, offline);
  return {
    full: say(known(five), pub({}), "white", ["place ALOA-BARI", "discard ALOA", "abstain"]),
    mustDraw: say(known(five), pub({ opponent_abstained: true }), "white", ["discard ALOA"]),
    pileEmpty: say(known(["ALOA"]), pub({ pile_size: 0 }), "white", ["take ALOA", "abstain"]),
    play: say(known(["ALOA"]), pub({}), "white", ["place ALOA-BARI", "draw", "take ALOA"]),
    theirs: say(known(["ALOA"]), pub({ to_move: "black" }), "white", []),
    watching: say(known([]), pub({ to_move: "black" }), null, []),
    over: say(known([]), pub({ result: { winner: "black", kind: "points" } }), "white", []),
    offline: say(known(["ALOA"]), pub({}), "white", [], true),
  };
}
"""


async def test_the_status_line_says_what_can_be_done(pages: Pages) -> None:
    page = await pages.open("/")
    await page.wait_for_function("() => window.kahuna !== undefined")
    said = await page.evaluate(STATUS)
    full = "Your hand is full (5 of 5): place or discard a card first, then draw."
    assert said["full"] == {"text": "Your turn", "hint": full}
    assert said["mustDraw"] == {"text": "Your turn: you must draw", "hint": full}
    assert said["pileEmpty"]["hint"] == "The pile is empty: take a face-up card."
    assert said["play"]["hint"].startswith("Bridge a marked line")
    assert said["theirs"] == {
        "text": "Black to move (Bob)",
        "hint": "Waiting for the opponent's move.",
    }
    assert said["watching"] == {"text": "Black to move (Bob)", "hint": ""}
    assert said["over"]["text"].startswith("Game over: Black wins")
    assert said["over"]["hint"] == "Offer a rematch, or leave the table."
    assert said["offline"]["text"] == "Connection lost"
