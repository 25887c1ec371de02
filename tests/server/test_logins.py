"""Version 3's accounts in the core, without sockets: register, log in with a password or a
token, log out, change the password, names reserved in every spelling, the throttle, and the
bytes sent, which never hold a password, a hash or another player's token."""

from __future__ import annotations

import pytest

from protocol.codec import encode
from protocol.messages import Error, Hello, Welcome
from protocol.player_messages import (
    ChangePassword,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PasswordChanged,
    Register,
)
from server.core.effects import Effects
from server.core.store import (
    AccountOp,
    AccountRow,
    DropLoginTokensOp,
    LoginTokenOp,
    StoredPlayers,
    hash_token,
)
from server.core.table import MemberId
from server.jobs.password_hashing import Passwords
from tests.server.test_core import Harness, codes, of, the, writes_of

PASSWORDS = Passwords("test")
SECRET = "correct horse battery"


class Accounts(Harness):
    """A harness whose I/O layer does the password work at once, as the server's threads do."""

    def took(self, effects: Effects) -> Effects:
        effects = super().took(effects)
        for job in effects.password_jobs:
            result = (
                PASSWORDS.verify(job.stored, job.password)
                if job.verify
                else PASSWORDS.hash(job.password)
            )
            done = self.took(self.core.password_done(job.job, result, self.now, 1.7e9))
            effects.writes += done.writes
            effects.sends += done.sends
        return effects

    def guest(self, name: str, version: int = 3, address: str | None = None) -> MemberId:
        member = self.connect(address)
        self.send(member, Hello(version, name))
        return member

    def account(self, name: str, password: str = SECRET) -> tuple[MemberId, str]:
        member = self.guest(name)
        logged = the(self.send(member, Register(name, password)), member, LoggedIn)
        assert logged.token is not None
        return member, logged.token

    def written_accounts(self) -> tuple[list[AccountRow], list[tuple[bytes, str]]]:
        """Every account row and every login token (its hash, the account's key) written so
        far, in order: what a database would give a restarted server."""
        ops = [op for batch in self.batches for op in batch]
        rows = [op.account for op in ops if isinstance(op, AccountOp)]
        tokens = [(op.token_hash, op.key) for op in ops if isinstance(op, LoginTokenOp)]
        return rows, tokens


def test_register_logs_in_and_keeps_only_a_hash() -> None:
    h = Accounts()
    ann = h.guest("Ann")
    effects = h.send(ann, Register("Ann", SECRET))
    logged = the(effects, ann, LoggedIn)
    assert (logged.name, logged.rating, logged.deviation, logged.games) == ("Ann", 1500, 350, 0)
    assert logged.created and logged.token
    (op,) = writes_of(effects, AccountOp)
    assert op.account.password_hash.startswith("$argon2id$")
    assert SECRET not in repr(effects.writes)
    assert writes_of(effects, LoginTokenOp)[0].token_hash == hash_token(logged.token)


def test_password_and_token_logins() -> None:
    h = Accounts()
    _, token = h.account("Ann")
    again = h.guest("Annie")
    logged = the(h.send(again, Login("ann", SECRET, None)), again, LoggedIn)
    assert logged.name == "Ann" and logged.token and not logged.created
    third = h.guest("x")
    by_token = h.send(third, Login("ANN", None, token))
    assert not by_token.password_jobs  # no hashing for a token
    assert the(by_token, third, LoggedIn).token is None
    assert codes(h.send(third, Login("Ann", SECRET, None)), third) == ["already_logged_in"]


@pytest.mark.parametrize(
    "login",
    [Login("Ann", "wrong horse battery", None), Login("Nobody", SECRET, None)],
)
def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(login: Login) -> None:
    h = Accounts()
    h.account("Ann")
    guest = h.guest("Guest")
    effects = h.send(guest, login)
    (error,) = of(effects, guest, Error)
    assert (error.code, error.message) == ("bad_login", "no such name and password")
    assert not writes_of(effects, AccountOp)


def test_a_bad_token_is_refused() -> None:
    h = Accounts()
    h.account("Ann")
    guest = h.guest("Guest")
    assert codes(h.send(guest, Login("Ann", None, "not-a-token")), guest) == ["bad_login"]
    assert codes(h.send(guest, Login("Ann", None, None)), guest) == ["bad_login"]


@pytest.mark.parametrize("spelling", ["Ann", "ANN", "\u0410nn", "Ａnn", "A\u200bnn"])
def test_a_guest_cannot_take_a_registered_name_in_any_spelling(spelling: str) -> None:
    h = Accounts()
    h.account("Ann")
    for version in (1, 2, 3):
        guest = h.connect()
        welcome = the(h.send(guest, Hello(version, spelling)), guest, Welcome)
        session = h.core.sessions[guest]
        assert session.name != "Ann" and session.name is not None
        assert session.name.endswith(" (guest)")
        if version == 3:
            assert (welcome.name, welcome.name_note) == (session.name, "name_registered")
    taker = h.guest("Someone")
    # the spellings that the name rules refuse outright (server/core/names.py) are refused as such
    refused = ["name_registered"] if spelling.isascii() else ["bad_account_name"]
    assert codes(h.send(taker, Register(spelling, SECRET)), taker) == refused


@pytest.mark.parametrize(
    ("name", "password", "code", "reason"),
    [
        ("A", SECRET, "bad_account_name", "too_short"),
        ("Computer", SECRET, "bad_account_name", "reserved"),
        ("Ann", "short", "bad_password", "too_short"),
        ("Ann", "aaaaaaaaaa", "bad_password", "too_simple"),
    ],
)
def test_register_refusals_carry_their_reason(
    name: str, password: str, code: str, reason: str
) -> None:
    h = Accounts()
    guest = h.guest("Guest")
    (error,) = of(h.send(guest, Register(name, password)), guest, Error)
    assert (error.code, error.reason) == (code, reason)


def test_logout_forgets_the_token_it_came_with() -> None:
    h = Accounts()
    ann, token = h.account("Ann")
    effects = h.send(ann, Logout())
    assert the(effects, ann, LoggedOut).name == "Ann (guest)"
    assert writes_of(effects, DropLoginTokensOp) == [DropLoginTokensOp("ann", hash_token(token))]
    other = h.guest("x")
    assert codes(h.send(other, Login("Ann", None, token)), other) == ["bad_login"]
    assert codes(h.send(ann, Logout()), ann) == ["login_required"]


def test_change_password_checks_the_old_one_and_revokes_every_token() -> None:
    h = Accounts()
    ann, token = h.account("Ann")
    (error,) = of(h.send(ann, ChangePassword("not it at all", "new secret words")), ann, Error)
    assert (error.code, error.reason) == ("bad_password", "wrong_password")
    effects = h.send(ann, ChangePassword(SECRET, "new secret words"))
    new_token = the(effects, ann, PasswordChanged).token
    assert DropLoginTokensOp("ann", None) in writes_of(effects, DropLoginTokensOp)
    other = h.guest("x")
    assert codes(h.send(other, Login("Ann", None, token)), other) == ["bad_login"]
    assert codes(h.send(other, Login("Ann", SECRET, None)), other) == ["bad_login"]
    assert the(h.send(other, Login("Ann", None, new_token)), other, LoggedIn)


def test_failed_logins_are_throttled_before_any_hashing() -> None:
    h = Accounts()
    h.account("Ann")
    thief = h.guest("Thief", address="10.9.9.9")
    for _ in range(5):  # free; each a real check of the password
        assert h.send(thief, Login("Ann", "guess guess guess", None)).password_jobs
    effects = h.send(thief, Login("Ann", "guess guess guess", None))
    assert not effects.password_jobs
    (error,) = of(effects, thief, Error)
    assert error.code == "login_throttled" and error.params == {"seconds": "1"}
    # the same from an address that never failed, for a name that does not exist
    unknown = h.guest("Other", address="10.9.9.9")
    assert codes(h.send(unknown, Login("Nobody", "guess guess guess", None)), unknown) == [
        "login_throttled"
    ]


def test_accounts_are_messages_of_version_3_only() -> None:
    h = Accounts()
    for version in (1, 2):
        old = h.guest("Old", version=version)
        effects = h.raw(old, encode(Register("Old", SECRET), 3))
        assert codes(effects, old) == ["unknown_type"]


def test_accounts_can_be_turned_off() -> None:
    h = Accounts(accounts=False)
    guest = h.guest("Ann")
    assert codes(h.send(guest, Register("Ann", SECRET)), guest) == ["no_accounts"]


def test_restored_accounts_and_tokens_work_after_a_restart() -> None:
    h = Accounts()
    _, token = h.account("Ann")
    rows, tokens = h.written_accounts()
    again = Accounts()
    again.took(again.core.restore_players(StoredPlayers(rows[-1:], tokens), 0.0, 0.0))
    guest = again.guest("Ann")
    assert again.core.sessions[guest].name == "Ann (guest)"
    assert the(again.send(guest, Login("Ann", None, token)), guest, LoggedIn).name == "Ann"


def test_no_password_hash_or_other_players_token_is_ever_sent() -> None:
    h = Accounts()
    ann, ann_token = h.account("Ann", "ann's long secret")
    bob, bob_token = h.account("Bob", "bob's long secret")
    h.send(bob, Login("Ann", "bob guesses wrong", None))
    h.send(ann, ChangePassword("ann's long secret", "ann's newer secret"))
    hashes = [
        op.account.password_hash.encode()
        for batch in h.batches
        for op in batch
        if isinstance(op, AccountOp)
    ]
    for member, secrets in (
        (ann, [b"bob's long secret", bob_token.encode()]),
        (bob, [b"ann's long secret", b"ann's newer secret", ann_token.encode()]),
    ):
        sent = b"".join(encode(m) for m in h.sent_to(member))
        for secret in [*secrets, *hashes, b"argon2"]:
            assert secret not in sent
