"""The page's places, each opened and awaited until it shows what it is, for the tests that look
over all of them (test_axe: no serious violation, test_no_english: no English left): `opened`
gives a new page at a path, in the test's own browser context, language and options."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from playwright.async_api import Page, expect

from server.net.app import KahunaServer
from tests.conftest import ServerFactory
from tests.web.table_helpers import COMPUTER_GAME, SEND

Opener = Callable[[str], Awaitable[Page]]


async def analysing_server(make_server: ServerFactory) -> KahunaServer:
    """A server with the page, accounts and a quick analysis (a replay's chart in seconds)."""
    return await make_server(
        web=True, password_cost="test", analysis_playouts=32, analysis_search=100
    )


async def lobby_page(opened: Opener) -> Page:
    page = await opened("/")
    await expect(page.locator("#main > *:not(.notice)").first).to_be_visible()
    return page


async def table_against_the_computer(opened: Opener) -> Page:
    """A page that started a game against the computer, at its table as its player."""
    page = await opened("/")
    await page.evaluate(SEND, ["create_table", COMPUTER_GAME])
    await page.wait_for_url("**/table/*")
    await expect(page.locator(".board .line.active").first).to_be_visible(timeout=10_000)
    return page


async def replay_with_analysis(opened: Opener, game: str) -> Page:
    """The finished game's replay, its analysis asked for and its chart shown."""
    page = await opened(f"/game/{game}")
    await expect(page.locator(".replay-board svg.board")).to_be_visible(timeout=10_000)
    await page.click("#analyse")  # with its analysis, the chart and the turn's line
    await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=30_000)
    return page


async def player_page(opened: Opener, name: str, game: str) -> Page:
    """The player's page, once it lists their game."""
    page = await opened(f"/player/{name}")
    await expect(page.locator(f"a[href='/game/{game}']").first).to_be_visible(timeout=10_000)
    return page
