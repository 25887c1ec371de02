"""The page's HTTP side of the game's port: what each GET answers, with which headers; the
WebSocket upgrade untouched beside it; and nothing of it without `web`."""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import struct

from protocol.messages import Lobby, LobbySubscribe
from server.cli.serve import build_parser, config_from_args
from server.net.app import KahunaServer
from server.net.web import CSP, WEB_DIR, WebPages, board_data, read_mo
from shared.board import DEGREE, ISLANDS, LINES, NEEDED, NUM_LINES, POSITIONS, line_name
from tests.conftest import Client, ServerFactory

Answer = tuple[int, dict[str, str], bytes]


async def get(port: int, path: str, headers: dict[str, str] | None = None) -> Answer:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)  # the server closes after its answer
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    fields = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        fields[key.strip().lower()] = value.strip()
    return int(status_line.split()[1]), fields, body


async def test_the_pages_and_their_headers(web_server: KahunaServer) -> None:
    port = web_server.port
    places = ("/", "/table/abc123", "/player/Ann", "/player/Ann%20B%C3%A4r", "/game/abc123")
    for path in (*places, "/learn", "/rules", "/game/abc123?turn=3", "/tournament/5c0ffee1"):
        status, headers, body = await get(port, path)
        assert status == 200
        assert headers["content-type"].startswith("text/html")
        assert headers["content-security-policy"] == CSP
        assert body == WebPages().find("/").body  # type: ignore[union-attr]
        assert b"<script>" not in body  # the one script is a module file
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    status, headers, body = await get(port, "/assets/main.mjs")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert headers["x-content-type-options"] == "nosniff"
    etag = headers["etag"]
    status, headers, body = await get(port, "/assets/main.mjs", {"If-None-Match": etag})
    assert (status, body) == (304, b"")
    assert headers["etag"] == etag
    status, headers, zipped = await get(port, "/assets/main.mjs", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(zipped) == (WEB_DIR / "main.mjs").read_bytes()
    assert headers["etag"] != etag and headers["vary"] == "Accept-Encoding"
    missing_paths = ("/nothing", "/assets/../server/web.py", "/assets/x.py", "/words/fr.json")
    places_beyond = ("/player/", "/player/a/b", "/game/", "/game/a.b", "/learn/x", "/rulesx")
    for missing in (*missing_paths, *places_beyond, "/tournament/", "/tournament/a.b"):
        status, headers, _ = await get(port, missing)
        assert status == 404, missing
        assert headers["content-security-policy"] == CSP


async def test_the_websocket_works_beside_the_page(web_server: KahunaServer) -> None:
    client = await Client.connect(web_server.port)
    await client.send(LobbySubscribe())
    await client.expect(Lobby)
    await client.close()


async def test_without_web_the_port_speaks_websocket_only(make_server: ServerFactory) -> None:
    server = await make_server()  # a server made in code: web is off unless asked for
    assert not server.config.web
    status, _, body = await get(server.port, "/")
    assert status == 426  # websockets' answer to a GET that is no upgrade, as before
    assert b"<html" not in body


async def test_the_board_comes_from_the_engine(web_server: KahunaServer) -> None:
    status, _, body = await get(web_server.port, "/board.json")
    assert status == 200
    board = json.loads(body)
    assert board == json.loads(json.dumps(board_data()))
    assert [i["name"] for i in board["islands"]] == list(ISLANDS)
    assert [(i["needed"], i["degree"]) for i in board["islands"]] == list(
        zip(NEEDED, DEGREE, strict=True)
    )
    assert [(line["a"], line["b"]) for line in board["lines"]] == list(LINES)
    assert [line["name"] for line in board["lines"]] == [line_name(k) for k in range(NUM_LINES)]
    for island in board["islands"]:
        x, y = POSITIONS[island["name"]]
        assert (island["x"], island["y"]) == (round(x * 1000), round(y * 1000))


def test_every_line_clears_the_islands_it_does_not_touch() -> None:
    """COCO-KAHU runs past GOLA on the printed board: its curve bends around it."""
    board = board_data()
    radius = board["island_radius"]
    assert isinstance(radius, int)
    islands = board["islands"]
    assert isinstance(islands, list)
    bent = []
    for line in board["lines"]:  # type: ignore[attr-defined]
        numbers = [float(n) for n in line["d"].replace("M", "").replace("Q", " ").split()]
        ax, ay, cx, cy, bx, by = numbers
        if (cx, cy) != ((ax + bx) / 2, (ay + by) / 2):
            bent.append(line["name"])
        for step in range(101):
            t = step / 100
            x = (1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t * t * bx
            y = (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t * t * by
            for k, island in enumerate(islands):
                if k in (line["a"], line["b"]):
                    continue
                assert (x - island["x"]) ** 2 + (y - island["y"]) ** 2 > (radius + 10) ** 2
    assert bent == ["COCO-KAHU"]


async def test_the_words_are_the_clients_catalogues(web_server: KahunaServer) -> None:
    for language, white in (("de", "Weiß"), ("it", "Bianco")):
        status, headers, body = await get(web_server.port, f"/words/{language}.json")
        assert status == 200 and headers["content-type"].startswith("application/json")
        words = json.loads(body)
        assert words["White"] == white
        assert words["{seat} won {island}"]  # the log's sentences, as the client says them
        assert isinstance(words["{n} table"], list)  # a plural: its forms
        assert "" not in words  # no catalogue header


def test_read_mo_reads_what_msgfmt_writes() -> None:
    def mo(entries: dict[str, str]) -> bytes:
        keys = sorted(entries)
        ids = b"".join(k.encode() + b"\0" for k in keys)
        strs = b"".join(entries[k].encode() + b"\0" for k in keys)
        start = 28 + 16 * len(keys)
        offsets, pos = [], start
        for k in keys:
            offsets.append((len(k.encode()), pos))
            pos += len(k.encode()) + 1
        toffsets = []
        for k in keys:
            toffsets.append((len(entries[k].encode()), pos))
            pos += len(entries[k].encode()) + 1
        head = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
        table = b"".join(struct.pack("<2I", *o) for o in offsets + toffsets)
        return head + table + ids + strs

    data = mo({"": "header", "Hi": "Hallo", "a\x00as": "eins\x00viele", "ctx\x04Hi": "Tag"})
    assert read_mo(data) == {"Hi": "Hallo", "a": ["eins", "viele"], "ctx\x04Hi": "Tag"}


def test_the_index_preloads_every_module_the_page_imports() -> None:
    """All at once rather than one level of imports after another; and board.json."""
    pages = WebPages()
    index = pages.find("/")
    assert index is not None
    html = index.body.decode()
    source = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    preloaded = re.findall(r'<link rel="modulepreload" href="/assets/([^"]+)">', html)
    assert preloaded == pages.modules()
    assert set(preloaded) >= {"main.mjs", "screen.mjs", "board.mjs", "vendor/msgpack.mjs"}
    assert '<link rel="preload" href="/board.json" as="fetch" crossorigin>' in html
    assert html.index("modulepreload") < html.index("<script")
    # nothing else of index.html changed
    assert re.sub(r"<link rel=\"(module)?preload\"[^>]*>\n", "", html) == re.sub(
        r"<link rel=\"(module)?preload\"[^>]*>\n", "", source
    )
    # every module the page has is among them, but the ones nothing imports yet
    modules = {str(p.relative_to(WEB_DIR)) for p in WEB_DIR.rglob("*.mjs")}
    assert len(set(preloaded)) > 0.8 * len(modules)


def test_the_pages_files_are_read_once() -> None:
    pages = WebPages()
    first = pages.find("/assets/main.mjs")
    assert first is not None and pages.find("/assets/main.mjs") is first
    assert pages.find("/table/x") is pages.find("/")


def test_kahuna_server_serves_the_page_unless_told_not_to() -> None:
    parser = build_parser()
    assert config_from_args(parser.parse_with_config(["--db", ":memory:"])).web
    assert not config_from_args(parser.parse_with_config(["--db", ":memory:", "--no-web"])).web
