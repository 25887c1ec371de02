"""The page's weight (issue 37): its whole load, as Chromium fetches it from the server (the
index, every module, the styles, the icon, board.json and the words of the language), is under
200 KB over the wire, the server sending it compressed; nothing is asked of another origin; and
each file's compressed answer is made once, when it is first asked for."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser, Request, expect

from server.net.app import KahunaServer
from server.net.web import WEB_DIR, WebPages
from tests.conftest import Client, create_table

BUDGET = 200_000  # bytes over the wire: bodies as sent, and the answers' headers


@pytest.mark.browser
@pytest.mark.parametrize("place", ["/", "/table", "/learn"])
async def test_the_whole_page_is_light_and_from_its_own_origin(
    browser: Browser, web_server: KahunaServer, place: str
) -> None:
    path = place
    client = None
    if place == "/table":
        client = await Client.connect(web_server.port, "Host")
        joined, _state = await create_table(client, vs_computer=True)
        path = f"/table/{joined.table_id}"
    requests: list[Request] = []
    context = await browser.new_context(locale="de-DE")
    page = await context.new_page()
    page.on("request", lambda request: requests.append(request))
    await page.goto(f"http://127.0.0.1:{web_server.port}{path}")
    ready = ".board" if place != "/" else "#main > *:not(.notice)"
    await expect(page.locator(ready).first).to_be_visible(timeout=10_000)
    await page.wait_for_load_state("networkidle")
    origin = f"127.0.0.1:{web_server.port}"
    elsewhere = [r.url for r in requests if urlsplit(r.url).netloc != origin]
    assert elsewhere == []
    fetched = {urlsplit(r.url).path for r in requests}
    assert "/words/de.json" in fetched and "/board.json" in fetched
    modules = {f"/assets/{p.relative_to(WEB_DIR)}" for p in WEB_DIR.rglob("*.mjs")}
    assert len(fetched & modules) > 0.8 * len(modules)  # (the page imports nearly all at once)
    total = 0
    for request in requests:
        if request.url.startswith("ws"):
            continue
        response = await request.response()
        assert response is not None, request.url
        if response.status == 200:  # (a 304 has no body)
            assert response.headers.get("content-encoding") == "gzip", request.url
        sizes = await request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    print(f"{path}: {len(requests)} requests, {total} bytes over the wire")
    assert 20_000 < total < BUDGET
    await context.close()
    if client is not None:
        await client.close()


def test_each_file_is_compressed_once() -> None:
    pages = WebPages()
    first = pages.find("/assets/main.mjs")
    assert first is not None and first.gzipped and len(first.gzipped) < len(first.body)
    assert pages.find("/assets/main.mjs") is first  # the same bytes, made once
    assert pages.find("/player/Ann") is pages.find("/game/x") is pages.find("/")
