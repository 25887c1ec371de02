"""Accounts in the page, against the real server's: register, the rating shown, the leaderboard,
the lobby chat between two browsers; the login token in the tab's session storage only, and no
password or hash in what the page received."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Browser, Page, expect

from server.net.web import WebPages
from tests.conftest import ServerFactory
from tests.web.conftest import Pages, accounts_site
from tests.web.login_form import register

pytestmark = pytest.mark.browser


async def challenge(page: Page, name: str, days: str | None = None) -> None:
    """Fill the lobby's challenge form with `name` (and a game of `days`) and send it."""
    form = page.locator("form.challenge")
    await form.locator("input[name=name]").fill(name)
    if days is not None:
        await form.locator("select[name=days]").select_option(days)
    await form.locator("button[type=submit]").click()


async def ann_and_bob(browser: Browser, make_server: ServerFactory) -> tuple[Pages, Page, Page]:
    """A server that keeps accounts, and two browsers registered on it as Ann and Bob."""
    _server, pages = await accounts_site(browser, make_server)
    ann = await pages.open("/")
    bob = await pages.open("/")
    await register(ann, "Ann", "ann's long password")
    await register(bob, "Bob", "bob's long password")
    return pages, ann, bob


async def test_register_ratings_and_the_lobby_chat(
    browser: Browser, make_server: ServerFactory
) -> None:
    pages, ann, bob = await ann_and_bob(browser, make_server)
    stored = await ann.evaluate("JSON.parse(sessionStorage.getItem('kahuna.login'))")
    assert stored["name"] == "Ann" and stored["token"]
    # the local storage keeps only the browser's guest name, no login
    assert await ann.evaluate("Object.keys(localStorage)") == ["kahuna.name"]
    assert stored["token"] not in await ann.evaluate("JSON.stringify({...localStorage})")
    assert stored["token"] not in ann.url
    say = ann.locator("form.say input[name=text]")
    await say.fill("hello <b>club</b>")
    await say.press("Enter")
    await expect(bob.locator(".lines li").last).to_have_text("Ann: hello <b>club</b>", timeout=5000)
    # the leaderboard is part of the lobby (test_lobby_ratings.py: with a rated game in it)
    await ann.locator("#ratings").click()
    await expect(ann.locator(".players-part")).to_contain_text("No rated player yet.")
    received = b"".join(pages.frames[bob])
    for secret in (b"ann's long password", b"argon2", stored["token"].encode()):
        assert secret not in received
    # a reload logs in again with the kept token
    await ann.reload()
    await expect(ann.get_by_text("Ann (1500)").first).to_be_visible(timeout=10_000)
    assert pages.errors == []


async def test_challenges_between_two_browsers(
    browser: Browser, make_server: ServerFactory
) -> None:
    pages, ann, bob = await ann_and_bob(browser, make_server)
    # refusals in words from their codes, in the page's language
    await challenge(bob, "Bob")
    await expect(bob.locator(".notice")).to_have_text("you cannot challenge yourself")
    await bob.select_option("#language", "de")
    await challenge(bob, "Nobody")
    found = WebPages().find("/words/de.json")
    assert found is not None
    german = json.loads(found.body)["no player has that name"]
    assert german != "no player has that name"
    await expect(bob.locator(".notice")).to_have_text(german)
    await bob.select_option("#language", "en")
    # Bob challenges Ann to a game of days; she declines, and he is told
    await challenge(bob, "Ann", days="3")
    row = ann.locator(".challenges li")
    await expect(row).to_contain_text("Bob → Ann · 3d a move, rated", timeout=5000)
    await expect(bob.locator(".challenges li .withdraw")).to_be_visible()
    await row.locator(".decline").click()
    await expect(bob.locator(".notice")).to_have_text("Ann declined your challenge.", timeout=5000)
    await expect(bob.locator(".challenges li")).to_have_count(0)
    # Ann challenges Bob, live; he accepts: both sit at the new table, Ann without a click
    await challenge(ann, "Bob")
    await expect(bob.locator(".notice")).to_have_text("Ann challenges you.", timeout=5000)
    await bob.locator(".challenges li .accept").click()
    await bob.wait_for_url("**/table/*", timeout=5000)
    await ann.wait_for_url(bob.url, timeout=5000)
    table_id = bob.url.rsplit("/", 1)[1]
    key = f"kahuna.seat.{table_id}"
    seats = [
        await page.evaluate(f"JSON.parse(sessionStorage.getItem('{key}')).seat")
        for page in (ann, bob)
    ]
    assert seats == ["white", "black"]
    # the tab's title says whose move it is, for a tab in the background
    await expect(ann).to_have_title(f"(Your turn) Kahuna · table {table_id}")
    await expect(bob).to_have_title(f"Kahuna · table {table_id}")
    assert pages.errors == []


async def test_a_player_from_the_chat_ignored_challenged_and_a_new_password(
    browser: Browser, make_server: ServerFactory
) -> None:
    pages, ann, bob = await ann_and_bob(browser, make_server)
    say = ann.locator("form.say input[name=text]")
    await say.fill("anyone for a game?")
    await say.press("Enter")
    # Bob opens Ann's games from her name in the chat, and ignores her there
    await bob.locator(".lines li .sender", has_text="Ann").click()
    await expect(bob.locator(".games .empty")).to_have_text("No games yet.")
    actions = bob.locator(".games .player-actions")
    await actions.get_by_role("button", name="Ignore Ann").click()
    await expect(bob.locator(".notice")).to_have_text("You ignore: Ann.", timeout=5000)
    await challenge(ann, "Bob")
    await expect(ann.locator(".notice")).to_have_text("that player does not take your challenges")
    await actions.get_by_role("button", name="Stop ignoring Ann").click()
    await expect(bob.locator(".notice")).to_have_text("You ignore nobody.", timeout=5000)
    # "Challenge Ann" fills the challenge form, which a redrawing of the lobby keeps
    await actions.get_by_role("button", name="Challenge Ann").click()
    name = bob.locator("form.challenge input[name=name]")
    await expect(name).to_have_value("Ann")
    await expect(name).to_be_focused()
    await say.fill("a redrawing")
    await say.press("Enter")
    await expect(bob.locator(".lines li").last).to_contain_text("a redrawing", timeout=5000)
    await expect(name).to_have_value("Ann")
    await bob.locator("form.challenge button[type=submit]").click()
    await expect(ann.locator(".challenges li")).to_contain_text("Bob → Ann", timeout=5000)
    # a new password: the wrong old one is refused; then the tab keeps the new token
    old_token = await bob.evaluate("JSON.parse(sessionStorage.getItem('kahuna.login')).token")
    await bob.locator("#change-password").click()
    await bob.locator("form.password .cancel").click()  # Cancel gives the button back at once
    await bob.locator("#change-password").click()
    change = bob.locator("form.password")
    await change.locator("input[name=old]").fill("not bob's password")
    await change.locator("input[name=new]").fill("bob's newer password")
    await change.locator("button[type=submit]").click()
    await expect(bob.locator(".notice")).to_have_text("the old password is wrong", timeout=5000)
    await change.locator("input[name=old]").fill("bob's long password")
    await change.locator("button[type=submit]").click()
    await expect(bob.locator(".notice")).to_have_text(
        "Your password is changed; your other machines must log in again.", timeout=5000
    )
    await expect(bob.locator("form.password")).to_have_count(0)
    token = await bob.evaluate("JSON.parse(sessionStorage.getItem('kahuna.login')).token")
    assert token and token != old_token
    await bob.reload()
    await expect(bob.get_by_text("Bob (1500)").first).to_be_visible(timeout=10_000)
    received = b"".join(pages.frames[ann]) + b"".join(pages.frames[bob])
    for secret in (b"bob's newer password", b"bob's long password"):
        assert secret not in received
    assert pages.errors == []
