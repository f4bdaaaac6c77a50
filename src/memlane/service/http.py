"""What every request passes through: request ids, JSON access logs, latency metrics, the body-size
limit, API-key authentication, per-key rate limits, the queue's limit, and errors as JSON with a
stable ``code``.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import uuid
from datetime import datetime
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane.errors import ConfigurationError, InvalidInput, MemlaneError, NotFound, StoreUnavailable
from memlane.service.metrics import Metrics
from memlane.service.queue import JobQueue

log = logging.getLogger("memlane.service")

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_QUEUE_RETRY_AFTER = 5  # seconds, for a refused write-back: workers drain a few jobs a second each
_STATUS = {InvalidInput: 422, NotFound: 404, StoreUnavailable: 503, ConfigurationError: 500}


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
    """The core's errors: the message is already written for the caller."""
    assert isinstance(exc, MemlaneError)
    status = next((s for cls, s in _STATUS.items() if isinstance(exc, cls)), 500)
    if status >= 500:
        log.error("request failed: %s", exc, extra={"request_id": _request_id(request)})
    return error_response(status, exc.code, str(exc), _request_id(request))


async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    """A body or parameter that does not fit the schema: say where and why."""
    assert isinstance(exc, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors()]
    return error_response(
        422, "invalid_request", "; ".join(problems) or "invalid request", _request_id(request)
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
    """A token bucket per API key: ``burst`` requests at once, ``rate`` per second sustained.

    Buckets live in the API process; behind N replicas a key may reach N times the rate, which the
    load balancer's stickiness or a shared limiter in front can tighten (docs/deployment.md).
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str) -> None:
        """Take a token for ``key`` or raise a 429 that says when to retry."""
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1.0:
                wait = (1.0 - tokens) / self.rate
                self._buckets[key] = (tokens, now)
                raise ApiError(
                    429,
                    "rate_limited",
                    f"too many requests for this key; retry in {wait:.1f} s",
                    {"Retry-After": str(max(1, round(wait + 0.5)))},
                )
            self._buckets[key] = (tokens - 1.0, now)


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
