"""Optional LLM stages for any OpenAI-compatible endpoint: a drop-in upgrade, never a requirement.

- ``client``: :class:`ChatClient` (timeouts, retries with backoff, a concurrency limit, usage) and
  :class:`LLMStats`;
- ``parse``: a tolerant JSON reader and pydantic validation of what models send back;
- ``prompts``: each prompt a plain function returning messages, in Chinese and English, with its
  pydantic answer model;
- ``extract``: :class:`LLMExtractor`, the rules first and the model only for what they left undecided;
- ``testing``: :class:`ScriptedServer`, an in-process OpenAI-shaped server for tests.

Set ``MEMLANE_LLM_BASE_URL`` and ``MEMLANE_LLM_MODEL`` (or pass ``llm=`` to ``Memory``) to turn it on;
see docs/llm.md.
"""

from __future__ import annotations

from .client import ChatClient, LLMStats, LLMUnavailable, Reply, StageStats
from .extract import LLMExtractor
from .parse import ParseError

__all__ = ["ChatClient", "LLMExtractor", "LLMStats", "LLMUnavailable", "ParseError", "Reply", "StageStats"]
