"""What every request passes through: request ids, JSON access logs, latency metrics, the body-size
limit, API-key authentication, per-key rate limits, the queue's limit, and errors as JSON with a
stable ``code``.

Every error, the framework's own included (a body that is not JSON or not UTF-8, nested too deep,
too large, a method or path that does not exist), has the one documented shape
``{"error": {"code", "message", "request_id"}}``. A 503 says what kind of thing is down, never where
it lives (database names, users and socket paths go to the log).
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
import uuid
from collections import OrderedDict
from datetime import datetime
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane.errors import ConfigurationError, InvalidInput, MemlaneError, NotFound, StoreUnavailable
from memlane.service.metrics import Metrics
from memlane.service.queue import JobQueue

log = logging.getLogger("memlane.service")

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_QUEUE_RETRY_AFTER = 5  # seconds, for a refused write-back: workers drain a few jobs a second each
_STATUS = {InvalidInput: 422, NotFound: 404, StoreUnavailable: 503, ConfigurationError: 500}
_UNAVAILABLE = (
    "a database, Redis or the job queue behind the service cannot be reached; nothing was written. "
    "Retry later (the server log has the details under this request id)"
)
_FRAMEWORK_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
_MAX_BUCKETS = 10_000  # rate-limit buckets kept per limiter, least recently used evicted


class ApiError(Exception):
    """An error the HTTP layer itself raises (auth, limits), with its status and code."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def error_response(
    status: int, code: str, message: str, request_id: str | None, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The one shape of every error: ``{"error": {"code", "message", "request_id"}}``."""
    body = {"error": {"code": code, "message": message, "request_id": request_id}}
    return JSONResponse(body, status_code=status, headers=headers)


def _request_id(request: Request) -> str | None:
    value = request.scope.get("state", {}).get("request_id")
    return str(value) if value else None


async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
    """Auth and limit errors."""
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, _request_id(request), exc.headers)


async def on_memlane_error(request: Request, exc: Exception) -> JSONResponse:
    """The core's errors: the message is already written for the caller, except where a backend
    is down, whose message names hosts and paths: that goes to the log only."""
    assert isinstance(exc, MemlaneError)
    status = next((s for cls, s in _STATUS.items() if isinstance(exc, cls)), 500)
    message = str(exc)
    if status >= 500:
        log.error("request failed: %s", exc, extra={"request_id": _request_id(request)})
        message = _UNAVAILABLE if status == 503 else "the service is misconfigured; see the server log"
    return error_response(status, exc.code, message, _request_id(request))


async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
    """The framework's own errors (no such path, a method the path does not take, a body that cannot
    be parsed) in the one shape. A body that is not JSON, not UTF-8 or nested too deep is a 422
    like any other body that does not fit the schema."""
    assert isinstance(exc, HTTPException)
    cause = exc.__cause__
    if isinstance(cause, ApiError):  # the size limit, hit while FastAPI was reading the body
        return await on_api_error(request, cause)
    if exc.status_code == 400:
        return error_response(422, "invalid_request", _unparsable(cause), _request_id(request))
    code = _FRAMEWORK_CODES.get(
        exc.status_code, "invalid_request" if exc.status_code < 500 else "internal_error"
    )
    headers = dict(exc.headers or {})
    return error_response(exc.status_code, code, str(exc.detail), _request_id(request), headers)


def _unparsable(cause: BaseException | None) -> str:
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not valid UTF-8 (byte {cause.start}); send JSON encoded as UTF-8"
    if isinstance(cause, RecursionError):
        return "the body is nested too deeply to parse"
    return "the body could not be parsed as JSON; send Content-Type: application/json and a JSON object"


async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    """A body or parameter that does not fit the schema: say where and why."""
    assert isinstance(exc, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()]
    if any(e.get("type") == "model_attributes_type" and e.get("loc") == ("body",) for e in exc.errors()):
        content = request.headers.get("content-type") or "none"
        problems.append(f"(Content-Type was {content}; send Content-Type: application/json)")
    return error_response(
        422, "invalid_request", "; ".join(problems)[:2000] or "invalid request", _request_id(request)
    )


async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    """A bug: logged with its traceback, reported without internals."""
    log.exception("unexpected error", extra={"request_id": _request_id(request)})
    return error_response(500, "internal_error", "internal error; see the server log", _request_id(request))


class Edge:
    """Pure ASGI middleware: request id, body limit, timing, metrics and one JSON log line per request."""

    def __init__(self, app: ASGIApp, metrics: Metrics, max_body_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        given = headers.get("x-request-id", "")
        request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        start = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            declared = int(headers.get("content-length", "0") or 0)
        except ValueError:
            declared = 0
        if declared > self.max_body:
            await self._too_large(scope, send_with_id, request_id)
        else:
            await self.app(scope, self._limited(receive), send_with_id)
        self._record(scope, status, time.perf_counter() - start, request_id)

    def _limited(self, receive: Receive) -> Receive:
        seen = 0

        async def guarded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                raise ApiError(413, "payload_too_large", f"the body is larger than {self.max_body} bytes")
            return message

        return guarded

    async def _too_large(self, scope: Scope, send: Send, request_id: str) -> None:
        response = error_response(
            413, "payload_too_large", f"the body is larger than {self.max_body} bytes", request_id
        )
        await response(scope, _nothing, send)

    def _record(self, scope: Scope, status: int, seconds: float, request_id: str) -> None:
        route = scope.get("route")
        template = getattr(route, "path", None) or "unmatched"
        self.metrics.latency.labels(scope["method"], template, str(status)).observe(seconds)
        log.info(
            "request",
            extra={
                "request_id": request_id,
                "method": scope["method"],
                "route": template,
                "status": status,
                "ms": round(seconds * 1000, 2),
            },
        )


async def _nothing() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


class RateLimiter:
    """A token bucket per key (an API key, or a client address for failed authentications):
    ``burst`` requests at once, ``rate`` per second sustained.

    Buckets live in the API process, at most ``size`` of them (the least recently used go first: a
    fresh bucket is a full one, so eviction only ever forgets a client that paused); behind N
    replicas a key may reach N times the rate, which the load balancer's stickiness or a shared
    limiter in front can tighten (docs/deployment.md).
    """

    def __init__(self, rate: float, burst: int, *, what: str = "this key", size: int = _MAX_BUCKETS) -> None:
        self.rate, self.burst, self.what, self.size = rate, burst, what, size
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._buckets)

    def check(self, key: str) -> None:
        """Take a token for ``key`` or raise a 429 that says when to retry."""
        self._take(key, spend=True)

    def refuse_if_empty(self, key: str) -> None:
        """Raise the 429 :meth:`check` would, without taking a token."""
        self._take(key, spend=False)

    def _take(self, key: str, *, spend: bool) -> None:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            self._buckets[key] = (tokens - 1.0 if spend and tokens >= 1.0 else tokens, now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        if tokens < 1.0:
            # whole seconds, the same in the message as in the header
            wait = max(1, math.ceil((1.0 - tokens) / self.rate))
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests for {self.what}; retry in {wait} s",
                {"Retry-After": str(wait)},
            )


class QueueLimit:
    """New jobs are refused with a 503 while the queue holds ``limit`` unfinished jobs (0: no limit).

    The write-back is durable, so a queue that grows only delays it; one that grows without end (the
    workers are down, or slower than the writes for hours) would hold stale write-backs and fill
    Redis. The depth is read from the queue at most every ``every`` seconds and counts the jobs this
    process queued since, so N API processes overshoot the limit by at most what the others queue in
    that time. A job is counted in before it is submitted, so that two requests cannot both take the
    last place, and given back when the queue did not add it.
    """

    def __init__(self, queue: JobQueue, limit: int, every: float = 1.0) -> None:
        self.queue, self.limit, self.every = queue, limit, every
        self._depth, self._read_at = 0, float("-inf")
        self._lock = threading.Lock()

    def take(self, now: datetime) -> None:
        """Count one more job in, or raise a 503 that says when to retry (this may read the queue:
        call it in a thread)."""
        if not self.limit:
            return
        with self._lock:
            if time.monotonic() - self._read_at >= self.every:
                self._depth, self._read_at = self.queue.stats(now).depth, time.monotonic()
            if self._depth >= self.limit:
                raise ApiError(
                    503,
                    "queue_full",
                    f"the write-back queue holds {self._depth} jobs (MEMLANE_QUEUE_LIMIT={self.limit}); "
                    "nothing was queued, retry later",
                    {"Retry-After": str(_QUEUE_RETRY_AFTER)},
                )
            self._depth += 1

    def give_back(self) -> None:
        """Uncount a job that :meth:`take` counted but the queue did not add (a repeated idempotency
        key, or a submit that failed)."""
        if not self.limit:
            return  # nothing was counted
        with self._lock:
            self._depth = max(0, self._depth - 1)


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with the request id and any ``extra=`` fields."""

    _STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "at": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update({k: v for k, v in record.__dict__.items() if k not in self._STANDARD})
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(level: str = "info") -> None:
    """JSON lines on stderr for the service's and workers' loggers."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("memlane.service", "memlane.worker"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
