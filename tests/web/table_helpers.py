"""The table's tests' helpers: a game against the computer started from the page's own
connection (whatever the lobby looks like), and positions reached by play."""

from __future__ import annotations

import random
from typing import Any

from playwright.async_api import Page

# The create_table the lobby's "Play the computer now" sends (web/new-table.mjs computerGame).
COMPUTER_GAME: dict[str, Any] = {
    "options": {"variant1": False, "variant2": False, "handicap_seat": None, "handicap_bridges": 0},
    "vs_computer": True,
    "seat": "white",
    "first": "white",
    "clock": None,
    "level": "easy",
    "hints": True,
    "rated": False,
}

# A message sent on the page's own connection, once it is open and the server's welcome came.
SEND = """
async ([type, fields]) => {
  const { app } = await import("/assets/state.mjs");
  await new Promise((ok) => {
    const wait = () => (app.conn && app.conn.ready && app.welcome ? ok() : setTimeout(wait, 20));
    wait();
  });
  app.conn.send(type, fields);
}
"""


async def send(page: Page, kind: str, fields: dict[str, Any]) -> None:
    await page.wait_for_function("() => window.kahuna !== undefined")
    await page.evaluate(SEND, [kind, fields])


async def sit_against_the_computer(page: Page, **changes: Any) -> str:
    """A new table against the computer with the page in White's seat, at its screen with the
    playable lines shown; its id."""
    await send(page, "create_table", {**COMPUTER_GAME, **changes})
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector(".line.active")
    return table_id


async def my_turn(page: Page, table_id: str, timeout: float = 10000) -> None:
    """Until the page's player is to move, with the seat back and nothing pending."""
    await page.wait_for_function(
        """(id) => { const t = kahuna.tables.get(id);
          return t && t.view && t.status === 'playing' && !t.pending
            && t.view.public.to_move === t.role && document.querySelector('#turn-hint'); }""",
        arg=table_id,
        timeout=timeout,
    )


# Where each line the page offers now is, in the window: the middle of its drawn curve.
ACTIVE_LINES = """
() => [...document.querySelectorAll("svg.board .line.active")].map((g) => {
  const path = g.querySelector("path.over");
  const p = path.getPointAtLength(path.getTotalLength() / 2);
  const m = path.getScreenCTM();
  return { name: g.dataset.line, x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
})
"""


async def tap_a_step(page: Page, rng: random.Random) -> str:
    """One thing the page offers the player to move, by a finger: a line (the page asks to
    confirm the line it picked, and the choice is tapped), a card and its choice, a face-up
    card, the pile, abstain or end. Returns what was tapped."""
    ends = await page.query_selector_all(".faceup.playable:enabled, #draw.playable:enabled")
    lines = await page.evaluate(ACTIVE_LINES)
    cards = await page.query_selector_all(".hand .card.playable:enabled")
    if ends and (rng.random() < 0.6 or not (lines or cards)):
        await rng.choice(ends).tap()
        return "take or draw"
    if lines and rng.random() < 0.85:
        line = rng.choice(lines)
        await page.touchscreen.tap(line["x"], line["y"])
        await page.wait_for_selector("#choices.confirm button[data-action]", timeout=2000)
        choices = await page.query_selector_all("#choices button[data-action]")
        await rng.choice(choices).tap()
        return "line"
    if cards:
        await rng.choice(cards).tap()
        choices = await page.query_selector_all("#choices button[data-action]")
        if choices:
            await rng.choice(choices).tap()
        return "card"
    for selector in ("#end:enabled", "#abstain:enabled:not([aria-disabled])"):
        found = await page.query_selector(selector)
        if found is not None:
            await found.tap()
            return selector
    raise AssertionError("the page offers nothing to the player to move")
