"""Version 4's e-mail in the core: what is sent to whom and when, sans I/O. A mail is a storage op
(MailOp, the queue's row) and a MailRow among the effects; the shell's sender
(server/jobs/mail_sender.py) sends it once it is stored, and makes its text then
(server/jobs/mail_text.py).

- An account's address is confirmed by a code sent to it (typed: `confirm_email`; or the mail's
  link, server/net/mail_links.py): nothing else goes to an address before.
- A password reset is asked by name or address (`forgot_password`, the answer the same whether
  or not such an account exists) and made with the mail's code (`reset_password`, or the page
  of the link): good once, for RESET_FOR seconds. Requests are counted
  (server/core/mail_throttle.py).
- Notifications, each a setting of the account (`set_mail_settings`): its move in a game of days
  (once a day per game at most), that game's time running low, a challenge received, a
  tournament's round paired; none while a client of the account is connected, for it sees them
  there. Each mail carries a link that turns its kind off.

Every code is random (the core's rng: the operating system's CSPRNG in the server), kept only as
its hash, compared in constant time, and goes nowhere but into its mail: never into a frame or
the log. An address goes only to its account's own connections (`mail_settings`)."""

from __future__ import annotations

import base64
import hmac
from collections.abc import Callable
from typing import Any

import attrs

from protocol.errors import ErrorCode
from protocol.mail_messages import (
    MAIL_KINDS,
    MailKind,
    MailLanguage,
    MailNote,
    MailSettings,
)
from server.core.accounts import Account
from server.core.context import Context
from server.core.login_throttle import network_of
from server.core.logins import throttled
from server.core.mail_state import OFF_LINKS_KEPT, SENT_KEPT
from server.core.mail_throttle import (
    PER_ACCOUNT,
    PER_ADDRESS,
    PER_MAILBOX,
    PER_NETWORK,
    MailThrottle,
)
from server.core.names import name_key
from server.core.passwords import password_problem
from server.core.session import Session
from server.core.sessions import clean_text, logged_in_account
from server.core.settings import SettingError, mail_address
from server.core.store import MailOp, MailRow, hash_token
from server.core.table import TableError

CODE_BYTES = 16  # 128 bits: a code is a bearer's key to the account's address or password
CONFIRM_FOR = 2 * 86400.0  # seconds a confirmation code is good for
RESET_FOR = 30 * 60.0  # seconds a reset code is good for
TURN_EVERY = 86400.0  # at most one "your move" mail per game in this many seconds
CLOCK_LOW = 0.25  # "your time runs low" once a move's time left falls under this share...
CLOCK_LOW_MOST = 86400.0  # ...or under a day, whichever is less
CLOCK_LOOK = 300.0  # seconds between looks at the games of days' clocks


def _hash(code: str) -> str:
    return hash_token(code).hex()


def _same(code: str, stored: str | None) -> bool:
    """Whether `code` is the one whose hash is stored, compared in constant time."""
    return stored is not None and hmac.compare_digest(_hash(code), stored)


@attrs.frozen
class LinkLook:
    """What a mail's link would do, seen without doing it: the page of the link shows it with a
    button, and only the button's request acts (server/net/mail_links.py), for mail scanners
    and link previews fetch every link of a mail. For a good confirmation code, the account's
    name and the address it confirms: the mail that carried the code named both, so whoever
    holds the code learns nothing new; a wrong code is told nothing but that."""

    good: bool
    name: str = ""
    address: str = ""


class MailDesk:
    def __init__(self, ctx: Context, reset_password: Callable[[Session, str, str, float], None]):
        self.ctx = ctx
        self._reset_password = reset_password  # Logins.reset_password: the hashing
        self.throttle = MailThrottle()
        self._next_look = 0.0

    @property
    def on(self) -> bool:
        return self.ctx.config.mail

    def _ready(self) -> None:
        if not self.on:
            raise TableError(ErrorCode.NO_MAIL, "this server sends no e-mail")

    # ----- the messages -------------------------------------------------------------------------

    def settings(self, session: Session) -> None:
        self._ready()
        account = logged_in_account(self.ctx, session, "log in to see your mail settings")
        self.ctx.send(session.member, self._settings_of(account))

    def set_email(self, session: Session, address: str | None) -> None:
        self._ready()
        ctx = self.ctx
        account = logged_in_account(ctx, session, "log in to give your e-mail address")
        state = account.mail
        if address is None or not address.strip():
            state.address = state.pending = state.confirm_hash = None
            state.off_hashes.clear()
        else:
            try:
                given = mail_address(address)
            except SettingError:
                raise TableError(ErrorCode.BAD_EMAIL, "this is no e-mail address") from None
            counts = [
                ("confirm account", account.key, PER_ACCOUNT),
                ("mailbox", given.casefold(), PER_MAILBOX),
            ]
            if not self.throttle.allow(counts, ctx.wall):
                raise throttled(
                    "mail", "too many mails asked for; try again in {seconds} s", 3600.0
                )
            code = self._code()
            state.pending = given
            state.confirm_hash = _hash(code)
            state.confirm_until = ctx.wall + CONFIRM_FOR
            self._queue(given, "confirm", state.language, {"name": account.name, "code": code})
        ctx.write(account.op())
        self._tell(account)

    def confirm(self, session: Session, code: str) -> None:
        self._ready()
        account = logged_in_account(self.ctx, session, "log in to confirm your e-mail address")
        if not self._confirm(account, code):
            raise TableError(ErrorCode.BAD_CODE, "no such code, or it expired")

    def confirm_link(self, code: str) -> bool:
        """The confirmation mail's link was followed: whether its code confirmed an address."""
        account = self._confirming(code) if self.on else None
        return account is not None and self._confirm(account, code)

    def look(self, kind: str, code: str) -> LinkLook:
        """What following a mail's link (`kind` "confirm" or a kind of mail to turn off) would do
        now, with no effect: the same tests as confirm_link and turn_off make."""
        if not self.on:
            return LinkLook(False)
        if kind != "confirm":
            return LinkLook(self._turning_off(kind, code) is not None)
        account = self._confirming(code)
        if account is None or account.mail.pending is None:
            return LinkLook(False)
        return LinkLook(True, account.name, account.mail.pending)

    def _confirming(self, code: str) -> Account | None:
        """The account whose address waits for this confirmation code, while it is good."""
        hashed, wall = _hash(code), self.ctx.wall
        for account in self.ctx.accounts.by_key.values():
            state = account.mail
            stored = state.confirm_hash
            if state.pending is None or stored is None or wall > state.confirm_until:
                continue
            if hmac.compare_digest(hashed, stored):
                return account
        return None

    def _turning_off(self, kind: str, code: str) -> Account | None:
        """The account one of whose latest mails carried this link to turn a kind off."""
        if kind not in MAIL_KINDS:
            return None
        hashed = _hash(code)  # once, not once an account
        for account in self.ctx.accounts.by_key.values():
            if any(hmac.compare_digest(hashed, stored) for stored in account.mail.off_hashes):
                return account
        return None

    def _confirm(self, account: Account, code: str) -> bool:
        state = account.mail
        good = _same(code, state.confirm_hash)
        if not good or state.pending is None or self.ctx.wall > state.confirm_until:
            return False
        state.address, state.pending, state.confirm_hash = state.pending, None, None
        self.ctx.write(account.op())
        self._tell(account)
        return True

    def change_settings(
        self,
        session: Session,
        language: MailLanguage | None,
        on: list[MailKind],
        off: list[MailKind],
    ) -> None:
        self._ready()
        account = logged_in_account(self.ctx, session, "log in to change your mail settings")
        if language is not None:
            account.mail.language = language
        account.mail.off = (account.mail.off - set(on)) | set(off)
        self.ctx.write(account.op())
        self._tell(account)

    def forgot(self, session: Session, name: str) -> None:
        """A reset mail to the account named (or with this confirmed address), if there is one
        and the counts allow; the answer is the same in every case."""
        self._ready()
        ctx = self.ctx
        asked = clean_text(name).strip()
        address = session.address
        room = self.throttle.allow(
            [("asker", address, PER_ADDRESS), ("network", network_of(address), PER_NETWORK)],
            ctx.wall,
        )
        account = self._account_of(asked) if room else None
        state = None if account is None else account.mail
        if (
            account is not None
            and state is not None
            and state.address is not None
            and not account.disabled
            and self.throttle.allow(
                [
                    ("reset account", account.key, PER_ACCOUNT),
                    ("mailbox", state.address.casefold(), PER_MAILBOX),
                ],
                ctx.wall,
            )
        ):
            code = self._code()
            state.reset_hash = _hash(code)
            state.reset_until = ctx.wall + RESET_FOR
            ctx.write(account.op())
            params = {"name": account.name, "code": code}
            self._queue(state.address, "reset", state.language, params)
        ctx.send(session.member, MailNote("reset_sent"))

    def _account_of(self, asked: str) -> Account | None:
        accounts = self.ctx.accounts
        if "@" in asked:
            wanted = asked.casefold()
            for account in accounts.by_key.values():
                if account.mail.address is not None and account.mail.address.casefold() == wanted:
                    return account
            return None
        return accounts.get(name_key(asked)) if asked else None

    def reset(self, session: Session, code: str, password: str, now: float) -> None:
        """A reset mail's code with the new password: the code is used up at once (good once),
        the password hashed (Logins.reset_password)."""
        self._ready()
        problem = password_problem(password)
        if problem is not None:
            raise TableError.refused(ErrorCode.BAD_PASSWORD, problem, "this password is refused")
        account = self.reset_account(code)
        if account is None:
            raise TableError(ErrorCode.BAD_CODE, "no such code, or it expired or was used")
        # the hashing queued first: a connection with a login under way is refused before the
        # code is used up
        self._reset_password(session, account.key, password, now)
        account.mail.reset_hash = None
        self.ctx.write(account.op())

    def reset_account(self, code: str) -> Account | None:
        """The account whose reset code this is, while it is good."""
        wall = self.ctx.wall
        for account in self.ctx.accounts.by_key.values():
            state = account.mail
            if _same(code, state.reset_hash) and wall <= state.reset_until and not account.disabled:
                return account
        return None

    def turn_off(self, kind: str, code: str) -> bool:
        """A mail's link to turn its kind off was followed: whether its code was good."""
        account = self._turning_off(kind, code) if self.on else None
        if account is None:
            return False
        account.mail.off.add(kind)
        self.ctx.write(account.op())
        self._tell(account)
        return True

    # ----- the notifications --------------------------------------------------------------------

    def notify(self, key: str, kind: MailKind, params: dict[str, Any], table_id: str = "") -> None:
        """An event the account's player may want a mail of (Context.mail_notice)."""
        ctx = self.ctx
        account = ctx.accounts.by_key.get(key)
        if not self.on or account is None or account.disabled:
            return
        state = account.mail
        if state.address is None or kind in state.off or self._connected(key):
            return
        if kind == "turn":
            last = state.turn_sent.get(table_id)
            if last is not None and ctx.wall - last < TURN_EVERY:
                return
            state.turn_sent[table_id] = ctx.wall
            _keep_latest(state.turn_sent)
        off = self._code()
        state.off_hashes.append(_hash(off))
        del state.off_hashes[:-OFF_LINKS_KEPT]
        ctx.write(account.op())
        full = {"name": account.name, "off": off, **params}
        if table_id:
            full["table_id"] = table_id
        self._queue(state.address, kind, state.language, full)

    def look_at_clocks(self, now: float) -> None:
        """Every CLOCK_LOOK seconds: a game of days whose player to move has little time left
        tells them (once for that move)."""
        if not self.on or now < self._next_look:
            return
        self._next_look = now + CLOCK_LOOK
        for table in self.ctx.lobby.tables.values():
            clock = table.clock
            if clock is None or not table.correspondence or table.closed:
                continue
            if table.status != "playing" or table.game.is_over:
                continue
            seat = table.game.to_move
            holder, other = table.seats[seat], table.seats[seat.other]
            if holder is None or holder.account is None:
                continue
            left = clock.left_at(seat, now)
            if left > min(CLOCK_LOW * clock.per_move, CLOCK_LOW_MOST):
                continue
            account = self.ctx.accounts.by_key.get(holder.account)
            if account is None or account.mail.clock_sent.get(table.table_id) == table.version:
                continue
            account.mail.clock_sent[table.table_id] = table.version
            _keep_latest(account.mail.clock_sent)
            opponent = "?" if other is None else other.name
            hours = max(1, round(left / 3600))
            self.notify(
                account.key, "clock", {"opponent": opponent, "hours": hours}, table.table_id
            )

    def _connected(self, key: str) -> bool:
        return any(not s.closing for s in self.ctx.account_sessions.of(key))

    # ----- helpers ------------------------------------------------------------------------------

    def _code(self) -> str:
        raw = self.ctx.rng.randbytes(CODE_BYTES)
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")

    def _queue(self, to: str, kind: str, language: str, params: dict[str, Any]) -> None:
        ctx = self.ctx
        params = {"server": ctx.config.server_name, **params}
        row = MailRow(ctx.rng.randbytes(8).hex(), to, kind, language, params, ctx.wall, 0, ctx.wall)
        ctx.write(MailOp(row))
        ctx.effects.mails.append(row)

    def _settings_of(self, account: Account) -> MailSettings:
        state = account.mail
        language: MailLanguage = (
            "de" if state.language == "de" else "it" if state.language == "it" else "en"
        )
        notify = [kind for kind in MAIL_KINDS if kind not in state.off]
        return MailSettings(state.address, state.pending, language, notify)

    def _tell(self, account: Account) -> None:
        """The account's settings to its own connections of version 4 (no one else's)."""
        message = self._settings_of(account)
        self.ctx.send_all(
            [
                (s.member, message)
                for s in self.ctx.account_sessions.of(account.key)
                if s.version >= 4 and not s.closing
            ]
        )


def _keep_latest(sent: dict[str, Any]) -> None:
    while len(sent) > SENT_KEPT:
        del sent[next(iter(sent))]
