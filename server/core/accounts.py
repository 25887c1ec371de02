"""The accounts the core knows: every registered player, in memory (a club server has hundreds,
not millions), loaded from storage at start and written back as an `AccountOp` on each change.
Sans-I/O: the password hashing itself is done by the I/O layer (see server/core/effects.py's
PasswordJob); this module keeps the data and answers questions about it."""

from __future__ import annotations

import math
from typing import Any

import attrs

from protocol.errors import ErrorCode
from server.core.mail_state import MailState
from server.core.names import name_key
from server.core.store import (
    AccountOp,
    AccountRow,
    DeletedName,
    KnownAddressOp,
    NamesCooledOp,
    hash_address,
    is_deleted_key,
)
from server.core.table import TableError

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
KNOWN_ADDRESSES = 8  # per account: the addresses it logged in from most recently
# How old an active account's last_seen may grow before it is written again: a row written once
# an hour while its player is active, not once a move (and at once when the player leaves).
SEEN_EVERY = 3600.0


def _wld() -> list[int]:
    return [0, 0, 0]


@attrs.define
class Account:
    key: str  # names.name_key(name): one name in any spelling
    name: str  # as registered
    password_hash: str
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    created: float = 0.0  # unix times
    last_seen: float = 0.0
    disabled: bool = False
    rated: list[int] = attrs.Factory(_wld)  # rated games: wins, losses, draws
    computer: dict[str, list[int]] = attrs.Factory(dict)  # per level, unrated: w, l, d
    ignoring: set[str] = attrs.Factory(set)  # account keys
    mail: MailState = attrs.Factory(MailState)  # version 4: its address, settings and codes

    @property
    def rated_games(self) -> int:
        return sum(self.rated)

    @property
    def shown_rating(self) -> int:
        return round(self.rating)

    def to_row(self) -> AccountRow:
        data: dict[str, Any] = {
            "rated": list(self.rated),
            "computer": {level: list(wld) for level, wld in sorted(self.computer.items())},
            "ignoring": sorted(self.ignoring),
        }
        if not self.mail.empty:
            data["mail"] = self.mail.to_data()
        return AccountRow(
            self.key, self.name, self.password_hash, self.rating, self.deviation,
            self.volatility, self.created, self.last_seen, self.disabled, data,
        )  # fmt: skip

    def op(self) -> AccountOp:
        return AccountOp(self.to_row())

    @classmethod
    def from_row(cls, row: AccountRow) -> Account:
        data = row.data
        rated = [int(n) for n in data.get("rated", [0, 0, 0])][:3]
        computer = {
            str(level): [int(n) for n in wld][:3]
            for level, wld in dict(data.get("computer", {})).items()
        }
        return cls(
            row.key, row.name, row.password_hash, row.rating, row.deviation, row.volatility,
            row.created, row.last_seen, row.disabled, rated + [0] * (3 - len(rated)), computer,
            {str(k) for k in data.get("ignoring", [])},
            MailState.from_data(data.get("mail")),
        )  # fmt: skip


def keep_quiet(account: Account, quiet: float, wall: float, code: ErrorCode, doing: str) -> None:
    """A new account is quiet for its first `quiet` seconds (--new-account-quiet): it may not
    `doing` (chat in the lobby, challenge) yet, so that a name made to get round `ignore` has to
    wait. Refused with `code`, reason new_account and the seconds left."""
    left = account.created + quiet - wall if quiet > 0 else 0.0
    if left > 0:
        seconds = str(math.ceil(left))
        english = f"a new account may {doing} in {seconds} s"
        raise TableError.refused(code, "new_account", english, {"seconds": seconds})


DAY = 86400.0


def cooling_refusal(seconds: float) -> TableError:
    """register of a deleted account's name before its cooling time is over
    (server/core/account_deletion.py)."""
    days = str(max(1, math.ceil(seconds / DAY)))
    return TableError.refused(
        ErrorCode.NAME_REGISTERED,
        "deleted_recently",
        f"this name belonged to an account deleted lately; it is free again in {days} day(s)",
        {"days": days},
    )


class Accounts:
    """Every account by key, the login tokens (their hashes) by which clients come back, and the
    addresses (their hashes) each account logged in from: its owner's machines, which the login
    throttle trusts (server/core/login_throttle.py)."""

    def __init__(self) -> None:
        self.by_key: dict[str, Account] = {}
        self.tokens: dict[bytes, str] = {}  # token hash -> account key
        self.addresses: dict[str, list[bytes]] = {}  # key -> hash_address, the latest last
        # name_key of today -> the key an account is stored under, where the two differ (an
        # account registered under an older skeleton: server/core/names.py), for look-ups by name
        self.aliases: dict[str, str] = {}
        # version 4's deleted accounts (server/core/account_deletion.py): the stand-ins' names
        # by their keys, and each deleted name key's latest deletion (unix time)
        self.stand_ins: dict[str, str] = {}
        self.deleted: dict[str, float] = {}

    def load(
        self,
        rows: list[AccountRow],
        tokens: list[tuple[bytes, str]],
        addresses: list[tuple[str, bytes]] | None = None,
        deleted: list[DeletedName] | None = None,
    ) -> None:
        for row in rows:
            if is_deleted_key(row.key):
                self.stand_ins[row.key] = row.name
            else:
                self.by_key[row.key] = Account.from_row(row)
        for name in deleted or []:
            self.deleted[name.key] = name.at
        for account in sorted(self.by_key.values(), key=lambda a: (a.created, a.key)):
            today = name_key(account.name)  # the oldest account keeps a name two now share
            if today != account.key and today not in self.by_key:
                self.aliases.setdefault(today, account.key)
        for token_hash, key in tokens:
            if key in self.by_key:
                self.tokens[token_hash] = key
        for key, address_hash in addresses or []:  # the least recent first
            if key in self.by_key:
                known = self.addresses.setdefault(key, [])
                if address_hash not in known:
                    known.append(address_hash)
                del known[:-KNOWN_ADDRESSES]

    def knows(self, key: str, address: str) -> bool:
        """Whether the account logged in from this address before."""
        known = self.addresses.get(key)
        return known is not None and hash_address(key, address) in known

    def logged_in_from(self, key: str, address: str, wall: float) -> KnownAddressOp:
        """The account logged in from the address: it is kept, the latest of its addresses."""
        address_hash = hash_address(key, address)
        known = self.addresses.setdefault(key, [])
        if address_hash in known:
            known.remove(address_hash)
        known.append(address_hash)
        dropped = tuple(known[:-KNOWN_ADDRESSES])
        del known[:-KNOWN_ADDRESSES]
        return KnownAddressOp(key, address_hash, wall, dropped)

    def seen(self, key: str, wall: float, leaving: bool) -> AccountOp | None:
        """A connection logged in to the account was heard from at `wall` (`leaving`: it logged
        out or went away): its last_seen then, and the row to write, when it leaves or its
        last_seen is SEEN_EVERY old; None when nothing is to be written."""
        account = self.by_key.get(key)
        if account is None or (not leaving and wall - account.last_seen < SEEN_EVERY):
            return None
        account.last_seen = wall
        return account.op()

    def cooled(self, days: float, wall: float) -> NamesCooledOp | None:
        """The deleted names whose cooling time is over are forgotten; the op that forgets
        them in storage, if any was kept."""
        before = wall - days * DAY
        old = [key for key, at in self.deleted.items() if at < before]
        for key in old:
            del self.deleted[key]
        return NamesCooledOp(before) if old else None

    def cooling_left(self, key: str, days: float, wall: float) -> float:
        """Seconds until a deleted account's name key may be registered again (0: it may), the
        cooling time being `days` (--deleted-name-cooling)."""
        deleted = self.deleted.get(key)
        return 0.0 if deleted is None else max(0.0, deleted + days * DAY - wall)

    def get(self, key: str) -> Account | None:
        """The account stored under the key, or whose name has this name_key."""
        account = self.by_key.get(key)
        if account is None and key in self.aliases:
            account = self.by_key.get(self.aliases[key])
        return account

    def add(self, account: Account) -> None:
        self.by_key[account.key] = account

    def name_of(self, key: str) -> str:
        account = self.by_key.get(key)
        if account is None:
            return self.stand_ins.get(key, key)
        return account.name

    def leaderboard(self) -> list[Account]:
        """The accounts with a rated game, best first (then by name, so ties keep an order)."""
        playing = [a for a in self.by_key.values() if a.rated_games and not a.disabled]
        return sorted(playing, key=lambda a: (-a.rating, a.name.casefold()))
