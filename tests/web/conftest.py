"""The web page's tests: the real server on 127.0.0.1 with the page on (web=True), and Debian's
chromium driven by Playwright (executable_path: no browser is downloaded). Every test here that
needs the browser is marked `browser` (`pytest -m "not browser"` leaves them out); each takes a
few seconds at most."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from server.net.app import KahunaServer
from tests.conftest import ServerFactory

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium through Playwright")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if shutil.which("chromium") or shutil.which(CHROMIUM):
        return
    skip = pytest.mark.skip(reason="no chromium: .ci/run installs Debian's package")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)


@pytest.fixture
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await make_server(web=True)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


PageFactory = Callable[..., Awaitable[Page]]


class Pages:
    """open(path, **context options) -> a page at the server's address. Every error a page
    logs or throws, and every dialog it opens (an alert would mean markup ran), is kept."""

    def __init__(self, browser: Browser, port: int) -> None:
        self.browser = browser
        self.port = port
        self.errors: list[str] = []
        self.frames: dict[Page, list[bytes]] = {}  # every WebSocket frame each page received

    async def open(self, path: str = "/", **options: Any) -> Page:
        context = await self.browser.new_context(**{"viewport": DESKTOP, **options})
        page = await context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"thrown: {exc}"))
        page.on("dialog", lambda dialog: self.errors.append(f"a dialog: {dialog.message}"))
        frames: list[bytes] = []
        self.frames[page] = frames

        def record(payload: str | bytes) -> None:
            frames.append(payload if isinstance(payload, bytes) else payload.encode())

        page.on("websocket", lambda ws: ws.on("framereceived", record))
        await page.goto(f"http://127.0.0.1:{self.port}{path}")
        return page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")


async def accounts_site(
    browser: Browser, make_server: ServerFactory, **overrides: Any
) -> tuple[KahunaServer, Pages]:
    """A server with the page that keeps accounts (their passwords hashed at the tests' low
    cost), with these further settings, and the browser's pages of it."""
    server = await make_server(web=True, password_cost="test", **overrides)
    return server, Pages(browser, server.port)


@pytest.fixture
async def pages(browser: Browser, web_server: KahunaServer) -> AsyncIterator[Pages]:
    """Pages of the server's page; the test fails if any of them logged an error."""
    opened = Pages(browser, web_server.port)
    yield opened
    assert opened.errors == []
