"""A tournament's table in the page (protocol version 4's `table.tournament`): the side says
the tournament's name and round with the way to its page, and the end of the game offers no
rematch, since the tournament pairs the next game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
)
from tests.conftest import ServerFactory
from tests.server.tournament_sockets import resign
from tests.web.conftest import accounts_site
from tests.web.login_form import register
from tests.web.rated import account

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("KAHUNA_SHOTS", "/tmp/shots-tourwords"))


async def test_a_tournaments_table_says_its_round_and_offers_no_rematch(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    bob = await account(server.port, "Bob")
    await bob.send(CreateTournament(TournamentTerms("Club night", "swiss", 2)))
    tournament_id = (await bob.expect(TournamentState)).summary.tournament_id
    await bob.send(JoinTournament(tournament_id))
    await bob.expect(TournamentState)
    page = await site.open("/")
    await register(page, "Eve", "eve's long password")
    await page.goto(f"http://127.0.0.1:{server.port}/tournament/{tournament_id}")
    await page.locator("#join-tournament").click()
    await expect(page.locator("ul.entrants li")).to_have_count(2)
    await bob.send(StartTournament(tournament_id))
    call = page.locator(".tournament-call a")
    await expect(call).to_be_visible(timeout=10_000)
    await call.click()
    table_id = page.url.rsplit("/", 1)[1]
    said = page.locator("#table-tournament a")
    await expect(said).to_have_text("Club night · round 1", timeout=10_000)
    await expect(said).to_have_attribute("href", f"/tournament/{tournament_id}")
    await resign(bob, table_id)
    await expect(page.locator("#turn-hint")).to_have_text(
        "The tournament pairs your next game.", timeout=10_000
    )
    await expect(page.locator("#leave")).to_be_visible()
    await expect(page.locator("#rematch")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / "tournament-table-over-en-1280.png"), full_page=True)
    await bob.close()
    assert site.errors == []
