"""Version 4's messages about e-mail, as frozen attrs classes; docs/protocol.md, Version 4, E-mail,
says who sends what. Only a server whose `welcome` says `mail: true` takes them (else error
`no_mail`). An account's address and its settings go to that account's own connections only, in
`mail_settings`; a code (a confirmation's, a reset's) comes only in a mail, never in a frame."""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from protocol.fields import since_v4

# The mails a player may turn on and off, each one a setting (all on once an address is
# confirmed): your move in a game of days, its time running low, a challenge received, a
# tournament's round paired.
MailKind = Literal["turn", "clock", "challenge", "tournament_round"]
MAIL_KINDS: tuple[MailKind, ...] = ("turn", "clock", "challenge", "tournament_round")
MailLanguage = Literal["en", "de", "it"]
MailNoteName = Literal["reset_sent", "password_reset"]

# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class SetEmail:
    """Version 4: give the account an e-mail address (nil: none any more). The server sends a
    code to it; nothing else goes there until it is confirmed (`confirm_email`, or the mail's
    link). Answer: `mail_settings`, the address as `pending`."""

    TYPE: ClassVar[str] = "set_email"
    address: str | None


@attrs.frozen
class ConfirmEmail:
    """Version 4: the code of the confirmation mail, typed; answer `mail_settings`."""

    TYPE: ClassVar[str] = "confirm_email"
    code: str


@attrs.frozen
class GetMailSettings:
    """Version 4: the account's address and mail settings (answer: `mail_settings`)."""

    TYPE: ClassVar[str] = "get_mail_settings"


@attrs.frozen
class SetMailSettings:
    """Version 4: the language of the account's mails (nil: as it is), the kinds of mail turned
    on and those turned off (the others stay as they are). Answer: `mail_settings`."""

    TYPE: ClassVar[str] = "set_mail_settings"
    language: MailLanguage | None = since_v4(None)
    on: list[MailKind] = since_v4(attrs.Factory(list))
    off: list[MailKind] = since_v4(attrs.Factory(list))


@attrs.frozen
class ForgotPassword:
    """Version 4: ask for a password reset mail for the account of this name, or with this
    confirmed address; needs no login. The answer, `mail_note` `reset_sent`, is the same
    whether or not there is such an account."""

    TYPE: ClassVar[str] = "forgot_password"
    name: str


@attrs.frozen
class ResetPassword:
    """Version 4: the code of a reset mail (good once, for 30 minutes) and the new password;
    needs no login. Answer: `mail_note` `password_reset` (then log in), or `bad_code`."""

    TYPE: ClassVar[str] = "reset_password"
    code: str
    password: str = attrs.field(repr=False)


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class MailSettings:
    """Version 4, to the account's own connections only: its confirmed address (nil: none),
    the one waiting for its confirmation (nil: none), the language of its mails and the kinds
    it gets."""

    TYPE: ClassVar[str] = "mail_settings"
    address: str | None
    pending: str | None
    language: MailLanguage
    notify: list[MailKind]


@attrs.frozen
class MailNote:
    """Version 4: `reset_sent`: a reset mail goes to the account's address if there is such an
    account with a confirmed address (said the same either way); `password_reset`: the
    password is changed, every login of the account logged out."""

    TYPE: ClassVar[str] = "mail_note"
    note: MailNoteName
