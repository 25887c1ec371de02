"""A whole game against the computer played by taps on a phone (360x740) to its end screen
and a rematch: every line picked by the nearest-line tap and confirmed. (By clicks on a
desktop: tests/web/test_play.py.)"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from server.net.app import KahunaServer
from tests.web.conftest import PHONE, Pages
from tests.web.play import table_state, wait_version
from tests.web.table_helpers import sit_against_the_computer, tap_a_step

pytestmark = pytest.mark.browser

Step = Callable[[Page, random.Random], Awaitable[str]]


async def play_to_the_end(page: Page, table_id: str, step: Step, seed: int) -> list[str]:
    rng = random.Random(seed)
    done: list[str] = []
    started = time.monotonic()
    while time.monotonic() - started < 90:
        state = await table_state(page, table_id)
        assert state is not None and state["role"] == "white"
        if state["over"]:
            return done
        if state["toMove"] != "white" or state["pending"] or state["status"] != "playing":
            await wait_version(page, table_id, state["version"])
            continue
        try:
            done.append(await step(page, rng))
        except PlaywrightError as exc:  # redrawn under the finger by a message: again
            if "not attached" not in str(exc) and "Timeout" not in str(exc):
                raise
            continue
        after = await table_state(page, table_id)
        assert after is not None
        if after["version"] == state["version"] and not after["pending"]:
            continue  # a card picked, its choices not taken: nothing sent yet
        await wait_version(page, table_id, state["version"])
    raise AssertionError("the game did not end within 90 s")


async def end_screen_and_rematch(page: Page, table_id: str, web_server: KahunaServer) -> None:
    turn = await page.text_content("#turn")
    assert turn is not None and turn.startswith("Game over")
    assert await page.text_content("#turn-hint") == "Offer a rematch, or leave the table."
    assert web_server.core.lobby.tables[table_id].game.is_over
    await page.locator("#rematch").click()
    await page.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table_id)
    new_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.role === 'black'; }", arg=new_id
    )


async def test_a_whole_game_by_taps_on_a_phone(pages: Pages, web_server: KahunaServer) -> None:
    page = await pages.open("/", viewport=PHONE, has_touch=True, is_mobile=True)
    table_id = await sit_against_the_computer(page)
    done = await play_to_the_end(page, table_id, tap_a_step, 5)
    assert "line" in done  # lines were tapped, picked and confirmed
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    await end_screen_and_rematch(page, table_id, web_server)
