"""An account's "last seen" (kahuna-server accounts list) is its player's last activity: written
when the player logs out or the connection goes, and while the player stays, at most once an
hour (a message now and then), never once a message."""

from __future__ import annotations

from protocol.codec import encode
from protocol.messages import ClientMessage
from protocol.player_messages import GetRatings, LoggedIn, LoggedOut, Login, Logout
from server.core.accounts import SEEN_EVERY
from server.core.effects import Effects
from server.core.store import AccountOp
from server.core.table import MemberId
from tests.server.test_core import WALL, the, writes_of
from tests.server.test_logins import SECRET, Accounts


def at(h: Accounts, member: MemberId, message: ClientMessage, wall: float) -> Effects:
    """A message of the member's, when the wall clock says `wall`."""
    return h.took(h.core.frame(member, encode(message, 3), h.now, wall))


def seen_written(effects: Effects) -> list[float]:
    return [op.account.last_seen for op in writes_of(effects, AccountOp)]


def last_seen(h: Accounts, key: str) -> float:
    account = h.core._ctx.accounts.get(key)
    assert account is not None
    return account.last_seen


def test_last_seen_follows_the_player_cheaply_and_their_leaving_exactly() -> None:
    h = Accounts()
    ann, _token = h.account("Ann")
    logged_in = last_seen(h, "ann")
    # active within the hour: nothing written, last seen stays the login's
    assert seen_written(at(h, ann, GetRatings(), logged_in + 60)) == []
    assert seen_written(at(h, ann, GetRatings(), logged_in + SEEN_EVERY - 1)) == []
    assert last_seen(h, "ann") == logged_in
    # an hour on, a message (any: the connection is the player's) writes the row once
    later = logged_in + SEEN_EVERY + 5
    assert seen_written(at(h, ann, GetRatings(), later)) == [later]
    assert seen_written(at(h, ann, GetRatings(), later + 1)) == []
    # logging out is the last activity: written at once
    effects = at(h, ann, Logout(), later + 100)
    assert the(effects, ann, LoggedOut).name == "Ann (guest)"
    assert seen_written(effects) == [later + 100]
    # as a guest the connection is no one's account
    assert seen_written(at(h, ann, GetRatings(), later + 2 * SEEN_EVERY)) == []
    # back in, then the connection goes: its end is the last activity
    the(at(h, ann, Login("Ann", SECRET, None), later + 200), ann, LoggedIn)
    gone = h.took(h.core.disconnect(ann, h.now, later + 300))
    assert seen_written(gone) == [later + 300]
    assert last_seen(h, "ann") == later + 300


def test_a_guest_leaving_writes_no_account() -> None:
    h = Accounts()
    bob = h.guest("Bob")
    assert seen_written(h.took(h.core.disconnect(bob, h.now, WALL + SEEN_EVERY * 3))) == []
