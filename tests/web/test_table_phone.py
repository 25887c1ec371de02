"""The table on a phone (360x740): no sideways scroll, the board as wide as the screen, the
hand below it, island names readable, every control at least 44 CSS px (WCAG 2.5.5); the
board's lines, narrower than a finger there, are picked by a tap on the nearest playable line
and confirmed (or cancelled)."""

from __future__ import annotations

import pytest

from tests.web.conftest import PHONE, Pages
from tests.web.table_helpers import ACTIVE_LINES, my_turn, sit_against_the_computer

pytestmark = pytest.mark.browser

# Every control of the table and its box, in CSS px.
TARGETS = """
() => [...document.querySelectorAll([".table-view button", ".table-view a", ".table-view input",
                                     ".table-view summary", ".table-view select"].join(", "))]
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: e.id || e.dataset.card || e.dataset.take || e.textContent.trim().slice(0, 20),
             width: r.width, height: r.height }; })
"""

LAYOUT = """
() => {
  const box = (s) => { const r = document.querySelector(s).getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom }; };
  const names = [...document.querySelectorAll("svg.board .island .name")]
    .map((n) => n.getBoundingClientRect().height);
  return { board: box("svg.board"), hand: box(".hand"), names,
           scroll: document.documentElement.scrollWidth };
}
"""


async def test_the_phone_table_fits_a_finger(pages: Pages) -> None:
    page = await pages.open("/", viewport=PHONE, has_touch=True, is_mobile=True)
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    layout = await page.evaluate(LAYOUT)
    assert layout["scroll"] <= PHONE["width"]  # no sideways scroll
    assert layout["board"]["x"] <= 0.5 and layout["board"]["width"] >= PHONE["width"] - 1
    assert layout["hand"]["y"] >= layout["board"]["bottom"]  # the hand under the board
    assert min(layout["names"]) >= 11  # island names readable, not 8 px
    await page.click("#legend summary")
    await page.click("#board-text summary")
    small = [t for t in await page.evaluate(TARGETS) if t["width"] < 44 or t["height"] < 44]
    assert small == []
    # a long press on an island says what its "3/5" means
    island = page.locator("svg.board .island[data-island='BARI']")
    await island.dispatch_event("pointerdown")
    await page.wait_for_timeout(700)
    await island.dispatch_event("pointerup")
    assert await page.text_content("#why") == "BARI: needs 3 of 5 lines"


async def test_a_tap_picks_the_nearest_line_and_asks_to_confirm(pages: Pages) -> None:
    page = await pages.open("/", viewport=PHONE, has_touch=True, is_mobile=True)
    table_id = await sit_against_the_computer(page)
    await my_turn(page, table_id)
    version = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
    lines = await page.evaluate(ACTIVE_LINES)
    # a line's band is narrower than a finger here
    band = await page.evaluate(
        """() => { const svg = document.querySelector("svg.board");
          return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * 30; }"""
    )
    assert band < 44
    line = lines[0]
    # a tap a little beside the line (within a fingertip) picks it, and asks
    await page.touchscreen.tap(line["x"] + 6, line["y"] + 6)
    await page.wait_for_selector("#choices.confirm")
    picked = await page.get_attribute("svg.board .line.selected", "data-line")
    assert picked == line["name"]
    assert await page.evaluate("(id) => kahuna.tables.get(id).version", table_id) == version
    # cancelled: nothing sent, nothing picked
    await page.locator("#cancel-line").tap()
    await page.wait_for_selector("#choices.confirm", state="detached")
    assert await page.locator("svg.board .line.selected").count() == 0
    assert await page.evaluate("(id) => kahuna.tables.get(id).version", table_id) == version
    # again, and confirmed: the bridge is placed
    await page.touchscreen.tap(line["x"], line["y"])
    choice = page.locator("#choices.confirm button[data-action]").first
    action = await choice.get_attribute("data-action")
    assert action and (line["name"] in action or action.split()[1].split("-")[0] in line["name"])
    await choice.tap()
    await page.wait_for_function(
        "([id, v]) => kahuna.tables.get(id).version > v", arg=[table_id, version]
    )
    mine = "(id) => kahuna.tables.get(id).view.public.bridges.white"
    bridges = await page.evaluate(mine, table_id)
    assert bridges == [line["name"]]
