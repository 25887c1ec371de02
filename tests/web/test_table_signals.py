"""The table's signals: "your move" in the tab's title and icon, a beep that is off until the
player turns it on, a game of days' notifications asked for by a button, the clocks ticking,
and brief animations of what changed, none when the player asks for less motion."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from protocol.messages import Command, Update
from server.net.app import KahunaServer
from tests.conftest import Client, create_table
from tests.web.conftest import Pages
from tests.web.table_helpers import my_turn, send, sit_against_the_computer

pytestmark = pytest.mark.browser

ICON = "() => document.querySelector('link[rel=icon]').getAttribute('href')"


async def test_your_move_in_the_title_and_the_icon(pages: Pages, web_server: KahunaServer) -> None:
    ann = await Client.connect(web_server.port, "Ann")
    joined, state = await create_table(ann)  # Ann is White, and moves first
    page = await pages.open("/")
    await send(page, "join", {"table_id": joined.table_id, "seat": None})
    await page.wait_for_selector("#turn-hint")
    assert not (await page.title()).startswith("(Your turn)")
    assert await page.evaluate(ICON) == "/assets/icon.svg"
    # no sound unless asked for
    assert await page.get_attribute("#sound", "aria-pressed") == "false"
    await ann.send(Command(joined.table_id, state.version, "draw"))
    await ann.expect(Update)
    await page.wait_for_function("() => document.title.startsWith('(Your turn)')")
    assert (await page.evaluate(ICON)).startswith("data:image/svg+xml")
    await page.click("#sound")
    assert await page.get_attribute("#sound", "aria-pressed") == "true"
    assert await page.evaluate("() => localStorage.getItem('kahuna.sound')") == "on"
    # away from the table, the icon is the page's again
    await page.click("header .home")
    await page.wait_for_function("() => location.pathname === '/'")
    assert await page.evaluate(ICON) == "/assets/icon.svg"
    await ann.close()


async def test_a_game_of_days_asks_to_notify(pages: Pages) -> None:
    page = await pages.open("/")
    await page.context.grant_permissions(["notifications"])
    days = {"initial": 0, "increment": 0, "per_turn": 0, "days": 3}
    table_id = await sit_against_the_computer(page, clock=days)
    await my_turn(page, table_id)
    await expect(page.locator("#notify")).to_have_text("Notifications on")
    # the tab hidden, the player's next turn is notified (the browser's notifications recorded)
    await page.evaluate(
        """() => {
          Object.defineProperty(document, "hidden", { get: () => true });
          window.notified = [];
          window.Notification = class { static permission = "granted";
            constructor(title, options) { window.notified.push([title, options.body]); } };
        }"""
    )
    version = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
    await page.click("#draw")
    await page.wait_for_function("() => window.notified.length > 0")
    assert await page.evaluate("(id) => kahuna.tables.get(id).version", table_id) > version
    assert await page.evaluate("() => window.notified") == [
        ["Kahuna", f"Your move at table {table_id}"]
    ]
    # a live game has no such button
    other = await pages.open("/")
    await sit_against_the_computer(other)
    assert await other.locator("#notify").count() == 0


async def test_the_clocks_tick(pages: Pages) -> None:
    page = await pages.open("/")
    live = {"initial": 300, "increment": 0, "per_turn": 0}
    table_id = await sit_against_the_computer(page, clock=live)
    await my_turn(page, table_id)
    before = await page.text_content(".player.white .clock")
    await page.wait_for_function(
        "(was) => document.querySelector('.player.white .clock').textContent !== was",
        arg=before,
        timeout=3000,
    )


# What a fresh bridge's drawing animates, in the page's own CSS.
ANIMATION = """
() => { const line = document.querySelector("svg.board .line.bridge.fresh path.over");
  return line ? getComputedStyle(line).animationName : null; }
"""


async def test_a_placed_bridge_is_animated_unless_asked_not_to(pages: Pages) -> None:
    for motion, expected in (("no-preference", "kahuna-draw-in"), ("reduce", "none")):
        page = await pages.open("/", reduced_motion=motion)
        table_id = await sit_against_the_computer(page)
        await my_turn(page, table_id)
        await page.locator("svg.board .line.active").first.click()
        if await page.locator("#choices button").count():
            await page.locator("#choices button").first.click()
        await page.wait_for_selector("svg.board .line.bridge.white.fresh")
        assert await page.evaluate(ANIMATION) == expected
