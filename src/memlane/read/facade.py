"""The read surface of :class:`~memlane.Memory`: search, context blocks, the profile, one memory and
its history, a session. A base class of ``Memory``; every method here is a ``Memory`` method (and an
``AsyncMemory`` coroutine)::

    mem.search("推荐一杯早上的饮料", user_id="u1")
    mem.context("推荐饮料", user_id="u1", session_id="s1", max_tokens=400)
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from memlane import profile, validate
from memlane.clock import utcnow
from memlane.domain import (
    Category,
    ContextBlock,
    HistoryRecord,
    Hit,
    Kind,
    MemoryItem,
    Session,
    SlotVersion,
    Status,
)
from memlane.errors import InvalidInput, NotFound
from memlane.facade import Facade
from memlane.read.admit import admit
from memlane.read.context import assemble, portrait_text
from memlane.read.options import SearchOptions, SearchPlan, plan
from memlane.read.search import BESIDE
from memlane.text.lang import detect
from memlane.vocabulary import MemoryQuery

# what a user said, as memlane keeps it (not the log, not what was built from it)
STATEMENTS = (Kind.SEMANTIC, Kind.EPISODIC, Kind.PROFILE)
# hits a context block's search returns unless its options say otherwise: what passes the relevance
# floor fills the block up to this many. 34 is the most whose blocks on LoCoMo's dev conversations
# stay within 708 tokens (p50; the blocks of 20 hits used 469): the block's cost when evidence in
# it was first measured (0.83). On all ten: evidence in the block 0.802 -> 0.834, tokens 456 -> 689.
CONTEXT_HITS = 34
# the newest standing ways to answer a block shows beside the profile
_STANDING = 5


class ReadFacade(Facade):
    """The read methods of :class:`~memlane.Memory`."""

    def search(
        self,
        query: str,
        *,
        user_id: str,
        options: SearchOptions | None = None,
        limit: int | None = None,
        kinds: Sequence[str | Kind] | None = None,
        categories: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        from_session: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_log: bool | None = None,
        min_score: float | None = None,
        include_sensitive: bool | None = None,
        now: datetime | None = None,
        caller: str | None = None,
    ) -> list[Hit]:
        """The memories most relevant to ``query``, best first, each with a score and an explanation.

        What to look at is a :class:`~memlane.SearchOptions` (``options``) or its fields as keyword
        arguments, which win over the same fields of ``options``. Memories whose original is
        encrypted are left out unless ``include_sensitive`` asks for them; then they come with their
        original text.
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        text = validate.text(query, self.settings, "query")
        chosen = SearchOptions.of(
            options,
            limit=limit,
            kinds=kinds,
            categories=categories,
            tags=tags,
            from_session=from_session,
            since=since,
            until=until,
            include_log=include_log,
            min_score=min_score,
            include_sensitive=include_sensitive,
        )
        when = validate.when(now, utcnow())
        hits = self._recall(uid, text, chosen, plan(chosen, self.settings), when)
        if who is not None:
            ids = [h.memory.id for h in hits]
            self._privacy.record(uid, "search", when, ids, caller=who, detail=f"{len(ids)} hits")
        return hits

    def context(
        self,
        query: str,
        *,
        user_id: str,
        session_id: str | None = None,
        max_tokens: int | None = None,
        options: SearchOptions | None = None,
        limit: int | None = None,
        now: datetime | None = None,
        caller: str | None = None,
        include_sensitive: bool | None = None,
    ) -> ContextBlock:
        """A prompt-ready block: profile, this session's state and the memories relevant to ``query``
        (none for a query the learned judge is sure is small talk).

        Its search looks at what ``options`` says (:class:`~memlane.SearchOptions`; ``limit`` and
        ``include_sensitive`` win over it), 34 hits by default. The audit log records which memories
        went into it, for ``caller`` (a name for the application or component asking). Encrypted
        memories are left out unless ``include_sensitive``.
        """
        uid = self._user(user_id)
        caller = validate.caller(caller, self.settings)
        text = validate.text(query, self.settings, "query")
        wanted = SearchOptions.of(options, limit=limit, include_sensitive=include_sensitive)
        budget = self.settings.context_tokens if max_tokens is None else max_tokens
        if budget <= 0:
            raise InvalidInput("max_tokens must be positive")
        when = validate.when(now, utcnow())
        # fails before any lookup
        sid = validate.identifier(session_id, "session_id", self.settings) if session_id is not None else None
        # the session, the summary and the profile do not depend on the search: read them beside it
        parts = BESIDE.submit(self._context_parts, uid, sid, when)
        # small talk ("hey there", "哈哈谢谢") asks nothing of what the user said before
        chatter = self.judge.chatter(text)
        hits = (
            []
            if chatter
            else self._recall(uid, text, wanted, plan(wanted, self.settings, CONTEXT_HITS), when)
        )
        session, portrait, profile_memories = parts.result()
        lang = detect(text)

        def covering(message_ids: Sequence[str]) -> builtins.list[MemoryItem]:
            return self.stores.records.query(
                uid, MemoryQuery(kinds=STATEMENTS, provenances=tuple(message_ids))
            )

        def retired(message_ids: Sequence[str]) -> builtins.list[MemoryItem]:
            gone = (Status.SUPERSEDED, Status.EXPIRED, Status.DELETED)
            q = MemoryQuery(kinds=STATEMENTS, statuses=gone, provenances=tuple(message_ids))
            return self.stores.records.query(uid, q)

        in_session = {t.message_id for t in session.turns} if session is not None else set()
        chosen = admit(
            hits,
            lang,
            session_id=sid,
            in_session=in_session,
            profile=profile_memories,
            covering=covering,
            retired=retired,
        )
        summary = portrait_text(portrait, chosen, profile_memories)
        block = assemble(
            lang, profile_memories, session, chosen, budget, summary, self.settings.summary_tokens, when
        )
        used = [m.id for m in block.memories] + ([portrait.id] if portrait is not None and summary else [])
        detail = f"{len(block.memories)} memories, {len(block.profile)} profile slots, {block.tokens} tokens"
        self._privacy.record(uid, "context", when, used, caller=caller, detail=detail)
        return block

    def _context_parts(
        self, uid: str, sid: str | None, when: datetime
    ) -> tuple[Session | None, MemoryItem | None, builtins.list[MemoryItem]]:
        """What a context block holds besides its search hits: the live session (``sid`` is already
        checked), the user's summary (their portrait), the memories behind their profile and the
        user's standing ways to answer with no slot (a table, numbered steps): what every answer
        needs, whatever was asked."""
        session = self.stores.sessions.get_session(uid, sid, when) if sid else None
        memories = self.stores.records.query(uid, MemoryQuery(kinds=(Kind.PROFILE,)))
        held = [m for ms in profile.backing(memories).values() for m in ms]
        styles = MemoryQuery(kinds=(Kind.SEMANTIC,), categories=(Category.STYLE.value,), limit=_STANDING)
        held += [m for m in self.stores.records.query(uid, styles) if m.slot is None]
        return session, self._maintenance.portrait.current(uid), held

    def _recall(
        self, uid: str, text: str, options: SearchOptions, planned: SearchPlan, now: datetime
    ) -> list[Hit]:
        """Search, leaving encrypted memories out unless asked for (then with their original text)."""
        self._vectors.settle(uid)  # every turn added so far is found by meaning too
        if options.include_sensitive:
            return self._privacy.reveal(uid, self._search.search(uid, text, planned, now))
        if self._privacy.hidden(uid):
            planned = replace(planned, query=replace(planned.query, sealed=False))
        return self._search.search(uid, text, planned, now)

    def profile(self, user_id: str, *, caller: str | None = None) -> dict[str, Any]:
        """The user's profile: slot → current value, derived from the memories that state it (each
        value is the newest active profile memory's; a many-valued slot lists every value)."""
        uid = self._user(user_id)
        memories = self.stores.records.query(uid, MemoryQuery(kinds=(Kind.PROFILE,)))
        self._read(uid, caller, [m.id for ms in profile.backing(memories).values() for m in ms], "profile")
        return profile.derive(memories)

    def profile_history(self, user_id: str, slot: str | None = None) -> list[SlotVersion]:
        """Every version of one slot (or of all slots), oldest first."""
        return self.stores.profile.slots(self._user(user_id), slot, current_only=False)

    def session(self, user_id: str, session_id: str, *, now: datetime | None = None) -> Session | None:
        """The live session, or None when it never existed or has expired."""
        sid = validate.identifier(session_id, "session_id", self.settings)
        return self.stores.sessions.get_session(self._user(user_id), sid, validate.when(now, utcnow()))

    def get(self, memory_id: str, *, user_id: str, caller: str | None = None) -> MemoryItem:
        """One of the user's memories by id; :class:`NotFound` if it does not exist or is another
        user's (the two read the same). :meth:`owner_of` finds a memory's user, for admin tools."""
        uid, mid = self._owner(memory_id, user_id)
        item = self.stores.records.get(uid, mid)
        if item is None:
            raise NotFound(f"no memory {memory_id!r}")
        self._read(uid, caller, [mid], "one memory")
        return self._privacy.open(uid, item)  # an encrypted memory reads as its original, for its owner

    def history(self, memory_id: str, *, user_id: str, caller: str | None = None) -> list[HistoryRecord]:
        """What happened to one of the user's memories (or a profile slot, as ``"profile:<slot>"``),
        oldest first; a deleted memory's history (a tombstone without its text) included."""
        uid, mid = self._owner(memory_id, user_id)
        if mid.startswith("profile:"):
            self._read(uid, caller, [], f"history of {mid}")
            return self.stores.history.of(uid, mid)
        records = self.stores.history.of(uid, mid)
        if not records:
            raise NotFound(f"no memory {memory_id!r}")
        self._read(uid, caller, [mid], "history")
        return records
