"""What the log says of a visit of the page (issue 40, item 4; issue 37's quiet log): nothing at
INFO for a request, one line per request at DEBUG (websockets' dumps of every header, some
twenty lines a request, left out); a visitor's whole game, its page loaded again and again, a
line for its table at INFO and nothing for its requests and messages."""

from __future__ import annotations

import logging
import random

import pytest

from server.net.app import KahunaServer
from server.net.web import WEB_DIR
from tests.conftest import Client, create_table, play_random
from tests.web.test_http import get


async def test_a_visit_of_the_page_is_one_debug_line_per_request(
    web_server: KahunaServer, caplog: pytest.LogCaptureFixture
) -> None:
    files = sorted(p.name for p in WEB_DIR.iterdir() if p.suffix in (".mjs", ".css", ".svg"))
    paths = ["/", "/board.json", "/words/de.json", *(f"/assets/{name}" for name in files)]
    assert len(paths) > 30
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    for path in paths:
        status, _, _ = await get(web_server.port, path, {"Accept-Encoding": "gzip"})
        assert status == 200, path
    status, _, _ = await get(web_server.port, "/nothing")
    assert status == 404
    records = caplog.records
    assert [r for r in records if r.levelno >= logging.INFO] == []
    web_lines = [r.getMessage() for r in records if r.name == "server.net.web"]
    assert web_lines[0] == "GET / 200 from 127.0.0.1"
    assert web_lines[-1] == "GET /nothing 404 from 127.0.0.1"
    assert len(web_lines) == len(paths) + 1
    assert len(records) <= 2 * (len(paths) + 1), [r.getMessage() for r in records][:40]


async def test_a_visitors_game_logs_no_line_a_request(
    web_server: KahunaServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The page's requests and its game's messages: at INFO, nothing a request or a message
    (a line or two for the table, whatever the number of moves)."""
    caplog.set_level(logging.INFO)
    caplog.clear()
    for _ in range(3):  # the page loaded three times, as a visitor's reloads
        for path in ("/", "/board.json", "/words/de.json", "/assets/main.mjs"):
            await get(web_server.port, path, {"Accept-Encoding": "gzip"})
    client = await Client.connect(web_server.port, "Visitor")
    joined, state = await create_table(client, vs_computer=True)
    await play_random(client, joined.table_id, random.Random(1), state, max_actions=40)
    await client.close()
    lines = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) <= 3, lines
