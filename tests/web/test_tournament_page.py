"""Tournaments in the page: /tournament/ID with its terms, live standings and the round's
pairings, each game a link to watch it and, once over, to its replay, drawn again when a game
ends; the lobby's list leading there; an account making one with the lobby's form, joining,
starting it and told of its game of the round; in German too. Accounts and their moves go over
the protocol (tests/web/rated.py)."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from protocol.tournament_messages import (
    GetTournaments,
    JoinTournament,
    StartTournament,
    Tournaments,
    TournamentState,
    TournamentTerms,
)
from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory
from tests.server.tournament_sockets import entered, resign
from tests.web.conftest import DESKTOP, PHONE, accounts_site
from tests.web.login_form import log_in, register
from tests.web.rated import PASSWORD, account

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob", "Cid", "Dan")
SHOTS = Path(os.environ.get("KAHUNA_SHOTS", "/tmp/shots-tpage38"))


async def started_tournament(
    server: KahunaServer, names: tuple[str, ...] = NAMES
) -> tuple[dict[str, Client], TournamentState]:
    """Four accounts in a Swiss of two rounds that the first made and started: its first
    round."""
    clients = {name: await account(server.port, name) for name in names}
    ann = clients[names[0]]
    terms = TournamentTerms("Club night", "swiss", 2)
    await ann.send(StartTournament(await entered(ann, clients.values(), terms)))
    while True:
        state = await ann.expect(TournamentState)
        if state.rounds:
            return clients, state


async def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


async def test_the_tournaments_page_shows_the_round_and_follows_its_games(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    clients, state = await started_tournament(server)
    tournament_id = state.summary.tournament_id
    # the lobby lists it, and its link opens its page without a reload
    lobby = await site.open("/")
    link = lobby.locator(f".tournaments-part a[href='/tournament/{tournament_id}']")
    await expect(link).to_have_text("Club night")
    await lobby.evaluate("window.stayed = true")
    await link.click()
    await lobby.wait_for_url(f"**/tournament/{tournament_id}")
    assert await lobby.evaluate("window.stayed") is True
    page = lobby
    await expect(page.locator(".tournament-head h1")).to_have_text("Club night")
    await expect(page.locator("dl.terms")).to_contain_text("Swiss, 2 rounds")
    await expect(page.locator("dl.terms")).to_contain_text("round 1 of 2")
    await expect(page.locator("ul.entrants li")).to_have_count(4)
    # the round's two games, each a way to watch it
    (first_round,) = state.rounds
    games = page.locator(".round[data-round='1'] .pairing")
    await expect(games).to_have_count(2)
    for game in first_round.games:
        item = page.locator(f".pairing[data-table='{game.table_id}']")
        await expect(item.locator("a.watch")).to_have_attribute("href", f"/table/{game.table_id}")
        await expect(item.locator(".who")).to_contain_text(f"{game.white} – ")
    # the standings: four players at nought, with the Swiss's tie-breaks and their legend
    rows = page.locator("table.standings tbody tr")
    await expect(rows).to_have_count(4)
    headers = page.locator("table.standings thead th")
    await expect(headers).to_have_text(["#", "Player", "Points", "Bh", "SB", "DE", "W"])
    await expect(page.locator("dl.legend")).to_contain_text("Buchholz cut 1")
    # a game ends: its result, its replay and the standings come without a reload
    game = first_round.games[0]
    assert game.table_id is not None
    loser = clients[game.black]
    await resign(loser, game.table_id)
    item = page.locator(f".pairing[data-table='{game.table_id}']")
    await expect(item.locator(".score")).to_have_text("1–0", timeout=10_000)
    await expect(item.locator("a.replay")).to_have_attribute("href", f"/game/{game.table_id}")
    leader = rows.nth(0)
    await expect(leader.locator("td").nth(1)).to_have_text(game.white)
    await expect(leader.locator("td.points")).to_have_text("1")
    assert await page.evaluate("window.stayed") is True
    # a spectator's way into the game still played
    other = first_round.games[1]
    await page.locator(f".pairing[data-table='{other.table_id}'] a.watch").click()
    await page.wait_for_url(f"**/table/{other.table_id}")
    await expect(page.locator(".board").first).to_be_visible(timeout=10_000)
    # the player's page lists their tournaments
    await page.goto(f"http://127.0.0.1:{server.port}/player/Ann")
    await expect(page.locator(".player-tournaments a.name")).to_have_text("Club night")
    # how it looks: a phone and a desktop, in English and in German
    for language in ("en", "de"):
        for size, viewport in (("360", PHONE), ("1280", DESKTOP)):
            look = await site.open(
                f"/tournament/{tournament_id}", viewport=viewport, locale=language
            )
            await expect(look.locator("table.standings tbody tr")).to_have_count(4)
            await expect(look.locator(".pairing a.replay")).to_have_count(1)
            width = await look.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (language, size)
            await shot(look, f"tournament-{language}-{size}")
            if language == "de":
                await expect(look.locator("table.standings thead th").nth(2)).to_have_text("Punkte")
    # the lobby's list on a phone, in German
    lobby_de = await site.open("/", viewport=PHONE, locale="de")
    await expect(lobby_de.locator(".tournaments-part .tournament-row")).to_contain_text(
        "Schweizer System, 2 Runden"
    )
    assert await lobby_de.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await lobby_de.locator(".tournaments-part").scroll_into_view_if_needed()
    await lobby_de.locator(".tournaments-part").screenshot(path=str(SHOTS / "lobby-de-360.png"))
    for client in clients.values():
        await client.close()
    assert site.errors == []


async def test_an_account_makes_joins_and_starts_a_tournament_in_the_page(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    page = await site.open("/")
    await register(page, "Eve", "eve's long password")
    part = page.locator(".tournaments-part")
    await expect(part).to_contain_text("No tournament yet.")
    await part.locator("details.new-tournament-fold summary").click()
    await part.locator("#tournament-name").fill("Friday blitz")
    await part.locator("#tournament-rounds").fill("2")
    await shot(page, "lobby-new-tournament-en-1280")
    await part.locator("#create-tournament").click()
    await page.wait_for_url("**/tournament/*")
    tournament_id = page.url.rsplit("/", 1)[1]
    await expect(page.locator(".tournament-head h1")).to_have_text("Friday blitz")
    await expect(page.locator("dl.terms")).to_contain_text("5+3")
    # the director alone cannot start it: the refusal in words
    await page.locator("#join-tournament").click()
    await expect(page.locator("ul.entrants li")).to_have_count(1)
    await page.locator("#start-tournament").click()
    # the catalogue's words for bad_tournament/too_few_players (catalogue/codes.py)
    await expect(page.locator(".notice")).to_contain_text("two players")
    # withdrawing and joining again
    await page.locator("#withdraw-tournament").click()
    await expect(page.locator(".entrants-part")).to_contain_text("No player has joined yet.")
    await page.locator("#join-tournament").click()
    await expect(page.locator("ul.entrants li")).to_have_count(1)
    bob = await account(server.port, "Bob")
    await bob.send(JoinTournament(tournament_id))
    await bob.expect(TournamentState)
    await expect(page.locator("ul.entrants li")).to_have_count(2)
    # started: Eve is told of her game, in the title and with its table's link
    await page.locator("#start-tournament").click()
    call = page.locator(".tournament-call a")
    await expect(call).to_be_visible(timeout=10_000)
    assert (await page.title()).startswith("(Your game is ready)")
    table_id = (await call.get_attribute("href") or "").rsplit("/", 1)[1]
    await expect(page.locator(f".pairing.mine[data-table='{table_id}']")).to_have_count(1)
    await shot(page, "tournament-started-en-1280")
    # its director pauses it (no round is paired meanwhile) and resumes it
    await page.locator("#pause-tournament").click()
    await expect(page.locator("dl.terms")).to_contain_text("round 1 of 2 · paused")
    await page.locator("#resume-tournament").click()
    await expect(page.locator("#pause-tournament")).to_be_visible()
    await expect(page.locator("dl.terms")).not_to_contain_text("paused")
    await call.click()
    await page.wait_for_url(f"**/table/{table_id}")
    await expect(page.locator(".board").first).to_be_visible(timeout=10_000)
    await bob.close()
    assert site.errors == []


async def test_a_round_robin_shows_its_own_tie_breaks_and_the_bye(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    lobby = await site.open("/")
    await expect(lobby.locator(".tournaments-part")).to_contain_text("No tournament yet.")
    clients = {name: await account(server.port, name) for name in NAMES[:3]}
    ann = clients["Ann"]
    terms = TournamentTerms("Spring league", "round_robin")
    tournament_id = await entered(ann, clients.values(), terms)
    await ann.send(StartTournament(tournament_id))
    # the lobby's list, asked again
    await lobby.locator("#tournaments-refresh").click()
    await lobby.locator(f"a[href='/tournament/{tournament_id}']").click()
    await expect(lobby.locator("dl.terms")).to_contain_text("Round-robin")
    headers = lobby.locator("table.standings thead th")
    await expect(headers).to_have_text(["#", "Player", "Points", "SB", "DE", "W"])
    await expect(lobby.locator(".round[data-round='1'] .pairing")).to_have_count(1)
    await expect(lobby.locator(".round[data-round='1'] .bye")).to_contain_text("Bye (a point):")
    for client in clients.values():
        await client.close()
    assert site.errors == []


async def test_the_director_removes_a_player_draws_the_round_and_ends_it_in_the_page(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await accounts_site(browser, make_server)
    clients, state = await started_tournament(server)
    tournament_id = state.summary.tournament_id
    page = await site.open("/")
    await log_in(page, "Ann", PASSWORD)
    await page.goto(f"http://127.0.0.1:{server.port}/tournament/{tournament_id}")
    await expect(page.locator("ul.entrants li")).to_have_count(4)
    # each player not withdrawn has a Remove; it asks first, and "No" takes it back
    await expect(page.locator("ul.entrants button.director")).to_have_count(4)
    await page.locator("#remove-Dan").click()
    confirm = page.locator("ul.entrants .confirm")
    await expect(confirm).to_contain_text("Really remove Dan?")
    await expect(confirm.locator(".yes")).to_be_focused()
    await shot(page, "director-confirm-en-1280")
    await confirm.locator(".no").click()
    await expect(confirm).to_have_count(0)
    await expect(page.locator("ul.entrants li").nth(3)).not_to_have_class("withdrawn")
    # Escape takes it back too; then Enter on the focused "Yes" removes him
    await page.locator("#remove-Dan").click()
    await page.keyboard.press("Escape")
    await expect(confirm).to_have_count(0)
    await page.locator("#remove-Dan").click()
    await expect(confirm.locator(".yes")).to_be_focused()
    await page.keyboard.press("Enter")
    dan = page.locator("ul.entrants li", has_text="Dan")
    await expect(dan).to_have_class("withdrawn")
    await expect(dan.locator("button")).to_have_count(0)
    # the round's games still played end as draws, and the next round is paired
    await page.locator("#draw-round").click()
    await expect(page.locator(".tournament-actions .confirm")).to_contain_text("Really end")
    await page.locator(".tournament-actions .confirm .yes").click()
    first = page.locator(".round[data-round='1'] .pairing .score")
    await expect(first).to_have_text(["½–½", "½–½"], timeout=10_000)
    await expect(page.locator(".round[data-round='2']")).to_have_count(1)
    await expect(page.locator(".round[data-round='2'] .bye")).to_have_count(1)
    # a guest sees no director's button
    guest = await site.open(f"/tournament/{tournament_id}")
    await expect(guest.locator("ul.entrants li")).to_have_count(4)
    await expect(guest.locator("ul.entrants button.director")).to_have_count(0)
    await expect(guest.locator("#end-tournament")).to_have_count(0)
    # the director's view on a phone in German: the longer words fit, nothing sideways
    german = await site.open("/", viewport=PHONE, locale="de")
    await log_in(german, "Ann", PASSWORD)
    await german.goto(f"http://127.0.0.1:{server.port}/tournament/{tournament_id}")
    await expect(german.locator("#end-tournament")).to_have_text("Turnier beenden")
    await german.locator("#remove-Bob").click()
    await expect(german.locator("ul.entrants .confirm")).to_contain_text("Bob wirklich entfernen?")
    assert await german.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await shot(german, "director-confirm-de-360")
    await german.locator("ul.entrants .confirm .no").click()
    # the director's view at a phone's width: nothing sideways
    await page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    await page.locator("#end-tournament").click()
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await shot(page, "director-end-confirm-en-360")
    await page.locator(".tournament-actions .confirm .yes").click()
    # ended: finished, the final standings kept, no director's button left
    await expect(page.locator("dl.terms")).to_contain_text("finished", timeout=10_000)
    await expect(page.locator("table.standings tbody tr")).to_have_count(4)
    await expect(page.locator(".round[data-round='2'] .pairing .score")).to_have_text("½–½")
    await expect(page.locator(".tournament-actions")).to_have_count(0)
    await expect(page.locator("ul.entrants button")).to_have_count(0)
    leader = page.locator("table.standings tbody tr").nth(0)
    await expect(leader.locator("td.points")).not_to_have_text("0")
    await shot(page, "director-finished-en-360")
    await page.set_viewport_size({"width": DESKTOP["width"], "height": DESKTOP["height"]})
    await shot(page, "director-finished-en-1280")
    # a new tournament with a start time: it waits for it
    await page.goto(f"http://127.0.0.1:{server.port}/")
    part = page.locator(".tournaments-part")
    await part.locator("details.new-tournament-fold summary").click()
    await part.locator("#tournament-name").fill("Sunday rapid")
    when = datetime.now() + timedelta(days=2)
    await part.locator("#tournament-start").fill(when.strftime("%Y-%m-%dT%H:%M"))
    await part.locator("#create-tournament").click()
    await page.wait_for_url("**/tournament/*")
    await expect(page.locator("dl.terms")).to_contain_text("starts at")
    new_id = page.url.rsplit("/", 1)[1]
    bob = clients["Bob"]
    await bob.send(GetTournaments())
    listed = await bob.expect(Tournaments)
    (made,) = [s for s in listed.tournaments if s.tournament_id == new_id]
    assert made.start is not None
    assert abs(made.start - when.replace(second=0, microsecond=0).timestamp()) < 1
    for client in clients.values():
        await client.close()
    assert site.errors == []
