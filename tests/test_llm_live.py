"""Smoke tests of every LLM stage against a real endpoint, run only when ``MEMLANE_TEST_LLM_BASE_URL`` is set.

Each stage must get an answer it can use (no failure counted) and report its token usage; what the
model decides is only checked to be one of memlane's values, since models differ.

::

    MEMLANE_TEST_LLM_BASE_URL=http://localhost:11434/v1 MEMLANE_TEST_LLM_MODEL=qwen2.5:7b \\
        .venv/bin/pytest -m live_llm tests/test_llm_live.py
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from memlane import Memory, Settings
from memlane.domain import Action, Category, Kind, Message, Session, Turn
from memlane.llm import ChatClient, LLMExtractor, LLMJudge, LLMSummariser
from memlane.write.extract import RuleExtractor

BASE_URL = os.environ.get("MEMLANE_TEST_LLM_BASE_URL")

pytestmark = [
    pytest.mark.live_llm,
    pytest.mark.skipif(not BASE_URL, reason="MEMLANE_TEST_LLM_BASE_URL is not set"),
]


AT = datetime(2024, 6, 10, tzinfo=timezone.utc)


@pytest.fixture
def client() -> Iterator[ChatClient]:
    chat = ChatClient(
        BASE_URL or "",
        os.environ.get("MEMLANE_TEST_LLM_MODEL", "gpt-4o-mini"),
        api_key=os.environ.get("MEMLANE_TEST_LLM_API_KEY"),
        timeout=60.0,
    )
    with chat:
        yield chat


@pytest.fixture
def extractor(client: ChatClient) -> LLMExtractor:
    return LLMExtractor(client)


def used(client: ChatClient, stage: str) -> None:
    usage = client.usage[stage]
    assert usage["calls"] >= 1
    assert usage["failures"] == 0, f"the model's {stage} answer could not be used; see the memlane.llm log"
    assert usage["tokens"] > 0


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


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("I keep a sourdough starter alive on my counter", id="en"),
        pytest.param("我最近总觉得工作没什么意思", id="zh"),
    ],
)
def test_a_real_model_judges_what_the_rules_doubt(client: ChatClient, text: str) -> None:
    judge = LLMJudge(Settings(), client)
    decisions = judge.decide_all([(c, AT) for c in RuleExtractor().extract(Message("user", text, AT))])
    used(client, "judge")
    assert all(isinstance(d.action, Action) and d.reason for d in decisions)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param("I go running every morning", "I jog before work each day", id="en"),
        pytest.param("我喜欢喝美式", "我最近开始喝冷萃了", id="zh"),
    ],
)
def test_a_real_model_rules_on_a_conflict_the_rules_cannot_settle(
    client: ChatClient, before: str, after: str
) -> None:
    with Memory(":memory:", llm=client, extractor=RuleExtractor()) as mem:
        mem.add(before, user_id="u1", at=AT)
        [decision] = mem.add(after, user_id="u1", at=AT + timedelta(days=9)).decisions
    used(client, "reconcile")
    assert "(the LLM: " in decision.outcome


def test_a_real_model_summarises_a_session_and_compresses_a_month(client: ChatClient) -> None:
    summariser = LLMSummariser(client)
    turns = [
        Turn("user", "I go running every morning", AT),
        Turn("user", "I need new shoes under 100 dollars", AT),
    ]
    session = Session(
        "s1", "u1", AT, AT, summary="I go running every morning\nbudget=100 dollars", turns=turns
    )
    assert summariser.summarise_session(session, ["I go running every morning", "budget=100 dollars"])
    used(client, "session_summary")
    points = ["耳机坏了（03-02，未解决）", "耳机又坏了（03-09，未解决）", "买了新手机（03-15）"]
    assert summariser.compress_period("2025-03 的事件", points, "zh")
    used(client, "period_summary")


def test_memory_turns_every_stage_on_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_LLM_BASE_URL", BASE_URL or "")
    monkeypatch.setenv("MEMLANE_LLM_MODEL", os.environ.get("MEMLANE_TEST_LLM_MODEL", "gpt-4o-mini"))
    if os.environ.get("MEMLANE_TEST_LLM_API_KEY"):
        monkeypatch.setenv("MEMLANE_LLM_API_KEY", os.environ["MEMLANE_TEST_LLM_API_KEY"])
    with Memory(":memory:") as mem:
        mem.add("hi! thanks so much", user_id="u1", session_id="s1", at=AT)
        assert mem.llm is not None
        assert mem.llm.usage == {}  # small talk never costs a call
        mem.add("I keep a sourdough starter alive on my counter", user_id="u1", session_id="s1", at=AT)
        written = mem.end_session("u1", "s1", at=AT + timedelta(minutes=5))
        assert any(m.kind is Kind.SUMMARY for m in written)
        assert {"extract", "session_summary"} <= set(mem.llm.usage)
        assert all(isinstance(c, Category) for c in (m.category for m in mem.list("u1")))
