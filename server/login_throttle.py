"""Failed logins, limited per name and per address with growing delays, so that guessing a
password is slow and one abuser does not lock out everyone else. Pure: the time is passed in.

The caller keys the name by `names.name_key` of what was typed, whether or not an account has it:
the throttle knows nothing of accounts, so its answers are the same for every name.

- Per address: FREE failures, then each further one doubles a delay from 1 s to ADDRESS_CAP.
- Per name: likewise up to NAME_CAP, except from an address that logged in to that name before
  (the owner's machine): an attacker hammering one account from many addresses does not lock its
  owner out. Token logins do not come here at all.

Memory stays bounded: a record is forgotten once its delay has passed twice over (or an hour
with no failure), and beyond MAX_RECORDS the oldest are dropped.
"""

from __future__ import annotations

from collections import OrderedDict

import attrs

FREE = 5
ADDRESS_CAP = 600.0
NAME_CAP = 900.0
FORGET_AFTER = 3600.0
MAX_RECORDS = 100_000
GOOD_ADDRESSES = 8  # per name


@attrs.define
class _Failures:
    count: int = 0
    last: float = 0.0

    def delay(self, cap: float) -> float:
        extra = self.count - FREE
        return 0.0 if extra < 0 else min(cap, 2.0**extra)

    def wait(self, now: float, cap: float) -> float:
        return max(0.0, self.last + self.delay(cap) - now)

    def stale(self, now: float, cap: float) -> bool:
        return now - self.last > max(2 * self.delay(cap), FORGET_AFTER)


class LoginThrottle:
    def __init__(self) -> None:
        self._addresses: OrderedDict[str, _Failures] = OrderedDict()
        self._names: OrderedDict[str, _Failures] = OrderedDict()
        self._good: dict[str, list[str]] = {}  # name -> addresses that logged in to it

    def check(self, key: str, address: str, now: float) -> float:
        """0 when a login may be tried now, else the seconds to wait."""
        wait = 0.0
        by_address = self._current(self._addresses, address, now, ADDRESS_CAP)
        if by_address is not None:
            wait = by_address.wait(now, ADDRESS_CAP)
        if address not in self._good.get(key, ()):
            by_name = self._current(self._names, key, now, NAME_CAP)
            if by_name is not None:
                wait = max(wait, by_name.wait(now, NAME_CAP))
        return wait

    def failed(self, key: str, address: str, now: float) -> None:
        for records, which in ((self._addresses, address), (self._names, key)):
            record = records.pop(which, None) or _Failures()
            record.count += 1
            record.last = now
            records[which] = record  # the newest last
            while len(records) > MAX_RECORDS:
                records.popitem(last=False)

    def succeeded(self, key: str, address: str, now: float) -> None:
        self._addresses.pop(address, None)
        good = self._good.setdefault(key, [])
        if address in good:
            good.remove(address)
        good.append(address)
        del good[:-GOOD_ADDRESSES]
        if len(self._good) > MAX_RECORDS:
            self._good.pop(next(iter(self._good)))

    @staticmethod
    def _current(
        records: OrderedDict[str, _Failures], which: str, now: float, cap: float
    ) -> _Failures | None:
        record = records.get(which)
        if record is not None and record.stale(now, cap):
            del records[which]
            return None
        return record

    def __len__(self) -> int:
        return len(self._addresses) + len(self._names)
