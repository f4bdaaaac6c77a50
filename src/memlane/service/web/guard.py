"""What a page session may ask of the ``/v1`` routes, checked before a route runs.

The page uses the same routes as any API client; a request that carries a page cookie instead of an
API key must also:

- carry the session's CSRF token in ``X-CSRF-Token`` when it changes anything (any method but
  GET, HEAD and OPTIONS);
- for a user's session, name that user and no other: every ``user_id`` in the query string and the
  JSON body must be the session's, and a route that names no user (jobs, links, the tenant's user
  list) is refused. Routes scope everything they read or change to the ``user_id`` they are given
  (the store layer below them does), so this one check keeps a session to its user;
- for a staff session, leave encrypted originals sealed: ``include_sensitive`` is refused (staff see
  sensitive memories masked; the user, through their own link, may open them).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from memlane.service.http import ApiError
from memlane.service.web.access import CSRF_HEADER, PageAccess, PageSession

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def _body(request: Request) -> Any:
    """The request's JSON body, parsed as FastAPI parses it (it has read the body already, so this
    reads the cached bytes), or None."""
    raw = await request.body()
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:  # FastAPI refuses it with a 422 of its own
        return None


async def guard(request: Request, session: PageSession, access: PageAccess) -> None:
    """Raise a 403 unless the request stays within what ``session`` may do."""
    if request.method not in SAFE_METHODS and not access.csrf_ok(session, request.headers.get(CSRF_HEADER)):
        raise ApiError(
            403,
            "csrf_failed",
            "missing or wrong X-CSRF-Token: the page sends the token GET /v1/web/session gave it",
        )
    body = await _body(request)
    fields = body if isinstance(body, dict) else {}
    if session.role == "user":
        named = request.query_params.getlist("user_id")
        if "user_id" in fields:
            named.append(fields["user_id"])
        if not named:
            raise ApiError(
                403,
                "forbidden",
                "a user's link opens that user's memory only; this route is not about one user",
            )
        if any(u != session.user_id for u in named):
            raise ApiError(
                403, "forbidden", "a user's link opens that user's memory only, not another user's"
            )
    elif fields.get("include_sensitive") not in (None, False):
        raise ApiError(
            403,
            "forbidden",
            "staff see sensitive memories masked: encrypted originals open only for the user, "
            "through their own link",
        )
