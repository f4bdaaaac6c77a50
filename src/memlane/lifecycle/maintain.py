"""Periodic maintenance: everything that is due at ``now`` expires.

Time comes only from ``now`` (never the wall clock), so tests can simulate years in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memlane.domain import Actor, HistoryRecord, Kind, Status
from memlane.settings import Settings
from memlane.store import MemoryQuery, MemoryStore, SessionStore
from memlane.text.keywords import index_text


@dataclass
class MaintenanceReport:
    """What one maintenance run changed."""

    expired: int = 0
    log_dropped: int = 0
    sessions_dropped: int = 0


class Maintenance:
    """The lifecycle jobs over every user of a store."""

    def __init__(self, store: MemoryStore, sessions: SessionStore, settings: Settings) -> None:
        self.store = store
        self.sessions = sessions
        self.settings = settings

    def run(self, now: datetime) -> MaintenanceReport:
        """Expire memories past ``expires_at``, drop log turns past retention and sessions past TTL."""
        report = MaintenanceReport()
        for user_id in list(self.store.users()):
            due = self.store.query(user_id, MemoryQuery(expires_before=now))
            logs = [m.id for m in due if m.kind is Kind.LOG]
            with self.store.transaction(user_id):
                if logs:
                    report.log_dropped += self.store.delete(user_id, logs)
                for item in due:
                    if item.kind is Kind.LOG:
                        continue
                    item.status = Status.EXPIRED
                    item.updated_at = now
                    self.store.put(item, index_text(item.text))
                    self.store.add_history(
                        HistoryRecord(
                            user_id=user_id,
                            target_id=item.id,
                            op="expire",
                            at=now,
                            actor=Actor.SYSTEM,
                            reason=f"expired on {item.expires_at.date() if item.expires_at else now.date()}",
                        )
                    )
                    report.expired += 1
        report.sessions_dropped = self.sessions.purge_sessions(now)
        return report
