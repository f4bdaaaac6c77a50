"""Open the stores that :class:`~memlane.settings.Settings` names."""

from __future__ import annotations

from memlane.errors import ConfigurationError
from memlane.settings import Settings, default_path
from memlane.store import MemoryStore, SessionStore


def open_stores(settings: Settings, dim: int) -> tuple[MemoryStore, SessionStore]:
    """The long-term store and the session store; the embedded SQLite file serves both by default."""
    url = settings.store
    if url is None or url.startswith("sqlite:"):
        from memlane.store.sqlite import SQLiteStore

        path = url.removeprefix("sqlite:///").removeprefix("sqlite://") if url else None
        store = SQLiteStore(path or settings.path or default_path(), dim=dim)
    else:
        scheme = url.split(":", 1)[0]
        raise ConfigurationError(f"unsupported store URL scheme {scheme!r}; use a SQLite path")
    if settings.sessions is not None:
        raise ConfigurationError(f"unsupported session store {settings.sessions!r}")
    return store, store
