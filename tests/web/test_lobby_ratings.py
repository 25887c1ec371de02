"""A rated game's end, seen from the lobby: the account's rating beside its name, the ratings
list and a player's page open elsewhere all follow it, without a reload."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Browser, expect

from protocol.player_messages import Games, GetGames, Login
from server.core import timers
from server.core.timers import LOBBY_COALESCE
from tests.conftest import Client, ServerFactory
from tests.web.conftest import accounts_site
from tests.web.login_form import register
from tests.web.rated import PASSWORD, account, rated_game

pytestmark = pytest.mark.browser


# The lobby's listings are coalesced (server/core/timers.py): with the usual window the listings
# show the game playing, then over; with a long one, the whole game fits in one window and the
# first listing that shows the table shows it over, the new ratings already beside the names, so
# a page must not wait to see an old rating change (CI once failed so on a busy machine).
@pytest.mark.parametrize("window", [LOBBY_COALESCE, 2.0], ids=["listed-playing", "one-listing"])
async def test_a_rated_games_end_moves_the_rating_shown(
    browser: Browser, make_server: ServerFactory, monkeypatch: pytest.MonkeyPatch, window: float
) -> None:
    monkeypatch.setattr(timers, "LOBBY_COALESCE", window)
    server, site = await accounts_site(browser, make_server)
    bobby = await site.open("/")
    await register(bobby, "Bobby", PASSWORD)
    await expect(bobby.locator(".account .logged-in")).to_have_text("Logged in as Bobby (1500)")
    await expect(bobby.locator(".players-part")).to_contain_text("No rated player yet.")
    # a visitor has Bobby's page open: no games yet
    visitor = await site.open("/player/Bobby")
    await expect(visitor.locator(".player-page .empty")).to_have_text("No games yet.")
    # Bobby plays a rated game against Ann on another machine of his
    elsewhere = await Client.connect(server.port, "Bobby's phone")
    await elsewhere.send(Login("Bobby", PASSWORD))
    ann = await account(server.port, "Ann")
    table_id = await rated_game(elsewhere, ann, seed=2)
    # the game's end reaches Ann with its last update; the rating may be set a moment after
    # (on a busy machine CI once asked before): asked until it moved, a bounded number of times
    for _ in range(50):
        await ann.send(GetGames("Bobby"))
        rating = (await ann.expect(Games)).rating
        if rating is not None and rating != 1500:
            break
        await asyncio.sleep(0.1)
    assert rating is not None and rating != 1500
    # the lobby says the new rating beside his name, and in the ratings list
    await expect(bobby.locator(".account .logged-in")).to_have_text(
        f"Logged in as Bobby ({rating})", timeout=5000
    )
    row = bobby.locator(".ratings tr", has=bobby.locator("a", has_text="Bobby"))
    await expect(row.locator("td.num").first).to_have_text(str(rating), timeout=5000)
    # the open page follows: the new rating, and the game with its change
    await expect(visitor.locator(".player-head .rating strong")).to_have_text(
        str(rating), timeout=5000
    )
    game = visitor.locator(f".game-list [data-table='{table_id}']")
    await expect(game.locator(".change")).to_have_text(
        f"+{rating - 1500}" if rating > 1500 else f"−{1500 - rating}"
    )
    await expect(visitor.locator("#rating-chart .point")).to_have_count(2)
    assert site.errors == []
