"""The public facade: :class:`Memory` wires the write path, the read path and the lifecycle jobs to
the stores, and :class:`AsyncMemory` offers the same methods as coroutines.

::

    from memlane import Memory
    mem = Memory(":memory:")
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1")
    mem.search("推荐一杯早上的饮料", user_id="u1")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlane import validate
from memlane.clock import utcnow
from memlane.conversations import ConversationFacade
from memlane.domain import (
    Action,
    AddResult,
    Candidate,
    Category,
    Decision,
    Kind,
    MemoryItem,
    Message,
)
from memlane.embed import Embedder, create_embedder
from memlane.errors import InvalidInput
from memlane.lifecycle.edit import Editor
from memlane.lifecycle.facade import LifecycleFacade
from memlane.lifecycle.feedback import Feedback
from memlane.lifecycle.maintain import Maintenance, Summariser
from memlane.privacy.controls import PrivacyControls
from memlane.privacy.crypto import KeyProvider
from memlane.privacy.facade import PrivacyFacade
from memlane.read.facade import ReadFacade
from memlane.read.search import Searcher
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


class Memory(ReadFacade, LifecycleFacade, ConversationFacade, PrivacyFacade):
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
        deduplicated and reconciled. ``at`` is the event time for episodic memories."""
        labels = validate.labels(tags, "tags", self.settings)
        return self._remember(
            text, user_id=user_id, kind=kind, at=at, labels=labels, session_id=session_id, caller=caller
        )

    def _remember(
        self,
        text: str,
        *,
        user_id: str,
        kind: str = "semantic",
        at: datetime | None = None,
        labels: list[str],
        session_id: str | None = None,
        caller: str | None = None,
        also: Callable[[Decision], None] | None = None,
    ) -> Decision:
        """:meth:`remember` with tags already checked, for :mod:`memlane.integrations`, which add tags
        of their own making. ``also`` is called with the decision inside the transaction that writes it
        (after the embedding, which it does not wait for): what it writes to ``mem.stores`` is committed
        with the memory, or neither is. An integration keeps its own record of the memory this way. It
        is not called when nothing is written (the user turned memory off)."""
        uid = self._user(user_id)
        who = validate.caller(caller, self.settings)
        if kind not in _CATEGORY_OF_KIND:
            raise InvalidInput(f"kind must be semantic, episodic or profile, not {kind!r}")
        when = validate.when(at, utcnow())
        body = validate.text(text, self.settings)
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
        return self._write.remember(uid, sid, message, candidate, Action(kind), consent, who, also)

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
