"""The pure parts of accounts: names that are one name, password hashes, the login throttle."""

from __future__ import annotations

import random

import pytest

from server.login_throttle import ADDRESS_CAP, FREE, LoginThrottle
from server.names import account_name_problem, name_key
from server.passwords import Passwords, password_problem


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


def test_the_throttle_grows_per_address_and_forgets() -> None:
    throttle = LoginThrottle()
    now = 0.0
    for _ in range(FREE):
        assert throttle.check("ann", "10.0.0.1", now) == 0
        throttle.failed("ann", "10.0.0.1", now)
    throttle.failed("ann", "10.0.0.1", now)
    assert throttle.check("bob", "10.0.0.1", now) == pytest.approx(2.0)  # the address waits
    assert throttle.check("bob", "10.0.0.2", now) == 0  # another address does not
    for _ in range(30):
        throttle.failed("zed", "10.0.0.3", now)
    assert throttle.check("x", "10.0.0.3", now) == ADDRESS_CAP
    assert throttle.check("x", "10.0.0.3", now + 3 * 3600) == 0  # forgotten
    throttle.succeeded("ann", "10.0.0.1", now)
    assert throttle.check("bob", "10.0.0.1", now) == 0


def test_ten_thousand_guesses_from_fifty_addresses_find_little_and_spare_the_owner() -> None:
    """Each of 50 addresses guesses Ann's password as fast as it is let through, for an hour;
    meanwhile Ann logs in from her usual address now and then and is never held back."""
    throttle = LoginThrottle()
    throttle.succeeded("ann", "192.168.1.7", 0.0)  # Ann's machine, known to the account
    rng = random.Random(5)
    tried = attempts = 0
    now = 0.0
    owner_waits = []
    while attempts < 10_000:
        now += 0.36  # 10,000 attempts spread over an hour
        address = f"10.0.{rng.randrange(50)}.1"
        attempts += 1
        if throttle.check("ann", address, now) == 0:
            tried += 1  # this guess would reach the password check
            throttle.failed("ann", address, now)
        if attempts % 500 == 0:
            owner_waits.append(throttle.check("ann", "192.168.1.7", now))
            throttle.succeeded("ann", "192.168.1.7", now)
    assert tried < 40, tried  # the free failures and then a doubling delay on the name
    assert owner_waits == [0.0] * len(owner_waits)
    assert throttle.check("bob", "172.16.0.1", now) == 0  # others log in as ever
