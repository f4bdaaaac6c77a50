"""Open the stores that :class:`~memlane.settings.Settings` (or the caller) names.

=========================================  ==========================================================
``store``                                  long-term store
=========================================  ==========================================================
None (default)                             the embedded SQLite file at ``Settings.path``
``sqlite:///path/to/file.db``              that SQLite file
``postgresql://user@host/db``              PostgreSQL + pgvector (``postgres://`` too)
=========================================  ==========================================================

``sessions`` is a Redis URL (``redis://``, ``rediss://``, ``unix://``; add ``?key_prefix=app1:`` to
share a Redis between applications) or None, which keeps sessions in the long-term store's own table.
Both come from ``MEMLANE_STORE`` / ``MEMLANE_SESSIONS`` unless passed in::

    Memory(store="postgresql://memlane@db/memlane", sessions="redis://cache:6379/0")
"""

from __future__ import annotations

from memlane.errors import ConfigurationError, InvalidInput
from memlane.extras import optional
from memlane.settings import Settings, default_path
from memlane.store import MemoryStore, SessionStore
from memlane.store.relational import SQLStore

_POSTGRES = ("postgresql", "postgres")
_REDIS = ("redis", "rediss", "unix")


def url_scheme(url: str) -> str:
    """The scheme of a store URL, lower case; ``""`` for a plain path."""
    return url.split(":", 1)[0].lower() if "://" in url else ""


def sqlite_path(url: str) -> str:
    """The file a ``sqlite:///path`` URL (or a plain path) names."""
    return url.removeprefix("sqlite:///").removeprefix("sqlite://")


def open_store(url: str | None, settings: Settings, dim: int) -> SQLStore:
    """The long-term store at ``url`` (the embedded file when None); it serves sessions too."""
    scheme = url_scheme(url) if url else "sqlite"
    if scheme == "sqlite":
        from memlane.store.sqlite import SQLiteStore

        path = sqlite_path(url) if url else None
        return SQLiteStore(path or settings.path or default_path(), dim=dim)
    if url and scheme in _POSTGRES:
        with optional("a PostgreSQL store"):
            from memlane.store.postgres import PostgresStore

        return PostgresStore(url, dim=dim)
    raise ConfigurationError(f"unsupported store URL scheme {scheme!r}; use sqlite:/// or postgresql://")


def open_session_store(url: str) -> SessionStore:
    """The session store at ``url`` (Redis)."""
    if url_scheme(url) in _REDIS:
        with optional("a Redis session store"):
            from memlane.store.redis import RedisSessionStore

        return RedisSessionStore(url)
    raise ConfigurationError(f"unsupported session store {url!r}; use redis://, or none for the main store")


def open_stores(
    settings: Settings,
    dim: int,
    *,
    store: MemoryStore | str | None = None,
    sessions: SessionStore | str | None = None,
) -> tuple[MemoryStore, SessionStore]:
    """The long-term store and the session store.

    ``store`` and ``sessions`` may be ready objects, URLs, or None for what ``settings`` names. A
    store opened here keeps sessions itself unless a session store is given or named; a store passed
    in as an object needs a session store passed or named too.
    """
    url = sessions if isinstance(sessions, str) else settings.sessions
    given = None if isinstance(sessions, str) else sessions
    if store is not None and not isinstance(store, str):
        if given is not None:
            return store, given
        if url is None:
            raise InvalidInput("a custom store needs a session store too (sessions=...)")
        return store, open_session_store(url)
    opened = open_store(store or settings.store, settings, dim)
    if given is not None:
        return opened, given
    if url is None:
        return opened, opened
    try:
        return opened, open_session_store(url)
    except BaseException:
        opened.close()
        raise
