"""The page's first paint and weight (issue 37): a script, not a test.

    .venv/bin/python bench/page_bench.py              # 10 loads of a table, cold and warm
    .venv/bin/python bench/page_bench.py --loads 30

It starts `kahuna-server` in its own process on 127.0.0.1 (the page on, as by default), makes a
table against the computer over the protocol, and opens the page at /table/ID in Debian's
Chromium (Playwright), as a visitor who follows a link to it: `--loads` times in a fresh
browser context each (cold: nothing cached), then as many reloads in one context (warm: the
files revalidated by their ETag, 304s). Measured inside the page with the Performance API, from
the navigation's start:

    fcp      the first contentful paint (Chromium's paint timing)
    board    the table's first paint: the frame after the board's SVG came into the page
             (a MutationObserver notes the moment; two animation frames later it is painted)
    load     the load event (every module, style and the icon in)

and over the wire, the bytes of every answer (bodies as sent, gzip, and headers) and the
requests. Printed: each figure's median and worst, cold and warm.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from playwright.async_api import Browser, BrowserContext, Request, async_playwright  # noqa: E402
from server_process import start_process, stop  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from protocol.codec import CLIENT_MAX_FRAME, decode_server, encode  # noqa: E402
from protocol.fields import PROTOCOL_VERSION, TableOptions  # noqa: E402
from protocol.messages import CreateTable, Hello, Joined  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

# Before the page's own scripts: the moment the board's SVG enters the page, and two frames on.
WATCH_BOARD = """
window.__board = new Promise((resolve) => {
  const seen = () => {
    if (!document.querySelector("svg.board")) return false;
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
});
"""

READ_TIMES = """
async () => {
  const board = await window.__board;
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  return { fcp: paint ? paint.startTime : null, board, load: nav.loadEventEnd };
}
"""


async def make_table(port: int) -> str:
    """A table against the computer, its player gone on to wait: the page will watch it."""
    ws = await connect(f"ws://127.0.0.1:{port}", max_size=CLIENT_MAX_FRAME, compression=None)
    await ws.send(encode(Hello(PROTOCOL_VERSION, "Bench")))
    await ws.send(encode(CreateTable(TableOptions(), True, "white", "white", level="easy")))
    while True:
        data = await ws.recv()
        assert isinstance(data, bytes)
        message = decode_server(data)
        if isinstance(message, Joined):
            table_id = message.table_id
            break
    # the connection stays open (the table with it) until the bench ends: not closed here
    _keep.append(ws)
    return table_id


_keep: list[Any] = []


async def one_load(context: BrowserContext, url: str, reload: bool) -> dict[str, float]:
    page = context.pages[0] if reload and context.pages else await context.new_page()
    requests: list[Request] = []
    page.on("request", lambda request: requests.append(request))
    if reload and page.url == url:
        await page.reload()
    else:
        await page.goto(url)
    times: dict[str, float] = await page.evaluate(READ_TIMES)
    await page.wait_for_load_state("networkidle")
    wire = 0
    for request in requests:
        if request.url.startswith("ws"):
            continue
        sizes = await request.sizes()
        wire += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    return {**times, "bytes": wire, "requests": len(requests)}


def summary(label: str, runs: list[dict[str, float]]) -> None:
    print(f"{label} ({len(runs)} loads):")
    for key, unit in (
        ("fcp", "ms"),
        ("board", "ms"),
        ("load", "ms"),
        ("bytes", "B"),
        ("requests", ""),
    ):
        values = [r[key] for r in runs if r[key] is not None]
        if not values:
            continue
        median = statistics.median(values)
        print(f"  {key:9} median {median:9.1f} {unit:2}  worst {max(values):9.1f} {unit}")


async def bench(loads: int, language: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_process(
            ["-m", "server", "--host", "127.0.0.1", "--port", "0", "--no-announce",
             "--log-level", "warning", "--db", str(Path(tmp) / "bench.db")]
        )  # fmt: skip
        try:
            table_id = await make_table(port)
            url = f"http://127.0.0.1:{port}/table/{table_id}"
            async with async_playwright() as playwright:
                browser: Browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, args=ARGS
                )
                options: dict[str, Any] = {
                    "viewport": {"width": 1280, "height": 800},
                    "locale": language,
                }
                cold = []
                for _ in range(loads):
                    context = await browser.new_context(**options)
                    await context.add_init_script(WATCH_BOARD)
                    cold.append(await one_load(context, url, reload=False))
                    await context.close()
                context = await browser.new_context(**options)
                await context.add_init_script(WATCH_BOARD)
                await one_load(context, url, reload=False)
                warm = [await one_load(context, url, reload=True) for _ in range(loads)]
                await context.close()
                await browser.close()
            print(f"the page at /table/ID, {language}, 1280x800, Chromium on this machine")
            summary("cold (a fresh context each)", cold)
            summary("warm (reloaded: revalidated, 304s)", warm)
        finally:
            for ws in _keep:
                await ws.close()
            stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="loads of each kind (10)")
    parser.add_argument("--language", default="de-DE", help="the browser's language (de-DE)")
    args = parser.parse_args()
    asyncio.run(bench(args.loads, args.language))


if __name__ == "__main__":
    main()
