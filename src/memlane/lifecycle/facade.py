"""The lifecycle surface of :class:`~memlane.Memory`: corrections, deletion, forgetting, export and
restore, feedback and the maintenance jobs. A base class of ``Memory``; every method here is a
``Memory`` method (and an ``AsyncMemory`` coroutine)::

    mem.update(memory_id, "我住在杭州", user_id="u1")
    mem.forget("u1", tags=["travel"])
    mem.maintain()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memlane import validate
from memlane.clock import utcnow
from memlane.domain import MemoryItem, Status
from memlane.errors import InvalidInput, NotFound
from memlane.facade import Facade
from memlane.lifecycle.maintain import MaintenanceReport
from memlane.lifecycle.portability import RestoreReport, export_user, restore_user
from memlane.privacy.sensitive import kinds as sensitive_kinds
from memlane.vocabulary import MemoryQuery


class LifecycleFacade(Facade):
    """The edit, forget, export and maintenance methods of :class:`~memlane.Memory`."""

    def update(
        self,
        memory_id: str,
        text: str,
        *,
        user_id: str,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> MemoryItem:
        """Correct one of the user's memories (the user's word wins); history keeps the old text."""
        uid, mid = self._owner(memory_id, user_id)
        who = validate.caller(caller, self.settings)
        body = validate.text(text, self.settings)
        item = self._edit.update(uid, mid, body, validate.when(at, utcnow()), who)
        if self._privacy.policy.encrypted(sensitive_kinds(item.text)):
            self._privacy.vault.seal(item, body)
        return item

    def delete(
        self,
        memory_id: str,
        *,
        user_id: str,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> None:
        """Delete one of the user's memories from every table and index; history keeps a tombstone
        without its text."""
        uid, mid = self._owner(memory_id, user_id)
        who = validate.caller(caller, self.settings)
        self._edit.delete(uid, [mid], validate.when(at, utcnow()), reason="deleted on request", caller=who)

    def forget(
        self,
        user_id: str,
        *,
        tags: Sequence[str] | None = None,
        all: bool = False,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> int:
        """Delete the user's memories with any of ``tags``, or, with ``all=True``, everything about
        the user (memories, log, profile, sessions and history). Returns how many memories went.

        Forgetting everything is never a default: no tags and no ``all=True`` is an error, so that a
        misspelt argument cannot delete a whole user.
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        when = validate.when(at, utcnow())
        self._vectors.settle_rereads(uid)  # what is still read again is kept, then forgotten
        if all is True and tags is None:
            return self._edit.forget_user(uid)
        if all is not False:
            raise InvalidInput("pass either tags=[...] or all=True, not both")
        if tags is None:
            raise InvalidInput(
                "forget needs tags=[...] to forget by tag, or all=True to forget everything about the user"
            )
        if isinstance(tags, str) or not tags:
            raise InvalidInput("tags must be a non-empty list of tags; all=True forgets everything")
        return self._edit.forget_tags(uid, list(tags), when, who)

    def export(self, user_id: str, *, caller: str | None = None) -> dict[str, Any]:
        """Everything held about the user as one JSON-ready document (schema: docs/privacy.md), with
        encrypted memories opened; the audit log records the export, for ``caller``.
        """
        uid = self._user(user_id)
        caller = validate.caller(caller, self.settings)
        when = utcnow()
        sealed = self.stores.records.query(uid, MemoryQuery(statuses=tuple(Status), sealed=True))
        originals = {m.id: m.text for m in self._privacy.vault.open(uid, sealed)}
        document = export_user(self.stores, uid, when, originals)
        ids = [m["id"] for m in document["memories"]]
        self._privacy.record(uid, "export", when, ids, caller=caller, detail=f"{len(ids)} memories")
        return document

    def restore(
        self, document: Mapping[str, Any], *, user_id: str | None = None, caller: str | None = None
    ) -> RestoreReport:
        """Load an :meth:`export` document into this store (under ``user_id`` if given), keeping ids,
        times, history and profile versions. The user's scope must be empty.
        """
        self._check_open()
        uid = self._user(user_id) if user_id is not None else None
        who = validate.caller(caller, self.settings)
        seal = self._privacy.vault.seal if self._privacy.vault.configured else None
        report = restore_user(self.stores, self.embedder, document, uid, seal)
        detail = f"{report.memories} memories, {report.log} log turns, {report.sealed} encrypted"
        self._privacy.record(report.user_id, "restore", utcnow(), caller=who, detail=detail)
        return report

    def maintain(self, now: datetime | None = None, *, user_id: str | None = None) -> MaintenanceReport:
        """Run the lifecycle jobs due at ``now`` (for one user, or all): end idle sessions, merge
        repeated events into trends, compress old events, expire, decay, rebuild the user summary.
        """
        self._check_open()
        uid = self._user(user_id) if user_id is not None else None
        return self._maintenance.run(validate.when(now, utcnow()), uid)

    @property
    def vectors_queued(self) -> int:
        """Log turns of this process still waiting for their vectors (see :meth:`flush`)."""
        return self._vectors.queued

    def flush(self, user_id: str | None = None) -> None:
        """Wait until every turn added so far (for one user, or for all) has its vector, and every
        clause the judge reads again off the write path is kept or left. Reads need no flush (they
        settle what their user still has queued themselves); this is for callers that want to know
        the work is done, such as the worker before it reports a job done.
        """
        self._check_open()
        self._vectors.wait(self._user(user_id) if user_id is not None else None)

    def end_session(self, user_id: str, session_id: str, *, at: datetime | None = None) -> list[MemoryItem]:
        """End a conversation now: write its episode summary, promote repeated conditions, drop its
        temporary slots. Returns the memories written.
        """
        uid = self._user(user_id)
        sid = validate.identifier(session_id, "session_id", self.settings)
        self._vectors.settle_rereads(uid)  # its summary holds what the write path still reads again
        session = next((s for s in self.stores.sessions.list_sessions(uid, None) if s.id == sid), None)
        if session is None:
            raise NotFound(f"no session {session_id!r}")
        return self._maintenance.closer.end(session, validate.when(at, utcnow()))

    def feedback(
        self,
        memory_id: str,
        verdict: str,
        *,
        note: str | None = None,
        user_id: str,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> MemoryItem:
        """Tell memlane how a memory served: ``"helpful"`` strengthens it, ``"outdated"`` expires it,
        ``"wrong"`` supersedes it and lowers trust in what came from the same message.
        """
        uid, mid = self._owner(memory_id, user_id)
        who = validate.caller(caller, self.settings)
        return self._feedback.apply(uid, mid, verdict, note, validate.when(at, utcnow()), who)

    def stale(self, user_id: str, *, now: datetime | None = None) -> list[MemoryItem]:
        """Long-lived preferences not confirmed for a while: worth asking the user about again."""
        return self._maintenance.decay.stale(self._user(user_id), validate.when(now, utcnow()))

    def user_summary(self, user_id: str) -> MemoryItem | None:
        """The rolling portrait of the user (rebuilt by :meth:`maintain`), if there is one."""
        return self._maintenance.portrait.current(self._user(user_id))
