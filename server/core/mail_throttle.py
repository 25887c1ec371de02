"""How many mails a request may set off: counts over the last hour, per requesting IP address,
per its network (/24, /64: server/core/login_throttle.py's network_of), per account and per
mailbox, each with its own most. A password reset asked 10,000 times from 50 addresses of one
network sends at most PER_ACCOUNT mails to that account, and its network's requests are cut at
PER_NETWORK an hour, whatever the names asked for. Pure: the time is passed in.

A request over any count is dropped without a word to the asker that differs (server/core/mail.py
answers the same), so the counts say nothing about which accounts exist."""

from __future__ import annotations

from collections import OrderedDict, deque

HOUR = 3600.0
PER_ADDRESS = 5  # password reset requests from one IP address an hour
PER_NETWORK = 20  # from one network
PER_ACCOUNT = 3  # mails of one kind (a reset, a confirmation) to one account an hour
PER_MAILBOX = 3  # to one e-mail address
MAX_RECORDS = 100_000  # counts kept at most; the least recently used go first

Count = tuple[str, str, int]  # (what is counted, which one, the most an hour)


class MailThrottle:
    def __init__(self) -> None:
        self._times: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()

    def allow(self, counts: list[Count], wall: float) -> bool:
        """Whether every count has room at `wall`; if so each is taken from."""
        found = [(self._recent((what, which), wall), most) for what, which, most in counts]
        if any(len(times) >= most for times, most in found):
            return False
        for times, _most in found:
            times.append(wall)
        return True

    def _recent(self, key: tuple[str, str], wall: float) -> deque[float]:
        times = self._times.get(key)
        if times is None:
            times = self._times[key] = deque()
            while len(self._times) > MAX_RECORDS:
                self._times.popitem(last=False)
        else:
            self._times.move_to_end(key)
        while times and times[0] <= wall - HOUR:
            times.popleft()
        return times
