"""A tournament afterwards, as someone comes to it later: a game's replay opened at its own
address (a shared link, no tournament's page before it) names its tournament and round, a link
to the tournament (version 4's `record.tournament`), in English, German and Italian."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from protocol.messages import Resign, State
from protocol.player_messages import Resume
from tests.conftest import ServerFactory
from tests.web.conftest import DESKTOP, PHONE, Pages
from tests.web.test_tournament_page import shot, started_tournament

pytestmark = pytest.mark.browser


async def test_a_tournament_games_replay_opened_at_its_address_links_its_tournament(
    pages: Pages, make_server: ServerFactory
) -> None:
    server = await make_server(web=True, password_cost="test")
    site = Pages(pages.browser, server.port)
    clients, state = await started_tournament(server)
    tournament_id = state.summary.tournament_id
    game = state.rounds[0].games[0]
    assert game.table_id is not None
    loser = clients[game.black]
    await loser.send(Resume(game.table_id))
    await loser.expect(State)
    await loser.send(Resign(game.table_id))
    for language, word, said, own in (
        ("en", "Tournament", "Club night · round 1", "Game: round 1 of 3"),
        ("de", "Turnier", "Club night · Runde 1", "Partie: Durchgang 1 von 3"),
        ("it", "Torneo", "Club night · turno 1", "Partita: manche 1 di 3"),
    ):
        for viewport in (PHONE, DESKTOP):
            # a fresh browser context: nothing known but the address
            page = await site.open(f"/game/{game.table_id}", viewport=viewport, locale=language)
            line = page.locator("#replay-tournament a")
            await expect(line).to_have_text(said, timeout=10_000)
            await expect(line).to_have_attribute("href", f"/tournament/{tournament_id}")
            await expect(page.locator("#replay-tournament")).to_have_text(f"{word}: {said}")
            await expect(page.locator(".replay-side")).to_contain_text(own)
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (language, viewport)
            await shot(page, f"shared-replay-{language}-{viewport['width']}")
    # the link leads to the tournament's page without a reload
    page = await site.open(f"/game/{game.table_id}")
    await page.evaluate("window.stayed = true")
    await page.locator("#replay-tournament a").click()
    await page.wait_for_url(f"**/tournament/{tournament_id}")
    await expect(page.locator(".tournament-head h1")).to_have_text("Club night")
    assert await page.evaluate("window.stayed") is True
    for client in clients.values():
        await client.close()
    assert site.errors == []
