"""When the core must next be woken, and for what: the lobby's coalesced listing, the sweep of
silent connections and idle tables, and each table's clock flags and claims coming due (who may
claim at that moment is the table's to say: Table.claimant)."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator

from server.core.config import ServerConfig
from server.core.table import Table

LOBBY_COALESCE = 0.1  # seconds: lobby changes within this window go out as one listing
TIME_LOW = 12 * 3600.0  # a move of days: "time_low" when this is left (or a tenth, if less)


class Timers:
    def __init__(self) -> None:
        self.lobby_flush_at: float | None = None
        self.sweep_at: float | None = None
        # (when, order, table id, what): clock flags and claims coming due; stale ones are
        # checked again when they come and dropped
        self._due: list[tuple[float, int, str, str]] = []
        self._order = itertools.count()

    def schedule(self, at: float, table_id: str, what: str) -> None:
        """`what` ("flag" or "claim") is to be looked at for the table at `at`."""
        heapq.heappush(self._due, (at, next(self._order), table_id, what))

    def due(self, now: float) -> Iterator[tuple[str, str]]:
        """The (table id, what) come due by now, in order, each taken off as it is handed out."""
        while self._due and self._due[0][0] <= now:
            _, _, table_id, what = heapq.heappop(self._due)
            yield table_id, what

    def for_turn(self, table: Table, now: float, config: ServerConfig) -> None:
        """A turn began at the table: its flag (and, in a game of days, the warning that its time
        runs low), or without a clock the moment its opponent may claim."""
        clock = table.clock
        if clock is not None:
            flag = clock.flag_at()
            if flag is not None:
                self.schedule(flag, table.table_id, "flag")
                if clock.correspondence:
                    low = min(TIME_LOW, clock.per_move / 10)
                    self.schedule(flag - low, table.table_id, f"low {table.version}")
        else:
            self.schedule(now + config.move_timeout, table.table_id, "claim")

    def lobby_changed(self, now: float) -> None:
        """The watchers get the listing a little later, with whatever else changes meanwhile."""
        if self.lobby_flush_at is None:
            self.lobby_flush_at = now + LOBBY_COALESCE

    def lobby_flush_due(self, now: float) -> bool:
        """Whether the listing is to go out now (then it is no longer pending)."""
        if self.lobby_flush_at is None or now < self.lobby_flush_at:
            return False
        self.lobby_flush_at = None
        return True

    def wake_for_sweep(self, now: float, interval: float) -> None:
        if self.sweep_at is None:
            self.sweep_at = now + interval

    def sweep_again(self, now: float) -> None:
        """The sweep under way is not done: the rest at once, after what else is waiting."""
        self.sweep_at = now

    def sweep_due(self, now: float) -> bool:
        """Whether the sweep is to run now (then the next must be asked for again)."""
        if self.sweep_at is None or now < self.sweep_at:
            return False
        self.sweep_at = None
        return True

    def next_wake(self) -> float | None:
        times = [t for t in (self.lobby_flush_at, self.sweep_at) if t is not None]
        if self._due:
            times.append(self._due[0][0])
        return min(times) if times else None
