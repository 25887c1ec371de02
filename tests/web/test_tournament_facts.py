"""What the tournament's page says beside its tables, found missing when a tournament was
played by hand: the time for a first move in force (what the forfeit is), and once it is
over, who won or who share the first place; in English and Italian."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from protocol.tournament_messages import DirectTournament, TournamentState
from tests.conftest import ServerFactory
from tests.web.conftest import PHONE, Pages
from tests.web.test_tournament_page import started_tournament

pytestmark = pytest.mark.browser


async def test_the_page_says_the_first_moves_time_and_the_winners(
    pages: Pages, make_server: ServerFactory
) -> None:
    server = await make_server(web=True, password_cost="test", tournament_forfeit=120.0)
    site = Pages(pages.browser, server.port)
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
