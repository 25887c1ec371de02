"""Playing in the page as a person would: by clicking what it offers."""

from __future__ import annotations

import random
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

TABLE = """
(id) => {
  const t = kahuna.tables.get(id);
  if (!t || !t.view) return null;
  const pub = t.role === "spectator" ? t.view : t.view.public;
  return {
    version: t.version, status: t.status, pending: t.pending, role: t.role,
    over: pub.result !== null, toMove: pub.to_move,
  };
}
"""

# Where each line the page offers now is, in the window: the middle of its drawn curve.
ACTIVE_LINES = """
() => [...document.querySelectorAll(".line.active")].map((g) => {
  const path = g.querySelector("path.over");
  const p = path.getPointAtLength(path.getTotalLength() / 2);
  const m = path.getScreenCTM();
  return { name: g.dataset.line, x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
})
"""


async def table_state(page: Page, table_id: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = await page.evaluate(TABLE, table_id)
    return found


async def wait_version(page: Page, table_id: str, above: int, timeout: float = 5000) -> None:
    await page.wait_for_function(
        "([id, v]) => { const t = kahuna.tables.get(id); return t && t.version > v; }",
        arg=[table_id, above],
        timeout=timeout,
    )


async def click_a_turn_step(page: Page, rng: random.Random) -> str:
    """click_a_step, again if the page redrew what was about to be clicked (a message came in
    between: a person would simply click again)."""
    for _ in range(5):
        try:
            return await click_a_step(page, rng)
        except PlaywrightError as exc:
            if "not attached" not in str(exc):
                raise
    raise AssertionError("the page kept redrawing under the mouse")


async def click_a_step(page: Page, rng: random.Random) -> str:
    """Click one thing the page offers the player to move: a line (and, if it asks, one of
    the choices), a card of the hand and then a choice, a face-up card, the pile, abstain or
    end. Returns what was clicked."""
    ends = await page.query_selector_all(".faceup.playable:enabled, #draw.playable:enabled")
    lines = await page.evaluate(ACTIVE_LINES)
    cards = await page.query_selector_all(".hand .card.playable:enabled")
    if ends and (rng.random() < 0.6 or not (lines or cards)):
        button = rng.choice(ends)
        await button.click()
        return "take or draw"
    if lines and rng.random() < 0.85:
        line = rng.choice(lines)
        await page.mouse.click(line["x"], line["y"])
        choices = await page.query_selector_all("#choices button")
        if choices:
            await rng.choice(choices).click()
        return f"line {line['name']}"
    if cards:
        await rng.choice(cards).click()
        choices = await page.query_selector_all("#choices button")
        if choices:
            await rng.choice(choices).click()
        return "card"
    for selector in ("#end:enabled", "#abstain:enabled:not([aria-disabled])"):
        found = await page.query_selector(selector)
        if found is not None:
            await found.click()
            return selector
    raise AssertionError("the page offers nothing to the player to move")
