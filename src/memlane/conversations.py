"""What the memory page (:mod:`memlane.service.web`) and the framework adapters
(:mod:`memlane.integrations`) ask of :class:`~memlane.Memory` beyond search: the live sessions and
their turns, where a memory came from, the users, and withdrawing messages. A base class of
``Memory``; every method here is a ``Memory`` method (and an ``AsyncMemory`` coroutine).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime

from memlane import validate
from memlane.clock import utcnow
from memlane.domain import Kind, MemoryItem, Session, Status, Turn
from memlane.errors import InvalidInput, NotFound
from memlane.facade import Facade
from memlane.vocabulary import MemoryQuery


class ConversationFacade(Facade):
    """The session and source methods of :class:`~memlane.Memory`."""

    def live_sessions(
        self, user_id: str, *, now: datetime | None = None, caller: str | None = None
    ) -> builtins.list[Session]:
        """The user's live (unexpired) sessions, the most recently active first: what is held only in
        short-term memory, with its turns, summary, notes and temporary slots."""
        uid = self._user(user_id)
        found = self.stores.sessions.list_sessions(uid, validate.when(now, utcnow()))
        found.sort(key=lambda s: s.updated_at, reverse=True)
        self._read(uid, caller, [], f"{len(found)} live sessions")
        return found

    def sources(
        self, memory_id: str, *, user_id: str, caller: str | None = None
    ) -> builtins.list[MemoryItem]:
        """What a memory came from, oldest first: the log turns of the messages in its ``provenance``
        (as the log keeps them, with sensitive values masked) and, for a summary, digest or trend, the
        memories it was built from. Turns the log no longer holds (retention, deletion) are absent.
        """
        uid, mid = self._owner(memory_id, user_id)
        item = self.stores.records.get(uid, mid)
        if item is None or item.kind is Kind.LOG:
            raise NotFound(f"no memory {memory_id!r}")
        every = tuple(Status)
        found: dict[str, MemoryItem] = {}
        for source in item.provenance:
            log = MemoryQuery(kinds=(Kind.LOG,), statuses=every, provenance=source, newest_first=False)
            found.update((t.id, t) for t in self.stores.records.query(uid, log))
        built = self.stores.records.get_many(uid, [p for p in item.provenance if p != mid], embeddings=False)
        found.update((m.id, m) for m in built if m.kind is not Kind.LOG)
        out = sorted(found.values(), key=lambda m: (m.valid_from or m.created_at or utcnow(), m.id))
        self._read(uid, caller, [mid, *found], f"{len(out)} sources of a memory")
        return out

    def users(self) -> builtins.list[str]:
        """Every user with memories, log turns or a session in this store (in a tenant's memory, the
        tenant's users), sorted: for an operator choosing whose memory to look at."""
        return sorted(set(self.stores.records.users()))

    def pop_turn(
        self, user_id: str, session_id: str, *, now: datetime | None = None, caller: str | None = None
    ) -> Turn | None:
        """Remove the session's most recent turn from its short-term memory and return it (None when
        the session is empty, expired or unknown). The conversation log and the long-term memories
        the turn was judged into stay: this undoes a turn of the conversation, not what was learned
        from it (:meth:`forget_session` deletes that).

        >>> from memlane import Memory
        >>> mem = Memory(":memory:")
        >>> _ = mem.add("Hello there", user_id="u1", session_id="s1")
        >>> mem.pop_turn("u1", "s1").content
        'Hello there'
        >>> mem.pop_turn("u1", "s1") is None
        True
        """
        uid = self._user(user_id)
        sid = validate.identifier(session_id, "session_id", self.settings)
        who = validate.caller(caller, self.settings)
        when = validate.when(now, utcnow())
        session = self.stores.sessions.get_session(uid, sid, when)
        if session is None or not session.turns:
            return None
        turn = session.turns.pop()
        self.stores.sessions.save_session(session)
        self._privacy.record(uid, "delete", when, caller=who, detail="the last turn of a session, undone")
        return turn

    def clear_session(self, user_id: str, session_id: str, *, caller: str | None = None) -> bool:
        """Drop a session's short-term memory (its turns, summary and temporary slots) without ending
        it: no episode summary is written, and the log and the long-term memories learned from it stay
        (:meth:`forget_session` deletes those too). False when there was no such session.

        >>> from memlane import Memory
        >>> mem = Memory(":memory:")
        >>> _ = mem.add("Hello there", user_id="u1", session_id="s1")
        >>> mem.clear_session("u1", "s1"), mem.session("u1", "s1")
        (True, None)
        """
        uid = self._user(user_id)
        sid = validate.identifier(session_id, "session_id", self.settings)
        who = validate.caller(caller, self.settings)
        cleared = self.stores.sessions.delete_session(uid, sid)
        if cleared:
            self._privacy.record(uid, "delete", utcnow(), caller=who, detail="a session's short-term memory")
        return cleared

    def owner_of(self, memory_id: str) -> str:
        """The user a memory (or a deleted memory's history) belongs to: an admin lookup for
        single-tenant tools such as the CLI, which then pass that user to :meth:`get` and the
        others. :class:`NotFound` for an unknown id. A multi-tenant service never calls it: its
        callers name their user, and a memory of another user reads as unknown.

        >>> from memlane import Memory, Settings
        >>> with Memory(":memory:", settings=Settings(embedder="hash")) as mem:
        ...     d = mem.remember("I prefer email.", user_id="u1")
        ...     mem.owner_of(d.memory.id)
        'u1'
        """
        self._check_open()
        mid = validate.identifier(memory_id, "memory id", self.settings)
        owner = self.stores.records.owner(mid) or self.stores.history.owner(mid)
        if owner is None:
            raise NotFound(f"no memory {memory_id!r}")
        return owner

    def forget_messages(
        self,
        user_id: str,
        message_ids: Sequence[str],
        *,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> int:
        """Withdraw messages by id, as if they had never been sent: what came only from them goes
        (memories, log turns, profile values, what was built from them, their turns in live
        sessions), what also came from other messages loses them as a source. Returns how many
        memories went. The service uses it when a job turns out to have been forgotten while it ran.
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        if isinstance(message_ids, str) or not message_ids:
            raise InvalidInput("message_ids must be a non-empty list of message ids")
        ids = [validate.identifier(m, "message id", self.settings) for m in message_ids]
        when = validate.when(at, utcnow())
        gone = self._edit._forget_messages(uid, ids, when, "the messages were withdrawn", caller=who)
        # their turns, slots and notes leave the live sessions, and a session that said nothing else
        # goes whole (its summary came from them too)
        withdrawn = set(ids)
        for session in self.stores.sessions.list_sessions(uid, None):
            if not session.forget_messages(withdrawn):
                continue
            if session.turns:
                self.stores.sessions.save_session(session)
            else:
                self.stores.sessions.delete_session(uid, session.id)
        return len(gone)
