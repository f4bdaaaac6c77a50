"""Periodic maintenance: everything that is due at ``now``, for every user, in a safe order.

1. sessions idle past their TTL end: episode summary, promotion of repeated conditions;
2. repeated similar events merge into trends, old raw events compress into monthly summaries
   (before expiry, so that an event past its expiry is summarised rather than lost);
3. memories past ``expires_at`` expire; log turns past retention are deleted;
4. what is never recalled decays, and archives below the floor;
5. the rolling user summary is rebuilt if anything it draws on changed;
6. log turns a stopped process left without a vector get one (:mod:`memlane.write.backlog`).

Time comes only from ``now`` (never the wall clock), so tests can simulate years in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from memlane import profile
from memlane.domain import Kind, Status
from memlane.embed import Embedder
from memlane.lifecycle.consolidate import Consolidator, PeriodSummariser
from memlane.lifecycle.decay import Decay
from memlane.lifecycle.history import record
from memlane.lifecycle.portrait import Portrait
from memlane.lifecycle.sessions import SessionCloser, SessionSummariser
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.vocabulary import MemoryQuery
from memlane.write.backlog import VectorBacklog
from memlane.write.turns import mark_outdated


class Summariser(SessionSummariser, PeriodSummariser, Protocol):
    """Writes episode summaries and compresses period digests (the LLM summariser does both)."""


@dataclass
class MaintenanceReport:
    """What one maintenance run changed, summed over users."""

    sessions_ended: int = 0
    merged: int = 0
    compressed: int = 0
    expired: int = 0
    archived: int = 0
    log_dropped: int = 0
    sessions_dropped: int = 0
    portraits: int = 0
    vectors_repaired: int = 0  # log turns given the vector a stopped process never wrote
    stale: dict[str, list[str]] = field(default_factory=dict)  # user -> ids of preferences to confirm


class Maintenance:
    """The lifecycle jobs over every user of a store."""

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        settings: Settings,
        backlog: VectorBacklog,
        summariser: Summariser | None = None,
    ) -> None:
        self.stores = stores
        self.backlog = backlog
        self.settings = settings
        self.closer = SessionCloser(stores, embedder, summariser)
        self.consolidator = Consolidator(stores, embedder, settings, summariser)
        self.decay = Decay(stores, settings)
        self.portrait = Portrait(stores, embedder)

    def run(self, now: datetime, user_id: str | None = None) -> MaintenanceReport:
        """Run every job that is due, for one user or all of them."""
        report = MaintenanceReport()
        for uid in [user_id] if user_id is not None else list(self.stores.records.users()):
            self._user(uid, now, report)
        report.sessions_dropped += self.stores.sessions.purge_sessions(now)
        return report

    def _user(self, user_id: str, now: datetime, report: MaintenanceReport) -> None:
        self.backlog.settle_rereads(user_id)  # what the write path still reads again is kept before summaries
        for session in self.stores.sessions.list_sessions(user_id, None):
            if session.expires_at is not None and session.expires_at <= now:
                self.closer.end(session, now)
                report.sessions_ended += 1
        merged, compressed = self.consolidator.run(user_id, now)
        report.merged += merged
        report.compressed += compressed
        self._expire(user_id, now, report)
        report.archived += self.decay.run(user_id, now)
        before = self.portrait.current(user_id)
        after = self.portrait.rebuild(user_id, now)
        report.portraits += after is not None and (before is None or after.id != before.id)
        report.vectors_repaired += self.backlog.repair([user_id])
        stale = self.decay.stale(user_id, now)
        if stale:
            report.stale[user_id] = [m.id for m in stale]

    def _expire(self, user_id: str, now: datetime, report: MaintenanceReport) -> None:
        due = self.stores.records.query(user_id, MemoryQuery(expires_before=now))
        logs = [m.id for m in due if m.kind is Kind.LOG]
        with self.stores.records.transaction(user_id):
            if logs:
                report.log_dropped += self.stores.records.delete(user_id, logs)
            expired = [item for item in due if item.kind is not Kind.LOG]
            for item in expired:
                item.status = Status.EXPIRED
                item.updated_at = now
                self.stores.records.put(item, tokens_for(item))
                when = item.expires_at.date() if item.expires_at else now.date()
                record(self.stores, user_id, item.id, "expire", now, f"expired on {when}")
                report.expired += 1
            mark_outdated(self.stores, expired)
            profile.sync(
                self.stores, user_id, profile.slots_of(expired), now, "the memory that set it expired"
            )
