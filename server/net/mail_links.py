"""The links of the server's mails, answered on the game's port (websockets' process_request,
before the page's, server/net/web.py), when the server sends mail:

    /mail/confirm?code=CODE          an address to confirm (the confirmation mail's link)
    /mail/off?kind=KIND&code=CODE    that kind of mail to turn off (every notification's link)
    /reset?code=CODE                 the form for a new password (web/reset.html, which sends
                                     `reset_password` over the WebSocket as a client does)

A mail's link is fetched by more than its reader: mail scanners (Outlook's Safe Links), mail
providers' proxies and the previews of chats fetch every link of a mail, unasked. So fetching
the first two changes nothing: the answer says what the link would do (the core looks without
acting: ServerCore.mail_link_look) and offers one button, or says at once that the code is not
good. The button is a form that fetches the same path with the same fields and `do=1`
(websockets reads GET requests only, so it cannot POST); only that request acts (the core
decides: ServerCore.mail_link), answered once its writes are stored. Scanners fetch links; they
do not submit forms.

Each answer is a short page in the browser's language (Accept-Language, among the catalogue's),
never cached (it holds the code). A code is never logged: the log line names the path alone."""

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
from server.core.mail import LinkLook
from server.net.web import _TYPES, CSP, WEB_DIR, ProcessRequest, _response, _upgrade

log = logging.getLogger(__name__)

# Following the link, and the core's answer: (kind, code) -> whether the code was good.
Follow = Callable[[str, str], Awaitable[bool]]
# What following it would do, with no effect: (kind, code) -> the core's look.
Look = Callable[[str, str], LinkLook]


def N_(message: str) -> str:
    return message


TITLE = "Kahuna"  # the game's name, in every language
CONFIRMED = N_("Your e-mail address is confirmed.")
TURNED_OFF = N_("You will get no more mails of this kind. Your mail settings can turn it on again.")
NOT_GOOD = N_("This link is not good (any more): its code is wrong, used or expired.")
TO_LOBBY = N_("To the lobby")
# The questions of the links' first pages, and their buttons.
CONFIRM_QUESTION = N_("Confirm {address} as the e-mail address of {name}?")
CONFIRM_BUTTON = N_("Confirm the address")
OFF_QUESTIONS: dict[str, str] = {  # a whole sentence for each kind: words to translate whole
    "turn": N_("Turn off the e-mails that tell you it is your move in a game of days?"),
    "clock": N_("Turn off the e-mails that tell you your time runs low in a game of days?"),
    "challenge": N_("Turn off the e-mails about the challenges you receive?"),
    "tournament_round": N_("Turn off the e-mails about your games of a tournament's new round?"),
}
OFF_BUTTON = N_("Turn these e-mails off")
DO = "do"  # the field of the button's request: only a request with it acts
# The page's policy, but for its one form: it goes to this very origin (the pages' forbid any).
FORM_CSP = CSP.replace("form-action 'none'", "form-action 'self'")


def language_of(request: Request) -> str:
    """The browser's first language among the catalogue's, else English."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in ("en", "de", "it"):
            return code
    return "en"


def words_page(
    language: str,
    sentence: str,
    status: HTTPStatus,
    values: dict[str, str] | None = None,
    button: tuple[str, str, dict[str, str]] | None = None,
) -> Response:
    """The page: `sentence` translated (its {placeholders} filled with `values`), and the button
    (its label, the path its form fetches, the form's hidden fields), if any."""
    _ = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True).gettext
    said = _(sentence).format(**(values or {}))
    form = ""
    if button is not None:
        label, action, fields = button
        hidden = "".join(
            f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
            for name, value in fields.items()
        )
        form = (
            f'<form method="get" action="{html.escape(action)}">{hidden}'
            f'<button type="submit">{html.escape(_(label))}</button></form>'
        )
    body = (
        f'<!doctype html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{TITLE}</title>"
        '<link rel="stylesheet" href="/assets/style.css">'
        '<link rel="icon" href="/assets/icon.svg" type="image/svg+xml"></head>'
        f'<body><main class="mail-link"><h1>{TITLE}</h1>'
        f"<p>{html.escape(said)}</p>{form}"
        f'<p><a href="/">{html.escape(_(TO_LOBBY))}</a></p></main></body></html>\n'
    )
    answer = _response(status, body.encode(), _TYPES[".html"])
    # websockets' Headers add a value to those there: the old ones go first
    del answer.headers["Cache-Control"]
    answer.headers["Cache-Control"] = "no-store"  # the page holds the link's code
    if button is not None:
        del answer.headers["Content-Security-Policy"]
        answer.headers["Content-Security-Policy"] = FORM_CSP
    return answer


class MailLinks:
    """process_request for the mails' links; every other request goes on to `pages` (None:
    the WebSocket handshake goes on)."""

    def __init__(self, follow: Follow, look: Look, pages: ProcessRequest | None) -> None:
        self.follow = follow
        self.look = look
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
        if query.get(DO) == ["1"]:  # the button's request
            good = bool(code) and await self.follow(kind, code)
            if not good:
                return words_page(language, NOT_GOOD, HTTPStatus.NOT_FOUND)
            done = CONFIRMED if kind == "confirm" else TURNED_OFF
            return words_page(language, done, HTTPStatus.OK)
        look = self.look(kind, code) if code else LinkLook(False)
        if not look.good:
            return words_page(language, NOT_GOOD, HTTPStatus.NOT_FOUND)
        if kind == "confirm":
            values = {"address": look.address, "name": look.name}
            button = (CONFIRM_BUTTON, path, {"code": code, DO: "1"})
            return words_page(language, CONFIRM_QUESTION, HTTPStatus.OK, values, button)
        button = (OFF_BUTTON, path, {"kind": kind, "code": code, DO: "1"})
        return words_page(language, OFF_QUESTIONS[kind], HTTPStatus.OK, button=button)


def _reset_form() -> Response:
    try:
        body = (WEB_DIR / "reset.html").read_bytes()
    except OSError:
        return _response(HTTPStatus.NOT_FOUND, b"not found\n", _TYPES[".txt"])
    return _response(HTTPStatus.OK, body, _TYPES[".html"])
