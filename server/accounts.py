"""The accounts the core knows: every registered player, in memory (a club server has hundreds,
not millions), loaded from storage at start and written back as an `AccountOp` on each change.
Sans-I/O: the password hashing itself is done by the I/O layer (see server/effects.py's
PasswordJob); this module keeps the data and answers questions about it."""

from __future__ import annotations

from typing import Any

import attrs

from server.store import AccountOp, AccountRow

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


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
        )  # fmt: skip


class Accounts:
    """Every account by key, and the login tokens (their hashes) by which clients come back."""

    def __init__(self) -> None:
        self.by_key: dict[str, Account] = {}
        self.tokens: dict[bytes, str] = {}  # token hash -> account key

    def load(self, rows: list[AccountRow], tokens: list[tuple[bytes, str]]) -> None:
        for row in rows:
            self.by_key[row.key] = Account.from_row(row)
        for token_hash, key in tokens:
            if key in self.by_key:
                self.tokens[token_hash] = key

    def get(self, key: str) -> Account | None:
        return self.by_key.get(key)

    def add(self, account: Account) -> None:
        self.by_key[account.key] = account

    def name_of(self, key: str) -> str:
        account = self.by_key.get(key)
        return key if account is None else account.name

    def leaderboard(self) -> list[Account]:
        """The accounts with a rated game, best first (then by name, so ties keep an order)."""
        playing = [a for a in self.by_key.values() if a.rated_games and not a.disabled]
        return sorted(playing, key=lambda a: (-a.rating, a.name.casefold()))
