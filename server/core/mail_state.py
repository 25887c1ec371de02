"""What an account holds about e-mail (version 4): its confirmed address, the one waiting for
confirmation, the language and kinds of its mails, and the hashes of its codes (a confirmation's,
a password reset's, the links that turn a kind of mail off): never a code itself. Kept in the
account's row (AccountRow.data["mail"]), written with it."""

from __future__ import annotations

from typing import Any

import attrs

OFF_LINKS_KEPT = 20  # the links of an account's latest mails that still turn a kind off
SENT_KEPT = 64  # games whose last turn or clock mail is remembered per account


@attrs.define
class MailState:
    address: str | None = attrs.field(default=None, repr=False)  # confirmed
    pending: str | None = attrs.field(default=None, repr=False)  # waiting for its confirmation
    confirm_hash: str | None = attrs.field(default=None, repr=False)  # hex sha256 of the code
    confirm_until: float = 0.0  # unix time
    reset_hash: str | None = attrs.field(default=None, repr=False)
    reset_until: float = 0.0
    language: str = "en"
    off: set[str] = attrs.Factory(set)  # the kinds turned off
    off_hashes: list[str] = attrs.Factory(list)  # the latest links' codes' hashes, oldest first
    turn_sent: dict[str, float] = attrs.Factory(dict)  # table id -> when its last turn mail went
    clock_sent: dict[str, int] = attrs.Factory(dict)  # table id -> the version it was sent for

    @property
    def empty(self) -> bool:
        return self == MailState()

    def to_data(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "pending": self.pending,
            "confirm_hash": self.confirm_hash,
            "confirm_until": self.confirm_until,
            "reset_hash": self.reset_hash,
            "reset_until": self.reset_until,
            "language": self.language,
            "off": sorted(self.off),
            "off_hashes": list(self.off_hashes),
            "turn_sent": dict(self.turn_sent),
            "clock_sent": dict(self.clock_sent),
        }

    @classmethod
    def from_data(cls, data: Any) -> MailState:
        if not isinstance(data, dict):
            return cls()
        return cls(
            data.get("address"),
            data.get("pending"),
            data.get("confirm_hash"),
            float(data.get("confirm_until", 0.0)),
            data.get("reset_hash"),
            float(data.get("reset_until", 0.0)),
            str(data.get("language", "en")),
            {str(k) for k in data.get("off", [])},
            [str(h) for h in data.get("off_hashes", [])],
            {str(k): float(v) for k, v in dict(data.get("turn_sent", {})).items()},
            {str(k): int(v) for k, v in dict(data.get("clock_sent", {})).items()},
        )
