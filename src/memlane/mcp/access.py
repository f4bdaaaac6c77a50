"""Who an MCP call acts for, and how it reaches that user's memory.

The user is never an argument of a tool: a model writes the arguments, and a model can be talked into
writing any user id. It comes from the transport instead:

- **stdio** (:class:`LocalAccess`): one process serves one user, named when it is started
  (``memlane mcp --user alice`` or ``MEMLANE_MCP_USER``).
- **Streamable HTTP** (:class:`ServiceAccess`): each request carries an API key. A user-scoped key
  (``memlane keys create --tenant acme --user alice``) names the user itself, and its calls run on a
  memory of that one user, which refuses any other user id below the tools; a tenant's key needs the
  user in a header the client's configuration sets (``X-Memlane-User`` by default). The endpoint in
  :mod:`memlane.mcp.http` authenticates both before the SDK sees the request, and the tools read the
  result off the request.

Every call is named in the audit log as ``"mcp:" + the client's name`` from its initialize request
(or from the request's metadata on protocol versions without one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context

from memlane.errors import InvalidInput
from memlane.memory import Memory

T = TypeVar("T")

_MAX_CLIENT_NAME = 64


@dataclass(frozen=True)
class Principal:
    """The user a call acts for (inside a tenant, on the service) and the key that proved it;
    ``scoped`` when the key itself is scoped to that user."""

    user_id: str
    tenant: str | None = None
    key_id: str | None = None
    scoped: bool = False


class KeyHolder(AuthenticatedUser):
    """The authenticated caller of an HTTP request, as the SDK expects it in ``scope["user"]``.

    The SDK binds a Streamable HTTP session to the identity that opened it (client id and subject),
    so a session id presented with another tenant's key, or for another user, answers 404.
    """

    def __init__(self, secret: str, principal: Principal) -> None:
        token = AccessToken(
            token=secret,
            client_id=f"{principal.tenant}:{principal.key_id}",
            scopes=[],
            subject=principal.user_id,
        )
        super().__init__(token)
        self.principal = principal


def caller_of(ctx: Context[Any, Any]) -> str:
    """``"mcp:" + the client's name``, for the audit log (``"mcp:unknown"`` when it gave none)."""
    name = ""
    try:
        params = ctx.request_context.session.client_params
    except ValueError:  # no request: nothing to name
        params = None
    if params is not None and params.client_info is not None:
        name = params.client_info.name or ""
    cleaned = "".join(c for c in name if c.isprintable()).strip()[:_MAX_CLIENT_NAME]
    return f"mcp:{cleaned or 'unknown'}"


class Access(Protocol):
    """How the tools find the caller's memory and run work on it."""

    read_only: bool

    def principal(self, ctx: Context[Any, Any]) -> Principal:
        """The user this call acts for; raises when the request carries none."""
        ...

    async def memory(self, principal: Principal) -> Memory:
        """The memory that holds the principal's user (the tenant's, on the service)."""
        ...

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` off the event loop: the core is synchronous."""
        ...


class LocalAccess:
    """One user of one :class:`Memory`, for the stdio server."""

    def __init__(self, memory: Memory, user_id: str, *, read_only: bool = False) -> None:
        if not user_id or not user_id.strip():
            raise InvalidInput("memlane mcp needs a user: pass --user or set MEMLANE_MCP_USER")
        self._memory = memory
        self._principal = Principal(user_id=user_id)
        self.read_only = read_only

    def principal(self, ctx: Context[Any, Any]) -> Principal:
        """Always the user the process was started for."""
        return self._principal

    async def memory(self, principal: Principal) -> Memory:
        """The process's memory."""
        return self._memory

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """In a worker thread."""
        return await asyncio.to_thread(partial(fn, *args, **kwargs))


class ServiceAccess:
    """Tenants' memories inside ``memlane serve``; the principal comes from the authenticated request."""

    def __init__(
        self,
        memory_of: Callable[[str, str | None], Memory],
        run: Callable[..., Any],
        *,
        read_only: bool = False,
    ) -> None:
        self._memory_of = memory_of
        self._run = run
        self.read_only = read_only

    def principal(self, ctx: Context[Any, Any]) -> Principal:
        """The principal the HTTP endpoint authenticated for this very request."""
        request = ctx.request_context.request
        user = getattr(request, "scope", {}).get("user") if request is not None else None
        if not isinstance(user, KeyHolder):  # the endpoint lets no request through without one
            raise InvalidInput("this request was not authenticated")
        return user.principal

    async def memory(self, principal: Principal) -> Memory:
        """The tenant's memory, or its one user's for a user-scoped key (built in a thread the first
        time)."""
        assert principal.tenant is not None
        user = principal.user_id if principal.scoped else None
        return await asyncio.to_thread(self._memory_of, principal.tenant, user)

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """In one of the service's compute slots, in arrival order with the REST requests."""
        result: T = await self._run(fn, *args, **kwargs)
        return result
