"""A replay as a stranger meets it from a shared link: /game/ID opened alone in a fresh browser,
the game's table long closed, no games list before it. The players come from version 4's
`record.game`: each account's name a link to its page, how each rating moved in a rated game
(in German too), the result; a guest's name said, not linked, there and in the player's list of
games. At 360 and 1280 px, without sideways scrolling (screenshots in KAHUNA_SHOTS)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from protocol.fields import TableOptions
from protocol.messages import CreateTable, Join, Joined, Resign, State, Update
from protocol.player_messages import GameEntry, Games, GetGames
from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory
from tests.web.conftest import DESKTOP, PHONE, Pages
from tests.web.rated import account, rated_game

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("KAHUNA_SHOTS", "/tmp/shots-recordplayers"))


async def closed_site(browser: Browser, make_server: ServerFactory) -> tuple[KahunaServer, Pages]:
    """A server whose finished tables close as soon as their players have gone."""
    server = await make_server(web=True, password_cost="test", over_grace=0.1, sweep_interval=0.05)
    return server, Pages(browser, server.port)


async def closed(server: KahunaServer, table_id: str) -> None:
    for _ in range(200):  # bounded: the sweep closes it within a few of its intervals
        if table_id not in server.lobby.tables:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"table {table_id} stayed open")


async def entry_of(client: Client, name: str, table_id: str) -> GameEntry:
    """The game as the player's games list gives it (what the page should say of it)."""
    await client.send(GetGames(name))
    games = await client.expect(Games)
    (entry,) = [game for game in games.games if game.table_id == table_id]
    return entry


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


async def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


async def test_a_shared_link_to_a_closed_rated_game_names_and_links_its_players(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await closed_site(browser, make_server)
    ann, cid = await account(server.port, "Ann"), await account(server.port, "Cid")
    table_id = await rated_game(ann, cid, seed=7)
    game = await entry_of(ann, "Ann", table_id)
    assert game.rated and game.white_change is not None and game.black_change is not None
    await ann.close()
    await cid.close()
    await closed(server, table_id)
    winner = {"white": "White wins", "black": "Black wins", None: "a draw"}[game.winner]
    for viewport in (PHONE, DESKTOP):
        # a fresh browser: nothing known but the address
        page = await site.open(f"/game/{table_id}", viewport=viewport)
        players = page.locator(".replay-players")
        await expect(players.locator("a[href='/player/Ann']")).to_have_text("Ann", timeout=10_000)
        await expect(players.locator("a[href='/player/Cid']")).to_have_text("Cid")
        await expect(players.locator("li.white")).to_have_text(
            f"White: Ann (rating {signed(game.white_change)})"
        )
        await expect(players.locator("li.black")).to_have_text(
            f"Black: Cid (rating {signed(game.black_change)})"
        )
        await expect(page.locator(".replay-result")).to_contain_text(f"Game over: {winner}")
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], viewport
        # the page's links in the page's colour, not the browser's default blue
        links = await page.evaluate(
            """() => {
                const probe = document.createElement("span");
                probe.style.color = "var(--sea-deep)";
                document.body.append(probe);
                const want = getComputedStyle(probe).color;
                probe.remove();
                const links = [...document.querySelectorAll(".replay a")];
                return { want, colours: links.map((a) => getComputedStyle(a).color) };
            }"""
        )
        assert len(links["colours"]) >= 3 and set(links["colours"]) == {links["want"]}, links
        await shot(page, f"shared-rated-{viewport['width']}")
    # in German, the change's words too
    german = await site.open(f"/game/{table_id}", locale="de")
    await expect(german.locator(".replay-players li.black")).to_have_text(
        f"Schwarz: Cid (Wertung {signed(game.black_change)})", timeout=10_000
    )
    # a name leads to the player's page without a reload
    await german.evaluate("window.stayed = true")
    await german.locator(".replay-players a[href='/player/Cid']").click()
    await german.wait_for_url("**/player/Cid")
    assert await german.evaluate("window.stayed") is True
    assert site.errors == []


async def test_a_guests_name_is_said_not_linked(
    browser: Browser, make_server: ServerFactory
) -> None:
    server, site = await closed_site(browser, make_server)
    ann = await account(server.port, "Ann")
    dot = await Client.connect(server.port, "Dot")  # a guest: no account, no page
    await ann.send(CreateTable(TableOptions(), False, "white", "white", rated=True))
    table_id = (await ann.expect(Joined)).table_id
    await dot.send(Join(table_id, None))
    await dot.expect(Joined)
    await dot.expect(State)
    await dot.send(Resign(table_id))
    await dot.expect(Update)  # the game over
    await ann.close()
    await dot.close()
    await closed(server, table_id)
    page = await site.open(f"/game/{table_id}", viewport=PHONE)
    players = page.locator(".replay-players")
    await expect(players.locator("li.black")).to_have_text("Black: Dot", timeout=10_000)
    await expect(players.locator("li.white")).to_have_text("White: Ann")  # unrated: no change
    assert await players.locator("a").count() == 1
    await expect(players.locator("a")).to_have_attribute("href", "/player/Ann")
    await expect(page.locator(".replay-result")).to_contain_text("Game over: White wins")
    await shot(page, "shared-guest-360")
    # Ann's list of games says the guest's name, not linked, either
    listing = await site.open("/player/Ann")
    row = listing.locator(f".game-list [data-table='{table_id}']")
    await expect(row.locator(".against")).to_have_text("Dot", timeout=10_000)
    assert await row.locator(".against a").count() == 0
    assert site.errors == []
