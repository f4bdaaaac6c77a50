"""The public facade: :class:`Memory` wires the write path, the read path and the lifecycle jobs to
the stores, and :class:`AsyncMemory` offers the same methods as coroutines.

::

    from memlane import Memory
    mem = Memory(":memory:")
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1")
    mem.search("推荐一杯早上的饮料", user_id="u1")
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlane import profile, validate
from memlane.clock import utcnow
from memlane.domain import (
    Action,
    AddResult,
    Candidate,
    Category,
    ContextBlock,
    Decision,
    HistoryRecord,
    Hit,
    Kind,
    MemoryItem,
    Message,
    Session,
    SlotVersion,
    Status,
    Turn,
)
from memlane.embed import Embedder, create_embedder
from memlane.errors import InvalidInput, NotFound, StoreUnavailable
from memlane.lifecycle.edit import Editor
from memlane.lifecycle.feedback import Feedback
from memlane.lifecycle.maintain import Maintenance, MaintenanceReport, Summariser
from memlane.lifecycle.portability import RestoreReport, export_user, restore_user
from memlane.privacy.controls import PrivacyControls
from memlane.privacy.crypto import KeyProvider
from memlane.privacy.facade import PrivacyFacade
from memlane.privacy.sensitive import kinds as sensitive_kinds
from memlane.read.admit import admit
from memlane.read.context import assemble, portrait_text
from memlane.read.search import BESIDE, Searcher, SearchOptions
from memlane.settings import Settings
from memlane.store import Sessions, Stores
from memlane.store.open import open_stores
from memlane.text.lang import detect
from memlane.vocabulary import MemoryQuery
from memlane.write.backlog import VectorBacklog
from memlane.write.extract import Extractor, RuleExtractor
from memlane.write.judge import Judge
from memlane.write.pipeline import WritePath
from memlane.write.reconcile import Reconciler

if TYPE_CHECKING:
    from memlane.llm import ChatClient

_CATEGORY_OF_KIND = {"semantic": Category.FACT, "episodic": Category.EVENT, "profile": Category.FACT}


# what a user said, as memlane keeps it (not the log, not what was built from it)
_STATEMENTS = (Kind.SEMANTIC, Kind.EPISODIC, Kind.PROFILE)


class Memory(PrivacyFacade):
    """Long-term and short-term memory for many users, on the embedded store unless told otherwise.

    ``Memory()`` keeps one SQLite file in the user's data directory; ``Memory("x.db")`` or
    ``Memory(":memory:")`` chooses another. Keyword arguments override :class:`Settings` fields
    (which otherwise come from ``MEMLANE_*`` environment variables). Ports can be injected:
    ``store=``, ``sessions=``, ``embedder=``, ``extractor=``; ``llm=`` (a :class:`memlane.llm.ChatClient`)
    or ``llm_base_url=`` turns on the LLM stages: the extractor (when none is injected), the judge, the
    reconciler and the summarisers (docs/llm.md); ``mem.llm.usage`` counts what they cost. A client
    passed as ``llm=`` is the caller's to close. ``store`` takes a :class:`~memlane.store.Stores`
    bundle (every role; ``mem.stores`` is the one in use) or a URL, ``sessions`` a session store or a
    URL: ``Memory(store="postgresql://...", sessions="redis://...")``.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        settings: Settings | None = None,
        store: Stores | str | None = None,
        sessions: Sessions | str | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        llm: ChatClient | None = None,
        key_provider: KeyProvider | None = None,
        **overrides: Any,
    ) -> None:
        if settings is None:
            settings = Settings(**overrides)
        elif overrides:
            settings = settings.model_copy(update=overrides)
        if path is not None:
            settings = settings.model_copy(update={"path": str(path)})
        self.settings = settings
        self._closed = False
        PrivacyControls.check(settings, key_provider)  # before anything opens: a bad policy opens nothing
        self.embedder = embedder or create_embedder(settings)
        self.stores = open_stores(settings, self.embedder.dim, store=store, sessions=sessions)
        stores = self.stores
        self.judge = Judge(settings)
        self._close_extractor = getattr(extractor, "close", None)  # an injected one closes with us
        self.llm: ChatClient | None = llm  # the LLM stages' client, None when they are off
        self._own_llm = llm is None and bool(settings.llm_base_url)
        reconciler: Reconciler | None = None
        summariser: Summariser | None = None
        if self._own_llm:
            from memlane.llm import ChatClient  # imported only when an LLM is configured

            self.llm = ChatClient.from_settings(settings)
        if self.llm is not None:
            from memlane.llm import LLMExtractor, LLMJudge, LLMReconciler, LLMSummariser

            extractor = extractor or LLMExtractor(self.llm, RuleExtractor())
            self.judge = LLMJudge(settings, self.llm)
            reconciler = LLMReconciler(settings, self.llm)
            summariser = LLMSummariser(self.llm)
        self._edit = Editor(stores, self.embedder, settings)
        # the sensitive-data policy, consent, encrypted originals and the audit log (docs/privacy.md)
        self._privacy = PrivacyControls(stores, settings, key_provider)
        # log turns get their vectors off the caller's path; reads settle their user's first
        self._vectors = VectorBacklog(stores, self.embedder, max_queued=settings.vector_backlog)
        self._write = WritePath(
            stores,
            self.embedder,
            extractor or RuleExtractor(),
            self.judge,
            settings,
            self._edit,
            self._vectors,
            self._privacy,
            reconciler,
        )
        self._search = Searcher(stores, self.embedder)
        self._maintenance = Maintenance(stores, self.embedder, settings, self._vectors, summariser)
        self._feedback = Feedback(stores)

    # -- write ------------------------------------------------------------------------------------

    def add(
        self,
        messages: str | Sequence[Any],
        *,
        user_id: str,
        session_id: str | None = None,
        at: datetime | None = None,
        role: str = "user",
        caller: str | None = None,
    ) -> AddResult:
        """Extract, judge and store what is worth remembering from one message or a list of them.

        ``messages`` is a string (one turn by ``role``) or a list of ``{"role", "content"}``
        mappings (optionally with ``name``, ``id`` and ``at``). ``at`` is the message time.
        ``caller`` names the application or component asking, for the audit log (every method that
        takes it records it; reads are audited only when a caller is named).
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        sid = validate.label(session_id, "session_id", self.settings) if session_id is not None else None
        if role not in validate.ROLES:
            raise InvalidInput(f"role must be one of {', '.join(validate.ROLES)}, not {role!r}")
        msgs = validate.messages(messages, role, validate.when(at, utcnow()), self.settings)
        consent = self._privacy.consent(uid)
        if consent is not None and not consent.enabled:  # memory off: not even a log or session turn
            refused = self._privacy.refused(msgs)
            return AddResult(decisions=refused, session_id=sid, message_ids=[m.id for m in msgs])
        written = self._write.add(uid, sid, msgs, consent, who)
        return AddResult(
            decisions=written.decisions,
            session_id=sid,
            message_ids=[m.id for m in msgs],
            skipped_clauses=written.skipped,
        )

    def remember(
        self,
        text: str,
        *,
        user_id: str,
        kind: str = "semantic",
        at: datetime | None = None,
        tags: Sequence[str] = (),
        session_id: str | None = None,
        caller: str | None = None,
    ) -> Decision:
        """Store ``text`` as a memory without extraction; it is still checked for sensitive content,
        deduplicated and reconciled. ``at`` is the event time for episodic memories.
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        if kind not in _CATEGORY_OF_KIND:
            raise InvalidInput(f"kind must be semantic, episodic or profile, not {kind!r}")
        when = validate.when(at, utcnow())
        body = validate.text(text, self.settings)
        labels = validate.labels(tags, "tags", self.settings)
        message = Message(role="user", content=body, at=when)
        candidate = Candidate(
            text=body,
            category=_CATEGORY_OF_KIND[kind],
            lang=detect(body),
            tags=labels,
            event_time=when if kind == "episodic" else None,
            remember_request=True,
            message_id=message.id,
        )
        consent = self._privacy.consent(uid)
        if consent is not None and not consent.enabled:
            return self._privacy.refused([message])[0]
        sid = validate.label(session_id, "session_id", self.settings) if session_id is not None else None
        return self._write.remember(uid, sid, message, candidate, Action(kind), consent, who)

    # -- read -------------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int | None = None,
        kinds: Sequence[str] = (),
        categories: Sequence[str] = (),
        tags: Sequence[str] = (),
        since: datetime | None = None,
        until: datetime | None = None,
        include_log: bool = True,
        min_score: float | None = None,
        now: datetime | None = None,
        include_sensitive: bool = False,
        caller: str | None = None,
    ) -> list[Hit]:
        """The memories most relevant to ``query``, best first, each with a score and an explanation.

        Memories whose original is encrypted are left out unless ``include_sensitive`` asks for them;
        then they come with their original text.
        """
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        text = validate.text(query, self.settings, "query")
        options = self._search_options(limit, kinds, categories, tags, since, until, include_log, min_score)
        when = validate.when(now, utcnow())
        hits = self._recall(uid, text, options, when, include_sensitive)
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
        limit: int = 20,
        now: datetime | None = None,
        caller: str | None = None,
        include_sensitive: bool = False,
    ) -> ContextBlock:
        """A prompt-ready block: profile, this session's state and the memories relevant to ``query``.

        The audit log records which memories went into it, for ``caller`` (a name for the application
        or component asking). Encrypted memories are left out unless ``include_sensitive``.
        """
        uid = self._user(user_id)
        caller = validate.caller(caller, self.settings)
        text = validate.text(query, self.settings, "query")
        budget = self.settings.context_tokens if max_tokens is None else max_tokens
        if budget <= 0:
            raise InvalidInput("max_tokens must be positive")
        when = validate.when(now, utcnow())
        # fails before any lookup
        sid = validate.identifier(session_id, "session_id", self.settings) if session_id is not None else None
        # the session, the summary and the profile do not depend on the search: read them beside it
        parts = BESIDE.submit(self._context_parts, uid, sid, when)
        hits = self._recall(uid, text, self._search_options(limit), when, include_sensitive)
        session, portrait, profile_memories = parts.result()
        lang = detect(text)

        def covering(message_ids: Sequence[str]) -> builtins.list[MemoryItem]:
            return self.stores.records.query(
                uid, MemoryQuery(kinds=_STATEMENTS, provenances=tuple(message_ids))
            )

        def retired(message_ids: Sequence[str]) -> builtins.list[MemoryItem]:
            gone = (Status.SUPERSEDED, Status.EXPIRED, Status.DELETED)
            q = MemoryQuery(kinds=_STATEMENTS, statuses=gone, provenances=tuple(message_ids))
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
            lang, profile_memories, session, chosen, budget, summary, self.settings.summary_tokens
        )
        used = [m.id for m in block.memories] + ([portrait.id] if portrait is not None and summary else [])
        detail = f"{len(block.memories)} memories, {len(block.profile)} profile slots, {block.tokens} tokens"
        self._privacy.record(uid, "context", when, used, caller=caller, detail=detail)
        return block

    def _context_parts(
        self, uid: str, sid: str | None, when: datetime
    ) -> tuple[Session | None, MemoryItem | None, builtins.list[MemoryItem]]:
        """What a context block holds besides its search hits: the live session (``sid`` is already
        checked), the user's summary (their portrait) and the memories behind their profile."""
        session = self.stores.sessions.get_session(uid, sid, when) if sid else None
        memories = self.stores.records.query(uid, MemoryQuery(kinds=(Kind.PROFILE,)))
        held = [m for ms in profile.backing(memories).values() for m in ms]
        return session, self._maintenance.portrait.current(uid), held

    def _recall(
        self, uid: str, text: str, options: SearchOptions, now: datetime, include_sensitive: bool
    ) -> list[Hit]:
        """Search, leaving encrypted memories out unless asked for (then with their original text)."""
        self._vectors.settle(uid)  # every turn added so far is found by meaning too
        if include_sensitive:
            return self._privacy.reveal(uid, self._search.search(uid, text, options, now))
        if self._privacy.hidden(uid):
            options = replace(options, query=replace(options.query, sealed=False))
        return self._search.search(uid, text, options, now)

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

    # -- edit and forget --------------------------------------------------------------------------

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
        """Wait until every turn added so far (for one user, or for all) has its vector. Reads need no
        flush (they embed what their user still has queued themselves); this is for callers that
        want to know the work is done, such as the worker before it reports a job done.
        """
        self._check_open()
        self._vectors.wait(self._user(user_id) if user_id is not None else None)

    def end_session(self, user_id: str, session_id: str, *, at: datetime | None = None) -> list[MemoryItem]:
        """End a conversation now: write its episode summary, promote repeated conditions, drop its
        temporary slots. Returns the memories written.
        """
        uid = self._user(user_id)
        sid = validate.identifier(session_id, "session_id", self.settings)
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

    def close(self) -> None:
        """Release the store's connections, an injected extractor's, and the LLM client's when this
        memory opened it from settings. Turns still waiting for their vectors get them first.
        Afterwards every method raises the same :class:`StoreUnavailable` ("this memory is closed");
        closing again does nothing.
        """
        if self._closed:
            return
        self._closed = True
        self._vectors.close()
        self.stores.close()
        if callable(self._close_extractor):
            self._close_extractor()
        if self._own_llm and self.llm is not None:
            self.llm.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def list(
        self,
        user_id: str,
        *,
        kinds: Sequence[str] = (),
        status: str | None = "active",
        include_log: bool = False,
        limit: int = 100,
        offset: int = 0,
        caller: str | None = None,
    ) -> list[MemoryItem]:
        """The user's memories, newest first (the raw log only when asked)."""
        uid = self._user(user_id)
        wanted = validate.kinds(kinds) or tuple(k for k in Kind if include_log or k is not Kind.LOG)
        statuses = (validate.status(status),) if status else ()
        limit, offset = validate.page(limit, offset)
        q = MemoryQuery(kinds=wanted, statuses=statuses, limit=limit, offset=offset)
        items = self.stores.records.query(uid, q)
        self._read(uid, caller, [m.id for m in items], f"a listing of {len(items)}")
        return items

    # -- helpers (below list(), which shadows the builtin in annotations) --------------------

    def _user(self, user_id: str) -> str:
        self._check_open()
        return validate.identifier(user_id, "user_id", self.settings)

    def _check_open(self) -> None:
        """Every method's first step: after :meth:`close`, one error for all of them."""
        if self._closed:
            raise StoreUnavailable("this memory is closed; open a new Memory to go on")

    def _read(self, uid: str, caller: str | None, ids: Sequence[str], what: str) -> None:
        """Audit a read for a named caller (a read with no caller named is not recorded)."""
        who = validate.caller(caller, self.settings)
        if who is not None:
            self._privacy.record(uid, "read", utcnow(), ids, caller=who, detail=what)

    def _owner(self, memory_id: str, user_id: str) -> tuple[str, str]:
        """The checked user and memory ids; the owner is required (isolation holds below the API)."""
        uid = self._user(user_id)
        return uid, validate.identifier(memory_id, "memory id", self.settings)

    def _search_options(
        self,
        limit: int | None,
        kinds: Sequence[str] = (),
        categories: Sequence[str] = (),
        tags: Sequence[str] = (),
        since: datetime | None = None,
        until: datetime | None = None,
        include_log: bool = True,
        min_score: float | None = None,
    ) -> SearchOptions:
        n = self.settings.search_limit if limit is None else limit
        if not isinstance(n, int) or n <= 0 or n > 1000:
            raise InvalidInput("limit must be an integer from 1 to 1000")
        query = MemoryQuery(
            kinds=validate.kinds(kinds),
            categories=tuple(categories),
            tags=tuple(tags),
            since=validate.when(since, since) if since else None,
            until=validate.when(until, until) if until else None,
        )
        threshold = self.settings.min_score if min_score is None else min_score
        return SearchOptions(limit=n, query=query, include_log=include_log, min_score=threshold)

    # -- for the memory page (memlane/service/web) and any other surface that shows a user their memory

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

    # -- sessions for framework adapters (memlane.integrations) -----------------------------------

    def pop_turn(
        self, user_id: str, session_id: str, *, now: datetime | None = None, caller: str | None = None
    ) -> Turn | None:
        """Remove the session's most recent turn from its short-term memory and return it (None when
        the session is empty, expired or unknown). The conversation log and the long-term memories
        the turn was judged into stay: this undoes a turn of the conversation, not what was learned
        from it (:meth:`forget_session` deletes that).

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
        # their turns leave the live sessions, and a session that said nothing else goes whole
        # (its slots and summary came from them too)
        withdrawn = set(ids)
        for session in self.stores.sessions.list_sessions(uid, None):
            kept = [t for t in session.turns if t.message_id not in withdrawn]
            if len(kept) == len(session.turns):
                continue
            if kept:
                session.turns = kept
                self.stores.sessions.save_session(session)
            else:
                self.stores.sessions.delete_session(uid, session.id)
        return len(gone)
