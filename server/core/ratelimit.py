"""A token bucket: `rate` tokens a second, at most `burst` saved up. Pure: the time is given."""

from __future__ import annotations


class TokenBucket:
    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        """Whether the bucket would be full by now (as good as a new one)."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class KeyedBuckets:
    """A token bucket per key, for a limit that counts one player's connections together (the
    key is the account's, or a guest connection's member id). A bucket is made at the key's
    first take; the full ones are forgotten now and then, so the map holds only the keys heard
    from lately."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str | int, TokenBucket] = {}
        self._forget_at = 256  # the map's size at which the full buckets are forgotten

    def take(self, key: str | int, now: float) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self._forget_at:
                self._forget_full(now)
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def _forget_full(self, now: float) -> None:
        for key in [k for k, bucket in self.buckets.items() if bucket.full(now)]:
            del self.buckets[key]
        self._forget_at = max(256, 2 * len(self.buckets))
