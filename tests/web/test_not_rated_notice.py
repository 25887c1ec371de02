"""A rated table's game that ends too soon to be rated (protocol version 4's table_note
not_rated) is said in the table's notice, where a rating change would be looked for: without
it, the missing change looked like a fault. In English and German."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from protocol.messages import Join, Joined, Resign, State
from tests.conftest import ServerFactory
from tests.web.conftest import accounts_site
from tests.web.login_form import register
from tests.web.rated import account

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Not rated: the game ended before each player had played 2 turns."),
        ("de", "Nicht gewertet: Die Partie endete, bevor jeder Spieler 2 Züge gespielt hatte."),
    ],
)
async def test_a_rated_game_resigned_at_once_says_it_is_not_rated(
    browser: Browser, make_server: ServerFactory, language: str, said: str
) -> None:
    server, pages = await accounts_site(browser, make_server)
    page = await pages.open("/")
    await register(page, "Ann", "ann's long password")
    await page.select_option("#language", language)
    await expect(page.locator("html")).to_have_attribute("lang", language)
    await page.uncheck("#vs-computer")
    await page.check("input[name=rated]")
    await page.click("#create")
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    bob = await account(server.port, "Bob")
    await bob.send(Join(table_id, None))
    await bob.expect(Joined)
    await bob.expect(State)
    await page.wait_for_selector(".line.active")  # the game runs: White, the page, to move
    await bob.send(Resign(table_id))
    await expect(page.locator(".notice")).to_have_text(said, timeout=5000)
    await bob.close()
    assert pages.errors == []
