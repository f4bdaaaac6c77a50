"""The chat client: one OpenAI-compatible endpoint, with timeouts, retries, a concurrency limit and usage.

Any server that speaks the OpenAI chat-completions API works: OpenAI, DeepSeek, Qwen (DashScope's
compatible mode), Ollama, vLLM, llama.cpp. The official ``openai`` package does the HTTP; this module
adds what memlane needs around it:

- retries with exponential backoff on 429, 5xx, timeouts and dropped connections, done here rather
  than by the ``openai`` client (whose own retries are switched off) so that they are counted and
  their delays can be made tiny in tests;
- JSON mode (``response_format={"type": "json_object"}``) while the endpoint accepts it, and plain
  requests from the first 400 that says it does not;
- at most ``concurrency`` requests in flight, from any number of threads;
- :class:`LLMStats`: calls, tokens, latency and failures, by stage ("extract", "judge", "reconcile",
  "session_summary", "period_summary"); ``client.usage`` is a snapshot of them as plain numbers.

::

    client = ChatClient("http://localhost:11434/v1", "qwen2.5:7b")
    reply = client.complete([{"role": "user", "content": "hi"}], stage="extract")
    reply.content, reply.prompt_tokens, client.stats.stage("extract").calls
"""

from __future__ import annotations

import logging
import random
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from memlane.errors import ConfigurationError, MemlaneError
from memlane.extras import optional
from memlane.settings import Settings

with optional("an LLM endpoint"):
    import openai

log = logging.getLogger("memlane.llm")

ChatMessage = dict[str, str]  # {"role": ..., "content": ...}


class LLMUnavailable(MemlaneError):
    """The LLM endpoint could not give an answer (retries spent, or a request it will never accept)."""

    code = "llm_unavailable"


@dataclass(frozen=True)
class Reply:
    """One chat completion: the text, why it stopped, whether the model refused, and what it cost."""

    content: str
    finish_reason: str | None = None  # "stop" | "length" | "content_filter" | ...
    refusal: str | None = None  # the model's refusal, when it declined to answer
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def truncated(self) -> bool:
        """The answer was cut off at the token limit."""
        return self.finish_reason == "length"


@dataclass
class StageStats:
    """Counters for one stage of the pipeline."""

    calls: int = 0  # requests sent, retries included
    retries: int = 0  # requests that were repeats after a 429, 5xx or timeout
    errors: int = 0  # requests that failed (status or transport)
    failures: int = 0  # stage results that fell back to the rules
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency: float = 0.0  # seconds spent waiting on the endpoint, in total

    @property
    def tokens(self) -> int:
        """Prompt and completion tokens together."""
        return self.prompt_tokens + self.completion_tokens


@dataclass
class LLMStats:
    """Usage counters by stage; safe to update from many threads."""

    stages: dict[str, StageStats] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def stage(self, name: str) -> StageStats:
        """The counters of ``name`` (all zero when the stage never ran)."""
        with self._lock:
            return self.stages.setdefault(name, StageStats())

    def add(self, name: str, **counts: float) -> None:
        """Add ``counts`` (field name -> amount) to the counters of stage ``name``."""
        with self._lock:
            stats = self.stages.setdefault(name, StageStats())
            for key, amount in counts.items():
                setattr(stats, key, getattr(stats, key) + amount)

    def snapshot(self) -> dict[str, dict[str, float]]:
        """A copy of every counter, by stage, as plain numbers (ready for a metrics exporter).

        >>> stats = LLMStats()
        >>> stats.add("judge", calls=1, prompt_tokens=120, completion_tokens=30)
        >>> stats.snapshot()["judge"]["tokens"]
        150
        """
        with self._lock:
            return {
                name: {**{f.name: getattr(s, f.name) for f in fields(s)}, "tokens": s.tokens}
                for name, s in sorted(self.stages.items())
            }


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APIConnectionError):  # timeouts are a kind of connection error
        return True
    return isinstance(exc, openai.APIStatusError) and (exc.status_code == 429 or exc.status_code >= 500)


def _json_mode_refused(exc: Exception) -> bool:
    """A 400 that blames ``response_format``: the endpoint has no JSON mode."""
    if not isinstance(exc, openai.BadRequestError):
        return False
    text = str(exc).lower()
    return "response_format" in text or ("json" in text and "support" in text)


def _retry_after(exc: Exception) -> float | None:
    """The delay a 429 or 503 asked for, in seconds, when it gave one as a number."""
    if not isinstance(exc, openai.APIStatusError):
        return None
    value = exc.response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


class ChatClient:
    """An OpenAI-compatible chat endpoint, used by every LLM stage of memlane.

    ``backoff`` is the first retry delay in seconds, doubled on each retry (with jitter) up to
    ``max_backoff``; a ``Retry-After`` header is honoured within the same cap.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        concurrency: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        # local servers take no key, but the openai client insists on one
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=0
        )
        # close the connection pool even when the owner forgets to
        self._finalizer = weakref.finalize(self, self._client.close)
        self.model = model
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.stats = LLMStats()
        self.json_mode = True  # switched off for good by the first 400 that refuses it
        self._sleep = sleep
        self._slots = threading.Semaphore(concurrency)

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatClient:
        """The client that ``MEMLANE_LLM_*`` settings describe."""
        if not settings.llm_base_url:
            raise ConfigurationError("llm_base_url is not set")
        if not settings.llm_model:
            raise ConfigurationError("llm_model must be set with llm_base_url (e.g. gpt-4o-mini, qwen2.5:7b)")
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        return cls(
            settings.llm_base_url,
            settings.llm_model,
            api_key=key,
            timeout=settings.llm_timeout,
            max_retries=settings.llm_max_retries,
            concurrency=settings.llm_concurrency,
        )

    @property
    def usage(self) -> dict[str, dict[str, float]]:
        """Calls, retries, errors, failures, tokens and latency so far, by stage (an
        :meth:`LLMStats.snapshot`): ``{"judge": {"calls": 3.0, "prompt_tokens": 912.0, ...}, ...}``.
        """
        return self.stats.snapshot()

    def complete(
        self, messages: Sequence[ChatMessage], *, stage: str, json: bool = True, max_tokens: int = 1024
    ) -> Reply:
        """The model's reply to ``messages``, counted under ``stage``.

        Raises :class:`LLMUnavailable` when retries run out or the endpoint rejects the request.
        """
        attempt = 0
        while True:
            try:
                return self._once(messages, stage, json and self.json_mode, max_tokens)
            except openai.OpenAIError as exc:
                self.stats.add(stage, errors=1)
                if json and self.json_mode and _json_mode_refused(exc):
                    log.info("the endpoint has no JSON mode; asking without it from now on")
                    self.json_mode = False
                    continue
                if not _retryable(exc) or attempt >= self.max_retries:
                    raise LLMUnavailable(f"{stage}: {type(exc).__name__}: {exc}") from exc
                delay = self._delay(attempt, _retry_after(exc))
                attempt += 1
                self.stats.add(stage, retries=1)
                log.warning(
                    "%s: %s; retry %d of %d in %.2fs",
                    stage,
                    type(exc).__name__,
                    attempt,
                    self.max_retries,
                    delay,
                )
                self._sleep(delay)

    def close(self) -> None:
        """Close the connection pool."""
        self._finalizer()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _delay(self, attempt: int, asked: float | None) -> float:
        if asked is not None:
            return min(asked, self.max_backoff)
        base = min(self.backoff * 2.0**attempt, self.max_backoff)
        return base * (0.5 + random.random() / 2)  # jitter keeps many clients from retrying in step

    def _once(self, messages: Sequence[ChatMessage], stage: str, json: bool, max_tokens: int) -> Reply:
        extra: dict[str, Any] = {"response_format": {"type": "json_object"}} if json else {}
        with self._slots:
            started = time.monotonic()
            try:
                response = self._client.chat.completions.create(
                    model=self.model,
                    messages=list(messages),  # type: ignore[arg-type]  # plain dicts of role/content
                    temperature=0,
                    max_tokens=max_tokens,
                    **extra,
                )
            finally:
                self.stats.add(stage, calls=1, latency=time.monotonic() - started)
        usage = response.usage
        prompt = usage.prompt_tokens if usage else 0
        completion = usage.completion_tokens if usage else 0
        self.stats.add(stage, prompt_tokens=prompt, completion_tokens=completion)
        choice = response.choices[0]
        return Reply(
            content=choice.message.content or "",
            finish_reason=choice.finish_reason,
            refusal=choice.message.refusal,
            prompt_tokens=prompt,
            completion_tokens=completion,
        )
