"""The mail queue's sender: the mails the core queued (server/core/mail.py), once their queueing
is stored, go to the operator's SMTP relay, one at a time, from a thread (smtplib blocks), so
that the event loop and every player's command go on meanwhile. A mail the relay took is marked
sent; one it could not take (down, refusing, too slow) is tried again after a delay that doubles
with each failure up to a cap. Nothing is lost: a mail leaves the database's queue only once
the relay took it, and a restart finds the rest there (`KahunaServer.start` hands them back).

The relay's password is read from a file or an environment variable when the server starts,
never from the command line, and is never logged; neither are the mails' addresses or codes."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import os
import smtplib
import ssl
import time
from collections.abc import Callable, Mapping
from email.message import EmailMessage
from pathlib import Path

import attrs

from server.core.config import ServerConfig
from server.core.store import MailRetryOp, MailRow, MailSentOp, StorageOp
from server.jobs.mail_text import compose

log = logging.getLogger(__name__)

SMTP_TIMEOUT = 20.0  # seconds a relay has to answer each step


@attrs.frozen
class Relay:
    """Where and how the mails go."""

    host: str
    port: int
    security: str  # starttls, tls or none
    user: str | None
    password: str | None = attrs.field(repr=False)
    sender: str
    base_url: str  # the links' http(s)://HOST[:PORT]


def relay_of(
    config: ServerConfig, environ: Mapping[str, str] = os.environ, port: int | None = None
) -> Relay | None:
    """The relay the config names (None: no mail); `port` the server's, once listening (the
    links' default). ValueError says what is wrong: a password
    file that cannot be read, an environment variable not set, a user without a password."""
    if not config.mail or config.mail_host is None:
        return None
    password = None
    if config.mail_password_file and config.mail_password_env:
        raise ValueError("--mail-password-file and --mail-password-env: one or the other")
    if config.mail_password_file:
        try:
            password = Path(config.mail_password_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ValueError(
                f"--mail-password-file {config.mail_password_file}: cannot read it:"
                f" {exc.strerror or exc}"
            ) from None
    elif config.mail_password_env:
        password = environ.get(config.mail_password_env)
        if password is None:
            raise ValueError(f"--mail-password-env: ${config.mail_password_env} is not set")
    if config.mail_user and not password:
        raise ValueError("--mail-user needs the password: --mail-password-file or -env")
    base = config.mail_url
    if base is None and config.addresses:  # the service's address: its web page is there too
        scheme, _sep, rest = config.addresses[0].partition("://")
        base = f"{'https' if scheme == 'wss' else 'http'}://{rest.split('/')[0]}"
    if base is None:
        host = config.host if config.host not in ("0.0.0.0", "::", "") else "localhost"
        host = f"[{host}]" if ":" in host else host
        base = f"http://{host}:{config.port if port is None else port}"
    return Relay(
        config.mail_host, config.mail_port, config.mail_security, config.mail_user, password,
        config.mail_from, base,
    )  # fmt: skip


def deliver(relay: Relay, message: EmailMessage) -> None:
    """Hand one mail to the relay (blocking: run it in a thread). Raises what smtplib and the
    socket raise when it cannot."""
    if relay.security == "tls":
        context = ssl.create_default_context()
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            relay.host, relay.port, timeout=SMTP_TIMEOUT, context=context
        )
    else:
        smtp = smtplib.SMTP(relay.host, relay.port, timeout=SMTP_TIMEOUT)
    with smtp:
        if relay.security == "starttls":
            smtp.starttls(context=ssl.create_default_context())
        if relay.user and relay.password:
            smtp.login(relay.user, relay.password)
        smtp.send_message(message)


def delay(attempts: int, first: float, cap: float) -> float:
    """Seconds before the next try of a mail that failed `attempts` times: doubled each time."""
    return float(min(cap, first * 2 ** max(0, attempts - 1)))


class MailSender:
    """Sends the queued mails in the background. `write` stores an op (the shell's carry_out);
    `send` hands a mail to the relay (a blocking function, run in a thread; tests give
    another); `clock` is the wall clock the queue's times are in."""

    def __init__(
        self,
        relay: Relay,
        write: Callable[[StorageOp], None],
        *,
        retry: float = 30.0,
        retry_cap: float = 3600.0,
        send: Callable[[Relay, EmailMessage], None] = deliver,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.relay = relay
        self._write = write
        self._retry = retry
        self._cap = retry_cap
        self._send = send
        self._clock = clock
        self._waiting: list[tuple[float, int, MailRow]] = []  # (next_try, order, mail)
        self._order = 0
        self._known: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: MailRow | None = None  # the mail on its way to the relay
        self.sent = 0  # mails the relay took (for tests and curious hosts)
        self.failures = 0

    def add(self, mails: list[MailRow]) -> None:
        """Mails whose queueing is stored (or that a restart found unsent)."""
        for mail in mails:
            if mail.mail_id in self._known:
                continue
            self._known.add(mail.mail_id)
            self._order += 1
            heapq.heappush(self._waiting, (mail.next_try, self._order, mail))
        self._wake.set()

    @property
    def waiting(self) -> int:
        """The mails not yet sent: queued, or on their way to the relay."""
        return len(self._waiting) + (self._sending is not None)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop sending; what is unsent stays in the database for the next start."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            if not self._waiting:
                self._wake.clear()
                await self._wake.wait()
                continue
            due, _order, mail = self._waiting[0]
            wait = due - self._clock()
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue
            heapq.heappop(self._waiting)
            self._sending = mail
            try:
                await self._try(mail)
            finally:
                self._sending = None

    async def _try(self, mail: MailRow) -> None:
        try:
            message = compose(mail, self.relay.base_url, self.relay.sender)
            await asyncio.to_thread(self._send, self.relay, message)
        except asyncio.CancelledError:
            heapq.heappush(self._waiting, (mail.next_try, 0, mail))
            raise
        except Exception as exc:  # the relay down or refusing: tried again later
            self.failures += 1
            attempts = mail.attempts + 1
            next_try = self._clock() + delay(attempts, self._retry, self._cap)
            # the reason, never the address or the mail's codes
            log.warning(
                "mail %s (%s) not sent, try %d: %s; again in %.0f s",
                mail.mail_id, mail.kind, attempts, type(exc).__name__,
                next_try - self._clock(),
            )  # fmt: skip
            again = attrs.evolve(mail, attempts=attempts, next_try=next_try)
            self._write(MailRetryOp(mail.mail_id, attempts, next_try))
            self._order += 1
            heapq.heappush(self._waiting, (next_try, self._order, again))
            return
        self.sent += 1
        self._known.discard(mail.mail_id)
        log.info("mail %s (%s) sent", mail.mail_id, mail.kind)
        self._write(MailSentOp(mail.mail_id, self._clock()))
