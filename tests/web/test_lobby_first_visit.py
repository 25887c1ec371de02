"""A stranger's first visit to the lobby: what Kahuna is, a game against the computer in one
click (a tap on a phone, and a whole turn played by taps there), the lessons' link, one name
field, the open tables, and the guest's name kept across a reload and a second tab."""

from __future__ import annotations

import random
import time

import pytest
from playwright.async_api import Browser, Page, expect
from playwright.async_api import Error as PlaywrightError

from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory, create_table
from tests.web.conftest import PHONE, Pages
from tests.web.play import ACTIVE_LINES, table_state, wait_version

pytestmark = pytest.mark.browser


async def test_a_new_visitor_plays_the_computer_in_one_click(
    pages: Pages, web_server: KahunaServer
) -> None:
    host = await Client.connect(web_server.port, "Carla")
    waiting, _ = await create_table(host)
    page = await pages.open("/")
    welcome = page.locator(".welcome")
    await expect(welcome.locator("h1")).to_have_text("Kahuna, a game of islands and bridges")
    about = await welcome.locator(".about").text_content()
    assert about is not None and about.startswith("Kahuna is a card game for two")
    assert about.count(". ") + about.endswith(".") == 2  # two sentences
    await expect(page.locator("#learn-link")).to_have_attribute("href", "/learn")
    # the open table is offered at once, with its Join
    row = page.locator(f".tables .group.open [data-table='{waiting.table_id}']")
    await expect(row.locator(".join")).to_be_visible()
    await expect(row.locator(".who")).to_have_text("Carla – (empty seat)")
    # one name field, even where the server keeps no accounts
    await expect(page.locator("main input[name=name]")).to_have_count(1)
    # one click: a table against the computer, the visitor seated as White
    await page.click("#play-computer")
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.role === 'white' && t.view; }",
        arg=table_id,
    )
    table = web_server.core.lobby.tables[table_id]
    assert table.vs_computer and table.level == "easy" and not table.rated
    assert pages.errors == []


async def tap_a_step(page: Page, rng: random.Random) -> None:
    """One thing offered to the player to move, by a tap: a face-up card or the pile, a line
    (and a choice, if one is asked), a card of the hand and its choice, or end and abstain."""
    ends = await page.query_selector_all(".faceup:enabled, #draw:enabled")
    lines = await page.evaluate(ACTIVE_LINES)
    cards = await page.query_selector_all(".hand .card:enabled")
    if ends and (rng.random() < 0.6 or not (lines or cards)):
        await rng.choice(ends).tap(timeout=2000)
    elif lines and rng.random() < 0.85:
        line = rng.choice(lines)
        await page.touchscreen.tap(line["x"], line["y"])
    elif cards:
        await rng.choice(cards).tap(timeout=2000)
    else:
        for selector in ("#end:enabled", "#abstain:enabled"):
            found = await page.query_selector(selector)
            if found is not None:
                await found.tap(timeout=2000)
                return
        raise AssertionError("the page offers nothing to the player to move")
    choices = await page.query_selector_all("#choices button:not(#cancel-line)")
    if choices:
        await rng.choice(choices).tap(timeout=2000)


async def test_on_a_phone_one_tap_and_a_turn_by_taps(pages: Pages) -> None:
    page = await pages.open("/", viewport=PHONE, has_touch=True, is_mobile=True)
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # the lobby has no sideways scroll
    box = await page.locator("#play-computer").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # in the first screen
    assert box["height"] >= 44
    await page.tap("#play-computer")
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector("svg.board")
    # a whole turn by taps, and the computer's answer: White to move again
    rng = random.Random(5)
    answered = "(id) => kahuna.tables.get(id).log.some((line) => line.startsWith('Black'))"
    started = time.monotonic()
    while time.monotonic() - started < 30:
        state = await table_state(page, table_id)
        assert state is not None and state["role"] == "white"
        if await page.evaluate(answered, table_id):
            break
        if state["toMove"] != "white" or state["pending"] or state["status"] != "playing":
            await wait_version(page, table_id, state["version"])
            continue
        try:
            await tap_a_step(page, rng)
        except PlaywrightError:
            continue  # the page redrew what was about to be tapped (a message came): look again
    else:
        raise AssertionError("no whole turn by taps within 30 s")
    log = await page.locator(".log li").all_text_contents()
    assert any(line.startswith("White") for line in log)
    assert pages.errors == []


async def test_the_guest_name_is_kept_across_a_reload_and_tabs(pages: Pages) -> None:
    page = await pages.open("/")
    guest = await guest_of(page)
    stored = await page.evaluate("localStorage.getItem('kahuna.name')")
    assert stored == guest
    await page.reload()
    await expect(page.locator("#me")).to_have_text(guest)
    await expect(page.locator("#name-input")).to_have_value(guest)
    # a second tab of the same browser is the same guest
    second = await page.context.new_page()
    await second.goto(page.url)
    await expect(second.locator("#me")).to_have_text(guest)
    await second.close()
    # seated, then reloaded: the header and the seat say the same name
    await page.click("#play-computer")
    await page.wait_for_url("**/table/*")
    await expect(page.locator(".player.white .pname")).to_contain_text(guest)
    await page.reload()
    await expect(page.locator(".player.white .pname")).to_contain_text(f"{guest} ")
    await expect(page.locator("#me")).to_have_text(guest)


async def guest_of(page: Page) -> str:
    await page.wait_for_function(
        "() => /^Guest \\d{4}$/.test(document.getElementById('me').textContent)"
    )
    name = await page.text_content("#me")
    assert name is not None
    return name


async def test_a_failed_attempts_notice_goes_with_the_next_success(
    browser: Browser, make_server: ServerFactory
) -> None:
    server = await make_server(web=True, password_cost="test")
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await page.goto(f"http://127.0.0.1:{server.port}/")
    form = page.locator("form.login")
    await form.locator("input[name=name]").fill("Newcomer")
    await form.locator("input[name=password]").fill("short")
    await form.locator("button[value=register]").click()
    notice = page.locator(".notice")
    await expect(notice).to_have_text("the password is too short (8 characters at least)")
    await form.locator("input[name=password]").fill("a long enough password")
    await form.locator("button[value=register]").click()
    await expect(page.get_by_text("Logged in as Newcomer (1500)")).to_be_visible(timeout=10_000)
    await expect(notice).to_have_count(0)
    await page.close()
