"""The rules a new password must meet. The hashing itself (argon2id) is the shell's, run in its
threads (server/jobs/password_hashing.py): the core hands it out as a PasswordJob."""

from __future__ import annotations

PASSWORD_MIN = 8
PASSWORD_MAX = 200  # hashing very long inputs is a way to make the server work


def password_problem(password: str) -> str | None:
    """Why a new password is refused, as a code, or None."""
    if len(password) < PASSWORD_MIN:
        return "too_short"
    if len(password) > PASSWORD_MAX:
        return "too_long"
    if len(set(password)) < 3:
        return "too_simple"
    return None
