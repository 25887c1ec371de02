"""Issue 40, item 1, in the page: a player who left the table for the lobby is told there when
the game ends (protocol version 4's player_note game_over), in the notice where the page says
the other notes, in the page's language."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from protocol.messages import Join, Joined, Resign, State
from server.net.app import KahunaServer
from tests.conftest import Client
from tests.web.conftest import Pages

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Your game against Bob at table {table} is over: Bob resigned, you won."),
        (
            "de",
            "Deine Partie gegen Bob an Tisch {table} ist beendet:"
            " Bob hat aufgegeben, du hast gewonnen.",
        ),
    ],
)
async def test_the_lobby_says_that_the_game_left_is_over(
    pages: Pages, web_server: KahunaServer, language: str, said: str
) -> None:
    page = await pages.open("/")
    await page.select_option("#language", language)
    await expect(page.locator("html")).to_have_attribute("lang", language)
    await page.uncheck("#vs-computer")
    await page.click("#create")
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    bob = await Client.connect(web_server.port, "Bob")
    await bob.send(Join(table_id, None))
    await bob.expect(Joined)
    await bob.expect(State)
    await page.wait_for_selector(".line.active")  # the game runs: White, the page, to move
    await page.click("#leave")  # into the lobby: the seat waits
    await page.wait_for_selector("#create")
    await bob.send(Resign(table_id))
    await expect(page.locator(".notice")).to_have_text(said.format(table=table_id), timeout=5000)
