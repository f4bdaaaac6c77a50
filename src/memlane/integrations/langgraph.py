"""memlane as a LangGraph store: :class:`MemlaneStore` implements ``langgraph.store.base.BaseStore``.

A graph compiled with ``store=MemlaneStore(memory)`` reads and writes long-term memory through
LangGraph's own interface (``store.put / get / search / delete / list_namespaces`` and their async
twins), and memlane judges, deduplicates and reconciles what it is given::

    from langgraph.graph import StateGraph
    from memlane import Memory
    from memlane.integrations.langgraph import MemlaneStore

    store = MemlaneStore(Memory(), user_label=0)    # ("u1", "memories"): label 0 is memlane's user
    graph = StateGraph(State).add_node(...).compile(store=store)

How a namespace maps to memlane's scope: the label at ``user_label`` is the ``user_id``; every label
(the user's too) becomes a tag of the item and of its memories, ``langgraph:u1.memories``; the tenant
comes from the service's API key, or in-process from which :class:`~memlane.Memory` the store is given.
``put`` of a dict keeps the dict as it was put (sensitive values masked) and remembers its text
(``fields``, or a ``text``/``content``/``memory``/``data`` field, else every string);
``search(query=...)`` runs memlane's hybrid search; ``ttl`` is in minutes and refreshed on reads
(``ttl_config``). Semantics and limits: docs/integrations.md.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from datetime import datetime

from memlane.aio import AsyncMemory
from memlane.clock import utcnow
from memlane.extras import optional
from memlane.integrations.items import Items
from memlane.integrations.namespaces import NamespaceScope, matches
from memlane.integrations.records import StoredItem
from memlane.memory import Memory

with optional("MemlaneStore (LangGraph)"):
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        TTLConfig,
        validate_op_namespace,
    )

__all__ = ["MemlaneStore"]


class MemlaneStore(BaseStore):
    """A LangGraph ``BaseStore`` on a memlane :class:`~memlane.Memory` (or :class:`~memlane.AsyncMemory`).

    ``user_label`` is the position of the namespace label that names memlane's user; ``fields`` the
    JSON paths whose text is remembered (a put's ``index=`` overrides them); ``ttl_config`` LangGraph's
    TTL settings (``default_ttl`` and ``refresh_on_read``; ``sweep_interval_minutes`` starts a sweeper
    thread); ``caller`` names the graph in memlane's audit log.
    """

    supports_ttl = True

    def __init__(
        self,
        memory: Memory | AsyncMemory,
        *,
        user_label: int = 0,
        fields: Sequence[str] | None = None,
        ttl_config: TTLConfig | None = None,
        caller: str = "langgraph",
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        sync = memory.sync if isinstance(memory, AsyncMemory) else memory
        self.items = Items(sync, scope=NamespaceScope(user_label), fields=fields, caller=caller, clock=clock)
        self.ttl_config = ttl_config
        self._sweeping: tuple[threading.Event, Future[None]] | None = None
        if ttl_config and ttl_config.get("sweep_interval_minutes"):
            self.start_ttl_sweeper()

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations in order; each result at its operation's position."""
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` in a worker thread, so that the event loop never waits for the database."""
        return await asyncio.to_thread(self.batch, list(ops))

    def sweep_ttl(self) -> int:
        """Delete the items whose TTL has passed; returns how many (reads already leave them out)."""
        return self.items.sweep()

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> Future[None]:
        """Sweep expired items every ``sweep_interval_minutes`` (default: the TTL config's, else 5) in a
        daemon thread, until :meth:`stop_ttl_sweeper`; the future completes when the thread stops."""
        if self._sweeping is not None:
            return self._sweeping[1]
        configured = (self.ttl_config or {}).get("sweep_interval_minutes")
        minutes = float(sweep_interval_minutes or configured or 5)
        stop, done = threading.Event(), Future[None]()

        def loop() -> None:
            while not stop.wait(minutes * 60):
                self.sweep_ttl()
            done.set_result(None)

        threading.Thread(target=loop, name="memlane-langgraph-ttl", daemon=True).start()
        self._sweeping = (stop, done)
        return done

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; False if it did not stop within ``timeout`` seconds."""
        if self._sweeping is None:
            return True
        stop, done = self._sweeping
        stop.set()
        try:
            done.result(timeout=timeout)
        except TimeoutError:
            return False
        self._sweeping = None
        return True

    # -- one operation ----------------------------------------------------------------------------

    def _run(self, op: Op) -> Result:
        validate_op_namespace(op)  # ops given to batch() directly skip BaseStore's own checks
        if isinstance(op, GetOp):
            found = self.items.get(op.namespace, op.key, refresh_ttl=op.refresh_ttl)
            return _item(found) if found is not None else None
        if isinstance(op, SearchOp):
            results = self.items.search(
                op.namespace_prefix,
                query=op.query,
                filter=op.filter,
                limit=op.limit,
                offset=op.offset,
                refresh_ttl=op.refresh_ttl,
            )
            return [_search_item(r) for r in results]
        if isinstance(op, PutOp):
            if op.value is not None and (not op.namespace or op.namespace[0] == "langgraph"):
                raise InvalidNamespaceError(
                    f'a namespace must not be empty nor start with "langgraph": {op.namespace!r}'
                )
            self.items.put(op.namespace, op.key, op.value, index=op.index, ttl=op.ttl)
            return None
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise ValueError(f"unknown store operation: {type(op).__name__}")

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = list(op.match_conditions or ())
        prefixes = [c.path for c in conditions if c.match_type == "prefix"]
        suffixes = [c.path for c in conditions if c.match_type == "suffix"]
        if any(c.match_type not in ("prefix", "suffix") for c in conditions):
            raise ValueError(f"match_type must be prefix or suffix: {conditions!r}")
        if len(prefixes) <= 1 and len(suffixes) <= 1:
            return self.items.list_namespaces(
                prefix=prefixes[0] if prefixes else None,
                suffix=suffixes[0] if suffixes else None,
                max_depth=op.max_depth,
                limit=op.limit,
                offset=op.offset,
            )
        # several conditions of one type: all must hold, so filter the first pair's full answer
        found = self.items.list_namespaces(prefix=prefixes[0] if prefixes else None, limit=10_000)
        kept = [
            ns
            for ns in found
            if all(matches(ns, prefix=p) for p in prefixes) and all(matches(ns, suffix=s) for s in suffixes)
        ]
        depth = op.max_depth
        return sorted({ns[:depth] if depth else ns for ns in kept})[op.offset : op.offset + op.limit]


def _item(found: StoredItem) -> Item:
    return Item(
        value=found.value,
        key=found.key,
        namespace=found.namespace,
        created_at=found.created_at,
        updated_at=found.updated_at,
    )


def _search_item(found: StoredItem) -> SearchItem:
    return SearchItem(
        namespace=found.namespace,
        key=found.key,
        value=found.value,
        created_at=found.created_at,
        updated_at=found.updated_at,
        score=found.score,
    )
