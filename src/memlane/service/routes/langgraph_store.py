"""LangGraph's store REST routes, so that ``langgraph_sdk`` clients use memlane as their store:
``PUT / GET / DELETE /store/items``, ``POST /store/items/search`` and ``POST /store/namespaces``.

Behind the service's API keys like every route (``Authorization: Bearer <key>``, or ``x-api-key``,
which is how ``langgraph_sdk.get_client(url=..., api_key=...)`` sends it), and inside the key's
tenant: the namespace label at ``MEMLANE_STORE_USER_LABEL`` (0, the first) is the user. The items
are :mod:`memlane.integrations.items`; no framework is imported here.

::

    from langgraph_sdk import get_client
    client = get_client(url="http://localhost:8000", api_key=KEY)
    await client.store.put_item(["u1", "memories"], "m1", {"text": "I prefer email"})
    await client.store.search_items(["u1"], query="how to reach me?")
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from memlane.errors import NotFound
from memlane.integrations.items import MAX_TTL_MINUTES, Items
from memlane.integrations.namespaces import NamespaceScope
from memlane.integrations.records import StoredItem
from memlane.service.routes.deps import Caller, StateDep, caller, errors

router = APIRouter(prefix="/store", tags=["store (LangGraph)"], responses=errors())
_bearer = HTTPBearer(auto_error=False, description="an API key, as a bearer token or in x-api-key")


async def store_caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    state: StateDep,
) -> Caller:
    """The service's key check, also taking the key from ``x-api-key`` (langgraph_sdk's header)."""
    key = request.headers.get("x-api-key")
    if credentials is None and key:
        credentials = HTTPAuthorizationCredentials(scheme="Bearer", credentials=key)
    return await caller(request, credentials, state)


StoreCaller = Annotated[Caller, Depends(store_caller)]


class ItemOut(BaseModel):
    """An item as LangGraph's REST API returns it; ``score`` only from a search with a query."""

    namespace: list[str]
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    score: float | None = None

    @classmethod
    def of(cls, item: StoredItem) -> ItemOut:
        return cls(
            namespace=list(item.namespace),
            key=item.key,
            value=item.value,
            created_at=item.created_at,
            updated_at=item.updated_at,
            score=item.score,
        )


class PutIn(BaseModel):
    """Store or replace an item; ``ttl`` in minutes from the last read or write."""

    namespace: list[str]
    key: str
    value: dict[str, Any]
    index: Literal[False] | list[str] | None = None
    ttl: float | None = Field(default=None, gt=0, le=MAX_TTL_MINUTES)


class DeleteIn(BaseModel):
    """The item to delete."""

    namespace: list[str] = Field(default_factory=list)
    key: str


class SearchIn(BaseModel):
    """Items under a namespace prefix, filtered, ranked by ``query`` when one is given."""

    namespace_prefix: list[str] = Field(default_factory=list)
    filter: dict[str, Any] | None = None
    limit: int = Field(default=10, ge=0, le=1000)
    offset: int = Field(default=0, ge=0)
    query: str | None = None
    refresh_ttl: bool | None = None


class SearchOut(BaseModel):
    """The items found, best (or most recently updated) first."""

    items: list[ItemOut]


class NamespacesIn(BaseModel):
    """Namespaces starting with ``prefix`` and ending with ``suffix`` (``"*"`` matches any label)."""

    prefix: list[str] | None = None
    suffix: list[str] | None = None
    max_depth: int | None = Field(default=None, ge=1)
    limit: int = Field(default=100, ge=0, le=10_000)
    offset: int = Field(default=0, ge=0)


class NamespacesOut(BaseModel):
    """The namespaces found, sorted."""

    namespaces: list[list[str]]


def _items(who: Caller, request: Request) -> Items:
    label = request.app.state.memlane.config.store_user_label
    return Items(who.memory, scope=NamespaceScope(label), caller=who.name)


@router.put("/items", status_code=204, response_class=Response)
async def put_item(body: PutIn, who: StoreCaller, state: StateDep, request: Request) -> Response:
    """Store or replace an item; its text is remembered through memlane's judge."""
    items = _items(who, request)
    await state.compute.run(items.put, body.namespace, body.key, body.value, index=body.index, ttl=body.ttl)
    return Response(status_code=204)


@router.get("/items", response_model=ItemOut, responses=errors(404))
async def get_item(
    who: StoreCaller,
    request: Request,
    key: Annotated[str, Query(description="the item's key")],
    namespace: Annotated[str, Query(description="the namespace's labels joined by '.'")] = "",
    refresh_ttl: bool = True,
) -> ItemOut:
    """One item; 404 when there is none."""
    labels = namespace.split(".") if namespace else []
    found = await anyio.to_thread.run_sync(
        lambda: _items(who, request).get(labels, key, refresh_ttl=refresh_ttl)
    )
    if found is None:
        raise NotFound(f"no item {key!r} in namespace {tuple(labels)!r}")
    return ItemOut.of(found)


@router.delete("/items", status_code=204, response_class=Response)
async def delete_item(body: DeleteIn, who: StoreCaller, request: Request) -> Response:
    """Delete an item and the memories only it stated (no error if there is none)."""
    await anyio.to_thread.run_sync(_items(who, request).delete, body.namespace, body.key)
    return Response(status_code=204)


@router.post("/items/search", response_model=SearchOut)
async def search_items(body: SearchIn, who: StoreCaller, state: StateDep, request: Request) -> SearchOut:
    """Items under the prefix; with a query, ranked by memlane's hybrid search."""
    items = _items(who, request)
    found = await state.compute.run(
        items.search,
        body.namespace_prefix,
        query=body.query,
        filter=body.filter,
        limit=body.limit,
        offset=body.offset,
        refresh_ttl=body.refresh_ttl is not False,
    )
    return SearchOut(items=[ItemOut.of(i) for i in found])


@router.post("/namespaces", response_model=NamespacesOut)
async def list_namespaces(body: NamespacesIn, who: StoreCaller, request: Request) -> NamespacesOut:
    """The namespaces holding items in this tenant."""
    items = _items(who, request)
    found = await anyio.to_thread.run_sync(
        lambda: items.list_namespaces(
            prefix=body.prefix,
            suffix=body.suffix,
            max_depth=body.max_depth,
            limit=body.limit,
            offset=body.offset,
        )
    )
    return NamespacesOut(namespaces=[list(ns) for ns in found])
