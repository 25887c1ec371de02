"""The lobby's command line (protocol version 3: `:` opens it): the account, the lists, the
challenges and the lobby's chat, each a word in the player's language or in English.

    register NAME    login NAME    logout    password
    delete-account   download      (version 4: your account deleted; your games saved)
    ratings          games [NAME]  resume TABLE
    challenge NAME [Nd] [unrated] [white|black]
    accept ID        decline ID    withdraw ID
    ignore NAME      unignore NAME
    email ADDRESS    confirm CODE   mail [on|off KIND | language LANG]
    forgot NAME      reset CODE     (a server that sends mail)
    'TEXT or say TEXT  (the lobby's chat)
    help               (the lobby's keys and these commands)
    report NAME REASON, and a moderator's commands (client/model/moderation.py)

A line is read into a `LobbyRequest`: messages to send, a password to ask first, or a refusal to
show. Pure: the application sends and asks (client/screens/app.py).
"""

from __future__ import annotations

from typing import Literal

import attrs

from client.language.i18n import _, pgettext
from client.language.i18n import language as chosen_language
from client.model import moderation
from protocol.account_messages import GetGameRecords
from protocol.fields import SeatName, TimeControl
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    MailKind,
    SetEmail,
    SetMailSettings,
)
from protocol.messages import ClientMessage
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    ChallengeTerms,
    GetGames,
    GetRatings,
    Ignore,
    LobbyChat,
    Logout,
    Resume,
)

PASSWORD_ENV = "KAHUNA_PASSWORD"
# what the lobby's line asks (without echo, but for delete_confirm); "again" is a new password
# (registration, change) typed a second time; "reset" a new password after a reset's code;
# deleting the account asks its password, then its name
Asking = Literal[
    "register", "login", "old_password", "new_password", "again", "reset", "delete_password",
    "delete_confirm",
]  # fmt: skip


def local_words() -> dict[str, str]:
    """Each lobby command word -> its word in the chosen language."""
    words = {
        "register": pgettext("command", "register"),
        "login": pgettext("command", "login"),
        "logout": pgettext("command", "logout"),
        "password": pgettext("command", "password"),
        "ratings": pgettext("command", "ratings"),
        "games": pgettext("command", "games"),
        "resume": pgettext("command", "resume"),
        "challenge": pgettext("command", "challenge"),
        "accept": pgettext("command", "accept"),
        "decline": pgettext("command", "decline"),
        "withdraw": pgettext("command", "withdraw"),
        "ignore": pgettext("command", "ignore"),
        "unignore": pgettext("command", "unignore"),
        "say": pgettext("command", "say"),
        "unrated": pgettext("command", "unrated"),
        "white": pgettext("command", "white"),
        "black": pgettext("command", "black"),
        "help": pgettext("command", "help"),
        "email": pgettext("command", "email"),
        "confirm": pgettext("command", "confirm"),
        "mail": pgettext("command", "mail"),
        "forgot": pgettext("command", "forgot"),
        "reset": pgettext("command", "reset"),
        "on": pgettext("command", "on"),
        "off": pgettext("command", "off"),
        "language": pgettext("command", "language"),
        "delete-account": pgettext("command", "delete-account"),
        "download": pgettext("command", "download"),
    }
    return {k: v.lower() for k, v in words.items()}


def _english(word: str) -> str:
    back = {v: k for k, v in {**moderation.local_words(), **local_words()}.items()}
    lowered = word.lower()
    return back.get(lowered, lowered)


@attrs.frozen
class LobbyRequest:
    messages: tuple[ClientMessage, ...] = ()
    ask: Asking | None = None  # a password to ask (without echo) before sending
    name: str = ""  # the account name it is for (a reset: the mail's code)
    panel: str | None = None  # the panel to show: ratings, games, challenges, reports, modlog
    refused: str | None = None  # why nothing is sent
    help: bool = False  # the lobby's help: its keys and these commands
    said: str | None = None  # what the status line says once it is sent


def read_lobby_line(text: str) -> LobbyRequest:
    line = text.strip()
    if not line:
        return LobbyRequest()
    if line.startswith(("'", '"')):
        said = line[1:].strip()
        return LobbyRequest((LobbyChat(said),)) if said else LobbyRequest()
    word, _sep, rest = line.partition(" ")
    command, rest = _english(word), rest.strip()
    args = rest.split()
    if command == "say":
        return LobbyRequest((LobbyChat(rest),)) if rest else LobbyRequest()
    if command in ("register", "login"):
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} NAME: one name").format(command=word))
        return LobbyRequest(ask=command, name=args[0])  # type: ignore[arg-type]
    if command == "help":
        return LobbyRequest(help=True)
    if command == "logout":
        return LobbyRequest((Logout(),))
    if command == "password":
        return LobbyRequest(ask="old_password")
    if command == "delete-account":
        return LobbyRequest(ask="delete_password")
    if command == "download":
        return LobbyRequest((GetGameRecords(0),), said=_("Asking the server for your games..."))
    if command == "ratings":
        return LobbyRequest((GetRatings(),), panel="ratings")
    if command == "games":
        return LobbyRequest((GetGames(rest or None),), panel="games")
    if command in ("resume", "accept", "decline", "withdraw") and len(args) != 1:
        return LobbyRequest(refused=_("{command} ID: one id").format(command=word))
    if command == "resume":
        return LobbyRequest((Resume(args[0]),))
    if command in ("accept", "decline", "withdraw"):
        answer = {"accept": "accept", "decline": "decline", "withdraw": "withdraw"}[command]
        return LobbyRequest((AnswerChallenge(args[0], answer),), panel="challenges")  # type: ignore[arg-type]
    if command in ("ignore", "unignore"):
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} NAME: one name").format(command=word))
        return LobbyRequest((Ignore(args[0], command == "ignore"),))
    if command == "challenge":
        return _challenge(word, args)
    if command in ("email", "confirm", "mail", "forgot", "reset"):
        return _mail(command, word, args)
    moderating = moderation.moderation_request(command, word, rest)
    if moderating is not None:
        return LobbyRequest(moderating.messages, panel=moderating.panel, refused=moderating.refused)
    return LobbyRequest(
        refused=_("Unknown command {word}: '{help}' lists the commands.").format(
            word=word, help=local_words()["help"]
        )
    )


def _challenge(word: str, args: list[str]) -> LobbyRequest:
    if not args:
        return LobbyRequest(
            refused=_("{command} NAME [3d] [unrated] [white|black]").format(command=word)
        )
    name, days, rated, seat = args[0], 0, True, None
    for arg in args[1:]:
        option = _english(arg)
        if option.endswith("d") and option[:-1].isdigit():
            days = int(option[:-1])
        elif option == "unrated":
            rated = False
        elif option in ("white", "black"):
            seat = option
        else:
            return LobbyRequest(
                refused=_("{option}: not a challenge option (3d, unrated, white, black)").format(
                    option=arg
                )
            )
    clock = TimeControl(days=days) if days else None
    chosen: SeatName | None = "white" if seat == "white" else "black" if seat == "black" else None
    terms = ChallengeTerms(seat=chosen, first="white", clock=clock, rated=rated)
    said = _("Your challenge to {name} is on its way: your challenges list it until the answer.")
    return LobbyRequest((Challenge(name, terms),), panel="challenges", said=said.format(name=name))


# The kinds of mail by the words a player types for them.
MAIL_KIND_WORDS: dict[str, MailKind] = {
    "turn": "turn", "move": "turn", "clock": "clock", "time": "clock",
    "challenge": "challenge", "challenges": "challenge",
    "tournament": "tournament_round", "round": "tournament_round",
}  # fmt: skip


def _mail(command: str, word: str, args: list[str]) -> LobbyRequest:
    """Version 4's e-mail: the address, its confirmation, the settings, a password reset."""
    if command == "email":
        if not args:
            return LobbyRequest((GetMailSettings(),))
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} ADDRESS (or none)").format(command=word))
        address = None if args[0].lower() in ("none", "-") else args[0]
        said = _("A code is on its way to {address}: type confirm CODE, or follow the mail's link.")
        if address is None:
            return LobbyRequest((SetEmail(None),))
        # the mails come in the language the player reads here, the confirmation already
        reading = chosen_language()
        mail_language = reading if reading in ("en", "de", "it") else "en"
        settings = SetMailSettings(mail_language)  # type: ignore[arg-type]
        return LobbyRequest((settings, SetEmail(address)), said=said.format(address=address))
    if command == "confirm":
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} CODE: the code of the mail").format(
                command=word))  # fmt: skip
        return LobbyRequest((ConfirmEmail(args[0]),))
    if command == "forgot":
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} NAME (or your e-mail address)").format(
                command=word))  # fmt: skip
        return LobbyRequest((ForgotPassword(args[0]),))
    if command == "reset":
        if len(args) != 1:
            return LobbyRequest(refused=_("{command} CODE: the code of the mail").format(
                command=word))  # fmt: skip
        return LobbyRequest(ask="reset", name=args[0])
    # mail, mail on|off KIND..., mail language LANG
    if not args:
        return LobbyRequest((GetMailSettings(),))
    how = _english(args[0])
    if how == "language" and len(args) == 2 and args[1].lower() in ("en", "de", "it"):
        language = args[1].lower()
        return LobbyRequest((SetMailSettings(language),))  # type: ignore[arg-type]
    kinds = [MAIL_KIND_WORDS.get(_english(a)) for a in args[1:]]
    if how in ("on", "off") and args[1:] and None not in kinds:
        chosen = [k for k in kinds if k is not None]
        if how == "on":
            return LobbyRequest((SetMailSettings(None, on=chosen),))
        return LobbyRequest((SetMailSettings(None, off=chosen),))
    return LobbyRequest(
        refused=_("{command} on|off turn|clock|challenge|tournament, or {command} language"
                  " en|de|it").format(command=word)
    )  # fmt: skip
