"""A connection logged out without asking (version 4's logged_out reason) says why, in the
player's language: another machine changed the password, or the operator changed the account."""

from __future__ import annotations

import pytest

from client.language.i18n import set_language
from client.model.players import PlayersState
from protocol.player_messages import LoggedIn, LoggedOut


@pytest.mark.parametrize(
    ("language", "reason", "words"),
    [
        ("en", "password_changed", "Your password was changed elsewhere"),
        ("en", "account_changed", "The server's operator or a moderator changed your account"),
        ("en", None, "Logged out: you play as"),
        ("de", "password_changed", "Dein Passwort wurde anderswo geändert"),
        ("it", "account_changed", "Il gestore del server o un moderatore ha modificato il tuo"),
    ],
)
def test_the_reason_is_said(language: str, reason: str | None, words: str) -> None:
    set_language(language)
    try:
        kept: list[tuple[str, str | None]] = []
        people = PlayersState(keep_token=lambda name, token: kept.append((name, token)))
        people.handle(LoggedIn("Ann", 1500, 350, 0, "tok", [], False), "Ann")
        said = people.handle(LoggedOut("Ann (guest)", reason), "Ann")  # type: ignore[arg-type]
        assert said is not None and said.startswith(words) and "Ann (guest)" in said
        assert people.account is None and kept[-1] == ("Ann", None)
    finally:
        set_language("en")
