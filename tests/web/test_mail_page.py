"""Version 4's e-mail in the page, in a real browser against the real server and a real SMTP
server (aiosmtpd on 127.0.0.1): the account's address given and confirmed with the mail's code,
its settings saved, "Forgot your password?" and the reset page of the mail's link to a new
password; the confirmation mail's link, which asks before its button acts; on a server without
mail, none of it is shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from protocol.mail_messages import MailSettings, SetEmail
from protocol.player_messages import LoggedIn, Login
from tests.conftest import Client, ServerFactory
from tests.server.smtp import SmtpServer, body
from tests.server.test_mail_links import stored
from tests.server.test_mail_smtp import account
from tests.server.test_mail_smtp import link as mail_link
from tests.web.conftest import DESKTOP, PHONE, Pages, accounts_site
from tests.web.login_form import register

pytestmark = pytest.mark.browser

LONG = "ann.with.a.rather.long.address.for.a.phone@example.org"  # wider than a phone's line


async def test_the_address_the_settings_and_the_reset_in_the_page(
    browser: Browser, make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server, pages = await accounts_site(browser, make_server, **smtp.settings())
    page = await pages.open("/")
    await register(page, "Carol", "carol's long password")
    await page.locator("#mail-settings").click()
    form = page.locator("form.mail")
    await form.locator("input[name=address]").fill("carol@example.org")
    await form.locator("input[name=turn]").uncheck()
    await form.locator("select[name=language]").select_option("de")
    await form.locator("button[type=submit]").click()
    (mail,) = await smtp.wait_for(1)
    assert mail["To"] == "carol@example.org" and mail["Content-Language"] == "de"
    code = re.search(r"^confirm (\S+)", body(mail), re.M)
    assert code is not None
    await expect(form.locator("input[name=code]")).to_be_visible(timeout=5000)
    await form.locator("input[name=code]").fill(code.group(1))
    await form.locator("button[type=submit]").click()
    await expect(page.locator(".notice")).to_have_text(
        "Your e-mail address: carol@example.org.", timeout=5000
    )
    assert await form.locator("input[name=turn]").is_checked() is False
    # a guest elsewhere: forgot the password; the mail's link opens the reset page
    guest = await pages.open("/", viewport=PHONE)
    login = guest.locator("form.login")
    await login.locator("input[name=name]").fill("Carol")
    await guest.locator("button.forgot").click()
    await expect(guest.locator(".notice")).to_contain_text("a mail with a link", timeout=5000)
    (reset,) = (await smtp.wait_for(2))[1:]
    link = re.search(r"http://\S+/reset\?code=\S+", body(reset))
    assert link is not None
    form_page = await pages.open(link.group(0).split(str(server.port), 1)[1], viewport=PHONE)
    await form_page.locator("#reset-password").fill("carol's newer password")
    await form_page.locator("#reset-again").fill("carol's newer password")
    await form_page.locator("#reset-submit").click()
    await expect(form_page.locator("#reset-said")).to_have_text(
        "Your password is changed: log in with it in the lobby.", timeout=5000
    )
    client = await Client.connect(server.port, "x")
    await client.send(Login("Carol", "carol's newer password", None))
    await client.expect(LoggedIn)
    await client.close()
    # the address was in Carol's tab's frames alone
    assert any(b"carol@example.org" in f for f in pages.frames[page])
    assert not any(b"carol@example.org" in f for f in pages.frames[guest])
    assert pages.errors == []


async def test_a_server_without_mail_shows_none_of_it(
    browser: Browser, make_server: ServerFactory
) -> None:
    _server, pages = await accounts_site(browser, make_server)
    page = await pages.open("/")
    await expect(page.locator("form.login")).to_be_visible(timeout=5000)
    assert await page.locator("button.forgot").count() == 0
    await register(page, "Dora", "dora's long password")
    assert await page.locator("#mail-settings").count() == 0
    assert pages.errors == []


async def test_a_mails_link_asks_in_the_browser_and_only_its_button_acts(
    browser: Browser, make_server: ServerFactory, smtp: SmtpServer, tmp_path: Path
) -> None:
    """The confirmation mail's link opened in Chromium, on a phone and a desktop, in German:
    the question and its button, nothing changed (read from the store) until the button is
    pressed; the form it submits passes the page's Content-Security-Policy (a refusal would be
    a console error)."""
    server = await make_server(web=True, password_cost="test", **smtp.settings())
    ann = await account(server, "Ann")
    await ann.send(SetEmail(LONG))
    await ann.expect(MailSettings)
    (mail,) = await smtp.wait_for(1)
    path = mail_link(mail, "/mail/confirm").split(str(server.port), 1)[1]
    pages = Pages(browser, server.port)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = await pages.open(path, viewport=viewport, locale="de-DE")
        question = page.locator("main.mail-link p").first
        await expect(question).to_have_text(f"{LONG} als E-Mail-Adresse von Ann bestätigen?")
        button = page.locator("main.mail-link form button")
        await expect(button).to_have_text("Adresse bestätigen")
        box = await button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"]
        assert box["height"] >= 36  # a finger's size (style.css: 2.25rem)
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"]  # no sideways scrolling
        await page.screenshot(path=str(tmp_path / f"mail-link-{name}.png"))
    state = stored(server, "Ann")
    assert (state.address, state.pending) == (None, LONG)
    await button.click()
    await expect(page.locator("main.mail-link p").first).to_have_text(
        "Deine E-Mail-Adresse ist bestätigt."
    )
    assert "do=1" in page.url
    await page.screenshot(path=str(tmp_path / "mail-link-done.png"))
    state = stored(server, "Ann")
    assert (state.address, state.pending) == (LONG, None)
    assert (await ann.expect(MailSettings)).address == LONG
    await ann.close()
    assert pages.errors == []
