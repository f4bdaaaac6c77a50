"""How every LLM stage asks: one request, a tolerant read, one repair, and a clear failure.

:func:`ask` sends a prompt, reads the reply into the stage's pydantic answer model, and when the
reply cannot be used (not JSON, the wrong shape, cut off at the length limit, or failing the stage's
own ``check``) asks ONE more time, showing the model its own reply and what was wrong with it.
A refusal, a content filter or a second unusable reply raise :class:`Unusable`; an endpoint that
cannot answer raises :class:`~memlane.llm.client.LLMUnavailable`. :func:`fall_back` is what each
stage does with either: log a warning on ``memlane.llm`` and count a failure, so that the stage can
return the rules' result.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from .client import ChatClient, ChatMessage, Reply
from .parse import ParseError, parse
from .prompts import repair_prompt

log = logging.getLogger("memlane.llm")

M = TypeVar("M", bound=BaseModel)


class Unusable(Exception):
    """The model answered, but nothing usable came of it (a refusal, or two unreadable replies)."""


def read(
    reply: Reply, answer: type[M], list_key: str | None = None, check: Callable[[M], None] | None = None
) -> M:
    """``reply`` as ``answer``; :class:`ParseError` (fit to show the model) or :class:`Unusable`."""
    if reply.refusal:
        raise Unusable(f"the model refused: {reply.refusal}")
    if reply.finish_reason == "content_filter":
        raise Unusable("the endpoint's content filter stopped the answer")
    try:
        parsed = parse(reply.content, answer, list_key=list_key)
    except ParseError as exc:
        if reply.truncated:
            raise ParseError("the answer was cut off at the length limit; answer shorter") from exc
        raise
    if check is not None:
        check(parsed)
    return parsed


def ask(
    client: ChatClient,
    prompt: Sequence[ChatMessage],
    answer: type[M],
    *,
    stage: str,
    lang: str,
    list_key: str | None = None,
    check: Callable[[M], None] | None = None,
    max_tokens: int = 1024,
) -> M:
    """The model's answer to ``prompt``, read as ``answer``, with one repair round.

    ``check`` may raise :class:`ParseError` for answers that parse but make no sense (a number
    that was never asked about, a missing verdict); its message is shown to the model.
    """
    reply = client.complete(prompt, stage=stage, max_tokens=max_tokens)
    try:
        return read(reply, answer, list_key, check)
    except ParseError as exc:
        log.info("%s reply unusable (%s); asking once more", stage, exc)
        repair = [*prompt, *repair_prompt(reply.content, str(exc), lang)]
        reply = client.complete(repair, stage=stage, max_tokens=max_tokens)
    try:
        return read(reply, answer, list_key, check)
    except ParseError as exc:
        raise Unusable(f"unreadable twice: {exc}") from exc


def fall_back(client: ChatClient, stage: str, what: str, exc: Exception) -> None:
    """Log and count a stage result that falls back to the rules."""
    log.warning("%s fell back to the rules for %s: %s", stage, what, exc)
    client.stats.add(stage, failures=1)


def numbered(numbers: Sequence[int], asked: int, noun: str) -> None:
    """A :class:`ParseError` unless ``numbers`` are exactly 1..``asked`` (repeats allowed)."""
    given = set(numbers)
    wrong = sorted(n for n in given if not 1 <= n <= asked)
    if wrong:
        raise ParseError(f"{noun} numbers {wrong} do not exist; use 1 to {asked}")
    missing = sorted(set(range(1, asked + 1)) - given)
    if missing:
        raise ParseError(f"no answer for {noun} numbers {missing}; give one entry for each of 1 to {asked}")
