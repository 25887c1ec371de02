"""The page's own account (protocol version 4), in a real browser against the real server:
"Download my games" saves one file of every finished game's record, which replays; "Delete my
account" says what it does, asks the password and the name, refuses a wrong password with
nothing changed, and then logs the tab out, saying why."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from shared.record import replay, split_records
from tests.conftest import ServerFactory
from tests.server.test_account_sockets import a_game, registered
from tests.web.conftest import Pages
from tests.web.login_form import log_in

pytestmark = pytest.mark.browser
WORDS = "long enough words"


async def test_download_then_delete_my_account(
    browser: Browser, make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(web=True, password_cost="test", db=str(tmp_path / "db.sqlite3"))
    dora, _ = await registered(server.port, "Dora")
    bob, _ = await registered(server.port, "Bob")
    games = [await a_game(dora, bob, bob), await a_game(bob, dora, dora)]
    await dora.close()

    pages = Pages(browser, server.port)
    page = await pages.open("/", accept_downloads=True)
    await log_in(page, "Dora", WORDS)

    async with page.expect_download() as waiting:
        await page.locator("#download-games").click()
    download = await waiting.value
    assert download.suggested_filename == "kahuna-Dora-games.kahuna"
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    pieces = split_records(saved.read_text(encoding="utf-8"))
    assert [games[i] in pieces[i][1] for i in range(2)] == [True, True]
    assert all(replay(text).result is not None for _, text in pieces)
    await expect(page.locator(".notice")).to_have_text("Downloaded 2 game records.")

    await page.locator("#delete-account").click()
    deleting = page.locator("form.delete-account")
    await expect(deleting.locator(".warning")).to_contain_text("cannot be undone")
    await deleting.locator("input[name=password]").fill("not the password")
    await deleting.locator("input[name=confirm]").fill("Dora")
    await deleting.locator("button[type=submit]").click()
    await expect(page.locator(".notice")).to_have_text(
        "The password is wrong: your account is not deleted.", timeout=5000
    )
    await expect(page.get_by_text("Dora (1500)").first).to_be_visible()
    await page.locator("form.delete-account input[name=password]").fill(WORDS)
    await page.locator("form.delete-account input[name=confirm]").fill("Dora")
    await page.locator("form.delete-account button[type=submit]").click()
    await expect(page.locator(".notice")).to_have_text(
        "Your account is deleted; its finished games stay under a stand-in name. You play as"
        " Dora (guest).",
        timeout=5000,
    )
    await expect(page.locator("form.login")).to_be_visible()
    assert await page.evaluate("sessionStorage.getItem('kahuna.login')") is None
    assert pages.errors == []

    # and Bob's games name her no more: her stand-in, which has no page to link to
    await page.goto(f"http://127.0.0.1:{server.port}/player/Bob")
    opponents = page.locator(".games .against")
    await expect(opponents.first).to_contain_text("deleted #1", timeout=5000)
    await expect(page.locator("a", has_text="deleted #1")).to_have_count(0)
    await expect(page.get_by_text("Dora")).to_have_count(0)
    await bob.close()
