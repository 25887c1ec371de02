"""The links of the server's mails, answered on the game's port (websockets' process_request,
before the page's, server/net/web.py), when the server sends mail:

    /mail/confirm?code=CODE          an address confirmed (the confirmation mail's link)
    /mail/off?kind=KIND&code=CODE    that kind of mail turned off (every notification's link)
    /reset?code=CODE                 the form for a new password (web/reset.html, which sends
                                     `reset_password` over the WebSocket as a client does)

The core decides (ServerCore.mail_link); the answer, a short page in the browser's language
(Accept-Language, among the catalogue's), is sent once its writes are stored. A code is never
logged: the log line names the path alone."""

from __future__ import annotations

import gettext
import html
import logging
import urllib.parse
from collections.abc import Awaitable, Callable
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from catalogue import DOMAIN, LOCALE_DIR
from server.net.web import _TYPES, WEB_DIR, ProcessRequest, _response, _upgrade

log = logging.getLogger(__name__)

# What the link's code did, and the core's answer: (kind, code) -> whether it was good.
Follow = Callable[[str, str], Awaitable[bool]]


def N_(message: str) -> str:
    return message


TITLE = "Kahuna"  # the game's name, in every language
CONFIRMED = N_("Your e-mail address is confirmed.")
TURNED_OFF = N_("You will get no more mails of this kind. Your mail settings can turn it on again.")
NOT_GOOD = N_("This link is not good (any more): its code is wrong, used or expired.")
TO_LOBBY = N_("To the lobby")


def language_of(request: Request) -> str:
    """The browser's first language among the catalogue's, else English."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in ("en", "de", "it"):
            return code
    return "en"


def words_page(language: str, sentence: str, status: HTTPStatus) -> Response:
    _ = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True).gettext
    body = (
        f'<!doctype html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{TITLE}</title>"
        '<link rel="stylesheet" href="/assets/style.css"></head>'
        f'<body><main class="mail-link"><h1>{TITLE}</h1>'
        f"<p>{html.escape(_(sentence))}</p>"
        f'<p><a href="/">{html.escape(_(TO_LOBBY))}</a></p></main></body></html>\n'
    )
    return _response(status, body.encode(), _TYPES[".html"])


class MailLinks:
    """process_request for the mails' links; every other request goes on to `pages` (None:
    the WebSocket handshake goes on)."""

    def __init__(self, follow: Follow, pages: ProcessRequest | None) -> None:
        self.follow = follow
        self.pages = pages

    def __call__(
        self, connection: ServerConnection, request: Request
    ) -> Response | Awaitable[Response | None] | None:
        path, _sep, query = request.path.partition("?")
        if _upgrade(request) or path not in ("/mail/confirm", "/mail/off", "/reset"):
            return None if self.pages is None else self.pages(connection, request)
        log.debug("GET %s", path)  # never the query: it holds the code
        return self._answer(request, path, urllib.parse.parse_qs(query))

    async def _answer(
        self, request: Request, path: str, query: dict[str, list[str]]
    ) -> Response | None:
        language = language_of(request)
        code = (query.get("code") or [""])[0][:200]
        if path == "/reset":
            return _reset_form()
        kind = "confirm" if path == "/mail/confirm" else (query.get("kind") or [""])[0][:40]
        good = bool(code) and await self.follow(kind, code)
        if not good:
            return words_page(language, NOT_GOOD, HTTPStatus.NOT_FOUND)
        return words_page(language, CONFIRMED if kind == "confirm" else TURNED_OFF, HTTPStatus.OK)


def _reset_form() -> Response:
    try:
        body = (WEB_DIR / "reset.html").read_bytes()
    except OSError:
        return _response(HTTPStatus.NOT_FOUND, b"not found\n", _TYPES[".txt"])
    return _response(HTTPStatus.OK, body, _TYPES[".html"])
