"""The page itself: names and chat stay text, the phone's width shows the whole board, the
three languages, the keyboard, and the seat token kept in the tab's session storage only."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect

from protocol.messages import Chat, ChatMessage, Leave
from server.net.app import KahunaServer
from tests.conftest import Client, create_table
from tests.web.conftest import PHONE, Pages

pytestmark = pytest.mark.browser

MARKUP = "<img src=x onerror=alert(1)>"


async def test_a_name_and_a_chat_of_markup_stay_text(
    pages: Pages, web_server: KahunaServer
) -> None:
    player = await Client.connect(web_server.port, MARKUP)
    joined, _ = await create_table(player, vs_computer=True)
    table_id = joined.table_id
    lobby = await pages.open("/")
    await lobby.wait_for_selector(f"[data-table='{table_id}']")
    row = await lobby.text_content(f"[data-table='{table_id}'] .who")
    assert row is not None and MARKUP in row
    page = await pages.open(f"/table/{table_id}")
    await page.wait_for_selector("svg.board")
    await player.send(Chat(table_id, "<script>alert(2)</script><b>bold</b>"))
    await player.expect(ChatMessage)
    await page.wait_for_selector(".chat .text")
    assert await page.text_content(".chat .sender") == MARKUP
    assert await page.text_content(".chat .text") == "<script>alert(2)</script><b>bold</b>"
    white = await page.text_content(".player.white .pname")
    assert white is not None and MARKUP in white
    for shown in (lobby, page):
        assert await shown.locator("main img, main script, .chat .text b").count() == 0
    # (and no dialog opened: the pages fixture fails the test on one)
    await player.close()


async def test_the_phone_shows_the_whole_board(pages: Pages, tmp_path: Path) -> None:
    page = await pages.open("/", viewport=PHONE)
    await page.click("#create")
    await page.wait_for_selector("svg.board")
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways
    await page.wait_for_function("() => kahuna.tables.size > 0")
    # measured in one go: the page redraws the board with every message
    board, islands = await page.evaluate(
        """() => {
          const box = (e) => { const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height }; };
          return [box(document.querySelector("svg.board")),
                  [...document.querySelectorAll(".island .land")].map(box)];
        }"""
    )
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    assert board["width"] >= 0.9 * PHONE["width"]  # the board takes the width: no small print
    assert len(islands) == 12
    for box in islands:
        assert box["x"] >= board["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
        assert box["y"] >= board["y"] and box["y"] + box["height"] <= board["y"] + board["height"]
        assert box["width"] >= 30  # an island is big enough to read and to tap beside
    assert await page.locator(".island").count() == 12
    assert await page.locator(".line").count() == 27
    await page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


async def test_the_language_follows_the_browser_and_the_switch(pages: Pages) -> None:
    page = await pages.open("/", locale="de-DE")
    await page.wait_for_selector("#create")
    assert await page.text_content("form.create h2") == "Neuer Tisch"
    assert await page.evaluate("() => document.documentElement.lang") == "de"
    await page.select_option("#language", "it")
    await page.wait_for_function("() => document.documentElement.lang === 'it'")
    heading = await page.text_content("form.create h2")
    assert heading is not None and heading != "Neuer Tisch" and heading != "New table"
    await page.click("#create")
    await page.wait_for_selector("svg.board")
    assert await page.text_content(".player.white .seat") == "Bianco"
    await page.select_option("#language", "en")
    await page.wait_for_function(
        "() => document.querySelector('.player.white .seat').textContent === 'White'"
    )


async def test_a_turn_played_by_keyboard_alone(pages: Pages) -> None:
    page = await pages.open("/")
    await page.focus("#create")
    await page.keyboard.press("Enter")
    await page.wait_for_selector(".line.active")
    table_id = page.url.rsplit("/", 1)[1]
    labels = await page.locator(".line.active").evaluate_all(
        "(lines) => lines.map((l) => [l.getAttribute('tabindex'), l.getAttribute('aria-label')])"
    )
    assert labels and all(tab == "0" and ": " in label for tab, label in labels)
    island = await page.locator(".island").first.get_attribute("aria-label")
    assert island is not None and island.startswith("ALOA: needs 2 of 3 lines")
    version = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
    # Tab to a line, Enter: a bridge or the choices for it (then Enter on the first)
    await page.locator(".line.active").first.focus()
    await page.keyboard.press("Enter")
    if await page.locator("#choices button").count():
        await page.keyboard.press("Enter")  # the first choice has the focus
    await page.wait_for_function(
        "([id, v]) => kahuna.tables.get(id).version > v", arg=[table_id, version]
    )
    log = await page.locator(".log li").all_text_contents()
    assert log and log[0].startswith("White")


async def test_the_seat_token_stays_in_the_tab(pages: Pages) -> None:
    page = await pages.open("/")
    await page.click("#create")
    await page.wait_for_selector("svg.board")
    table_id = page.url.rsplit("/", 1)[1]
    kept = await page.evaluate(
        "(id) => JSON.parse(sessionStorage.getItem('kahuna.seat.' + id))", table_id
    )
    assert kept["seat"] == "white" and len(kept["token"]) >= 32
    assert kept["token"] not in page.url
    stored = await page.evaluate("() => JSON.stringify({...localStorage})")
    assert kept["token"] not in stored
    # a reload takes the seat back with it
    await page.reload()
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.role === 'white' && t.view; }",
        arg=table_id,
    )


async def test_a_table_for_a_person_joined_from_another_browser(pages: Pages) -> None:
    host = await pages.open("/")
    await host.uncheck("#vs-computer")
    await host.click("#create")
    await host.wait_for_url("**/table/*")
    table_id = host.url.rsplit("/", 1)[1]
    await host.wait_for_selector("#turn:has-text('Waiting for an opponent')")
    guest = await pages.open("/")
    await guest.click(f"[data-table='{table_id}'] .join")
    await guest.wait_for_url(f"**/table/{table_id}")
    await guest.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.role === 'black' && t.view; }",
        arg=table_id,
    )
    # the host sees the game start, and it is White's turn: theirs
    await host.wait_for_selector("#turn:has-text('Your turn')")
    await host.wait_for_selector(".line.active")
    await guest.wait_for_selector("#turn:has-text('White to move')")
    # the chat goes both ways, as text; its field says what it is for
    await expect(guest.locator("#chat-input")).to_have_attribute(
        "placeholder", "Say something to the table"
    )
    await guest.fill("#chat-input", "hello <b>there</b>")
    await guest.press("#chat-input", "Enter")
    await host.wait_for_selector(".chat .text:has-text('hello <b>there</b>')")
    # a draw offered in one browser, accepted in the other
    await host.click("#offer-draw")
    await guest.wait_for_selector("#offer-draw:has-text('Accept the draw')")
    await guest.click("#offer-draw")
    for page in (host, guest):
        await page.wait_for_selector("#turn:has-text('Game over: a draw')")


async def test_what_is_typed_in_the_lobby_survives_its_redrawing(
    pages: Pages, web_server: KahunaServer
) -> None:
    page = await pages.open("/")
    await page.wait_for_selector("#create")
    await page.select_option("#level", "strong")
    await page.uncheck("#vs-computer")
    await page.fill("#name-input", "")
    await page.type("#name-input", "Half a na")
    # a table made elsewhere redraws the lobby under the half-typed name
    other = await Client.connect(web_server.port, "Other")
    joined, _ = await create_table(other)
    await page.wait_for_selector(f"[data-table='{joined.table_id}']")
    assert await page.input_value("#level") == "strong"
    assert not await page.is_checked("#vs-computer")
    assert await page.input_value("#name-input") == "Half a na"
    assert await page.evaluate("document.activeElement.id") == "name-input"
    # the typing goes on where it was
    await page.keyboard.type("me")
    assert await page.input_value("#name-input") == "Half a name"


async def test_closings_and_refusals_said_from_their_codes(
    pages: Pages, web_server: KahunaServer
) -> None:
    """The page says why a table closed and why the server refused, from their codes in the
    page's language, as the terminal client does (web/errors.mjs, web/code-words.mjs)."""
    player = await Client.connect(web_server.port, "Ann")
    joined, _ = await create_table(player)
    page = await pages.open(f"/table/{joined.table_id}")
    await page.wait_for_selector("svg.board")
    await page.select_option("#language", "de")
    await expect(page.locator("html")).to_have_attribute("lang", "de")  # the catalogue is in
    german = await page.evaluate("import('/assets/words.mjs').then((w) => w._('nobody is seated'))")
    assert german != "nobody is seated"
    await player.send(Leave(joined.table_id))
    closed = f"Tisch {joined.table_id} geschlossen: {german}."
    await expect(page.locator(".notice")).to_have_text(closed, timeout=5000)
    said = await page.evaluate(
        """import('/assets/errors.mjs').then((e) => [
            e.errorWords({ code: 'not_your_turn', message: 'it is not your turn' }),
            e.errorWords({ code: 'illegal_action', message: 'you have no ALOA card',
                           reason: 'no_such_card', params: { card: 'ALOA' } }),
            e.errorWords({ code: 'illegal_action', message: 'a reason from the future',
                           reason: 'from_the_future', params: {} }),
            e.errorWords({ code: 'login_throttled', message: 'too many failed logins: 30 s',
                           params: { seconds: '30' } }),
            e.errorWords({ code: 'login_throttled', message: 'too many failed logins: 30 s' }),
        ])"""
    )
    template = "too many failed logins: try again in {seconds} s"
    throttled = await page.evaluate(
        "(key) => import('/assets/words.mjs').then((w) => w._(key))", template
    )
    assert "{seconds}" in throttled and "too many" not in throttled  # the German template
    assert said == [
        "du bist nicht am Zug",
        "du hast keine ALOA-Karte",
        "a reason from the future",
        throttled.replace("{seconds}", "30"),
        "too many failed logins: 30 s",  # its parameter missing: the server's English
    ]
    assert pages.errors == []
