"""What the core keeps of one connection, and the index of the connections by the account logged
in on them."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from server.core.ratelimit import TokenBucket
from server.core.table import MemberId


@attrs.define
class Session:
    """What the core knows of one connection."""

    member: MemberId
    address: str
    opened: float
    bucket: TokenBucket
    flood: TokenBucket  # messages dropped for the rate before the connection is closed
    name: str | None = None
    version: int = 0  # the protocol version agreed in hello
    tables: set[str] = attrs.Factory(set)
    closing: bool = False
    last_rate_error: float = -1e9
    # version 3: the key of the account logged in, if any. Read through `account`; only
    # AccountSessions changes it, so that its index never misses a login or a logout.
    _account: str | None = None
    login_token: bytes | None = None  # the hash of the login token it came with, if any

    @property
    def account(self) -> str | None:
        return self._account

    @property
    def greeted(self) -> bool:
        return self.name is not None

    @property
    def speaker(self) -> str | int:
        """Whose limits (chat, challenges) this connection spends: its account's, shared by all
        of the account's connections, or a guest's own."""
        return self.member if self._account is None else self._account


class AccountSessions:
    """The open connections of each account logged in somewhere, by its key: what a player's
    notes, challenges and settings are sent to. A scan of every connection for each of them
    costs the players times the connections when a round or a club night ends.

    The one writer of Session.account: a login, a logout and a closed connection go through it,
    so that it holds, for every key, exactly the connections of Context.sessions whose
    `account` is that key (tests/server/test_account_index.py compares it with a full scan).
    A connection the shell is closing stays until it is gone, as it stays in the sessions."""

    def __init__(self) -> None:
        self._by_key: dict[str, dict[MemberId, Session]] = {}

    def log_in(self, session: Session, key: str) -> None:
        """The connection is logged in to the account `key` (from none, or from another)."""
        self._drop(session)
        session._account = key
        self._by_key.setdefault(key, {})[session.member] = session

    def log_out(self, session: Session) -> None:
        """The connection is no account's any more."""
        self._drop(session)
        session._account = None

    def gone(self, session: Session) -> None:
        """The connection was closed: it leaves the index, and keeps the account it had (what
        it was is still read of it: the player's "last seen", the seats it left)."""
        self._drop(session)

    def _drop(self, session: Session) -> None:
        key = session._account
        if key is None:
            return
        held = self._by_key.get(key)
        if held is not None and held.pop(session.member, None) is not None and not held:
            del self._by_key[key]

    def of(self, key: str) -> list[Session]:
        """The account's connections, by member (the order in which they connected: the
        order a scan of the sessions gave)."""
        held = self._by_key.get(key)
        if not held:
            return []
        return [held[member] for member in sorted(held)]

    def of_all(self, keys: Iterable[str]) -> list[Session]:
        """The connections of any of these accounts, by member."""
        found = [s for key in set(keys) for s in self._by_key.get(key, {}).values()]
        found.sort(key=lambda s: s.member)
        return found

    def online(self, key: str) -> bool:
        """Whether a connection is logged in to the account (one closing counts until gone)."""
        return key in self._by_key

    def accounts(self) -> set[str]:
        """The accounts logged in somewhere."""
        return set(self._by_key)
