"""Version 4's e-mail in the terminal client: the lobby's commands read into messages (in English,
German and Italian), the settings and notes said, and the help that names the commands only on a
server that sends mail."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client.language.i18n import set_language
from client.model.lobby_commands import read_lobby_line
from client.model.players import PlayersState
from client.screens.help_screen import lobby_help_lines, render_lobby_help
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    MailNote,
    MailSettings,
    SetEmail,
    SetMailSettings,
)
from protocol.messages import Welcome


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def test_the_mail_commands_are_read_into_messages() -> None:
    assert read_lobby_line("email ann@example.org").messages == (
        SetMailSettings("en"),
        SetEmail("ann@example.org"),
    )
    assert read_lobby_line("email none").messages == (SetEmail(None),)
    assert read_lobby_line("email").messages == (GetMailSettings(),)
    assert read_lobby_line("confirm AbC123").messages == (ConfirmEmail("AbC123"),)
    assert read_lobby_line("mail").messages == (GetMailSettings(),)
    assert read_lobby_line("mail off turn challenge").messages == (
        SetMailSettings(None, off=["turn", "challenge"]),
    )
    assert read_lobby_line("mail on clock").messages == (SetMailSettings(None, on=["clock"]),)
    assert read_lobby_line("mail language de").messages == (SetMailSettings("de"),)
    assert read_lobby_line("forgot Ann").messages == (ForgotPassword("Ann"),)
    reset = read_lobby_line("reset AbC123")
    assert (reset.ask, reset.name, reset.messages) == ("reset", "AbC123", ())
    for wrong in ("mail off spam", "mail language fr", "confirm", "reset", "email a b"):
        assert read_lobby_line(wrong).refused is not None, wrong


def test_the_mail_words_of_german_and_italian() -> None:
    set_language("de")
    assert read_lobby_line("bestätigen X1").messages == (ConfirmEmail("X1"),)
    assert read_lobby_line("email bo@example.org").messages[0] == SetMailSettings("de")
    assert read_lobby_line("mail aus turn").messages == (SetMailSettings(None, off=["turn"]),)
    set_language("it")
    assert read_lobby_line("dimenticata Ann").messages == (ForgotPassword("Ann"),)
    assert read_lobby_line("mail lingua it").messages == (SetMailSettings("it"),)


def test_the_settings_and_notes_are_said() -> None:
    people = PlayersState()
    people.handle(Welcome(4, "club", 16384, 300, None, None, True, [], True), "Ann")
    assert people.mail
    said = people.handle(MailSettings("ann@example.org", None, "de", ["turn", "clock"]), "Ann")
    assert said is not None and "ann@example.org" in said and "your move" in said
    said = people.handle(MailSettings(None, "new@example.org", "en", []), "Ann")
    assert said is not None and "confirm CODE" in said
    said = people.handle(MailNote("reset_sent"), "Ann")
    assert said is not None and "reset CODE" in said


def test_the_help_names_the_mail_commands_only_on_a_server_that_sends_mail() -> None:
    def text(mail: bool) -> str:
        return " ".join(f[1] for line in lobby_help_lines(80, True, mail) for f in line)

    assert "email ADDRESS" in text(True) and "forgot NAME" in text(True)
    assert "email" not in text(False) and "forgot" not in text(False)


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_the_lobby_help_with_mail_turns_its_pages_at_80x24(language: str) -> None:
    """With e-mail's commands the lobby's help is longer than 80x24 leaves it (22 rows under the
    header, above the key bar): it was cut, and the last mail commands never shown. It has pages
    now, each saying where it is; without mail it stays one page."""
    set_language(language)

    def rows(mail: bool, page: int) -> list[str]:
        return render_lobby_help(80, 22, True, mail, True, page).lines()

    first, second = rows(True, 0), rows(True, 1)
    assert all(part in first[-1] for part in ("1", "2", "Esc"))
    assert all(part in second[-1] for part in ("2", "Esc")) and first[-1] != second[-1]
    shown = "\n".join(first[:-1] + second[:-1])
    for command in ("email", "confirm", "forgot", "register NAME", "tournament"):
        assert command in shown.lower() or command in shown
    assert rows(True, 5) == second  # a page past the last shows the last
    alone = rows(False, 0)  # one page: no line says where it is
    assert not any(all(part in line for part in ("1", "2", "Esc")) for line in alone)
