"""What an API process remembers of the keys it has checked: bounded, evicting, and the one thing
that keeps accepting writes while the key database is down.

Keys live in the database (the PostgreSQL store's, in a server deployment), so without a cache every
request would wait on it, and during a PostgreSQL outage every request would be refused, queue-only
writes included, although the queue (Redis) still works. The cache holds:

- **verified keys**: the digest of a key the database said is live, its grant (the tenant, and the
  one user of a user-scoped key) and when it said so.
  For ``fresh`` seconds (5) it answers alone; after that the database is asked again, so that a
  revocation reaches every process within those seconds. When the database cannot be reached, a
  key verified within the last ``grace`` seconds (an hour) is still accepted: it was live when last
  seen, and a revocation made during the outage could not have been stored anyway. A key never
  verified is never accepted: the outage opens no door that was closed.
- **refused keys**: unknown or revoked digests, for ``fresh`` seconds, so that a client retrying a
  bad key does not reach the database each time.

Both are least-recently-used maps of at most ``size`` entries each: a client sending random
well-formed keys evicts refused entries, never grows the process. (Such clients are rate-limited
per address before they get here: :mod:`memlane.service.http`.)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

FRESH_SECONDS = 5.0  # a revocation made by another process takes effect within this time
GRACE_SECONDS = 3600.0  # how long a verified key outlives an outage of the key database
CACHE_SIZE = 10_000  # entries of each kind


@dataclass(frozen=True)
class Grant:
    """What a live key may reach: one tenant, or only one ``user`` of it (a user-scoped key)."""

    tenant: str
    user: str | None = None


@dataclass(frozen=True)
class Verdict:
    """What the cache knows of a key: its grant (None: refused) and whether that is fresh."""

    grant: Grant | None
    fresh: bool


class KeyCache:
    """Verified and refused key digests, each bounded, timed on the monotonic clock."""

    def __init__(
        self,
        *,
        fresh: float = FRESH_SECONDS,
        grace: float = GRACE_SECONDS,
        size: int = CACHE_SIZE,
    ) -> None:
        self.fresh, self.grace, self.size = fresh, grace, size
        self._verified: OrderedDict[str, tuple[Grant, float]] = OrderedDict()
        self._refused: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._verified) + len(self._refused)

    def lookup(self, digest: str) -> Verdict | None:
        """A fresh verdict, or a stale verified one (``fresh=False``); None when nothing is known."""
        now = time.monotonic()
        with self._lock:
            verified = self._verified.get(digest)
            if verified is not None:
                grant, at = verified
                if now - at < self.grace:
                    self._verified.move_to_end(digest)
                    return Verdict(grant, now - at < self.fresh)
                del self._verified[digest]
            refused = self._refused.get(digest)
            if refused is not None:
                if now - refused < self.fresh:
                    return Verdict(None, True)
                del self._refused[digest]
        return None

    def verified(self, digest: str, grant: Grant) -> None:
        """The database said this key is live, with ``grant``."""
        with self._lock:
            self._refused.pop(digest, None)
            self._verified[digest] = (grant, time.monotonic())
            self._verified.move_to_end(digest)
            while len(self._verified) > self.size:
                self._verified.popitem(last=False)

    def refused(self, digest: str) -> None:
        """The database said this key is unknown or revoked."""
        with self._lock:
            self._verified.pop(digest, None)
            self._refused[digest] = time.monotonic()
            self._refused.move_to_end(digest)
            while len(self._refused) > self.size:
                self._refused.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (after a revocation made here)."""
        with self._lock:
            self._verified.clear()
            self._refused.clear()
