"""The server tests' fixtures beside tests/conftest.py's: a real SMTP server (smtp.py)."""

from __future__ import annotations

from tests.server.smtp import smtp

__all__ = ["smtp"]
