"""Who is looking at the memory page: a page session, held in a signed cookie, opened by a user's
link or by staff signing in with an API key.

A session names its tenant, its role and, for a user, the one user it may reach; a staff session
names the API key it was opened with (never the secret). Every request re-checks what the session
stands on: the link must still be live (not revoked, not expired) and the key must not be revoked,
so revoking either ends the session within seconds on every API process. The cookie is HttpOnly
(the page's script never sees it) and SameSite=Strict; each state-changing request must also carry
the session's CSRF token (a MAC of the session id, which the page gets from
``GET /v1/web/session``) in ``X-CSRF-Token``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from memlane.clock import from_epoch, to_epoch
from memlane.service.keys import KeyStore
from memlane.service.web.links import Link, LinkStore

COOKIE = "memlane_page"
CSRF_HEADER = "x-csrf-token"
USER_HOURS = 12.0  # a user's session, at most (and never past its link's expiry): open the link again
STAFF_HOURS = 8.0  # a working day; then sign in again

Role = Literal["user", "staff"]


@dataclass(frozen=True)
class PageSession:
    """One signed-in browser: whose memory it may see, as whom, until when."""

    id: str
    tenant: str
    role: Role
    via: str  # the link's id (a user) or the API key's id (staff)
    expires_at: datetime
    user_id: str | None = None  # the one user a user's session reaches; None for staff

    @property
    def caller(self) -> str:
        """The name the audit log records for what this session does."""
        return "web" if self.role == "user" else "web:staff"

    @property
    def bucket(self) -> str:
        """The rate-limit bucket: a staff session shares its API key's with the API itself."""
        return f"link:{self.via}" if self.role == "user" else f"key:{self.via}"


class PageAccess:
    """Opens page sessions from links and keys, and checks the cookies that carry them."""

    def __init__(self, links: LinkStore, keys: KeyStore) -> None:
        self.links = links
        self.keys = keys
        self.signer = links.signer

    def for_link(self, token: object, now: datetime) -> PageSession | None:
        """A user's session from a link token, or None when the link is not live or not genuine."""
        link = self.links.open(token, now)
        if link is None:
            return None
        ends = min(link.expires_at, now + timedelta(hours=USER_HOURS))
        return PageSession(secrets.token_hex(12), link.tenant, "user", link.id, ends, link.user_id)

    def for_key(self, secret: str, now: datetime) -> PageSession | None:
        """A staff session from a live API key of the whole tenant, or None (a user-scoped key
        opens no staff session: staff see every user)."""
        grant = self.keys.grant_of(secret)
        if grant is None or grant.user is not None:
            return None
        key_id = secret.split("_")[1]
        return PageSession(
            secrets.token_hex(12), grant.tenant, "staff", key_id, now + timedelta(hours=STAFF_HOURS)
        )

    def cookie(self, session: PageSession) -> str:
        """The cookie value that carries ``session``."""
        claims = {
            "s": session.id,
            "t": session.tenant,
            "r": session.role,
            "v": session.via,
            "u": session.user_id,
            "e": to_epoch(session.expires_at),
        }
        return self.signer.sign("session", claims)

    def session_of(self, cookie: object, now: datetime) -> PageSession | None:
        """The live session a cookie carries, or None: not signed here, changed, expired, or standing on
        a link or key that has since been revoked (or, for a link, that now names someone else)."""
        c = self.signer.verify("session", cookie)
        if c is None:
            return None
        fields = (c.get("s"), c.get("t"), c.get("v"))
        expires = c.get("e")
        if not all(isinstance(f, str) for f in fields) or not isinstance(expires, int | float):
            return None
        sid, tenant, via = (str(f) for f in fields)
        ends = from_epoch(float(expires))
        if ends is None or ends <= now:
            return None
        if c.get("r") == "user":
            link = self.links.get(via)
            if not self._stands(link, tenant, c.get("u"), now):
                return None
            return PageSession(sid, tenant, "user", via, ends, str(c["u"]))
        if c.get("r") == "staff" and c.get("u") is None and self.keys.tenant_of_id(via) == tenant:
            return PageSession(sid, tenant, "staff", via, ends)
        return None

    @staticmethod
    def _stands(link: Link | None, tenant: str, user: object, now: datetime) -> bool:
        return link is not None and link.live(now) and link.tenant == tenant and link.user_id == user

    def csrf(self, session: PageSession) -> str:
        """The session's CSRF token: the page sends it back on every state-changing request."""
        return self.signer.digest("csrf", session.id)

    def csrf_ok(self, session: PageSession, given: object) -> bool:
        """Whether a request's ``X-CSRF-Token`` is this session's."""
        return self.signer.matches("csrf", session.id, given)
