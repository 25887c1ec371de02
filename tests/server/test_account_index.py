"""The core's index of the connections by account (server/core/session.py, AccountSessions),
in the core without sockets: through a scripted series of every way a connection's account
changes (logins by password and by token, logouts, a connection moved from one account to
another, disconnects, a connection the shell is closing, a password change, a reset, the
operator's and a moderator's disabling, an account's deletion) it holds after each step what a
scan of every connection finds, and the notes of the players reach exactly those connections.
(tests/server/test_core.py's harness checks the same after every event of every core test.)"""

from __future__ import annotations

from protocol.account_messages import DeleteAccount
from protocol.mail_messages import ForgotPassword, MailNote, ResetPassword
from protocol.moderation_messages import Moderate
from protocol.player_messages import (
    Challenge,
    ChangePassword,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PlayerNote,
)
from server.core.names import name_key
from server.core.store import AccountAction
from server.core.table import MemberId
from tests.server.test_challenges import DAYS3
from tests.server.test_core import WALL, index_matches_scan, of, the
from tests.server.test_logins import SECRET
from tests.server.test_mail_core import ADDRESS, Mail

NEW = "a new good password"


def logged_in(h: Mail, key: str) -> list[MemberId]:
    """The account's connections as the index holds them, checked against a full scan first."""
    index_matches_scan(h.core)
    return [s.member for s in h.core.account_sessions.of(key)]


def login(h: Mail, name: str, password: str = SECRET) -> MemberId:
    member = h.guest4(name)
    the(h.send(member, Login(name, password, None)), member, LoggedIn)
    return member


def test_the_index_follows_every_change_of_a_connection_s_account() -> None:
    h = Mail()
    index = h.core.account_sessions
    ann, ann_token = h.confirmed("Ann", ADDRESS)
    bob, _ = h.account4("Bob")
    mira, _ = h.account4("Mira")
    guest = h.guest4("Gus")
    assert logged_in(h, "ann") == [ann] and logged_in(h, "bob") == [bob]
    assert index.accounts() == {"ann", "bob", name_key("Mira")}  # no guest's (keys: names.py)

    # a second connection of Ann's, by her token; one logging out; one moved to Bob
    tab = h.guest4("Ann")
    the(h.send(tab, Login("Ann", None, ann_token)), tab, LoggedIn)
    assert logged_in(h, "ann") == [ann, tab]
    h.send(tab, Logout())
    assert logged_in(h, "ann") == [ann] and h.core.sessions[tab].account is None
    the(h.send(tab, Login("Bob", SECRET, None)), tab, LoggedIn)
    assert logged_in(h, "bob") == [bob, tab]

    # a note to Bob reaches his two connections and no one else
    effects = h.send(ann, Challenge("Bob", DAYS3))
    noted = sorted(m for m, message, _ in effects.sends if isinstance(message, PlayerNote))
    assert noted == [bob, tab]

    # a connection gone leaves the index, keeping its account for what is still read of it
    gone = h.core.sessions[bob]
    h.disconnect(bob)
    assert logged_in(h, "bob") == [tab] and gone.account == "bob"
    h.disconnect(guest)
    assert logged_in(h, "bob") == [tab]

    # a password change logs Ann's other connections out, the one it came from stays
    other = login(h, "Ann")
    assert logged_in(h, "ann") == [ann, other]
    h.send(ann, ChangePassword(SECRET, NEW))
    assert logged_in(h, "ann") == [ann] and h.core.sessions[other].account is None

    # a reset from the mail logs every connection out; one the shell is closing goes silently
    closing = login(h, "Ann", NEW)
    h.took(h.core.slow_reader(closing, h.now, WALL))
    assert logged_in(h, "ann") == [ann, closing]  # indexed until it is gone, as in sessions
    stranger = h.guest4("Stranger")
    h.send(stranger, ForgotPassword("Ann"))
    done = h.send(stranger, ResetPassword(h.mails[-1].params["code"], SECRET))
    assert the(done, stranger, MailNote).note == "password_reset"
    assert the(done, ann, LoggedOut).reason == "password_changed"
    assert not of(done, closing, LoggedOut)
    assert logged_in(h, "ann") == [] and not index.online("ann")
    h.disconnect(closing)
    assert logged_in(h, "ann") == []

    # the operator disables Ann's account and enables it with a new password
    ann = login(h, "Ann")
    h.took(h.core.account_actions([AccountAction(1, "ann", "disable", None)], h.now, WALL))
    assert logged_in(h, "ann") == []
    hashed = h.core._ctx.accounts.by_key["bob"].password_hash  # Bob's SECRET, already hashed
    h.took(h.core.account_actions([AccountAction(2, "ann", "password", hashed)], h.now, WALL))
    ann = login(h, "Ann")
    assert logged_in(h, "ann") == [ann]

    # a moderator disables Bob's account: his connections are logged out
    h.took(h.core.moderators_now([name_key("Mira")], h.now, WALL))
    second = login(h, "Bob")
    assert logged_in(h, "bob") == [tab, second]
    h.send(mira, Moderate("disable", "Bob", "a spammer's account"))
    assert logged_in(h, "bob") == [] and "bob" not in index.accounts()

    # Ann deletes her account from one of her two connections: both are logged out
    again = login(h, "Ann")
    assert logged_in(h, "ann") == [ann, again]
    deleted = h.send(again, DeleteAccount(SECRET))
    assert {m for m in (ann, again) if of(deleted, m, LoggedOut)} == {ann, again}
    assert logged_in(h, "ann") == []

    for member in list(h.core.sessions):
        h.disconnect(member)
    assert index.accounts() == set()
    index_matches_scan(h.core)
