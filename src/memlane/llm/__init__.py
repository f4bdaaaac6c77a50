"""Optional LLM stages for any OpenAI-compatible endpoint: a drop-in upgrade, never a requirement.

- ``client``: :class:`ChatClient` (timeouts, retries with backoff, a concurrency limit, usage) and
  :class:`LLMStats` (calls, tokens, failures and latency by stage; ``client.usage`` is a snapshot);
- ``parse``: a tolerant JSON reader and pydantic validation of what models send back;
- ``prompts``: each prompt a plain function returning messages, in Chinese and English, with its
  pydantic answer model;
- ``ask``: how every stage asks (one repair round) and falls back to the rules (logged, counted);
- ``extract``: :class:`LLMExtractor`, the rules first and the model only for what they left undecided;
- ``judge``: :class:`LLMJudge`, the candidates the rule judge doubts, in one call per ``add``;
- ``reconcile``: :class:`LLMReconciler`, the conflicts the rules cannot settle, in one call per ``add``;
- ``summarise``: :class:`LLMSummariser`, session summaries and monthly digests;
- ``testing``: :class:`ScriptedServer`, an in-process OpenAI-shaped server for tests.

Set ``MEMLANE_LLM_BASE_URL`` and ``MEMLANE_LLM_MODEL`` (or pass ``llm=`` to ``Memory``) to turn it on;
see docs/llm.md.
"""

from __future__ import annotations

from .client import ChatClient, LLMStats, LLMUnavailable, Reply, StageStats
from .extract import LLMExtractor
from .judge import LLMJudge
from .parse import ParseError
from .reconcile import LLMReconciler
from .summarise import LLMSummariser

__all__ = [
    "ChatClient",
    "LLMExtractor",
    "LLMJudge",
    "LLMReconciler",
    "LLMStats",
    "LLMSummariser",
    "LLMUnavailable",
    "ParseError",
    "Reply",
    "StageStats",
]
