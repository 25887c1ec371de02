"""Why a move is refused, at the table: web/legality.mjs's refusal() gives the engine's codes
(shared/legality.py's refusal) for every kind of action over thousands of positions, and a
click on what cannot be done says why in the player's language: a line the picked card does
not allow, a move out of turn, the pile with a full hand."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.async_api import Page, expect

from server.net.app import KahunaServer
from shared.actions import (
    ABSTAIN,
    DRAW,
    END_TURN,
    UNDO,
    Action,
    Discard,
    Draw,
    Handicap,
    Place,
    Remove,
    Take,
)
from shared.board import LINES, NUM_ISLANDS, NUM_LINES
from shared.game import Game
from shared.legality import TurnContext, refusal
from shared.randomness import SeededSource
from shared.views import seat_view, seat_view_to_dict
from tests.conftest import Client, create_table
from tests.options import OPTIONS
from tests.web.conftest import Pages
from tests.web.table_helpers import my_turn, send, sit_against_the_computer

pytestmark = pytest.mark.browser


def as_page(action: Action) -> dict[str, Any]:
    """An action as web/legality.mjs's refusal takes it: island and line indices."""
    if isinstance(action, Place):
        return {"verb": "place", "card": action.card, "line": action.line}
    if isinstance(action, Remove):
        return {
            "verb": "remove",
            "line": action.line,
            "cards": list(action.cards),
            "rebuild": action.rebuild,
        }
    if isinstance(action, Discard | Take):
        return {"verb": "discard" if isinstance(action, Discard) else "take", "card": action.card}
    if isinstance(action, Handicap):
        return {"verb": "handicap", "line": action.line}
    return {"verb": str(action).split()[0]}


def candidates(rng: random.Random, ctx: TurnContext) -> list[Action]:
    """A few actions of every kind, most of them illegal: any card on any line included, and
    a card held on a line of its island."""
    found: list[Action] = [DRAW, ABSTAIN, END_TURN, UNDO]
    for _ in range(4):
        found.append(Place(rng.randrange(NUM_ISLANDS), rng.randrange(NUM_LINES)))
    taken = ctx.bridges[0] | ctx.bridges[1]
    free = [
        (card, k)
        for k, ends in enumerate(LINES)
        for card in ends
        if ctx.hand[card] and not taken >> k & 1
    ]
    if free:
        found.append(Place(*rng.choice(free)))
    for _ in range(3):
        line = rng.randrange(NUM_LINES)
        a, b = LINES[line]
        ends = [a, b, rng.randrange(NUM_ISLANDS)]
        found.append(Remove(line, (rng.choice(ends), rng.choice(ends)), rng.random() < 0.5))
    found.append(Discard(rng.randrange(NUM_ISLANDS)))
    found.append(Take(rng.randrange(NUM_ISLANDS)))
    found.append(Handicap(rng.randrange(NUM_LINES)))
    return found


def cases(seed: int) -> list[tuple[dict[str, Any], list[tuple[dict[str, Any], str | None]]]]:
    """(the mover's view, [(an action, the engine's refusal code or None)]) along games played
    by a builder that fills its hand often."""
    rng = random.Random(seed)
    found = []
    for options in OPTIONS:
        for _ in range(4):
            game = Game.new(SeededSource(rng.getrandbits(32)), options=options)
            while not game.is_over:
                ctx = game.turn_context()
                view = seat_view_to_dict(seat_view(game, game.to_move))
                tried = []
                for action in candidates(rng, ctx):
                    said = refusal(ctx, action)
                    tried.append((as_page(action), None if said is None else said.code))
                found.append((view, tried))
                legal = game.legal_actions()
                builds = [a for a in legal if isinstance(a, Place | Remove)]
                ends = [a for a in legal if isinstance(a, Draw | Take)]
                if builds and rng.random() < 0.75:
                    game.apply(rng.choice(builds))
                elif ends and rng.random() < 0.9:
                    game.apply(rng.choice(ends))
                else:
                    game.apply(rng.choice(legal))
    return found


COMPARE = """
async (text) => {
  const cases = JSON.parse(text);
  const { makeRules } = await import("/assets/legality.mjs");
  const rules = makeRules(await (await fetch("/board.json")).json());
  const wrong = [];
  let checked = 0;
  for (const [view, tried] of cases) {
    const ctx = rules.contextFromView(view);
    for (const [action, code] of tried) {
      const got = rules.refusal(ctx, action);
      checked += 1;
      if ((got ? got.code : null) !== code) wrong.push({ action, code, got, phase: ctx.phase });
    }
    if (wrong.length > 3) break;
  }
  return { checked, wrong };
}
"""


async def test_the_page_refuses_as_the_engine_does(pages: Pages) -> None:
    found = cases(37)
    codes = {code for _, tried in found for _, code in tried}
    # every refusal the rules give, but no_bridges_left (25 bridges a player: games end first)
    # and those of an undo in the handicap's phase
    assert {
        None,
        "card_not_on_line",
        "no_such_card",
        "line_taken",
        "variant1_controlled",
        "remove_cards",
        "no_opponent_bridge",
        "cards_not_held",
        "rebuild_variant1",
        "end_not_final",
        "final_no_draw",
        "abstain_twice",
        "hand_full",
        "hand_full_draw",
        "not_face_up",
        "handicap_first",
        "handicap_over",
        "nothing_to_undo",
    } <= codes
    page = await pages.open("/")
    result = await page.evaluate(COMPARE, json.dumps(found))
    assert result["wrong"] == []
    assert result["checked"] == sum(len(tried) for _, tried in found)


async def reason(page: Page) -> str:
    why = page.locator("#why")
    await expect(why).to_be_visible()
    text = await why.text_content()
    assert text
    return text


async def test_a_refused_click_says_why(pages: Pages) -> None:
    """Refusals said in the page's language when clicked: a line the picked card does not
    allow, the pile with a full hand (and a move out of turn, below)."""
    page = await pages.open("/", locale="de-DE")
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    # 1. a card picked, a line away from its island: the engine's card_not_on_line
    card = await page.locator(".hand .card").first.get_attribute("data-card")
    assert card
    await page.locator(".hand .card").first.click()
    far = await page.evaluate(
        """(card) => { const b = kahuna.rules; const i = b.index.get(card);
            const k = b.lines.findIndex(([x, y]) => x !== i && y !== i);
            return b.lineNames[k]; }""",
        card,
    )
    await page.locator(f".line[data-line='{far}']").dispatch_event("click")
    german = await page.evaluate(
        "(key) => import('/assets/words.mjs').then((w) => w._(key))",
        "the {card} card places a bridge only on a line from {card}",
    )
    assert german.startswith("eine")  # the German catalogue's sentence
    assert await reason(page) == german.replace("{card}", card)
    # 2. full hand: draw twice, then the pile refuses, and the status line says what first
    for _ in range(2):
        await my_turn(page, table_id)
        await page.click("#draw")
    await my_turn(page, table_id)
    hint = await page.text_content("#turn-hint")
    full_hand = "Your hand is full (5 of 5): place or discard a card first, then draw."
    assert hint == await page.evaluate(
        "(key) => import('/assets/words.mjs').then((w) => w._(key))", full_hand
    )
    await page.click("#draw", force=True)  # aria-disabled: clickable, to say why
    said = await reason(page)
    full = await page.evaluate(
        "(keys) => import('/assets/words.mjs').then((w) => keys.map((k) => w._(k)))",
        [
            "five cards in hand: play or discard first, or abstain",
            "five cards in hand: play or discard a card first, then draw",
        ],
    )
    assert said in full and said not in (
        "five cards in hand: play or discard first, or abstain",
        "five cards in hand: play or discard a card first, then draw",
    )


async def test_a_line_away_from_the_card_names_the_card_picked(pages: Pages) -> None:
    """In English the card picked is "the ALOA card": "a {card} card" said "a ALOA card", "a
    ELAI card", "a IFFI card" (the wire's English is version 1's, unchanged)."""
    page = await pages.open("/", locale="en-GB")
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    for index in range(await page.locator(".hand .card").count()):
        card = await page.locator(".hand .card").nth(index).get_attribute("data-card")
        await page.locator(".hand .card").nth(index).click()
        far = await page.evaluate(
            """(card) => { const b = kahuna.rules; const i = b.index.get(card);
                const k = b.lines.findIndex(([x, y]) => x !== i && y !== i);
                return b.lineNames[k]; }""",
            card,
        )
        await page.locator(f".line[data-line='{far}']").dispatch_event("click")
        said = f"the {card} card places a bridge only on a line from {card}"
        await expect(page.locator("#why")).to_have_text(said)
        await page.keyboard.press("Escape")  # the pick dropped, for the next card


async def test_a_click_out_of_turn_says_whose_turn_it_is(
    pages: Pages, web_server: KahunaServer
) -> None:
    ann = await Client.connect(web_server.port, "Ann")
    joined, _ = await create_table(ann)  # Ann is White, and moves first
    page = await pages.open("/", locale="de-DE")
    await send(page, "join", {"table_id": joined.table_id, "seat": None})
    await page.wait_for_selector("#turn-hint")
    await page.locator(".line").first.dispatch_event("click")
    not_yours = await page.evaluate(
        "import('/assets/words.mjs').then((w) => w._('it is not your turn'))"
    )
    assert not_yours != "it is not your turn"
    assert await reason(page) == not_yours
    # and the pile, and a card of the hand, say the same
    await page.click("#draw", force=True)
    assert await reason(page) == not_yours
    await ann.close()
