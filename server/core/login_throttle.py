"""Failed logins counted four ways, each ageing out on its own (OWASP's authentication cheat
sheet): per name, per address, per network (/24 for IPv4, /64 for IPv6) and per name and address.
Pure: the time is passed in.

A password login counts as a failure from the moment it arrives (`attempt`), so a burst is
counted before any of it is judged; a success takes back only its own count and clears the
name's count for that address (`succeeded`): logging in to an account of one's own between
guesses at others forgets nothing else.

What the counts do (server/core/logins.py and server/core/password_queue.py apply them):

- An address's own record (per address, and per name and address) refuses its logins unjudged
  while its delay runs: FREE failures, then a delay doubling from 1 s to the rule's cap.
- What others can drive (per name, per network) only paces: a check for that name, or from that
  network, starts at most once per delay (capped at PACE_CAP), so that the owner of an attacked
  name, or an honest player on a network an attacker shares, is judged late rather than refused.
- The addresses an account logged in from before (server/core/accounts.py, kept hashed in the
  database) are the owner's machines: they are exempt from the per-address, per-network and
  per-name counts; the per name and address count still holds there.

The caller keys the name by `names.name_key` of what was typed, whether or not an account has it:
the throttle knows nothing of accounts, so its answers are the same for every name.

Memory stays bounded: a record is forgotten once its delay has passed twice over (or an hour
with no failure), and beyond MAX_RECORDS the oldest are dropped.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict

import attrs

FORGET_AFTER = 3600.0
MAX_RECORDS = 100_000
PACE_CAP = 60.0  # seconds between two checks of a name, or from a network, at most


@attrs.frozen
class Rule:
    free: int  # failures before any delay
    cap: float  # the longest delay, seconds


ADDRESS = Rule(5, 600.0)
NAME_ADDRESS = Rule(5, 900.0)
NAME = Rule(10, PACE_CAP)  # a name guessed from everywhere: 60 checks an hour at most
NETWORK = Rule(30, 30.0)


def network_of(address: str) -> str:
    """The network an address is counted with: its /24 (IPv4) or /64 (IPv6); what is not an IP
    address is its own network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


@attrs.define
class _Failures:
    count: int = 0
    last: float = 0.0


class _Counts:
    """One rule's failures, by what they are counted for."""

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self._records: OrderedDict[str, _Failures] = OrderedDict()

    def delay(self, which: str, now: float) -> float:
        """The delay the failures so far earn: 0 within the free ones."""
        record = self._current(which, now)
        if record is None:
            return 0.0
        extra = record.count - self.rule.free
        return 0.0 if extra < 0 else min(self.rule.cap, 2.0**extra)

    def wait(self, which: str, now: float) -> float:
        """Seconds until the delay since the last failure has run out (0: now)."""
        delay = self.delay(which, now)
        record = self._records.get(which)
        return 0.0 if record is None or delay == 0 else max(0.0, record.last + delay - now)

    def count(self, which: str, now: float) -> int:
        record = self._current(which, now)
        return 0 if record is None else record.count

    def add(self, which: str, now: float) -> None:
        record = self._records.pop(which, None) or _Failures()
        record.count += 1
        record.last = now
        self._records[which] = record  # the newest last
        while len(self._records) > MAX_RECORDS:
            self._records.popitem(last=False)

    def take_back(self, which: str) -> None:
        """One failure counted at arrival was not one (the login succeeded, or was never
        judged); the time of the last stays."""
        record = self._records.get(which)
        if record is not None:
            record.count -= 1
            if record.count <= 0:
                del self._records[which]

    def clear(self, which: str) -> None:
        self._records.pop(which, None)

    def _current(self, which: str, now: float) -> _Failures | None:
        record = self._records.get(which)
        if record is None:
            return None
        extra = record.count - self.rule.free
        delay = 0.0 if extra < 0 else min(self.rule.cap, 2.0**extra)
        if now - record.last > max(2 * delay, FORGET_AFTER):
            del self._records[which]
            return None
        return record

    def __len__(self) -> int:
        return len(self._records)


def _pair(key: str, address: str) -> str:
    return f"{key}\0{address}"


class LoginThrottle:
    def __init__(self) -> None:
        self.names = _Counts(NAME)
        self.addresses = _Counts(ADDRESS)
        self.networks = _Counts(NETWORK)
        self.pairs = _Counts(NAME_ADDRESS)

    def refused_for(self, key: str | None, address: str, known: bool, now: float) -> float:
        """Seconds this address must wait before a login (for `key`, None: a registration) is
        judged at all, by its own record; 0: it may be tried. `known`: the address logged in to
        that name before."""
        wait = 0.0 if known else self.addresses.wait(address, now)
        if key is not None:
            wait = max(wait, self.pairs.wait(_pair(key, address), now))
        return wait

    def clean(self, address: str, now: float) -> bool:
        """Whether the address has no failure counted (before the login being decided)."""
        return self.addresses.count(address, now) == 0

    def name_pace(self, key: str, now: float) -> float:
        """Seconds at least between two checks of the name, by its failures (0: no pace)."""
        return self.names.delay(key, now)

    def network_pace(self, network: str, now: float) -> float:
        return self.networks.delay(network, now)

    def attempt(self, key: str | None, address: str, now: float) -> None:
        """A login (None: a registration) arrived: a failure until it succeeds."""
        self.addresses.add(address, now)
        self.networks.add(network_of(address), now)
        if key is not None:
            self.names.add(key, now)
            self.pairs.add(_pair(key, address), now)

    def withdrawn(self, key: str | None, address: str) -> None:
        """The login was never judged (its connection went, the queue was full): its count at
        arrival is taken back."""
        self.addresses.take_back(address)
        self.networks.take_back(network_of(address))
        if key is not None:
            self.names.take_back(key)
            self.pairs.take_back(_pair(key, address))

    def succeeded(self, key: str | None, address: str) -> None:
        """The login succeeded: its own count is taken back, and the name's failures from this
        address are forgotten; nothing else is."""
        self.withdrawn(key, address)
        if key is not None:
            self.pairs.clear(_pair(key, address))

    def __len__(self) -> int:
        return len(self.names) + len(self.addresses) + len(self.networks) + len(self.pairs)
