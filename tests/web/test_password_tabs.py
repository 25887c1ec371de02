"""A password changed in one tab logs the account's other tab out at once, and that tab says why
(issue 40, item 4): in a real browser, against the real server."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.conftest import ServerFactory
from tests.web.conftest import accounts_site
from tests.web.login_form import log_in, register

pytestmark = pytest.mark.browser


async def test_a_new_password_logs_the_other_tab_out_and_says_why(
    browser: Browser, make_server: ServerFactory
) -> None:
    _server, pages = await accounts_site(browser, make_server)
    first = await pages.open("/")
    await register(first, "Carol", "carol's long password")
    second = await pages.open("/")  # another tab: its own session storage, so it logs in
    await log_in(second, "Carol", "carol's long password")
    await first.locator("#change-password").click()
    change = first.locator("form.password")
    await change.locator("input[name=old]").fill("carol's long password")
    await change.locator("input[name=new]").fill("carol's newer password")
    await change.locator("button[type=submit]").click()
    await expect(first.locator(".notice")).to_have_text(
        "Your password is changed; your other machines must log in again.", timeout=5000
    )
    await expect(second.locator(".notice")).to_have_text(
        "Your password was changed elsewhere, so this connection is logged out: you play as"
        " Carol (guest).",
        timeout=5000,
    )
    await expect(second.locator("form.login")).to_be_visible()
    assert await second.evaluate("sessionStorage.getItem('kahuna.login')") is None
    # the tab that changed it stays logged in
    await expect(first.get_by_text("Carol (1500)").first).to_be_visible()
    assert pages.errors == []
