"""``POST /v1/chat/completions`` with memory, and ``GET /v1/models`` passed through.

A request is authenticated with a memlane API key (its tenant), names its user in ``X-Memlane-User``
(or the body's ``user`` field), gets the user's context block as a system message, and goes to the
upstream with the upstream's own key. The reply comes back as the upstream sent it: the same status,
body and headers, and, when streamed, the same SSE bytes chunk by chunk. The exchange is then queued
for the write-back (the judge runs in a worker, never on the reply's path).

Response headers say what memlane did:

==============================  =====================================================================
``X-Memlane-Memory``            ``injected``, ``empty`` (nothing to add), ``off; ...`` (no user, no
                                question) or ``unavailable; ...`` (timed out, store down): then the
                                request went through without memory
``X-Memlane-Memories``          how many memories the block held
``X-Memlane-Context-Tokens``    the block's size in tokens (its budget: ``X-Memlane-Max-Tokens``)
``X-Memlane-Writeback-Job``     the write-back's job id (``GET /v1/jobs/{id}``); a streamed reply's
                                comes after it, as the SSE comment ``: memlane-writeback-job <id>``
==============================  =====================================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from memlane.clock import utcnow
from memlane.errors import InvalidInput, MemlaneError
from memlane.proxy import turns
from memlane.proxy.settings import ProxySettings
from memlane.service.http import ApiError
from memlane.service.payload import payload_of
from memlane.service.routes.deps import Caller, CallerDep, ServiceState, StateDep
from memlane.service.routes.writes import submit
from memlane.validate import identifier

log = logging.getLogger("memlane.service")

router = APIRouter(prefix="/v1", tags=["chat proxy"])

# the upstream's headers that describe its own connection, not the reply
_HOP = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "date", "server"}
)


@dataclass
class ProxyState:
    """The upstream and the client that reaches it (opened and closed with the app)."""

    settings: ProxySettings
    client: httpx.AsyncClient


def openai_error(status: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    """An error the proxy itself raises, in the shape OpenAI's clients read."""
    body = {"error": {"message": message, "type": kind, "param": None, "code": None}}
    return JSONResponse(body, status_code=status)


@dataclass
class Recall:
    """What memory added to one request, for the response headers."""

    status: str
    block: str = ""
    memories: int = 0
    tokens: int = 0

    def headers(self) -> dict[str, str]:
        """``X-Memlane-*`` headers describing the injection."""
        out = {"X-Memlane-Memory": self.status}
        if self.status == "injected":
            out["X-Memlane-Memories"] = str(self.memories)
            out["X-Memlane-Context-Tokens"] = str(self.tokens)
        return out


@router.post("/chat/completions", response_model=None)
async def chat_completions(request: Request, caller: CallerDep, state: StateDep) -> Response:
    """An OpenAI chat completion, with the user's memory in the prompt and the exchange remembered."""
    proxy: ProxyState = request.app.state.proxy
    try:
        body = json.loads(await request.body())
    except ValueError:
        return openai_error(400, "the body is not valid JSON")
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return openai_error(400, "the body needs a 'messages' list")
    settings = caller.memory.settings
    try:
        user, session = _who(request, body, proxy.settings, settings)
        budget = _budget(request, proxy.settings)
    except InvalidInput as exc:
        return openai_error(400, str(exc))
    recall = await _recall(state, caller, proxy.settings, body["messages"], user, session, budget)
    sent = turns.with_context(body, recall.block) if recall.block else body
    try:
        upstream = await _send(proxy, sent)
    except httpx.TimeoutException:
        return openai_error(504, "the upstream did not answer in time", "upstream_timeout")
    except httpx.HTTPError as exc:
        return openai_error(
            502, f"the upstream cannot be reached: {type(exc).__name__}", "upstream_unavailable"
        )
    headers = {**_passed(upstream.headers), **recall.headers()}
    streamed = upstream.status_code == 200 and "text/event-stream" in upstream.headers.get("content-type", "")
    if not streamed:
        data = await upstream.aread()
        await upstream.aclose()
        if upstream.status_code == 200 and user is not None:
            job = await _writeback(state, caller, body["messages"], turns.reply_of(data), user, session)
            headers.update(job)
        return Response(data, status_code=upstream.status_code, headers=headers)
    if user is not None:
        headers["X-Memlane-Writeback-Job"] = "after-stream"
    return StreamingResponse(
        _relay(upstream, state, caller, body["messages"], user, session),
        status_code=200,
        headers=headers,
    )


@router.get("/models", response_model=None)
async def models(request: Request, caller: CallerDep) -> Response:
    """The upstream's models, as it lists them."""
    return await _passthrough(request, "models")


@router.get("/models/{model}", response_model=None)
async def model(model: str, request: Request, caller: CallerDep) -> Response:
    """One of the upstream's models, as it describes it."""
    return await _passthrough(request, f"models/{model}")


async def _passthrough(request: Request, path: str) -> Response:
    proxy: ProxyState = request.app.state.proxy
    try:
        upstream = await proxy.client.get(path, headers=_upstream_headers(proxy.settings))
    except httpx.TimeoutException:
        return openai_error(504, "the upstream did not answer in time", "upstream_timeout")
    except httpx.HTTPError as exc:
        return openai_error(
            502, f"the upstream cannot be reached: {type(exc).__name__}", "upstream_unavailable"
        )
    return Response(upstream.content, status_code=upstream.status_code, headers=_passed(upstream.headers))


def _who(
    request: Request, body: dict[str, Any], proxy: ProxySettings, settings: Any
) -> tuple[str | None, str | None]:
    """The user (the header first, then the body's ``user``) and the session, checked."""
    raw = request.headers.get(proxy.user_header) or body.get("user")
    user = identifier(raw, proxy.user_header, settings) if raw is not None else None
    sid = request.headers.get("X-Memlane-Session")
    session = identifier(sid, "X-Memlane-Session", settings) if sid is not None else None
    return user, session


def _budget(request: Request, proxy: ProxySettings) -> int:
    raw = request.headers.get("X-Memlane-Max-Tokens")
    if raw is None:
        return proxy.context_tokens
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= 100_000:
        raise InvalidInput(f"X-Memlane-Max-Tokens must be an integer from 1 to 100000, not {raw!r}")
    return value


async def _recall(
    state: ServiceState,
    caller: Caller,
    proxy: ProxySettings,
    messages: list[Any],
    user: str | None,
    session: str | None,
    budget: int,
) -> Recall:
    """The user's context block, or why there is none; never an error, never longer than the timeout."""
    if user is None:
        return Recall(f"off; no user: send {proxy.user_header} or the body's user field")
    query = turns.query_of(messages)
    if query is None:
        return Recall("off; no user message to look memories up for")
    run = state.compute.run(
        caller.memory.context,
        query,
        user_id=user,
        session_id=session,
        max_tokens=budget,
        caller=f"proxy:{caller.tenant}:{caller.key_id}",
    )
    try:
        block = await asyncio.wait_for(run, proxy.memory_timeout)
    except asyncio.TimeoutError:
        return Recall(f"unavailable; no context block within {proxy.memory_timeout:g} s")
    except MemlaneError as exc:
        log.warning("the proxy goes on without memory: %s", exc)
        return Recall(f"unavailable; {exc.code}")
    if _empty(block.text):
        return Recall("empty")
    return Recall("injected", block.text, len(block.memories), block.tokens)


def _empty(block: str) -> bool:
    """A block with nothing inside its fence (a new user) is not worth a system message."""
    if "<memory-data>" not in block:
        return not block.strip()
    inside = block.split("<memory-data>", 1)[1].split("</memory-data>", 1)[0]
    return not inside.strip()


def _upstream_headers(proxy: ProxySettings) -> dict[str, str]:
    headers = {"accept-encoding": "identity"}  # the bytes go back to the client as they came
    if proxy.upstream_key:
        headers["authorization"] = f"Bearer {proxy.upstream_key}"
    return headers


async def _send(proxy: ProxyState, body: dict[str, Any]) -> httpx.Response:
    headers = {**_upstream_headers(proxy.settings), "content-type": "application/json"}
    data = json.dumps(body, ensure_ascii=False).encode()
    request = proxy.client.build_request("POST", "chat/completions", content=data, headers=headers)
    return await proxy.client.send(request, stream=True)


def _passed(headers: httpx.Headers) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in _HOP}


async def _relay(
    upstream: httpx.Response,
    state: ServiceState,
    caller: Caller,
    messages: list[Any],
    user: str | None,
    session: str | None,
) -> AsyncIterator[bytes]:
    """The upstream's SSE bytes as they arrive, then (once the reply is complete) the write-back."""
    reply = turns.StreamReply()
    try:
        async for chunk in upstream.aiter_raw():
            reply.feed(chunk)
            yield chunk
    finally:
        await upstream.aclose()
    if user is None or not reply.finished:
        return
    job = await _writeback(state, caller, messages, reply.text, user, session)
    if "X-Memlane-Writeback-Job" in job:
        yield f": memlane-writeback-job {job['X-Memlane-Writeback-Job']}\n\n".encode()


async def _writeback(
    state: ServiceState,
    caller: Caller,
    messages: list[Any],
    reply: str | None,
    user: str,
    session: str | None,
) -> dict[str, str]:
    """Queue the exchange for the judge; a header with the job id, or with why nothing was queued."""
    body = turns.writeback(messages, reply, user, session)
    if body is None:
        return {}
    now = utcnow()
    try:
        seed = body.idempotency_key or uuid.uuid4().hex
        payload = {**payload_of(body, now, seed, caller.memory.settings), "caller": caller.name}
        job, _ = await anyio.to_thread.run_sync(
            submit, state, caller.tenant, payload, now, body.idempotency_key
        )
    except ApiError as exc:
        return {"X-Memlane-Writeback": f"failed; {exc.code}"}
    except MemlaneError as exc:
        log.warning("the proxy could not queue a write-back: %s", exc)
        return {"X-Memlane-Writeback": f"failed; {exc.code}"}
    return {"X-Memlane-Writeback-Job": job.id}
