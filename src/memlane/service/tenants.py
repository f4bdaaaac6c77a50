"""One :class:`memlane.Memory` per tenant, all on the same stores and the same embedder.

Each tenant's ``Memory`` sees the stores through the tenant's :class:`~memlane.store.scope.Scope`
(``stores.within``), applied where every role builds its queries, so isolation holds below the
routes: a handler given tenant A's memory has no way to reach tenant B's rows, whatever ids a
request carries. A user-scoped key gets a ``Memory`` of its one user the same way
(``Scope(tenant, user=...)``), which refuses every other user id.
"""

from __future__ import annotations

import threading
from pathlib import Path

from memlane.embed import Embedder, create_embedder
from memlane.llm import ChatClient
from memlane.memory import Memory
from memlane.settings import Settings, default_path
from memlane.store import Sessions, Stores
from memlane.store.open import open_stores, sqlite_path
from memlane.store.scope import Scope


class Tenants:
    """The shared stores and a cache of per-tenant memories over them."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Stores | str | None = None,
        sessions: Sessions | str | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder or create_embedder(settings)
        self.stores = open_stores(settings, self.embedder.dim, store=store, sessions=sessions)
        self._memories: dict[tuple[str, str | None], Memory] = {}
        self._lock = threading.Lock()
        # one LLM client (connection pool, concurrency limit, usage counters) for every tenant
        self.llm: ChatClient | None = ChatClient.from_settings(settings) if settings.llm_base_url else None

    def built(self, tenant: str, user: str | None = None) -> Memory | None:
        """The tenant's memory (or its one user's) if :meth:`memory` has built it already."""
        return self._memories.get((tenant, user))

    def memory(self, tenant: str, user: str | None = None) -> Memory:
        """The tenant's memory, or with ``user`` one that reaches that user only (built on first use)."""
        found = self.built(tenant, user)
        if found is not None:
            return found
        with self._lock:
            if (tenant, user) not in self._memories:
                self._memories[tenant, user] = Memory(
                    settings=self.settings,
                    store=self.stores.within(Scope(tenant, user)),
                    embedder=self.embedder,
                    llm=self.llm,
                )
            return self._memories[tenant, user]

    def vectors_queued(self) -> int:
        """Log turns this process has yet to embed, over every tenant."""
        with self._lock:
            memories = list(self._memories.values())
        return sum(m.vectors_queued for m in memories)

    def llm_usage(self) -> dict[str, dict[str, float]]:
        """The LLM stages' counters by stage (empty when no LLM is configured)."""
        return self.llm.usage if self.llm is not None else {}

    def tenants(self) -> list[str]:
        """Tenants with data in the store (for maintenance)."""
        return sorted({u.split("/", 1)[0] for u in self.stores.records.users() if "/" in u})

    def close(self) -> None:
        """Close every tenant's memory, then the shared stores."""
        with self._lock:
            for memory in self._memories.values():
                memory.close()
            self._memories.clear()
        if self.llm is not None:
            self.llm.close()
        self.stores.close()


def sibling_file(settings: Settings, suffix: str) -> str:
    """A file next to the embedded store's (``memlane.db`` → ``memlane.<suffix>.db``), or in the data
    directory when the store is a server or lives in memory.
    """
    url = settings.store
    path = settings.path
    if url and url.startswith("sqlite:"):
        path = sqlite_path(url)
    elif url:
        path = None
    if not path or path == ":memory:":
        path = str(default_path())
    p = Path(path)
    return str(p.with_name(f"{p.stem}.{suffix}.db"))
