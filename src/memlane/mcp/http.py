"""``/mcp`` in ``memlane serve``: the MCP server over Streamable HTTP, behind the service's API keys.

Before the SDK sees a request, :class:`Authenticated` checks its bearer key (the key's tenant), takes
the user from the key when it is user-scoped, else from the configured header (``X-Memlane-User``;
``MEMLANE_MCP_USER_HEADER`` renames it), applies the key's rate limit, and puts the result in
``scope["user"]`` where the tools read it. A request without a valid key or without a user never
reaches a tool, nor does one whose header names another user than its user-scoped key. The SDK ties
each session to the identity that opened it, so a session id is useless with another key or for
another user.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from memlane.errors import InvalidInput, MemlaneError
from memlane.mcp.access import KeyHolder, Principal, ServiceAccess
from memlane.mcp.settings import McpSettings
from memlane.mcp.tools import MemoryServer, build_server
from memlane.service.http import ApiError, error_response
from memlane.service.routes.deps import ServiceState
from memlane.validate import identifier


class Authenticated:
    """Pure ASGI: a request goes on to the MCP app only with a live key and a user."""

    def __init__(self, app: ASGIApp, state: ServiceState, user_header: str) -> None:
        self.app = app
        self.state = state
        self.user_header = user_header  # as configured, for messages
        self._user_key = user_header.lower().encode("latin-1")  # as ASGI spells header names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            scope["user"] = await self._holder(scope)
        except ApiError as exc:
            request_id = scope.get("state", {}).get("request_id")
            headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
            response = error_response(
                exc.status, exc.code, exc.message, request_id, {**headers, **exc.headers}
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _holder(self, scope: Scope) -> KeyHolder:
        headers = dict(scope["headers"])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, secret = auth.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise ApiError(401, "unauthorized", "missing API key: send 'Authorization: Bearer <key>'")
        secret = secret.strip()
        keys = self.state.keys
        try:
            known, grant = keys.known(secret)
            if not known:
                grant = await asyncio.to_thread(keys.grant_of, secret)
        except MemlaneError as exc:
            raise ApiError(503, exc.code, str(exc)) from exc
        if grant is None:
            raise ApiError(401, "unauthorized", "unknown or revoked API key")
        self.state.limiter.check(secret)
        raw = headers.get(self._user_key, b"").decode("utf-8", "replace").strip()
        name = self.user_header
        key_id = secret.split("_")[1]
        if grant.user is not None:
            if raw and raw != grant.user:
                raise ApiError(
                    403, "forbidden", f"this key is scoped to one user: {name} names another; leave it out"
                )
            principal = Principal(user_id=grant.user, tenant=grant.tenant, key_id=key_id, scoped=True)
            return KeyHolder(secret, principal)
        if not raw:
            raise ApiError(
                400, "no_user", f"no user: the MCP client's configuration must send a {name} header"
            )
        try:
            user = identifier(raw, name, self.state.tenants.settings)
        except InvalidInput as exc:
            raise ApiError(400, "invalid_user", str(exc)) from exc
        return KeyHolder(secret, Principal(user_id=user, tenant=grant.tenant, key_id=key_id))


class McpEndpoint:
    """The Streamable HTTP endpoint: mount :attr:`app` at ``/mcp`` and enter :meth:`running` in the
    app's lifespan (the SDK's session manager runs each session as a task of its own)."""

    def __init__(self, state: ServiceState, settings: McpSettings | None = None) -> None:
        settings = settings or McpSettings()
        access = ServiceAccess(state.tenants.memory, state.compute.run, read_only=settings.read_only)
        self.server: MemoryServer = build_server(access)
        # the bearer key is what protects the endpoint (a page another site loads cannot send it), so
        # the SDK's Host and Origin allow-list, which would refuse every host name but localhost, is off
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        self.server.streamable_http_app(streamable_http_path="/mcp", transport_security=security)
        manager = self.server.session_manager
        self.app: ASGIApp = Authenticated(StreamableHTTPASGIApp(manager), state, settings.user_header)
        self.route = Route("/mcp", self.app, include_in_schema=False)  # GET, POST and DELETE

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the session manager for as long as the app serves."""
        async with self.server.session_manager.run():
            yield
