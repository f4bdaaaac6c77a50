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

from memlane.errors import ConfigurationError
from memlane.extras import optional
from memlane.settings import Settings, default_path
from memlane.store import Sessions, Stores

_POSTGRES = ("postgresql", "postgres")
_REDIS = ("redis", "rediss", "unix")


def url_scheme(url: str) -> str:
    """The scheme of a store URL, lower case; ``""`` for a plain path."""
    return url.split(":", 1)[0].lower() if "://" in url else ""


def sqlite_path(url: str) -> str:
    """The file a ``sqlite:///path`` URL (or a plain path) names."""
    return url.removeprefix("sqlite:///").removeprefix("sqlite://")


def open_store(url: str | None, settings: Settings, dim: int) -> Stores:
    """Every role on the store at ``url`` (the embedded file when None), sessions included."""
    scheme = url_scheme(url) if url else "sqlite"
    if scheme == "sqlite":
        from memlane.store.sqlite import open_sqlite

        path = sqlite_path(url) if url else None
        return open_sqlite(path or settings.path or default_path(), dim=dim)
    if url and scheme in _POSTGRES:
        with optional("a PostgreSQL store"):
            from memlane.store.postgres import open_postgres

        return open_postgres(url, dim=dim)
    raise ConfigurationError(f"unsupported store URL scheme {scheme!r}; use sqlite:/// or postgresql://")


def open_session_store(url: str) -> Sessions:
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
    store: Stores | str | None = None,
    sessions: Sessions | str | None = None,
) -> Stores:
    """The stores of every role.

    ``store`` may be a ready :class:`~memlane.store.Stores` (complete with its sessions unless
    ``sessions`` is given), a URL, or None for what ``settings`` names; ``sessions`` a session store,
    a URL, or None for what ``settings`` names (else the store's own sessions). What is passed in or
    opened here is closed with the bundle.
    """
    url = sessions if isinstance(sessions, str) else settings.sessions
    given = None if isinstance(sessions, str) else sessions
    if store is not None and not isinstance(store, str):
        if given is not None:
            return store.with_sessions(given)
        return store if not isinstance(sessions, str) else store.with_sessions(open_session_store(sessions))
    opened = open_store(store or settings.store, settings, dim)
    if given is not None:
        return opened.with_sessions(given)
    if url is None:
        return opened
    try:
        return opened.with_sessions(open_session_store(url))
    except BaseException:
        opened.close()
        raise
