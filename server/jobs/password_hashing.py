"""Password hashes: argon2id through argon2-cffi, the well-kept binding. The server keeps the
encoded hash (parameters and salt inside it), never the password, and never logs either.

The work is slow on purpose (tens of milliseconds): the server runs it in a worker thread, never
on its event loop, and the core only hands it out as a PasswordJob (the rules a new password
must meet are the core's, server/core/passwords.py). Checking a password for a name that has no
account checks it against a dummy hash of the same cost, so the answer takes as long whether or
not the name exists."""

from __future__ import annotations

from typing import Literal

import argon2

Cost = Literal["server", "test"]


class Passwords:
    """`cost` "server": argon2-cffi's defaults (RFC 9106's low-memory profile); "test": the
    cheapest parameters, for tests only."""

    def __init__(self, cost: Cost = "server") -> None:
        if cost == "test":
            self._hasher = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        else:
            self._hasher = argon2.PasswordHasher()
        # a hash of the same cost as the real ones, checked for names that have none
        self._dummy = self._hasher.hash("no account has this name")

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether the password matches the stored hash (None: no account, never matches, in
        the same time)."""
        try:
            ok = self._hasher.verify(self._dummy if stored is None else stored, password)
        except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        return self._hasher.check_needs_rehash(stored)
