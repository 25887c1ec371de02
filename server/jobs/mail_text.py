"""A queued mail's words: its subject and body in the player's language, made from its kind and
params (server/core/mail.py decides both) with the catalogue's gettext translations, and its
links to this server's web port (server/net/mail_links.py answers them). Made when it is sent,
not when it is queued: a mail waits in the database as data, not as a text in one language."""

from __future__ import annotations

import functools
import gettext
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any

from catalogue import DOMAIN, LOCALE_DIR
from server.core.store import MailRow


def N_(message: str) -> str:
    """Marks a sentence for the catalogue (pybabel's default keyword); translated when sent."""
    return message


# Each kind's subject and body; {placeholders} are the mail's params and its links.
SUBJECTS: dict[str, str] = {
    "confirm": N_("Confirm your e-mail address for Kahuna at {server}"),
    "reset": N_("A new password for {name} at {server}"),
    "turn": N_("Your move against {opponent} ({server})"),
    "clock": N_("Your time against {opponent} is running out ({server})"),
    "challenge": N_("{challenger} challenges you to a game of Kahuna ({server})"),
    "tournament_round": N_("Round {round} of {tournament} is paired ({server})"),
}
BODIES: dict[str, str] = {
    "confirm": N_(
        "Hello {name},\n\nto confirm this address for your Kahuna account at {server}, open"
        " this link and press its button:\n\n{confirm_link}\n\nor type this line in the"
        " terminal client's lobby (: opens its command line):\n\nconfirm {code}\n\nUntil it"
        " is confirmed the server sends nothing else to this address. If you did not ask for"
        " this, ignore this mail."
    ),
    "reset": N_(
        "Hello {name},\n\nsomeone (you, we hope) asked for a new password for your Kahuna"
        " account at {server}. To choose one, open this link within 30 minutes:\n\n"
        "{reset_link}\n\nor type this line in the terminal client's lobby:\n\nreset {code}\n\n"
        "The link works once. If you did not ask for it, ignore this mail: your password stays"
        " as it is."
    ),
    "turn": N_(
        "Hello {name},\n\nit is your move in your game of days against {opponent}:\n\n"
        "{table_link}\n\nThe server sends at most one such mail a day for each game."
    ),
    "clock": N_(
        "Hello {name},\n\nin your game of days against {opponent} you have {hours} hours left"
        " for your move:\n\n{table_link}"
    ),
    "challenge": N_(
        "Hello {name},\n\n{challenger} challenges you to a game of Kahuna at {server}. Log in"
        " to accept or decline it: your challenges list it.\n\n{lobby_link}"
    ),
    "tournament_round": N_(
        "Hello {name},\n\nround {round} of the tournament {tournament} is paired: your game"
        " against {opponent} is ready.\n\n{table_link}"
    ),
}
# The line under every mail that may be turned off. A link's page acts only on its button
# (server/net/mail_links.py): mail scanners fetch the links of a mail unasked.
OFF_LINE = N_("To get no more mails of this kind, open this link and press its button: {off_link}")
KINDS_OFF = frozenset({"turn", "clock", "challenge", "tournament_round"})


@functools.cache
def translator(language: str) -> Callable[[str], str]:
    """The language's gettext, English (the source) for a language without a catalogue."""
    if language == "en":
        return lambda text: text
    found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
    return found.gettext


def links(mail: MailRow, base: str) -> dict[str, str]:
    """The mail's links, to the server's web port at `base` (http(s)://HOST[:PORT])."""
    p = mail.params

    def at(path: str, **query: str) -> str:
        return f"{base}{path}" + (f"?{urllib.parse.urlencode(query)}" if query else "")

    found = {"lobby_link": at("/")}
    if "code" in p:
        found["confirm_link"] = at("/mail/confirm", code=str(p["code"]))
        found["reset_link"] = at("/reset", code=str(p["code"]))
    if "table_id" in p:
        found["table_link"] = at(f"/table/{urllib.parse.quote(str(p['table_id']))}")
    if "off" in p:
        found["off_link"] = at("/mail/off", kind=mail.kind, code=str(p["off"]))
    return found


def compose(mail: MailRow, base: str, sender: str) -> EmailMessage:
    """The mail as it goes to the relay."""
    _ = translator(mail.language)
    values: dict[str, Any] = {**mail.params, **links(mail, base)}
    body = _(BODIES[mail.kind]).format(**values)
    if mail.kind in KINDS_OFF and "off_link" in values:
        body += "\n\n-- \n" + _(OFF_LINE).format(**values)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.recipient
    message["Subject"] = _(SUBJECTS[mail.kind]).format(**values)
    message["Date"] = format_datetime(datetime.fromtimestamp(mail.created, UTC))
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    if "off_link" in values and mail.kind in KINDS_OFF:
        message["List-Unsubscribe"] = f"<{values['off_link']}>"
    message.set_content(body + "\n")
    message["Content-Language"] = mail.language  # after set_content, which clears Content-*
    return message
