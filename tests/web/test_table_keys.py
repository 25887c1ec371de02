"""The table by keyboard alone: a turn of card, bridge and draw in at most 6 key presses, the
focus never dropped to <body> after an action; every control named (the pile's name holds
its visible label), the log scrollable by keyboard, the board readable as text."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from tests.web.conftest import Pages
from tests.web.table_helpers import my_turn, sit_against_the_computer

pytestmark = pytest.mark.browser

FOCUS = "() => { const a = document.activeElement; return a ? a.tagName : null; }"


class Keys:
    """Key presses counted, the focus checked after each."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.pressed = 0

    async def press(self, key: str) -> None:
        await self.page.keyboard.press(key)
        self.pressed += 1
        await self.page.wait_for_timeout(50)  # the redraw after it
        assert await self.page.evaluate(FOCUS) != "BODY", f"the focus fell to <body> after {key}"


async def test_a_turn_in_six_key_presses(pages: Pages) -> None:
    page = await pages.open("/")
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    version = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
    # where a player starts: the status line (no mouse, nothing focused yet but the page)
    await page.locator("#turn").focus()
    keys = Keys(page)
    await keys.press("1")  # the hand's first card: its lines marked
    card = await page.evaluate("() => document.activeElement.dataset.card")
    assert card and await page.locator(".hand .card.selected").count() == 1
    await keys.press("n")  # its first playable line
    line = await page.evaluate("() => document.activeElement.dataset.line")
    assert line and card in line.split("-")
    await keys.press("Enter")  # the bridge (or the choices, the first one focused)
    if await page.locator("#choices button").count():
        await keys.press("Enter")
    await page.wait_for_function(
        "([id, v]) => kahuna.tables.get(id).version > v", arg=[table_id, version]
    )
    await my_turn(page, table_id)
    assert await page.evaluate(FOCUS) != "BODY"
    after_bridge = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
    await keys.press("d")  # the pile: the turn ends
    await page.wait_for_function(
        "([id, v]) => kahuna.tables.get(id).version > v", arg=[table_id, after_bridge]
    )
    assert keys.pressed <= 6
    log = await page.locator(".log li").all_text_contents()
    assert any(line in entry for entry in log)  # the bridge was placed
    assert any("drew" in entry for entry in log)
    # the computer's turn comes and goes: the focus stays on the page's controls
    await my_turn(page, table_id)
    assert await page.evaluate(FOCUS) != "BODY"


async def test_every_control_named_and_the_board_as_text(pages: Pages) -> None:
    page = await pages.open("/")
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    # the pile's accessible name holds what it shows (axe: label-content-name-mismatch)
    shown = (await page.text_content("#draw")) or ""
    name = (await page.get_attribute("#draw", "aria-label")) or ""
    assert shown and name.startswith(shown)
    # every button has a name
    unnamed = await page.evaluate(
        """() => [...document.querySelectorAll('main button, main [role=button]')]
          .filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim()))
          .map((b) => b.outerHTML)"""
    )
    assert unnamed == []
    # the log: a log region, reachable by keyboard to scroll it
    log = page.locator(".log")
    assert await log.get_attribute("role") == "log"
    assert await log.get_attribute("tabindex") == "0"
    # the board as text: every island with its owner and majority, every line's bridge
    await page.click("#board-text summary")
    items = await page.locator("#board-text li").all_text_contents()
    assert len(items) == 12 + 27
    assert items[0].startswith("ALOA: no token; needs 2 of 3 lines")
    assert any(i.endswith(": free") for i in items[12:])
    # the legend, and "3/5" on hover
    await page.click("#legend summary")
    assert await page.locator("#legend li").count() >= 7
    title = await page.locator(".island[data-island='BARI'] title").text_content()
    assert title == "BARI: needs 3 of 5 lines"
