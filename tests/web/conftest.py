"""The web page's tests: the real server on 127.0.0.1 with the page on (web=True), and Debian's
chromium driven by Playwright (executable_path: no browser is downloaded). Every test here that
needs the browser is marked `browser` (`pytest -m "not browser"` leaves them out); each takes a
few seconds at most.

Chromium is launched once for the whole run, not once a test (its start and its Playwright
driver's took about two seconds of each test): each test has contexts of its own in it, all
closed after the test. Playwright's objects belong to the event loop they were made in, so the
tests here, and their async fixtures, run in the session's one loop: every async test under
tests/web is marked so below, and an async fixture here is declared
@pytest_asyncio.fixture(loop_scope="session") (make_server says so if one is not)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, ConsoleMessage, Page, Playwright, async_playwright

from server.net.app import KahunaServer
from tests.conftest import ServerFactory, servers_made

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
    here = Path(__file__).parent
    in_one_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        # (this hook sees the whole run's items, not only this directory's)
        if item.path.is_relative_to(here) and pytest_asyncio.is_async_test(item):
            item.add_marker(in_one_loop, append=False)  # before the asyncio mode's own
    if shutil.which("chromium") or shutil.which(CHROMIUM):
        return
    skip = pytest.mark.skip(reason="no chromium: .ci/run installs Debian's package")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)


@pytest_asyncio.fixture(loop_scope="session")
async def make_server() -> AsyncIterator[ServerFactory]:
    """tests/conftest.py's, in the session's loop."""
    async with servers_made() as factory:
        yield factory


@pytest_asyncio.fixture(loop_scope="session")
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await make_server(web=True)


class Chromium:
    """The run's one Chromium, launched at its first use; launched again should it have gone
    (a crash would otherwise fail every test after it)."""

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.launched: Browser | None = None

    async def get(self) -> Browser:
        if self.launched is None or not self.launched.is_connected():
            self.launched = await self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self.launched


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Chromium]:
    async with async_playwright() as playwright:
        shared = Chromium(playwright)
        try:
            yield shared
        finally:
            if shared.launched is not None:
                await shared.launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Chromium) -> AsyncIterator[Browser]:
    """The run's Chromium, for one test: it starts with no context open (each of the test's
    pages is in one of its own, browser.new_context() or new_page()), and whatever the test
    opened is closed after it, passed or failed, so no page of it runs on into the next."""
    launched = await chromium.get()
    for left in launched.contexts:  # (none, unless a test's teardown failed half-way)
        await left.close()
    yield launched
    for context in launched.contexts:
        await context.close()


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


@pytest_asyncio.fixture(loop_scope="session")
async def pages(browser: Browser, web_server: KahunaServer) -> AsyncIterator[Pages]:
    """Pages of the server's page; the test fails if any of them logged an error."""
    opened = Pages(browser, web_server.port)
    yield opened
    assert opened.errors == []
