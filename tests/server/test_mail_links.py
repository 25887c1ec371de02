"""The mails' links in two steps, over real sockets against a real SMTP server (aiosmtpd on
127.0.0.1, tests/server/smtp.py): fetching a link, as a mail scanner or a link preview does,
changes nothing (read from the store) and says what its button would do; only the button's
request (the page's form: the same path, its hidden fields and do=1) confirms the address or
turns the kind off; a wrong, used or foreign code is said at once and changes nothing; the pages
speak the browser's language; no code is in the log."""

from __future__ import annotations

import asyncio
import html
import logging
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

import pytest

from protocol.fields import TimeControl
from protocol.mail_messages import MAIL_KINDS, MailSettings, SetEmail
from protocol.player_messages import Challenge, ChallengeTerms
from server.core.mail_state import MailState
from server.net.app import KahunaServer
from server.net.mail_links import OFF_QUESTIONS
from tests.conftest import ServerFactory
from tests.server.smtp import SmtpServer
from tests.server.test_mail_smtp import ANN, BOB, account, confirmed, link, mail_settings

QUESTIONS = {  # the first pages' sentences, as the catalogue says them
    ("confirm", "en"): "Confirm ann@example.org as the e-mail address of Ann?",
    ("confirm", "de"): "ann@example.org als E-Mail-Adresse von Ann bestätigen?",
    ("confirm", "it"): "Confermare ann@example.org come indirizzo e-mail di Ann?",
    ("challenge", "en"): "Turn off the e-mails about the challenges you receive?",
    ("challenge", "de"): "Keine E-Mails mehr über die Herausforderungen bekommen, die du erhältst?",
    ("challenge", "it"): "Disattivare le e-mail sulle sfide che ricevi?",
}
DONE = {
    ("confirm", "en"): "Your e-mail address is confirmed.",
    ("confirm", "de"): "Deine E-Mail-Adresse ist bestätigt.",
    ("confirm", "it"): "Il tuo indirizzo e-mail è confermato.",
    ("challenge", "it"): "Non riceverai più mail di questo tipo.",
    ("challenge", "de"): "Du bekommst keine Mails dieser Art mehr.",
}
NOT_GOOD = "This link is not good (any more)"


class Answer:
    def __init__(self, status: int, headers: dict[str, str], page: str) -> None:
        self.status, self.headers, self.page = status, headers, page


async def get(url: str, language: str = "en") -> Answer:
    def fetch() -> Answer:
        request = urllib.request.Request(url, headers={"Accept-Language": language})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return Answer(answer.status, dict(answer.headers), answer.read().decode())
        except urllib.error.HTTPError as refused:
            return Answer(refused.code, dict(refused.headers), refused.read().decode())

    return await asyncio.to_thread(fetch)


class Form(HTMLParser):
    """The page's forms: each one's method, action, hidden fields and button's words."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.forms: list[tuple[str, str, dict[str, str], str]] = []
        self._button = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append((found.get("method", ""), found.get("action", ""), {}, ""))
        elif tag == "input" and found.get("type") == "hidden":
            self.forms[-1][2][found["name"]] = found["value"]
        self._button = tag == "button"

    def handle_data(self, data: str) -> None:
        if self._button:
            method, action, fields, _words = self.forms[-1]
            self.forms[-1] = (method, action, fields, data)


def pressed(port: int, page: str) -> tuple[str, str]:
    """The URL the page's one button fetches, as a browser submits its form, and its words."""
    ((method, action, fields, words),) = Form(page).forms
    assert method == "get" and action.startswith("/mail/")
    return f"http://127.0.0.1:{port}{action}?{urllib.parse.urlencode(fields)}", words


def stored(server: KahunaServer, name: str) -> MailState:
    """The account's mail as the database holds it."""
    (row,) = [row for row in server.storage.load_accounts() if row.name == name]
    return MailState.from_data(row.data.get("mail"))


def said(page: str, sentence: str) -> bool:
    return html.escape(sentence) in page


async def test_fetching_the_confirmation_link_changes_nothing_its_button_confirms(
    make_server: ServerFactory, smtp: SmtpServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="server.net.mail_links")
    server = await make_server(**mail_settings(smtp))
    ann = await account(server, "Ann")
    await ann.send(SetEmail(ANN))
    await ann.expect(MailSettings)
    (message,) = await smtp.wait_for(1)
    url = link(message, "/mail/confirm")
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["code"][0]
    pages = {}
    for language in ("en", "de", "it", "en"):  # a scanner, a preview, the reader: all ask
        answer = await get(url, language)
        assert answer.status == 200, answer.page
        assert f'<html lang="{language}">' in answer.page
        assert said(answer.page, QUESTIONS["confirm", language]), answer.page
        assert answer.headers["Cache-Control"] == "no-store"  # the page holds the code
        assert "form-action 'self'" in answer.headers["Content-Security-Policy"]
        pages[language] = answer.page
    state = stored(server, "Ann")
    assert (state.address, state.pending) == (None, ANN) and state.confirm_hash is not None
    button, words = pressed(server.port, pages["de"])
    assert button == f"http://127.0.0.1:{server.port}/mail/confirm?code={code}&do=1"
    assert words == "Adresse bestätigen"
    assert pressed(server.port, pages["it"])[1] == "Conferma l'indirizzo"
    answer = await get(button, "it")
    assert answer.status == 200 and said(answer.page, DONE["confirm", "it"]), answer.page
    assert "<form" not in answer.page
    state = stored(server, "Ann")
    assert (state.address, state.pending, state.confirm_hash) == (ANN, None, None)
    assert (await ann.expect(MailSettings)).address == ANN
    for used in (url, button):  # used: said on the first page already, before any button
        answer = await get(used, "de")
        assert answer.status == 404 and "sein Code ist falsch, benutzt oder abgelaufen" in (
            answer.page
        )
        assert "<form" not in answer.page
    lines = [record.getMessage() for record in caplog.records]
    assert "GET /mail/confirm" in lines
    assert not any(code in line for line in lines), lines
    await ann.close()


async def test_wrong_codes_are_said_at_once_and_change_nothing(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    ann = await account(server, "Ann")
    await ann.send(SetEmail(ANN))
    await ann.expect(MailSettings)
    (message,) = await smtp.wait_for(1)
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(link(message, "/mail/confirm")).query)
    base = f"http://127.0.0.1:{server.port}"
    wrong = "AAAAAAAAAAAAAAAAAAAAAA"  # a code's form, not its value
    for path in (
        f"/mail/confirm?code={wrong}",
        f"/mail/confirm?code={wrong}&do=1",
        "/mail/confirm",
        "/mail/confirm?do=1",
        f"/mail/confirm?code={code['code'][0]}&do=yes",  # not the button's field: only asks
        f"/mail/off?kind=turn&code={code['code'][0]}",  # the confirmation's code: no off code
        f"/mail/off?kind=turn&code={code['code'][0]}&do=1",
    ):
        answer = await get(base + path)
        if "do=yes" in path:
            assert answer.status == 200 and "<form" in answer.page
        else:
            assert answer.status == 404 and NOT_GOOD in answer.page, path
            assert "<form" not in answer.page
    state = stored(server, "Ann")
    assert (state.address, state.pending, state.off) == (None, ANN, set())
    await ann.close()


async def test_turning_a_kind_off_takes_the_button_in_the_readers_language(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    ann = await confirmed(server, smtp, "Ann", ANN)
    bob = await confirmed(server, smtp, "Bob", BOB)
    await bob.close()  # a mail goes to a player who is not connected
    await ann.send(Challenge("Bob", ChallengeTerms(clock=TimeControl(days=3))))
    (mail,) = (await smtp.wait_for(3))[2:]  # after the two confirmations
    off = link(mail, "/mail/off")
    assert "press its button" in mail.get_content()
    pages = {}
    for language in ("it", "de", "en"):
        answer = await get(off, language)
        assert answer.status == 200 and said(answer.page, QUESTIONS["challenge", language])
        pages[language] = answer.page
    assert stored(server, "Bob").off == set()
    button, words = pressed(server.port, pages["de"])
    assert words == "Diese E-Mails abbestellen"
    fields = urllib.parse.parse_qs(urllib.parse.urlsplit(button).query)
    assert set(fields) == {"kind", "code", "do"} and fields["kind"] == ["challenge"]
    wrong = button.replace("kind=challenge", "kind=spam")
    assert (await get(wrong)).status == 404
    assert stored(server, "Bob").off == set()
    answer = await get(button, "de")
    assert answer.status == 200 and said(answer.page, DONE["challenge", "de"]), answer.page
    assert stored(server, "Bob").off == {"challenge"}
    await ann.close()


def test_every_kind_of_mail_has_its_question() -> None:
    assert set(OFF_QUESTIONS) == set(MAIL_KINDS)
