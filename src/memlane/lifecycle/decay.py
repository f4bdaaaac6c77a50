"""Fading: what is never recalled loses importance and is archived below a floor; long-lived
preferences whose last confirmation is old are listed so an application can ask the user again.

Decay is multiplicative over the time since the item was last touched, so running maintenance daily
or monthly gives the same result. Profile values and very stable facts do not fade by disuse.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from memlane.domain import Category, Kind, MemoryItem, Status
from memlane.lifecycle.history import record
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.vocabulary import MemoryQuery

_NEVER_FADE = {Kind.PROFILE, Kind.LOG}
_LONG_LIVED = (Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT, Category.CONTACT, Category.STYLE)


def _last_use(item: MemoryItem) -> datetime:
    times = [t for t in (item.last_accessed_at, item.last_verified_at, item.created_at) if t is not None]
    return max(times)


class Decay:
    """Importance decay, archiving, and the list of preferences to confirm again."""

    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def run(self, user_id: str, now: datetime) -> int:
        """Decay unrecalled items; returns how many were archived."""
        grace = timedelta(days=self.settings.decay_grace_days)
        archived = 0
        with self.stores.records.transaction(user_id):
            for item in self.stores.records.query(user_id, MemoryQuery()):
                if item.kind in _NEVER_FADE or item.stability >= 0.9 or now - _last_use(item) <= grace:
                    continue
                since = max(_last_use(item) + grace, item.updated_at or now)
                days = (now - since).total_seconds() / 86400
                if days <= 0:
                    continue
                # stable things fade slower: a preference keeps its weight about three times longer
                half_life = self.settings.decay_half_life_days * (1 + 3 * item.stability)
                before = item.importance
                item.importance = round(item.importance * 0.5 ** (days / half_life), 4)
                item.updated_at = now
                if item.importance < self.settings.archive_floor:
                    item.status = Status.ARCHIVED
                    archived += 1
                    record(
                        self.stores,
                        user_id,
                        item.id,
                        "archive",
                        now,
                        f"never recalled: importance {before:.2f} → {item.importance:.2f}",
                    )
                self.stores.records.put(item, tokens_for(item))
        return archived

    def stale(self, user_id: str, now: datetime) -> list[MemoryItem]:
        """Long-lived preferences and profile values not confirmed for ``stale_after_days``."""
        cutoff = now - timedelta(days=self.settings.stale_after_days)
        items = self.stores.records.query(
            user_id, MemoryQuery(categories=tuple(c.value for c in _LONG_LIVED))
        )
        return [m for m in items if (m.last_verified_at or m.created_at or now) <= cutoff]
