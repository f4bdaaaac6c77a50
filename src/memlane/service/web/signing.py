"""Signed tokens: the per-user links and the page's session cookies are claims (JSON) with an
HMAC-SHA256 over them, under a secret only the service knows.

A token reads ``<claims, base64url>.<mac, base64url>``. The MAC covers a purpose as well as the claims
(``link``, ``session``, ``csrf``), so a token made for one purpose never passes as another: a link is
not a cookie, and a cookie is not a CSRF token. Changing one character of the claims (another user,
another tenant, a later expiry) breaks the MAC::

    signer = Signer(secrets.token_bytes(32))
    token = signer.sign("link", {"t": "acme", "u": "u1"})
    signer.verify("link", token)       # {"t": "acme", "u": "u1"}
    signer.verify("session", token)    # None: another purpose
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from typing import Any

_MAX_TOKEN = 4096  # longer than any token this service makes; a longer one is not parsed


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs and checks claims under one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("a signing secret needs at least 32 bytes")
        self._secret = secret

    def _mac(self, purpose: str, body: str) -> bytes:
        return hmac.new(self._secret, f"{purpose}.{body}".encode("ascii"), hashlib.sha256).digest()

    def sign(self, purpose: str, claims: dict[str, Any]) -> str:
        """A token carrying ``claims`` for ``purpose``."""
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode("utf-8"))
        return f"{body}.{_b64(self._mac(purpose, body))}"

    def verify(self, purpose: str, token: object) -> dict[str, Any] | None:
        """The claims of a token this signer made for ``purpose``, or None for anything else (another
        purpose, a changed character, a malformed string)."""
        if not isinstance(token, str) or len(token) > _MAX_TOKEN or token.count(".") != 1:
            return None
        body, mac = token.split(".")
        try:
            if not body.isascii() or not hmac.compare_digest(_unb64(mac), self._mac(purpose, body)):
                return None
            claims = json.loads(_unb64(body))
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return None
        return claims if isinstance(claims, dict) else None

    def digest(self, purpose: str, value: str) -> str:
        """A MAC of ``value`` alone (the CSRF token of a session is the MAC of its id)."""
        return _b64(self._mac(purpose, _b64(value.encode("utf-8"))))

    def matches(self, purpose: str, value: str, given: object) -> bool:
        """Whether ``given`` is :meth:`digest` of ``value``, compared in constant time."""
        return isinstance(given, str) and hmac.compare_digest(
            given.encode(), self.digest(purpose, value).encode()
        )
