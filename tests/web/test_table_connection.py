"""A lost connection at the table: the server stopped mid-game, the page shows a banner (an
alert) and disables every control within 2 s, and a click is not dropped without a word;
the server back on the same port with the same data, the seat is taken back by itself, the
banner goes and the game goes on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from server.net.app import KahunaServer
from tests.client.test_restart import free_port
from tests.conftest import server_config
from tests.web.conftest import Pages
from tests.web.table_helpers import my_turn, sit_against_the_computer

pytestmark = pytest.mark.browser

# Every control of the table's side: all disabled while the connection is lost.
CONTROLS = """
() => [...document.querySelectorAll("fieldset.side button, fieldset.side input")]
  .map((c) => [c.id || c.dataset.card || c.dataset.take || c.textContent, c.matches(":disabled")])
"""


async def test_the_banner_while_the_server_is_away(browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    db = str(tmp_path / "db.sqlite3")
    server = KahunaServer(server_config(port=port, db=db, web=True))
    await server.start()
    pages = Pages(browser, port)
    try:
        page = await pages.open("/")
        table_id = await sit_against_the_computer(page)
        await my_turn(page, table_id)
        version = await page.evaluate("(id) => kahuna.tables.get(id).version", table_id)
        assert await page.locator("#conn-banner").count() == 0
        stopped = time.monotonic()
        await server.stop()
        banner = page.locator("#conn-banner")
        await expect(banner).to_be_visible(timeout=2000)
        controls = await page.evaluate(CONTROLS)
        assert time.monotonic() - stopped < 2.0
        assert await banner.get_attribute("role") == "alert"
        assert len(controls) > 8 and all(disabled for _, disabled in controls), controls
        assert await page.locator(".line.active").count() == 0  # no line offered either
        # a key is not dropped silently: it says why
        await page.locator("#turn").focus()
        await page.keyboard.press("d")
        await expect(page.locator("#why")).to_be_visible()
        # the server back: the seat, the same version, the banner gone, the controls back
        server = KahunaServer(server_config(port=port, db=db, web=True))
        await server.start()
        await expect(banner).to_have_count(0, timeout=10000)
        await expect(page.locator("#why")).to_have_count(0)  # the reason went with the banner
        await page.wait_for_selector(".line.active")
        assert await page.evaluate("(id) => kahuna.tables.get(id).version", table_id) == version
        assert await page.evaluate("(id) => kahuna.tables.get(id).role", table_id) == "white"
        await page.click("#draw")
        await page.wait_for_function(
            "([id, v]) => kahuna.tables.get(id).version > v", arg=[table_id, version]
        )
    finally:
        await server.stop()
    # the pages' errors: a refused connection is the browser's own console line, nothing thrown
    refused = ("WebSocket", "ERR_CONNECTION_REFUSED")
    assert [e for e in pages.errors if not any(r in e for r in refused)] == []
