"""A player's page, /player/NAME: the rating and its history drawn as a chart from the archive's
rating changes, the results against the computer at each level, the recent games with their
replays and the opponents' pages; every name in the lobby leads there; in German and Italian."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Browser, expect

from protocol.player_messages import Games, GetGames, LobbyChat, LobbyChatMessage
from server.net.app import KahunaServer
from server.net.web import WebPages
from tests.conftest import ServerFactory
from tests.web.conftest import PHONE, Pages, accounts_site
from tests.web.rated import account, computer_game, rated_game

pytestmark = pytest.mark.browser


async def club(browser: Browser, make_server: ServerFactory) -> tuple[KahunaServer, Pages, Games]:
    """A server with two accounts, Ann and Bob, after two rated games between them and one of
    Ann's against the easy computer; pages of it, and Ann's games as the server lists them."""
    server, site = await accounts_site(browser, make_server)
    ann = await account(server.port, "Ann")
    bob = await account(server.port, "Bob")
    await rated_game(ann, bob, seed=1)
    await rated_game(bob, ann, seed=2)
    await computer_game(ann, seed=3)
    await ann.send(LobbyChat("good games, Bob"))
    await ann.expect(LobbyChatMessage)
    await bob.send(GetGames("Ann"))
    return server, site, await bob.expect(Games)


async def test_a_players_page_shows_the_chart_results_and_games(
    browser: Browser, make_server: ServerFactory
) -> None:
    _server, site, games = await club(browser, make_server)
    page = await site.open("/player/Ann")
    await expect(page.locator(".player-head h1")).to_have_text("Ann")
    await expect(page.locator(".player-head .rating strong")).to_have_text(str(games.rating))
    # the chart: a point before the two rated games and one after each, ending at today's
    chart = page.locator("svg#rating-chart")
    await expect(chart.locator(".point")).to_have_count(3)
    rated = [g for g in games.games if g.rated]
    changes = [g.white_change if g.white == "Ann" else g.black_change for g in rated]
    assert games.rating is not None and all(c is not None for c in changes)
    start = games.rating - sum(c for c in changes if c is not None)
    await expect(chart.locator(".point.start title")).to_have_text(f"Before these games: {start}")
    label = await chart.get_attribute("aria-label")
    assert label == f"Rating from {start} to {games.rating} over 2 rated games"
    # the results: rated, and against the easy computer, as the server counts them
    rows = page.locator("table.results tbody tr")
    await expect(rows).to_have_count(2)
    wins, losses, draws = games.stats.computer["easy"]
    await expect(rows.nth(1).locator("td")).to_have_text([str(wins), str(losses), str(draws)])
    await expect(rows.nth(0).locator("td")).to_have_text([str(n) for n in games.stats.rated])
    # the games: each with its replay, the opponent's name a link to their page
    items = page.locator(".game-list .game")
    await expect(items).to_have_count(3)
    for game in games.games:
        item = page.locator(f".game-list [data-table='{game.table_id}']")
        await expect(item.locator("a.replay")).to_have_attribute("href", f"/game/{game.table_id}")
    await page.evaluate("window.stayed = true")  # gone if the page loaded again
    await page.locator(".game-list a.opponent").first.click()
    await page.wait_for_url("**/player/Bob")
    await expect(page.locator(".player-head h1")).to_have_text("Bob")
    assert await page.evaluate("window.stayed") is True
    # on a phone: no sideways scroll, the chart as wide as the screen allows
    phone = await site.open("/player/Ann", viewport=PHONE)
    await expect(phone.locator("svg#rating-chart")).to_be_visible()
    assert await phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert site.errors == []


async def test_every_name_in_the_lobby_leads_to_the_players_page(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site, _ = await club(browser, make_server)
    page = await site.open("/")
    for where in (".ratings", ".lobby-chat .lines"):
        await expect(page.locator(f"{where} a[href='/player/Ann']").first).to_be_visible()
    # the finished tables, folded under their heading: the players' names there too
    await page.locator(".tables details.over summary").click()
    await expect(page.locator(".tables .over a[href='/player/Ann']").first).to_be_visible()
    await page.locator(".ratings a[href='/player/Bob']").click()
    await page.wait_for_url("**/player/Bob")
    await expect(page.locator(".player-head h1")).to_have_text("Bob")
    await page.go_back()
    await expect(page.locator(".lobby .tables")).to_be_visible()
    # a name nobody has
    await page.goto(f"http://127.0.0.1:{server.port}/player/Nobody")
    await expect(page.locator(".player-page")).to_contain_text("No player has this name.")
    assert site.errors == []


async def test_the_lobby_and_a_players_page_in_german_and_italian(
    browser: Browser, make_server: ServerFactory
) -> None:
    """No English sentence of the lobby's or the player page's own left in German or Italian:
    every word they say is looked up, and translated."""
    server, site, _ = await club(browser, make_server)
    english = {
        "Kahuna, a game of islands and bridges",
        "Play the computer now",
        "Learn the game",
        "Open tables",
        "Finished games",
        "Players and ratings",
        "Refresh",
        "Log in to chat.",
        "More options",
        "Rating history",
        "Recent games",
        "Results",
        "Replay",
        "Rated games",
    }
    for language in ("de", "it"):
        found = WebPages().find(f"/words/{language}.json")
        assert found is not None
        words = json.loads(found.body)
        assert all(words.get(key) and words[key] != key for key in english), language
        page = await site.open("/", locale=language)
        await expect(page.locator(".welcome h1")).to_have_text(
            words["Kahuna, a game of islands and bridges"]
        )
        await expect(page.locator("#play-computer")).to_have_text(words["Play the computer now"])
        lobby = await page.locator("main").inner_text()
        await page.goto(f"http://127.0.0.1:{server.port}/player/Ann")
        await expect(page.locator("svg#rating-chart")).to_be_visible()
        player = await page.locator("main").inner_text()
        for text in (lobby, player):
            left = [key for key in english if key in text]
            assert left == [], (language, left)
    assert site.errors == []
