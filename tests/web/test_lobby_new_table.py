"""The lobby's new-table form offers what the terminal client's does (who moves first, a clock
of days, the variants, a handicap, hints, the level), and "rated" only against a person, not
ticked unless asked for; the server's table is what the form said."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from shared.types import Seat
from tests.conftest import ServerFactory
from tests.web.conftest import accounts_site

pytestmark = pytest.mark.browser


async def test_the_form_makes_the_table_it_says(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    page = await site.open("/")
    rated = page.locator("#rated")
    await expect(page.locator("#vs-computer")).to_be_checked()
    await expect(rated).to_be_hidden()  # never rated against the computer
    await page.uncheck("#vs-computer")
    await expect(rated).to_be_visible()
    await expect(rated).not_to_be_checked()
    await expect(page.locator("#level")).to_be_hidden()  # the level is the computer's
    # a person's table: Black, Black first, three days a move, Variant 1, no hints
    await page.select_option("#seat", "black")
    await page.select_option("#clock", "days:3")
    await page.locator("form.create details.more summary").click()
    await page.select_option("#first", "black")
    await page.check("#variant1")
    # a stranger is told what the hints are before turning them off
    await expect(page.locator("label.box", has=page.locator("#hints"))).to_have_text(
        "Hints: a player may ask what the computer would play"
    )
    await page.uncheck("#hints")
    await page.click("#create")
    await page.wait_for_url("**/table/*")
    table = server.core.lobby.tables[page.url.rsplit("/", 1)[1]]
    assert not table.vs_computer and not table.rated_requested and not table.hints
    assert table.options.variant1 and not table.options.variant2
    assert table.clock is not None and table.clock.control.days == 3
    assert table.game.to_move is Seat.BLACK
    holder = table.seats[Seat.BLACK]
    assert holder is not None and table.seats[Seat.WHITE] is None
    # back in the lobby: against the normal computer, the computer placing two free bridges
    await page.click(".top .home")
    await page.check("#vs-computer")
    await page.select_option("#level", "normal")
    await expect(page.locator("form.create details.more")).to_have_attribute("open", "")
    await page.select_option("#handicap", "black:2")
    await page.click("#create")
    await page.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table.table_id)
    await page.wait_for_url("**/table/*")
    second = server.core.lobby.tables[page.url.rsplit("/", 1)[1]]
    assert second.vs_computer and second.level == "normal" and not second.rated_requested
    assert second.options.handicap_seat is Seat.BLACK
    assert second.options.handicap_bridges == 2
    assert site.errors == []
