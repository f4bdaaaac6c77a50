"""A smoke test against a real endpoint, run only when ``MEMLANE_TEST_LLM_BASE_URL`` is set.

::

    MEMLANE_TEST_LLM_BASE_URL=http://localhost:11434/v1 MEMLANE_TEST_LLM_MODEL=qwen2.5:7b \\
        .venv/bin/pytest -m live_llm tests/test_llm_live.py
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest

from memlane.domain import Category, Message
from memlane.llm import ChatClient, LLMExtractor

BASE_URL = os.environ.get("MEMLANE_TEST_LLM_BASE_URL")

pytestmark = [
    pytest.mark.live_llm,
    pytest.mark.skipif(not BASE_URL, reason="MEMLANE_TEST_LLM_BASE_URL is not set"),
]


@pytest.fixture
def extractor() -> Iterator[LLMExtractor]:
    client = ChatClient(
        BASE_URL or "",
        os.environ.get("MEMLANE_TEST_LLM_MODEL", "gpt-4o-mini"),
        api_key=os.environ.get("MEMLANE_TEST_LLM_API_KEY"),
        timeout=60.0,
    )
    with client:
        yield LLMExtractor(client)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("I keep a sourdough starter alive on my counter", id="en"),
        pytest.param("我最近总觉得工作没什么意思", id="zh"),
    ],
)
def test_a_real_model_interprets_an_undecided_clause(extractor: LLMExtractor, text: str) -> None:
    found = extractor.extract(Message("user", text, datetime(2024, 6, 10, tzinfo=timezone.utc)))
    stats = extractor.stats.stage("extract")
    assert stats.calls >= 1
    assert stats.failures == 0, "the model's answer could not be used; see the memlane.llm log"
    assert stats.tokens > 0
    assert found
    assert all(isinstance(c.category, Category) for c in found)


def test_small_talk_costs_no_call_on_a_real_endpoint(extractor: LLMExtractor) -> None:
    extractor.extract(Message("user", "hi! thanks so much", datetime(2024, 6, 10, tzinfo=timezone.utc)))
    assert extractor.stats.stage("extract").calls == 0
