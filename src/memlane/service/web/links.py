"""Per-user links to the memory page: signed, expiring, revocable, each bound to one tenant and user.

A tenant admin (any API key of the tenant, or ``memlane link create``) makes a link for one user;
whoever opens it sees that user's memory and nobody else's. The link is a signed token
(:mod:`~memlane.service.web.signing`) naming the link's id, tenant, user and expiry, put in the URL's
fragment (``https://host/#link=<token>``), which browsers never send to a server or in a
``Referer``. The key database (``memlane.service.keys``) keeps, beside the API keys, one row per
link (so it can be listed and revoked) and the signing secret, so every API process checks the same
links::

    links = LinkStore(open_keys("memlane.keys.db"))
    made = links.create("acme", "u1", hours=24, now=utcnow(), created_by="cli")
    made.url("http://127.0.0.1:8000")      # http://127.0.0.1:8000/#link=eyJ...
    links.open(made.token, utcnow())        # the Link, while it is live
    links.revoke("acme", made.link.id, now=utcnow())
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memlane.clock import from_epoch, to_epoch
from memlane.errors import InvalidInput, NotFound
from memlane.service.keys import KeyStore
from memlane.service.web.signing import Signer

MAX_HOURS = 24 * 30  # a link that outlives a month is a standing credential, not a link
_CACHE_SECONDS = 5.0  # a revocation made by another process takes effect within this time
_TABLES = (
    """CREATE TABLE IF NOT EXISTS memlane_web_links (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    revoked_at DOUBLE PRECISION,
    created_by TEXT NOT NULL
)""",
    "CREATE TABLE IF NOT EXISTS memlane_web_secret (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)",
)
_COLUMNS = "id, tenant, user_id, created_at, expires_at, revoked_at, created_by"


@dataclass(frozen=True)
class Link:
    """A link as listed: never its token."""

    id: str
    tenant: str
    user_id: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    created_by: str = ""

    def live(self, now: datetime) -> bool:
        """Whether the link still opens the page."""
        return self.revoked_at is None and now < self.expires_at


@dataclass(frozen=True)
class CreatedLink:
    """A new link; ``token`` is shown once (it can be made again only as a new link)."""

    link: Link
    token: str

    def url(self, base: str) -> str:
        """The address to hand the user: the page at ``base`` with the token in the fragment."""
        return f"{base.rstrip('/')}/#link={self.token}"


def _time(epoch: float | None) -> datetime:
    at = from_epoch(epoch)
    assert at is not None
    return at


class LinkStore:
    """Links and the signing secret, in the key database."""

    def __init__(self, keys: KeyStore) -> None:
        self.keys = keys

        def prepare(cur: Any) -> Any:
            for table in _TABLES:
                cur.execute(table)
            # the first process to get here makes the secret; every other one reads the same
            cur.execute(
                keys.sql(
                    "INSERT INTO memlane_web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING"
                ),
                (secrets.token_urlsafe(48),),
            )
            cur.execute("SELECT secret FROM memlane_web_secret WHERE id = 1")
            return cur.fetchone()

        row = keys.run(prepare)
        self.signer = Signer(str(row[0]).encode("ascii"))
        self._cache: dict[str, tuple[Link | None, float]] = {}
        self._lock = threading.Lock()

    def create(
        self, tenant: str, user_id: str, *, hours: float, now: datetime, created_by: str
    ) -> CreatedLink:
        """A link to ``user_id``'s memory in ``tenant``, valid for ``hours`` (at most 30 days)."""
        if not isinstance(hours, int | float) or not 0 < hours <= MAX_HOURS:
            raise InvalidInput(f"hours must be more than 0 and at most {MAX_HOURS} (30 days), not {hours!r}")
        link = Link(
            id=secrets.token_hex(8),
            tenant=tenant,
            user_id=user_id,
            created_at=now,
            expires_at=now + timedelta(hours=hours),
            created_by=created_by,
        )
        sql = self.keys.sql(f"INSERT INTO memlane_web_links ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL, ?)")
        values = (link.id, tenant, user_id, to_epoch(now), to_epoch(link.expires_at), created_by)
        self.keys.run(lambda cur: cur.execute(sql, values))
        claims = {"l": link.id, "t": tenant, "u": user_id, "e": int(to_epoch(link.expires_at) or 0)}
        return CreatedLink(link, self.signer.sign("link", claims))

    def links(self, tenant: str, user_id: str | None = None) -> list[Link]:
        """The tenant's links (of one user), newest first; revoked and expired ones included."""
        where, params = ("tenant = ?", [tenant])
        if user_id is not None:
            where, params = where + " AND user_id = ?", [*params, user_id]
        sql = self.keys.sql(
            f"SELECT {_COLUMNS} FROM memlane_web_links WHERE {where} ORDER BY created_at DESC"
        )
        rows = self.keys.run(lambda cur: cur.execute(sql, tuple(params)).fetchall())
        return [self._link(r) for r in rows]

    def revoke(self, tenant: str, link_id: str, *, now: datetime) -> Link:
        """Revoke a link of ``tenant``: it and every page session opened with it stop working (within
        seconds on every API process). :class:`NotFound` for an unknown id or another tenant's."""
        sql = self.keys.sql(
            "UPDATE memlane_web_links SET revoked_at = ? WHERE id = ? AND tenant = ? AND revoked_at IS NULL"
        )
        self.keys.run(lambda cur: cur.execute(sql, (to_epoch(now), link_id, tenant)))
        with self._lock:
            self._cache.pop(link_id, None)
        found = self.get(link_id)
        if found is None or found.tenant != tenant:
            raise NotFound(f"no link {link_id!r}")
        return found

    def get(self, link_id: str) -> Link | None:
        """One link by id (from a cache of a few seconds)."""
        with self._lock:
            cached = self._cache.get(link_id)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        sql = self.keys.sql(f"SELECT {_COLUMNS} FROM memlane_web_links WHERE id = ?")
        row = self.keys.run(lambda cur: cur.execute(sql, (link_id,)).fetchone())
        link = self._link(row) if row is not None else None
        with self._lock:
            self._cache[link_id] = (link, time.monotonic() + _CACHE_SECONDS)
        return link

    def open(self, token: object, now: datetime) -> Link | None:
        """The live link a token stands for, or None: a token this service did not sign, one whose
        claims were changed, an expired or revoked link, or claims that disagree with the stored link."""
        claims = self.signer.verify("link", token)
        if claims is None or not isinstance(claims.get("l"), str):
            return None
        link = self.get(claims["l"])
        if link is None or not link.live(now):
            return None
        if claims.get("t") != link.tenant or claims.get("u") != link.user_id:
            return None
        return link

    @staticmethod
    def _link(row: tuple[object, ...]) -> Link:
        return Link(
            id=str(row[0]),
            tenant=str(row[1]),
            user_id=str(row[2]),
            created_at=_time(row[3]),  # type: ignore[arg-type]
            expires_at=_time(row[4]),  # type: ignore[arg-type]
            revoked_at=from_epoch(row[5]),  # type: ignore[arg-type]
            created_by=str(row[6]),
        )
