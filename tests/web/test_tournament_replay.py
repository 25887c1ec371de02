"""The replay of a tournament's game in the page: opened from the tournament's page, it names
the tournament and its round (a link back to it) and says the game's own three rounds as the
game's, where any other replay says "Round 1 of 3"; the players named from the pairings; opened
at its address alone, the tournament still named."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.conftest import ServerFactory
from tests.server.tournament_sockets import resign
from tests.web.conftest import DESKTOP, PHONE, accounts_site
from tests.web.test_tournament_page import shot, started_tournament

pytestmark = pytest.mark.browser


async def test_a_tournament_games_replay_says_its_tournament_and_round(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    clients, state = await started_tournament(server)
    tournament_id = state.summary.tournament_id
    game = state.rounds[0].games[0]
    assert game.table_id is not None
    loser = clients[game.black]
    await resign(loser, game.table_id)
    for language, said, own in (
        ("en", "Club night · round 1", "Game: round 1 of 3"),
        ("de", "Club night · Runde 1", "Partie: Durchgang 1 von 3"),
    ):
        for viewport in (PHONE, DESKTOP):
            page = await site.open(
                f"/tournament/{tournament_id}", viewport=viewport, locale=language
            )
            replay = page.locator(f".pairing[data-table='{game.table_id}'] a.replay")
            await replay.click()
            await page.wait_for_url(f"**/game/{game.table_id}")
            line = page.locator("#replay-tournament a")
            await expect(line).to_have_text(said, timeout=10_000)
            await expect(line).to_have_attribute("href", f"/tournament/{tournament_id}")
            await expect(page.locator(".replay-side")).to_contain_text(own)
            players = page.locator(".replay-players")
            await expect(players).to_contain_text(game.white)
            await expect(players).to_contain_text(game.black)
            if language == "en":
                await expect(page.locator("#replay-where")).to_contain_text("game round 1")
                assert "Round 1 of 3" not in await page.locator(".replay-side").inner_text()
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"]
            await shot(page, f"replay-{language}-{viewport['width']}")
            await line.click()  # back to the tournament, without a reload
            await page.wait_for_url(f"**/tournament/{tournament_id}")
            await expect(page.locator(".tournament-head h1")).to_have_text("Club night")
    # the same game opened at its address alone: its record names the tournament (version 4;
    # tests/web/test_tournament_afterwards.py)
    alone = await site.open(f"/game/{game.table_id}")
    await expect(alone.locator("#replay-tournament a")).to_have_text("Club night · round 1")
    for client in clients.values():
        await client.close()
    assert site.errors == []
