"""What the core keeps of one connection."""

from __future__ import annotations

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
    account: str | None = None  # version 3: the key of the account logged in, if any
    login_token: bytes | None = None  # the hash of the login token it came with, if any

    @property
    def greeted(self) -> bool:
        return self.name is not None

    @property
    def speaker(self) -> str | int:
        """Whose limits (chat, challenges) this connection spends: its account's, shared by all
        of the account's connections, or a guest's own."""
        return self.member if self.account is None else self.account
