"""A whole game against the computer, played by clicking in the page."""

from __future__ import annotations

import random
import time

import pytest

from server.net.app import KahunaServer
from tests.web.conftest import Pages
from tests.web.play import click_a_turn_step, table_state, wait_version

pytestmark = pytest.mark.browser


async def test_a_whole_game_against_the_computer_by_clicking(
    pages: Pages, web_server: KahunaServer
) -> None:
    page = await pages.open("/")
    await page.click("#create")  # against the computer (easy), White: the form's defaults
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector("svg.board")
    rng = random.Random(3)
    clicked: list[str] = []
    started = time.monotonic()
    while time.monotonic() - started < 60:
        state = await table_state(page, table_id)
        assert state is not None and state["role"] == "white"
        if state["over"]:
            break
        if state["toMove"] != "white" or state["pending"] or state["status"] != "playing":
            await wait_version(page, table_id, state["version"])
            continue
        clicked.append(await click_a_turn_step(page, rng))
        after = await table_state(page, table_id)
        assert after is not None
        if after["version"] == state["version"] and not after["pending"]:
            continue  # a card picked, its choices not taken: nothing sent yet
        await wait_version(page, table_id, state["version"])
    else:
        raise AssertionError("the game did not end within a minute")
    # the game ended by play, and the page says so, in words, in the log too
    turn = await page.text_content("#turn")
    assert turn is not None and turn.startswith("Game over")
    assert await page.text_content("#turn-hint") == "Offer a rematch, or leave the table."
    log = await page.locator(".log li").all_text_contents()
    assert "Game over" in log[-1]
    assert any(c.startswith("line") for c in clicked)
    # the server agrees: the game it holds is over, after the actions the page sent
    game = web_server.core.lobby.tables[table_id].game
    assert game.is_over
    # a rematch from the page: a new table, colours swapped
    await page.click("#rematch")
    await page.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table_id)
    new_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.role === 'black'; }", arg=new_id
    )
