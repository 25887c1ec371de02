"""The password checks waiting for the hashing threads: bounded, and served in turn, so that a
flood of logins from some addresses delays an honest login from another by a few checks at most.
Pure: the time is passed in; the core hands a check out as a PasswordJob once it is chosen.

Who goes first. Each check has a rank: 0 from an address the account logged in from before (or a
logged-in connection changing its password), 1 from an address with no failure counted, 2 the
rest. The best rank goes first; within a rank the networks take turns, and within a network the
addresses. At most SLOTS checks run at once (the shell's hashing threads), at most one per name,
and rank 2 never takes the last free slot: a login from a known or clean address waits for no
check of a flood to end.

Pace. A check of a name with many failures, or from a network with many, waits for its turn
(server/core/login_throttle.py: `name_pace`, `network_pace`, the time since the last check of that
name or from that network began); rank 0 is exempt. A check that waited HOLD_MAX is refused.

Bounds. At most `size` checks wait, PER_NAME for one name and PER_NETWORK from one network; a
check over a bound takes the place of the worst one waiting in it (a worse rank, or the same and
newer) if it is better, else it is refused. Refused checks go back to the caller (`refused`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import attrs

from server.core.login_throttle import PACE_CAP, LoginThrottle, network_of

SLOTS = 2  # checks under way at once: the shell's hashing threads
PER_NAME = 4
PER_NETWORK = 8
HOLD_MAX = PACE_CAP + 15.0  # seconds a check may wait for its turn


@attrs.define
class Check:
    job: int  # the PasswordJob's number
    member: int
    key: str  # the name the check is for (one check under way per name)
    address: str
    rank: int
    arrived: float
    network: str = ""

    def __attrs_post_init__(self) -> None:
        self.network = network_of(self.address)


class PasswordQueue:
    def __init__(self, throttle: LoginThrottle, size: int, slots: int = SLOTS) -> None:
        self.throttle = throttle
        self.size = size
        self.slots = slots
        # networks in turn order, each with its addresses in turn order, each with its checks
        self._waiting: OrderedDict[str, OrderedDict[str, list[Check]]] = OrderedDict()
        self._count = 0
        self.running: dict[int, Check] = {}  # by job
        self._name_began: dict[str, float] = {}  # the last check of a name began at
        self._network_began: dict[str, float] = {}
        # a check refused, from the queue (full, or waited too long): the caller answers it
        self.refused: Callable[[Check, float], None] = lambda check, wait: None

    def __len__(self) -> int:
        return self._count

    def _all(self) -> list[Check]:
        return [c for by in self._waiting.values() for checks in by.values() for c in checks]

    def add(self, check: Check, now: float) -> bool:
        """Queue a check; False if it is refused (the queue holds better ones)."""
        bounds: tuple[tuple[int, Callable[[Check], bool]], ...] = (
            (PER_NAME, lambda c: c.key == check.key),
            (PER_NETWORK, lambda c: c.network == check.network),
            (self.size, lambda c: True),
        )
        victims: list[Check] = []  # let go only if the check is taken
        for bound, within in bounds:
            group = [c for c in self._all() if within(c) and c not in victims]
            if len(group) < bound:
                continue
            worst = max(group, key=lambda c: (c.rank, c.arrived, c.job))
            if (worst.rank, worst.arrived) <= (check.rank, check.arrived):
                return False
            victims.append(worst)
        for victim in victims:
            self._remove(victim)
            self.refused(victim, 1.0)
        by_address = self._waiting.setdefault(check.network, OrderedDict())
        by_address.setdefault(check.address, []).append(check)
        self._count += 1
        return True

    def _remove(self, check: Check) -> None:
        by_address = self._waiting[check.network]
        checks = by_address[check.address]
        checks.remove(check)
        self._count -= 1
        if not checks:
            del by_address[check.address]
        if not by_address:
            del self._waiting[check.network]

    def drop(self, member: int) -> list[Check]:
        """The connection went: its waiting checks are dropped (and returned)."""
        gone = [c for c in self._all() if c.member == member]
        for check in gone:
            self._remove(check)
        return gone

    def finished(self, job: int) -> Check | None:
        return self.running.pop(job, None)

    def _ready_at(self, check: Check, now: float) -> float:
        """When the check's pace lets it begin (now or earlier: it may)."""
        if check.rank == 0:
            return now
        at = now
        began = self._name_began.get(check.key)
        if began is not None:
            at = max(at, began + self.throttle.name_pace(check.key, now))
        began = self._network_began.get(check.network)
        if began is not None:
            at = max(at, began + self.throttle.network_pace(check.network, now))
        return at

    def take(self, now: float) -> list[Check]:
        """The checks to begin now, in order; refuses those that waited too long."""
        for late in [c for c in self._all() if now - c.arrived >= HOLD_MAX]:
            self._remove(late)
            self.refused(late, PACE_CAP)
        chosen: list[Check] = []
        busy = {c.key for c in self.running.values()}
        while len(self.running) < self.slots:
            flooding = sum(1 for c in self.running.values() if c.rank == 2)
            check = self._next(now, busy, 2 if flooding < self.slots - 1 else 1)
            if check is None:
                break
            self._remove(check)
            # its network and address go to the back of their turns
            by_address = self._waiting.get(check.network)
            if by_address is not None:
                self._waiting.move_to_end(check.network)
                if check.address in by_address:
                    by_address.move_to_end(check.address)
            self.running[check.job] = check
            busy.add(check.key)
            self._name_began[check.key] = now
            self._network_began[check.network] = now
            chosen.append(check)
        self._forget_paces(now)
        return chosen

    def _next(self, now: float, busy: set[str], worst: int) -> Check | None:
        """The next check to begin, of rank `worst` at most."""
        best: Check | None = None
        for by_address in self._waiting.values():
            for checks in by_address.values():
                for check in checks:
                    if check.rank > worst or check.key in busy or self._ready_at(check, now) > now:
                        continue
                    if best is None or check.rank < best.rank:
                        best = check
                    break  # an address's checks in their order
        return best

    def next_wake(self, now: float) -> float | None:
        """When a waiting check may next begin, or be refused for its wait; None: nothing
        waits, or every slot is taken (a check's end wakes the queue then)."""
        if not self._count or len(self.running) >= self.slots:
            return None
        busy = {c.key for c in self.running.values()}
        flooding = sum(1 for c in self.running.values() if c.rank == 2)
        worst = 2 if flooding < self.slots - 1 else 1
        times = []
        for check in self._all():
            times.append(check.arrived + HOLD_MAX)
            if check.key not in busy and check.rank <= worst:
                times.append(self._ready_at(check, now))
        return min(times)

    def _forget_paces(self, now: float) -> None:
        if len(self._name_began) + len(self._network_began) < 4 * self.size:
            return
        for began in (self._name_began, self._network_began):
            for which in [w for w, at in began.items() if now - at > PACE_CAP]:
                del began[which]
