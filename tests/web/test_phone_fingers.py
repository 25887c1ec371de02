"""Every page on a phone (360x740) fits a finger as the table and the lessons do: the header's
home link and language menu on one row and 44 CSS px high (WCAG 2.5.5), and the lobby's
fields, buttons and checkboxes' labels, for a guest and for an account, its new tournament's
form open, a player's page and a tournament's page with their way back. A link in a sentence
(a name among words) is exempt, as WCAG exempts it; so are the replay's dense list of moves
and a link-looking button, which keep their own sizes."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page, expect

from tests.conftest import ServerFactory
from tests.web.conftest import PHONE, accounts_site
from tests.web.login_form import register

pytestmark = pytest.mark.browser

# Every control of the page but those exempt (above), with its box in CSS px: a checkbox by its
# label, which is what a finger taps.
TARGETS = """
() => [...document.querySelectorAll([
    "header.top a", "header.top select",
    "#main button:not(.link, .flag, .move)", "#main select", "#main summary",
    "#main input:not([type=checkbox], [type=radio])",
    "#main label:has(> input[type=checkbox])",
    "#main a.back", "#my-games", "#main .tournament-list a",
  ].join(", "))]
  .filter((e) => e.getClientRects().length && e.checkVisibility())
  .map((e) => { const r = e.getBoundingClientRect();
    return { what: e.id || e.textContent.trim().slice(0, 24) || e.getAttribute("name"),
             width: Math.round(r.width), height: Math.round(r.height) }; })
"""

HEADER = """
() => { const top = (s) => document.querySelector(s).getBoundingClientRect().top;
  return { home: top("header.top .home"), language: top("#language"),
           scroll: document.documentElement.scrollWidth }; }
"""


async def too_small(page: Page) -> list[dict[str, object]]:
    found: list[dict[str, object]] = await page.evaluate(TARGETS)
    assert found, "the page has controls to measure"
    return [t for t in found if int(str(t["height"])) < 44]


async def on_one_row(page: Page) -> None:
    header = await page.evaluate(HEADER)
    assert abs(header["home"] - header["language"]) <= 2  # the menu beside the home link
    assert header["scroll"] <= PHONE["width"]


async def test_every_page_fits_a_finger_on_a_phone(
    browser: Browser, make_server: ServerFactory
) -> None:
    _server, site = await accounts_site(browser, make_server)
    phone = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
    page = await site.open("/", **phone)
    await expect(page.locator("#name-input")).to_be_visible()
    await page.click("summary:has-text('More options')")
    assert await too_small(page) == []
    await on_one_row(page)
    await register(page, "Eve", "eve's long password")
    fold = page.locator(".tournaments-part details.new-tournament-fold summary")
    await fold.click()
    assert await too_small(page) == []
    await page.locator("#tournament-name").fill("Friday blitz")
    await page.locator("#create-tournament").click()
    await page.wait_for_url("**/tournament/*")
    await expect(page.locator(".tournament-head h1")).to_have_text("Friday blitz")
    assert await too_small(page) == []
    await page.click("a.back")
    await page.click("#my-games")
    await page.wait_for_url("**/player/Eve")
    await expect(page.locator(".player-head h1")).to_have_text("Eve")
    assert await too_small(page) == []
    await on_one_row(page)
    # in German and Italian too, the header's words longer
    for locale in ("de-DE", "it-IT"):
        other = await site.open("/", locale=locale, **phone)
        await expect(other.locator("#name-input")).to_be_visible()
        await on_one_row(other)
        assert await too_small(other) == []
    assert site.errors == []
