"""A tournament afterwards, as someone comes to it later: a game's replay opened at its own
address (a shared link, no tournament's page before it) names its tournament and round, a link
to the tournament (version 4's `record.tournament`), in English, German and Italian; and a
finished tournament's page says only what still holds: no time for a first move, no pause, no
"log in to play", and how far it went when it ended before its last round, by its director or
by a moderator."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect

from protocol.messages import Resign, State
from protocol.moderation_messages import Moderate
from protocol.player_messages import Resume
from protocol.tournament_messages import DirectTournament, TournamentState
from server.core.names import name_key
from server.core.store import ModeratorOp
from server.storage.storage_open import open_storage
from tests.conftest import Client, ServerFactory
from tests.web.conftest import DESKTOP, PHONE, Pages
from tests.web.rated import account
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


async def finished(client: Client) -> TournamentState:
    while True:
        state = await client.expect(TournamentState)
        if state.summary.status == "finished":
            return state


async def test_a_finished_tournaments_page_says_only_what_still_holds(
    pages: Pages, make_server: ServerFactory, tmp_path: Path
) -> None:
    db = str(tmp_path / "db.sqlite3")
    storage = open_storage(db)
    storage.write([ModeratorOp(name_key("Mira"), True, 1.0)])
    storage.close()
    server = await make_server(web=True, password_cost="test", db=db, tournament_forfeit=120.0)
    site = Pages(pages.browser, server.port)
    # one ended by its director, one by a moderator, each paused first and in its first round
    clients, state = await started_tournament(server)
    ended = state.summary.tournament_id
    others, other_state = await started_tournament(server, ("Eve", "Fay", "Gus", "Hal"))
    closed = other_state.summary.tournament_id
    ann, eve = clients["Ann"], others["Eve"]
    page = await site.open(f"/tournament/{ended}")
    await expect(page.locator("dl.terms")).to_contain_text("within 2 minutes")  # under way
    for director, tournament_id in ((ann, ended), (eve, closed)):
        await director.send(DirectTournament(tournament_id, "pause"))
        while not (await director.expect(TournamentState)).summary.paused:
            pass
    await ann.send(DirectTournament(ended, "end"))
    assert (await finished(ann)).summary.paused  # the flag as it stood: the page says nothing
    mira = await account(server.port, "Mira")
    await mira.send(Moderate("close_tournament", closed, "an abusive name"))
    assert (await finished(eve)).summary.closed
    for tournament_id, status in (
        (ended, "finished after round 1 of 2"),
        (closed, "ended by a moderator in round 1 of 2"),
    ):
        for viewport in (PHONE, DESKTOP):
            page = await site.open(f"/tournament/{tournament_id}", viewport=viewport)
            terms = page.locator("dl.terms")
            await expect(terms).to_contain_text(status, timeout=10_000)
            for gone in ("First move", "within 2 minutes", "paused"):
                await expect(terms).not_to_contain_text(gone)
            await expect(page.locator(".tournament-head")).not_to_contain_text("Log in to play")
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (tournament_id, viewport)
            await shot(page, f"finished-{status.split()[0]}-{viewport['width']}")
    # in German and Italian, and in the lobby's list
    german = await site.open(f"/tournament/{ended}", locale="de")
    await expect(german.locator("dl.terms")).to_contain_text(
        "beendet nach Runde 1 von 2", timeout=10_000
    )
    italian = await site.open(f"/tournament/{closed}", locale="it")
    await expect(italian.locator("dl.terms")).to_contain_text(
        "chiuso da un moderatore al turno 1 di 2", timeout=10_000
    )
    lobby = await site.open("/")
    rows = lobby.locator(".tournaments-part .tournament-row")
    await expect(rows.filter(has_text="finished after round 1 of 2")).to_have_count(1)
    await expect(rows.filter(has_text="ended by a moderator in round 1 of 2")).to_have_count(1)
    await expect(rows.filter(has_text="paused")).to_have_count(0)
    for client in [*clients.values(), *others.values(), mira]:
        await client.close()
    assert site.errors == []
