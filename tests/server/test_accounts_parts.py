"""The pure parts of accounts: names that are one name, password hashes (the login throttle:
tests/server/test_login_throttle.py)."""

from __future__ import annotations

import pytest

from server.core.names import account_name_problem, name_key
from server.core.passwords import password_problem
from server.jobs.password_hashing import Passwords


@pytest.mark.parametrize(
    "spelling",
    ["Ann", "ANN", "ann", "\u0410nn", "Ａｎｎ", "A\u200bnn", " Ann ", "Aпп".replace("п", "n")],
)
def test_look_alike_spellings_are_one_name(spelling: str) -> None:
    assert name_key(spelling) == name_key("Ann")


def test_digits_and_letters_that_pass_for_each_other_are_one_name() -> None:
    assert name_key("B0b") == name_key("Bob")
    assert name_key("Wi11iam") == name_key("William") == name_key("WiIIiam")
    assert name_key("Rnarco") == name_key("Marco")
    assert name_key("Ole") != name_key("Olé")  # accents make another name
    assert name_key("Ann") != name_key("Anna")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("A", "too_short"),
        ("x" * 21, "too_long"),
        ("Ann!", "bad_characters"),
        (" Ann", "bad_characters"),
        ("Ann  Lee", "bad_characters"),
        ("1234", "only_digits"),
        ("Computer", "reserved"),
        ("c0mputer 2", "reserved"),
        ("Operator", "reserved"),  # the moderation log's name for the operator
        ("0perator-x", "reserved"),
        ("Ann Lee", None),
        ("Zoë_99", None),
        ("Жанна", None),
    ],
)
def test_which_names_may_be_registered(name: str, problem: str | None) -> None:
    assert account_name_problem(name) == problem


def test_passwords_are_hashed_with_argon2id_and_checked() -> None:
    passwords = Passwords("test")
    stored = passwords.hash("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert passwords.verify(stored, "correct horse")
    assert not passwords.verify(stored, "correct horsE")
    assert not passwords.verify(None, "correct horse")  # no account: the dummy hash
    assert not passwords.verify("not a hash", "correct horse")
    assert password_problem("short") == "too_short"
    assert password_problem("a" * 201) == "too_long"
    assert password_problem("abababab") == "too_simple"
    assert password_problem("correct horse") is None
