"""The login throttle without a back door, the bounded and fair queue of password checks, the
registration limit and the new account's quiet time: in the core, with the time given and the
password work finished when the test says (as the server's hashing threads would)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from protocol.messages import Error, Hello
from protocol.player_messages import (
    Challenge,
    ChallengeTerms,
    LobbyChat,
    LoggedIn,
    LoggedOut,
    Login,
    Register,
)
from server.core.effects import Effects, PasswordJob
from server.core.login_throttle import (
    ADDRESS,
    NAME,
    NETWORK,
    PACE_CAP,
    LoginThrottle,
    network_of,
)
from server.core.password_queue import HOLD_MAX, PER_NAME, SLOTS, Check, PasswordQueue
from server.core.store import (
    AccountAction,
    AccountOp,
    KnownAddressOp,
    LoginTokenOp,
    Registration,
    RegistrationOp,
    StoredPlayers,
    hash_address,
)
from server.core.table import MemberId
from server.jobs.password_hashing import Passwords
from server.storage.sqlite_store import SqliteStorage
from tests.server.test_core import WALL, Harness, codes, of, the, writes_of

PASSWORDS = Passwords("test")
SECRET = "correct horse battery"
WRONG = "password123"


class Checks(Harness):
    """A core whose password checks wait until the test finishes them, in the order handed
    out, as the server's hashing threads would; the wall clock is the test's."""

    def __init__(self, **overrides: Any) -> None:
        overrides.setdefault("registrations_per_hour", 0)
        overrides.setdefault("new_account_quiet", 0.0)
        super().__init__(**overrides)
        self.jobs: list[PasswordJob] = []
        self.started = 0  # checks handed out in all
        self.wall = WALL

    def took(self, effects: Effects) -> Effects:
        effects = super().took(effects)
        self.jobs += effects.password_jobs
        self.started += len(effects.password_jobs)
        assert len(self.jobs) <= SLOTS  # never more under way than the threads
        return effects

    def raw(self, member: MemberId, data: bytes) -> Effects:
        return self.took(self.core.frame(member, data, self.now, self.wall))

    def tick(self, at: float) -> Effects:
        self.now = at
        return self.took(self.core.tick(at, self.wall))

    def finish(self, count: int | None = None) -> Effects:
        """Finish the first `count` checks under way (None: until none is left)."""
        merged = Effects()
        done = 0
        while self.jobs and (count is None or done < count):
            job = self.jobs.pop(0)
            result = (
                PASSWORDS.verify(job.stored, job.password)
                if job.verify
                else PASSWORDS.hash(job.password)
            )
            effects = self.took(self.core.password_done(job.job, result, self.now, self.wall))
            merged.writes += effects.writes
            merged.sends += effects.sends
            done += 1
        return merged

    def guest(self, name: str, address: str) -> MemberId:
        member = self.connect(address)
        self.send(member, Hello(3, name))
        return member

    def account(self, name: str, address: str, password: str = SECRET) -> MemberId:
        member = self.guest(name, address)
        self.send(member, Register(name, password))
        the(self.finish(), member, LoggedIn)
        return member

    def login(self, member: MemberId, name: str, password: str = WRONG) -> Effects:
        return self.send(member, Login(name, password, None))


def judged(h: Checks, member: MemberId, name: str, password: str = WRONG) -> bool:
    """Log in and finish the check at once: whether the password was judged at all."""
    effects = h.login(member, name, password)
    if codes(effects, member) == ["login_throttled"]:
        return False
    answered = h.finish()
    return bool(of(answered, member, LoggedIn) or codes(answered, member) == ["bad_login"])


# ----- the counts -------------------------------------------------------------------------------


def test_networks_are_slash_24_and_slash_64() -> None:
    assert network_of("192.0.2.77") == "192.0.2.0/24"
    assert network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert network_of("::ffff:192.0.2.7") == "192.0.2.0/24"
    assert network_of("?") == "?"


def test_each_count_ages_out_on_its_own() -> None:
    throttle = LoginThrottle()
    for _ in range(ADDRESS.free + 1):
        throttle.attempt("ann", "10.0.0.1", 0.0)
    assert throttle.refused_for("bob", "10.0.0.1", False, 0.0) == pytest.approx(2.0)
    assert throttle.refused_for("bob", "10.0.0.2", False, 0.0) == 0  # another address
    assert throttle.refused_for("bob", "10.0.0.1", True, 0.0) == 0  # Bob's own machine
    assert throttle.refused_for("ann", "10.0.0.1", True, 0.0) > 0  # but not Ann's guesser
    assert throttle.refused_for("bob", "10.0.0.1", False, 2.0) == 0  # the delay ran out
    assert throttle.name_pace("ann", 0.0) == 0  # 6 of the name's 10 free ones
    for _ in range(40):
        throttle.attempt("zed", "10.0.0.3", 0.0)
    assert throttle.refused_for("x", "10.0.0.3", False, 0.0) == ADDRESS.cap
    assert throttle.name_pace("zed", 0.0) == NAME.cap
    assert NETWORK.free == 30
    assert throttle.network_pace("10.0.0.0/24", 0.0) == NETWORK.cap
    assert throttle.refused_for("x", "10.0.0.3", False, 3 * 3600) == 0  # forgotten
    assert throttle.name_pace("zed", 3 * 3600) == 0


def test_a_success_takes_back_only_its_own_count() -> None:
    throttle = LoginThrottle()
    for victim in ("v1", "v2", "v3", "v4"):
        throttle.attempt(victim, "10.0.0.9", 0.0)
    throttle.attempt("mallory", "10.0.0.9", 0.0)
    throttle.succeeded("mallory", "10.0.0.9")  # its own account: a success
    assert throttle.addresses.count("10.0.0.9", 0.0) == 4  # the guesses stay counted
    throttle.attempt("v5", "10.0.0.9", 0.0)
    throttle.attempt("v6", "10.0.0.9", 0.0)
    assert throttle.refused_for("v7", "10.0.0.9", False, 0.0) > 0


# ----- the reset trick, the burst -----------------------------------------------------------------


def test_the_reset_trick_fails() -> None:
    """Finding 1: an attacker with an account of its own sprays a common password over 40
    names from one address, logging in to its own account after every two guesses; the
    failures from its address stay counted, and few guesses are judged."""
    h = Checks()
    for n in range(40):  # every fourth has the common password
        h.account(f"Victim{n}", f"10.1.{n}.1", WRONG if n % 4 == 0 else f"{SECRET} {n}")
    h.account("Mallory", "10.9.9.9")
    guessing = h.guest("Guess", "10.9.9.9")
    failed = broken = 0
    for n in range(40):
        effects = h.login(guessing, f"Victim{n}")
        if codes(effects, guessing) != ["login_throttled"]:
            answered = h.finish()
            if of(answered, guessing, LoggedIn):
                broken += 1
                h.disconnect(guessing)
                guessing = h.guest("Guess", "10.9.9.9")
            else:
                failed += 1
        if n % 2 == 1:  # the reset trick: log in to its own account
            assert judged(h, h.guest("Mallory", "10.9.9.9"), "Mallory", SECRET)
    assert failed == ADDRESS.free  # then every guess is refused unjudged
    assert broken <= 2


def test_a_burst_is_counted_before_it_is_judged() -> None:
    """Finding 2: 100 simultaneous guesses at one name from 50 addresses: few wait to be
    checked, the rest are refused at once, and the name's checks are paced from then on."""
    h = Checks()
    h.account("Ann", "192.168.1.7")
    members = [h.guest("x", f"10.{n}.0.1") for n in range(50) for _ in range(2)]
    for member in members:
        h.login(member, "Ann")
    refused = [m for m in members if any(isinstance(e, Error) for e in h.sent_to(m))]
    assert len(refused) == 100 - 1 - PER_NAME  # at once, unjudged (one begun, four wait)
    before = h.started
    for second in range(1, 121):  # two minutes of the answers coming back
        h.finish()
        h.advance(float(second))
    assert h.started - before <= SLOTS + PER_NAME


def test_one_check_at_a_time_per_name_and_per_connection() -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    first, second = h.guest("x", "10.0.0.1"), h.guest("y", "10.0.1.1")
    assert not codes(h.login(first, "Ann"), first)
    assert codes(h.login(first, "Ann"), first) == ["already_logged_in"]  # under way
    assert not codes(h.login(second, "Ann"), second)
    assert len(h.jobs) == 1  # the second waits for the first: one check of a name at once
    h.finish(1)
    assert len(h.jobs) == 1


# ----- the owner is never locked out --------------------------------------------------------------


def attack(h: Checks, name: str, addresses: int = 50) -> None:
    """Rounds of guesses at `name` from many addresses of as many networks, each round a
    second, until each address is throttled; then until every check has been judged or has
    waited too long."""
    members = [h.guest("x", f"10.{n}.0.1") for n in range(addresses)]
    for _ in range(ADDRESS.free + 1):
        for member in members:
            h.login(member, name)
            h.finish()
        h.advance(h.now + 1)
    while len(h.core._logins.queue) or h.jobs:
        h.finish()
        h.advance(h.now + 1)
    assert h.core._logins.throttle.name_pace(name.lower(), h.now) > 0  # the name is paced


def test_the_owner_from_a_known_address_is_judged_at_once_during_an_attack() -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    attack(h, "Ann")
    ann = h.guest("Ann", "192.168.1.7")
    h.login(ann, "Ann", SECRET)
    assert the(h.finish(), ann, LoggedIn).name == "Ann"


def test_the_owner_from_a_new_address_is_let_through_later_not_refused() -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    attack(h, "Ann")
    phone = h.guest("Ann", "172.20.5.5")
    assert not codes(h.login(phone, "Ann", SECRET), phone)  # held, not refused
    assert not h.jobs
    h.advance(h.now + PACE_CAP)
    assert the(h.finish(), phone, LoggedIn).name == "Ann"
    # and the address is the owner's from then on
    again = h.guest("Ann", "172.20.5.5")
    h.login(again, "Ann", SECRET)
    assert the(h.finish(), again, LoggedIn).name == "Ann"


def test_a_login_token_always_works() -> None:
    h = Checks()
    h.guest("Ann", "192.168.1.7")
    ann = h.guest("Ann", "192.168.1.7")
    h.send(ann, Register("Ann", SECRET))
    token = the(h.finish(), ann, LoggedIn).token
    assert token is not None
    attack(h, "Ann")
    # from an address throttled by its own guesses, for this very name
    for _ in range(ADDRESS.free + 1):
        thief = h.guest("x", "10.0.0.1")
        refused = codes(h.login(thief, "Ann"), thief) == ["login_throttled"]
        if refused:
            break
    assert refused
    effects = h.send(thief, Login("Ann", None, token))
    assert the(effects, thief, LoggedIn).name == "Ann" and not effects.password_jobs


def test_a_restart_keeps_the_known_addresses_hashed(tmp_path: Path) -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    path = tmp_path / "db.sqlite3"
    storage = SqliteStorage(path)
    for batch in h.batches:
        storage.write(batch)
    storage.close()
    # the address is kept in plain only where the account was registered from (for the
    # operator's `accounts recent`)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM registrations")
    db.commit()
    db.execute("VACUUM")
    db.close()
    assert b"192.168.1.7" not in path.read_bytes()
    storage = SqliteStorage(path)
    players = StoredPlayers(
        storage.load_accounts(), storage.load_login_tokens(),
        known_addresses=storage.load_known_addresses(),
    )  # fmt: skip
    storage.close()
    assert players.known_addresses == [("ann", hash_address("ann", "192.168.1.7"))]
    again = Checks()
    again.took(again.core.restore_players(players, 0.0, WALL))
    attack(again, "Ann")
    # Ann's machine, whose address also sprayed other names: trusted for Ann alone
    for n in range(ADDRESS.free + 1):
        sprayer = again.guest("x", "192.168.1.7")
        again.login(sprayer, f"Other{n}")
        again.finish()
    other = again.guest("x", "192.168.1.7")
    assert codes(again.login(other, "Bob"), other) == ["login_throttled"]
    ann = again.guest("Ann", "192.168.1.7")
    again.login(ann, "Ann", SECRET)
    assert the(again.finish(), ann, LoggedIn).name == "Ann"


# ----- the queue of checks ------------------------------------------------------------------------


def test_the_queue_serves_networks_and_addresses_in_turn() -> None:
    queue = PasswordQueue(LoginThrottle(), size=64)
    for job in range(1, 9):  # a flood: 8 checks from 4 addresses of one network
        n = job - 1
        assert queue.add(Check(job, job, f"name{job}", f"10.0.0.{n % 4}", 2, 0.0), 0.0)
    honest = Check(999, 999, "ann", "172.16.0.5", 2, 1.0)  # another network, the same rank
    assert queue.add(honest, 1.0)
    begun: list[Check] = []
    for _ in range(5):
        begun += queue.take(1.0)
        for check in list(queue.running.values()):
            queue.finished(check.job)
    assert begun.index(honest) <= 1  # the networks take turns
    addresses = [c.address for c in begun if c is not honest]
    assert len(set(addresses[:4])) == 4  # and the addresses within one


def test_a_clean_address_goes_before_a_flood_of_failing_ones() -> None:
    """A flood from 50 networks with failures of their own: an honest login from a fresh
    address waits for the checks under way, not for the flood."""
    queue = PasswordQueue(LoginThrottle(), size=40)
    for n in range(60):
        queue.add(Check(n, n, f"name{n}", f"10.{n % 50}.0.1", 2, 0.0), 0.0)
    assert len(queue) == 40
    assert len(queue.take(0.0)) == SLOTS - 1  # the last slot is kept from the flood
    queue.add(Check(60, 60, "name60", "10.0.0.1", 2, 0.1), 0.1)
    assert len(queue) == 40
    honest = Check(1000, 1000, "ann", "172.16.0.5", 1, 0.5)
    assert queue.add(honest, 0.5)  # the queue is full: it takes a flooder's place
    assert len(queue) == 40
    assert queue.take(0.6) == [honest]  # at once: no check of the flood has to end first


def test_a_full_queue_refuses_at_once() -> None:
    refused: list[Check] = []
    queue = PasswordQueue(LoginThrottle(), size=4)
    queue.refused = lambda check, wait: refused.append(check)
    for n in range(4):
        assert queue.add(Check(n, n, f"n{n}", f"10.{n}.0.1", 2, 0.0), 0.0)
    assert not queue.add(Check(9, 9, "n9", "10.9.0.1", 2, 0.1), 0.1)  # no better: refused
    assert queue.add(Check(10, 10, "n10", "10.10.0.1", 0, 0.2), 0.2)  # the owner: a place
    assert [c.job for c in refused] == [3]


def test_a_check_that_waited_too_long_is_refused() -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    attack(h, "Ann")
    late = [h.guest("x", f"172.{n}.0.1") for n in range(PER_NAME)]
    for member in late:
        assert not codes(h.login(member, "Ann"), member)
    effects = h.advance(h.now + HOLD_MAX + 1)
    h.finish()
    refused = [m for m in late if codes(effects, m) == ["login_throttled"]]
    assert refused  # the name's pace let at most one or two through meanwhile
    assert len(refused) >= PER_NAME - 2


def test_a_connection_gone_takes_its_waiting_check_with_it() -> None:
    h = Checks()
    h.account("Ann", "192.168.1.7")
    attack(h, "Ann")
    waiting = h.guest("x", "172.16.0.1")
    h.login(waiting, "Ann")
    assert len(h.core._logins.queue) == 1
    h.disconnect(waiting)
    assert len(h.core._logins.queue) == 0
    assert h.core._logins.throttle.addresses.count("172.16.0.1", h.now) == 0  # never judged


# ----- registrations ------------------------------------------------------------------------------


def test_an_address_registers_a_few_accounts_an_hour() -> None:
    h = Checks(registrations_per_hour=3)
    for n in range(3):
        h.account(f"Made{n}", "10.5.5.5")
    maker = h.guest("x", "10.5.5.5")
    effects = h.send(maker, Register("Made3", SECRET))
    (error,) = of(effects, maker, Error)
    assert (error.code, error.reason) == ("login_throttled", "registrations")
    assert error.params == {"seconds": "3600"}
    assert not effects.password_jobs
    h.account("Other", "10.5.6.6")  # another address may
    h.wall += 3601  # an hour later
    h.account("Made3", "10.5.5.5")
    # a restart counts the registrations in the database
    registrations = [op for batch in h.batches for op in batch if isinstance(op, RegistrationOp)]
    assert [r.address for r in registrations].count("10.5.5.5") == 4
    again = Checks(registrations_per_hour=3)
    again.wall = h.wall
    stored = [r for r in registrations if r.at > h.wall - 3600]
    restored = StoredPlayers(registrations=[Registration(r.key, r.address, r.at) for r in stored])
    again.took(again.core.restore_players(restored, 0.0, again.wall))
    maker = again.guest("x", "10.5.5.5")
    again.send(maker, Register("Fresh1", SECRET))
    again.finish()
    maker = again.guest("x", "10.5.5.5")
    again.send(maker, Register("Fresh2", SECRET))
    again.finish()
    maker = again.guest("x", "10.5.5.5")
    assert codes(again.send(maker, Register("Fresh3", SECRET)), maker) == ["login_throttled"]


def test_registrations_count_like_logins() -> None:
    h = Checks()
    member = h.guest("x", "10.7.7.7")
    for n in range(ADDRESS.free - 1):
        h.login(member, f"Nobody{n}")
        h.finish()
    h.send(member, Register("Newcomer", SECRET))
    the(h.finish(), member, LoggedIn)  # a success: it takes back its own count only
    maker = h.guest("y", "10.7.7.7")
    h.login(maker, "Nobody")
    h.finish()
    assert codes(h.send(maker, Register("Another", SECRET)), maker) == ["login_throttled"]


def new_table() -> ChallengeTerms:
    return ChallengeTerms()


def test_a_new_account_is_quiet_for_a_while() -> None:
    h = Checks(new_account_quiet=600.0)
    bob = h.account("Bob", "10.1.1.1")
    h.wall += 700
    newcomer = h.account("Newcomer", "10.2.2.2")
    (error,) = of(h.send(newcomer, LobbyChat("hello all")), newcomer, Error)
    assert (error.code, error.reason, error.params) == (
        "chat_rate_limited", "new_account", {"seconds": "600"},
    )  # fmt: skip
    (error,) = of(h.send(newcomer, Challenge("Bob", new_table())), newcomer, Error)
    assert (error.code, error.reason) == ("bad_challenge", "new_account")
    assert not codes(h.send(bob, LobbyChat("welcome")), bob)  # an older account speaks
    h.wall += 600
    assert not codes(h.send(newcomer, LobbyChat("hello all")), newcomer)
    assert not codes(h.send(newcomer, Challenge("Bob", new_table())), newcomer)


def test_the_quiet_time_may_be_turned_off() -> None:
    h = Checks(new_account_quiet=0.0)
    h.account("Bob", "10.1.1.1")
    newcomer = h.account("Newcomer", "10.2.2.2")
    assert not codes(h.send(newcomer, LobbyChat("hello all")), newcomer)


# ----- the operator's commands --------------------------------------------------------------------


def test_the_operator_disables_an_account_while_it_is_connected() -> None:
    h = Checks()
    ann = h.guest("Ann", "10.1.1.1")
    h.send(ann, Register("Ann", SECRET))
    token = the(h.finish(), ann, LoggedIn).token
    assert token is not None
    effects = h.took(h.core.account_actions([AccountAction(7, "ann", "disable", None)], 0, WALL))
    assert the(effects, ann, LoggedOut).name == "Ann (guest)"
    assert [op.account.disabled for op in writes_of(effects, AccountOp)] == [True]
    other = h.guest("x", "10.3.3.3")
    assert codes(h.send(other, Login("Ann", None, token)), other) == ["bad_login"]
    h.login(other, "Ann", SECRET)
    assert codes(h.finish(), other) == ["bad_login"]
    # a new password from the operator enables it again
    hashed = PASSWORDS.hash("operator's new words")
    h.took(h.core.account_actions([AccountAction(8, "ann", "password", hashed)], 0, WALL))
    h.login(other, "Ann", "operator's new words")
    assert the(h.finish(), other, LoggedIn).name == "Ann"


def test_logins_write_the_hashed_address_never_the_address() -> None:
    h = Checks()
    h.account("Ann", "198.51.100.23")
    ops = [op for batch in h.batches for op in batch]
    (known,) = [op for op in ops if isinstance(op, KnownAddressOp)]
    assert known.address_hash == hash_address("ann", "198.51.100.23")
    assert "198.51.100.23" not in repr([op for op in ops if not isinstance(op, RegistrationOp)])
    assert any(isinstance(op, LoginTokenOp) for op in ops)


def test_many_guesses_at_one_name_from_everywhere_are_paced() -> None:
    """An hour of guesses at Ann's password from 200 addresses of 200 networks, each as fast
    as it is let: the name's pace lets about one a minute be judged."""
    h = Checks(password_queue=64)
    h.account("Ann", "192.168.1.7")
    rng = random.Random(5)
    members = [h.guest("x", f"10.{n}.{n}.1") for n in range(200)]
    judged_guesses = 0
    while h.now < 3600:
        h.now += 0.5
        member = rng.choice(members)
        if member not in h.core._logins._busy:
            h.login(member, "Ann")
        h.advance(h.now)
        judged_guesses += len(h.jobs)
        h.finish()
    assert judged_guesses <= NAME.free + 3600 / NAME.cap + 5, judged_guesses


# ----- the client's words ---------------------------------------------------------------------


def refusals_made(h: Checks) -> dict[str, Error]:
    """The refusals the core makes for the new reasons, by "code/reason"."""
    made: dict[str, Error] = {}
    for _member, message in h.sent:
        if isinstance(message, Error) and message.reason is not None:
            made[f"{message.code}/{message.reason}"] = message
    return made


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_the_client_words_each_refusal_in_its_language(language: str) -> None:
    from catalogue.codes import ACCOUNT_REASONS
    from client.language import i18n
    from client.language.words import error_words

    h = Checks(registrations_per_hour=1, new_account_quiet=600.0, password_queue=1)
    newcomer = h.account("Newcomer", "10.1.1.1")
    h.send(newcomer, LobbyChat("hello"))
    h.send(newcomer, Challenge("Newcomer", new_table()))
    h.send(h.guest("x", "10.1.1.1"), Register("Second", SECRET))
    busy = [h.guest("x", f"10.2.{n}.1") for n in range(SLOTS + 2)]
    for member in busy:
        h.login(member, f"name{member}")
    made = refusals_made(h)
    wanted = [
        "chat_rate_limited/new_account", "bad_challenge/new_account",
        "login_throttled/registrations", "login_throttled/busy",
    ]  # fmt: skip
    assert set(wanted) <= set(made)
    i18n.set_language(language)
    try:
        for key in wanted:
            error = made[key]
            said = error_words(error.code, error.message, error.reason, error.params)
            assert said == i18n._(ACCOUNT_REASONS[key]) and said != error.message
            assert (said == ACCOUNT_REASONS[key]) == (language == "en")
    finally:
        i18n.set_language("en")


def test_a_check_refused_by_one_bound_lets_go_of_nothing() -> None:
    refused: list[Check] = []
    queue = PasswordQueue(LoginThrottle(), size=64)
    queue.refused = lambda check, wait: refused.append(check)
    for n in range(PER_NAME):  # the name full of flood checks
        assert queue.add(Check(n, n, "ann", f"10.{n}.0.1", 2, 0.0), 0.0)
    for n in range(10, 10 + 8):  # and a network full of the owner's own
        assert queue.add(Check(n, n, f"n{n}", f"172.16.0.{n}", 0, 0.0), 0.0)
    # better than the name's worst, but not than its network's: refused, and nobody let go
    assert not queue.add(Check(99, 99, "ann", "172.16.0.99", 1, 1.0), 1.0)
    assert refused == [] and len(queue) == PER_NAME + 8
