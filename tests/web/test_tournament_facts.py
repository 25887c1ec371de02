"""What the tournament's page says and asks, found missing when a tournament was played by
hand: the time for a first move in force (what the forfeit is), once it is over who won or who
share the first place (in English and Italian); a withdrawal under way asked first, with what
becomes of the game; and the lobby's list of tournaments, pushed when one is made."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
)
from tests.conftest import ServerFactory
from tests.web.conftest import PHONE, accounts_site
from tests.web.login_form import register
from tests.web.rated import account
from tests.web.test_tournament_page import started_tournament

pytestmark = pytest.mark.browser


async def test_the_page_says_the_first_moves_time_and_the_winners(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server, tournament_forfeit=120.0)
    clients, state = await started_tournament(server)
    tournament_id = state.summary.tournament_id
    page = await site.open(f"/tournament/{tournament_id}")
    terms = page.locator("dl.terms")
    await expect(terms).to_contain_text("First move")
    await expect(terms).to_contain_text("within 2 minutes, or the game is lost by forfeit")
    await expect(page.locator("#tournament-winner")).to_have_count(0)
    ann = clients["Ann"]
    await ann.send(DirectTournament(tournament_id, "end"))  # every game drawn: all share it
    while (await ann.expect(TournamentState)).summary.status != "finished":
        pass
    winner = page.locator("#tournament-winner")
    await expect(winner).to_have_text("Winners: Ann, Bob, Cid, Dan", timeout=10_000)
    italian = await site.open(f"/tournament/{tournament_id}", viewport=PHONE, locale="it")
    await expect(italian.locator("#tournament-winner")).to_have_text(
        "Vincono a pari merito: Ann, Bob, Cid, Dan"
    )
    assert await italian.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for client in clients.values():
        await client.close()
    assert site.errors == []


async def test_withdrawing_under_way_asks_first_and_the_lobby_hears_of_new_tournaments(
    browser: Browser, make_server: ServerFactory
) -> None:
    """Eve in the page: the lobby's list shows a tournament made elsewhere without a reload
    (pushed to the lobby); she joins it, it starts, and her Withdraw asks first, saying her
    game of the round goes on; "Yes" withdraws her, her game still hers to play."""
    server, site = await accounts_site(browser, make_server)
    page = await site.open("/")
    await register(page, "Eve", "eve's long password")
    part = page.locator(".tournaments-part")
    await expect(part).to_contain_text("No tournament yet.")
    ann = await account(server.port, "Ann")
    await ann.send(CreateTournament(TournamentTerms("Pushed", "swiss", 2)))
    tournament_id = (await ann.expect(TournamentState)).summary.tournament_id
    await expect(part.locator(".tournament-row a.name")).to_have_text("Pushed")  # no Refresh
    await ann.send(JoinTournament(tournament_id))
    await part.locator(".tournament-row a.name").click()
    await page.locator("#join-tournament").click()
    await expect(page.locator("ul.entrants li")).to_have_count(2)
    await ann.send(StartTournament(tournament_id))
    await expect(page.locator(".pairing.mine")).to_have_count(1, timeout=10_000)
    await page.locator("#withdraw-tournament").click()
    question = page.locator(".tournament-actions .confirm .question")
    await expect(question).to_contain_text("your game of this round goes on")
    await page.locator(".tournament-actions .confirm .yes").click()
    await expect(page.locator("ul.entrants li.withdrawn")).to_contain_text("Eve")
    await expect(page.locator(".pairing.mine a.watch")).to_have_text("Back to my seat")
    await ann.close()
    assert site.errors == []
