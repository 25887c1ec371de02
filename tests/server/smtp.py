"""A real SMTP server for the mail tests: aiosmtpd on a free port of 127.0.0.1, in its own thread,
keeping every message it is handed, with a way to take it down and bring it back on the same
port (a relay that is down)."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Mailbox:
    """What the SMTP server received, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        parsed = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        self.envelopes.append((str(envelope.mail_from), list(envelope.rcpt_tos)))
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.box = Mailbox()
        self._controller: Controller | None = None

    def up(self) -> None:
        self._controller = Controller(self.box, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def down(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def messages(self) -> list[EmailMessage]:
        return self.box.messages

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """The first `count` messages, once they have come."""
        end = time.monotonic() + timeout
        while len(self.messages) < count:
            if time.monotonic() > end:
                raise AssertionError(f"{len(self.messages)} mails came, not {count}")
            await asyncio.sleep(0.02)
        return self.messages[:count]

    def settings(self) -> dict[str, Any]:
        """The server's config for this relay (without TLS, on loopback)."""
        return {
            "mail_host": "127.0.0.1",
            "mail_port": self.port,
            "mail_security": "none",
            "mail_from": "kahuna@club.test",
        }


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    text: str = part.get_content()
    return text


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.up()
    try:
        yield server
    finally:
        server.down()
