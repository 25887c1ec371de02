"""The web page, served on the game's own port: plain HTTP GETs answered from the WebSocket
handshake (websockets' process_request), the upgrade left to go on as before.

    /                the lobby page          /table/ID   the same page, showing table ID
    /player/NAME, /game/ID, /tournament/ID, /learn, /rules: the same page, at its other places
    /assets/NAME     the page's files (web/) /board.json the board, made from shared/board.py
    /words/LANG.json the catalogue's translations for LANG (its .mo file), as JSON

Every answer carries a Content-Security-Policy that allows scripts, styles and connections to
this origin only (the page has no inline script or style). Assets carry an ETag, the hash of
their bytes, and are revalidated on each load (a 304 when unchanged): ES modules import each
other by name, so hashed file names would need a build step to rewrite those imports.

Files are read once, at the first request for them, and kept, each with its gzipped form made
then (the page is small, tens of kilobytes, and never changes while the server runs); every
answer is gzipped for a browser that takes it. index.html is served with a modulepreload link
for every module main.mjs imports, directly or not (found by reading their static imports), and
a preload of board.json, so that the browser asks for them all at once rather than one level
of imports after another."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import math
import mimetypes
import re
import struct
from collections.abc import Awaitable, Callable, Iterable
from http import HTTPStatus
from pathlib import Path

import attrs
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from catalogue import LOCALE_DIR as CATALOGUE_LOCALE_DIR
from server.core.settings import SettingError, web_origin
from shared.board import (
    BRIDGES_PER_PLAYER,
    DEGREE,
    HAND_LIMIT,
    ISLANDS,
    LINES,
    NEEDED,
    POSITIONS,
    line_name,
)

log = logging.getLogger(__name__)

# The page's files: web/ beside the packages (in the source tree and in site-packages alike).
WEB_DIR = Path(__file__).resolve().parents[2] / "web"
# The catalogue package's compiled translations, the client's and the page's words alike.
LOCALE_DIR = CATALOGUE_LOCALE_DIR
LANGUAGES = ("de", "it")
Point = tuple[float, float]  # besides English, the source language, which needs no catalogue

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none';"
    " frame-ancestors 'none'"
)
_TYPES = {
    ".mjs": "text/javascript; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}
_ASSET = re.compile(r"^[a-z0-9_-]+(/[a-z0-9_-]+)?\.(mjs|css|svg|txt)$")
# The page's places (web/routes.mjs): each is index.html, the page finding its place in the
# address. A player's name comes percent-encoded (a space, a letter beyond ASCII).
_PLACE = re.compile(
    r"^/(table/[A-Za-z0-9_-]{1,64}|game/[A-Za-z0-9_-]{1,64}|tournament/[A-Za-z0-9_-]{1,64}"
    r"|player/[^/?#]{1,300}|learn|rules)$"
)
_WORDS = re.compile(r"^/words/([a-z]{2})\.json$")
# A module's static imports (`import ... from "./x.mjs"`, `export ... from`, `import "./x.mjs"`).
_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;'"]*?(?:from\s*)?["'](\./[^"']+\.mjs)["']""", re.M
)


@attrs.frozen
class Page:
    body: bytes
    content_type: str
    etag: str
    gzipped: bytes  # the same body gzipped, for a browser that takes it (all of them do)


def page(body: bytes, content_type: str) -> Page:
    digest = hashlib.sha256(body).hexdigest()[:32]
    return Page(body, content_type, f'"{digest}"', gzip.compress(body, mtime=0))


SCALE = 1000  # the drawing's units: POSITIONS are fractions of the board, here of 1000
ISLAND_RADIUS = 40  # an island's circle, in those units
CLEARANCE = 18  # the least room between a line and an island it does not touch


def _curve(a: Point, b: Point, control: Point, t: float) -> Point:
    u = 1 - t
    return (
        u * u * a[0] + 2 * u * t * control[0] + t * t * b[0],
        u * u * a[1] + 2 * u * t * control[1] + t * t * b[1],
    )


def _nearest(a: Point, b: Point, control: Point, others: list[Point]) -> tuple[float, Point]:
    """How close the curve a-control-b comes to any of `others`, and the closest one."""
    best, where = float("inf"), others[0] if others else a
    for step in range(41):
        x, y = _curve(a, b, control, step / 40)
        for p in others:
            d = math.hypot(x - p[0], y - p[1])
            if d < best:
                best, where = d, p
    return best, where


def line_path(a: Point, b: Point, others: list[Point]) -> tuple[Point, Point]:
    """The control point of line a-b's curve (a straight line unless an island is in the way:
    then bent away from it until it clears it) and the curve's middle."""
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    control = mid
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    normal = (-(b[1] - a[1]) / length, (b[0] - a[0]) / length)
    for _ in range(60):
        near, island = _nearest(a, b, control, others)
        if near >= ISLAND_RADIUS + CLEARANCE:
            break
        side = (island[0] - mid[0]) * normal[0] + (island[1] - mid[1]) * normal[1]
        away = -1.0 if side > 0 else 1.0
        control = (control[0] + away * normal[0] * 4, control[1] + away * normal[1] * 4)
    return control, _curve(a, b, control, 0.5)


def board_data() -> dict[str, object]:
    """The board for the page's drawing, in SVG units: each island's centre where it lies on
    the printed board (shared/board.py's POSITIONS) and what control of it needs; the 27 lines,
    by index, each an SVG path between its islands (bent only around an island in its way);
    and the numbers the rules need (web/legality.mjs)."""
    centres = [(POSITIONS[n][0] * SCALE, POSITIONS[n][1] * SCALE) for n in ISLANDS]
    lines = []
    for k, (a, b) in enumerate(LINES):
        others = [p for i, p in enumerate(centres) if i not in (a, b)]
        control, middle = line_path(centres[a], centres[b], others)
        (ax, ay), (bx, by) = centres[a], centres[b]
        lines.append(
            {
                "name": line_name(k),
                "a": a,
                "b": b,
                "d": f"M{ax:.0f} {ay:.0f}Q{control[0]:.0f} {control[1]:.0f} {bx:.0f} {by:.0f}",
                "mx": round(middle[0]),
                "my": round(middle[1]),
            }
        )
    margin = ISLAND_RADIUS + 30
    xs, ys = [p[0] for p in centres], [p[1] for p in centres]
    return {
        "view_box": [
            round(min(xs) - margin),
            round(min(ys) - margin),
            round(max(xs) - min(xs) + 2 * margin),
            round(max(ys) - min(ys) + 2 * margin),
        ],
        "island_radius": ISLAND_RADIUS,
        "bridges_per_player": BRIDGES_PER_PLAYER,
        "hand_limit": HAND_LIMIT,
        "islands": [
            {
                "name": name,
                "x": round(centres[i][0]),
                "y": round(centres[i][1]),
                "needed": NEEDED[i],
                "degree": DEGREE[i],
            }
            for i, name in enumerate(ISLANDS)
        ],
        "lines": lines,
    }


def read_mo(data: bytes) -> dict[str, str | list[str]]:
    """A gettext .mo catalogue's translations: msgid -> msgstr, or for a plural entry the
    singular msgid -> its forms; an entry with a context keeps gettext's key, CONTEXT\\x04MSGID.
    The header entry (the empty msgid) is left out."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _rev, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    out: dict[str, str | list[str]] = {}
    for i in range(count):
        olen, ooff = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        tlen, toff = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        msgid = data[ooff : ooff + olen].decode()
        msgstr = data[toff : toff + tlen].decode()
        if not msgid:
            continue
        if "\x00" in msgid:
            out[msgid.split("\x00")[0]] = msgstr.split("\x00")
        else:
            out[msgid] = msgstr
    return out


# websockets' process_request: an answer, None (the handshake goes on), or an awaitable of
# either (server/net/mail_links.py's, which waits for the core's writes)
ProcessRequest = Callable[[ServerConnection, Request], Response | Awaitable[Response | None] | None]


class OriginCheck:
    """websockets' process_request before the page's (WebPages, if served): a WebSocket
    handshake whose Origin header names another site than the server's own (the scheme, host and
    port of its Host header) is refused with 403, unless the operator allowed that site
    (--allowed-origin). A page of any site may open a WebSocket to any server, and the
    browser sends its cookies-free request from the player's own address, which the login
    throttle trusts; the Origin header is how a server tells. Clients that send no Origin (the
    terminal client, bots: not browsers) are not concerned."""

    def __init__(self, allowed: Iterable[str], pages: ProcessRequest | None = None) -> None:
        self.allowed = frozenset(allowed)  # settings.web_origin's form
        self.pages = pages
        self.refused: Callable[[str, str], None] = lambda address, reason: None

    def __call__(
        self, connection: ServerConnection, request: Request
    ) -> Response | Awaitable[Response | None] | None:
        origin = request.headers.get("Origin")
        if origin is not None and _upgrade(request) and not self.allows(origin, request):
            peer = connection.remote_address
            self.refused(str(peer[0]) if peer else "?", f"origin {origin[:100]!r} not allowed")
            body = b"pages of another site may not connect to this server\n"
            return _response(HTTPStatus.FORBIDDEN, body, _TYPES[".txt"])
        return None if self.pages is None else self.pages(connection, request)

    def allows(self, origin: str, request: Request) -> bool:
        try:
            named = web_origin(origin)
        except SettingError:  # "null" (a sandboxed frame, a file), or no origin
            return origin in self.allowed
        if named in self.allowed:
            return True
        scheme = named.split(":", 1)[0]
        try:
            own = web_origin(f"{scheme}://{request.headers.get('Host', '')}")
        except SettingError:
            return False
        return named == own


def _upgrade(request: Request) -> bool:
    return "upgrade" in request.headers.get("Connection", "").lower()


class WebPages:
    """Answers the page's GETs; lets WebSocket handshakes through."""

    def __init__(self, web_dir: Path = WEB_DIR, locale_dir: Path = LOCALE_DIR) -> None:
        self.web_dir = web_dir
        self.locale_dir = locale_dir
        self._cache: dict[str, Page | None] = {}
        self._made: dict[str, Callable[[], Page | None]] = {
            "/board.json": lambda: page(_json(board_data()), _TYPES[".json"]),
        }

    def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        """websockets' process_request: None lets the WebSocket handshake go on. Each answer is
        one line of the log, at DEBUG: a visit of the page is some forty requests."""
        if _upgrade(request):
            return None
        answer = self._answer(request)
        if log.isEnabledFor(logging.DEBUG):
            peer = connection.remote_address
            address = peer[0] if isinstance(peer, tuple) and peer else "?"
            log.debug(
                "GET %s %d from %s", request.path[:200], answer.status_code, address
            )  # fmt: skip
        return answer

    def _answer(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        found = self.find(path)
        if found is None:
            return _response(HTTPStatus.NOT_FOUND, b"not found\n", _TYPES[".txt"])
        zipped = "gzip" in request.headers.get("Accept-Encoding", "")
        # the gzipped body is another representation: another ETag (RFC 9110, 8.8.3)
        etag = found.etag[:-1] + '-gz"' if zipped else found.etag
        if request.headers.get("If-None-Match") == etag:
            return _response(HTTPStatus.NOT_MODIFIED, b"", None, etag)
        if zipped:
            answer = _response(HTTPStatus.OK, found.gzipped, found.content_type, etag)
            answer.headers["Content-Encoding"] = "gzip"
            return answer
        return _response(HTTPStatus.OK, found.body, found.content_type, etag)

    def find(self, path: str) -> Page | None:
        if path == "/" or _PLACE.match(path):
            path = "/index.html"
        if path in self._cache:
            return self._cache[path]
        found = self._make(path)
        self._cache[path] = found
        return found

    def _make(self, path: str) -> Page | None:
        made = self._made.get(path)
        if made is not None:
            return made()
        if path == "/index.html":
            return self._index()
        words = _WORDS.match(path)
        if words is not None:
            return self._words(words.group(1))
        if path.startswith("/assets/") and _ASSET.match(path.removeprefix("/assets/")):
            return self._file(path.removeprefix("/assets/"))
        return None

    def _file(self, name: str) -> Page | None:
        file = self.web_dir / name
        try:
            body = file.read_bytes()
        except OSError:
            return None
        kind = _TYPES.get(file.suffix) or mimetypes.guess_type(name)[0] or "text/plain"
        return page(body, kind)

    def _index(self) -> Page | None:
        """index.html, the page's modules and board.json preloaded (see the docstring)."""
        try:
            html = (self.web_dir / "index.html").read_text(encoding="utf-8")
        except OSError:
            return None
        links = [f'<link rel="modulepreload" href="/assets/{name}">' for name in self.modules()]
        links.append('<link rel="preload" href="/board.json" as="fetch" crossorigin>')
        known = [line for line in links if line not in html]
        where = html.find("<script") if "<script" in html else html.find("</head>")
        html = html[:where] + "".join(f"{line}\n" for line in known) + html[where:]
        return page(html.encode(), _TYPES[".html"])

    def modules(self, start: str = "main.mjs") -> list[str]:
        """Every module `start` imports, directly or through others, and itself: web/'s paths,
        in the order first met."""
        found: list[str] = []
        todo = [start]
        while todo:
            name = todo.pop(0)
            if name in found:
                continue
            try:
                text = (self.web_dir / name).read_text(encoding="utf-8")
            except OSError:
                continue
            found.append(name)
            folder = Path(name).parent
            for target in _IMPORT.findall(text):
                todo.append((folder / target).as_posix().removeprefix("./"))
        return found

    def _words(self, language: str) -> Page | None:
        if language not in LANGUAGES:
            return None
        # read from the .mo at the first request (make locale compiles it from the .po, where
        # Babel puts the page's own words beside the client's)
        catalogue = self.catalogue(language)
        if not catalogue:
            return None
        return page(_json(catalogue), _TYPES[".json"])

    def catalogue(self, language: str) -> dict[str, str | list[str]]:
        try:
            data = (self.locale_dir / language / "LC_MESSAGES" / "kahuna.mo").read_bytes()
        except OSError:
            return {}
        return read_mo(data)


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _response(
    status: HTTPStatus, body: bytes, content_type: str | None, etag: str | None = None
) -> Response:
    headers = Headers()
    if content_type is not None:
        headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Content-Security-Policy"] = CSP
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["Cache-Control"] = "no-cache"  # revalidated (ETag) on every load: see the docstring
    # one request a connection (websockets answers the handshake's request only): a client that
    # pipelined more sends them again
    headers["Connection"] = "close"
    if etag is not None:
        headers["ETag"] = etag
        headers["Vary"] = "Accept-Encoding"
    return Response(status.value, status.phrase, headers, body)
