"""The LLM extractor: rules first, one call per message for what they left, and the rules as the fallback."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from memlane import Memory
from memlane.domain import Candidate, Category, EventStatus, Message
from memlane.llm import ChatClient, LLMExtractor
from memlane.llm.extract import needs_llm
from memlane.testing.llm import Scripted, ScriptedServer
from memlane.write.extract import RuleExtractor

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
AT = datetime(2024, 6, 10, 9, 30, tzinfo=timezone(timedelta(hours=8)))
SOURDOUGH = "I keep a sourdough starter alive on my counter"
THREE = (
    "The commute is killing me every single day. Honestly the old apartment feels too big now. "
    "I keep a sourdough starter alive on my counter"
)


def fixture(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return body


def said(text: str, role: str = "user") -> Message:
    return Message(role, text, AT)


@pytest.fixture
def run() -> Iterator[Any]:
    """Runs the extractor on one message against a scripted server: (candidates, server, extractor)."""
    opened: list[ChatClient] = []

    def go(
        text: str, *script: str, role: str = "user"
    ) -> tuple[list[Candidate], ScriptedServer, LLMExtractor]:
        with ScriptedServer([Scripted(fixture(n)) for n in script or ("extract_good",)]) as server:
            chat = ChatClient(server.url, "test", max_retries=1, backoff=0.001, sleep=lambda _: None)
            opened.append(chat)
            extractor = LLMExtractor(chat)
            found = extractor.extract(said(text, role))
        return found, server, extractor

    yield go
    for chat in opened:
        chat.close()


def test_the_rules_leave_the_test_messages_undecided() -> None:
    assert [needs_llm(c) for c in RuleExtractor().extract(said(SOURDOUGH))] == [True]


@pytest.mark.parametrize(
    "reply",
    ["extract_good", "extract_fenced", "extract_sloppy", "extract_prose"],
    ids=["plain", "code-fence", "trailing-commas-single-quotes", "prose-around"],
)
def test_an_undecided_clause_is_interpreted_by_the_model(run: Any, reply: str) -> None:
    found, server, extractor = run(SOURDOUGH, reply)
    assert len(server.requests) == 1
    [c] = found
    assert (c.category, c.slot, c.value, c.objects) == (
        Category.FACT,
        "hobby",
        "sourdough baking",
        ["sourdough bread"],
    )
    assert c.text == "I bake sourdough bread from my own starter"
    assert c.message_id is not None
    assert c.explicit
    assert not c.hedged
    stats = extractor.stats.stage("extract")
    assert (stats.calls, stats.failures, stats.prompt_tokens) == (1, 0, 412)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("hi! thanks so much", id="smalltalk"),
        pytest.param("I feel tired today", id="mood"),
        pytest.param("My name is Anna and I love green tea", id="name-and-preference"),
        pytest.param("我叫阿白，平时喜欢喝美式", id="zh-name-and-preference"),
        pytest.param("Please reply in English", id="style"),
        pytest.param("My budget is under 3000 yuan", id="budget"),
        pytest.param("What should I cook for dinner tonight?", id="question"),
    ],
)
def test_small_talk_and_clear_facts_cost_no_call(run: Any, text: str) -> None:
    found, server, extractor = run(text)
    assert server.requests == []
    assert [(c.category, c.text) for c in found] == [
        (c.category, c.text) for c in RuleExtractor().extract(said(text))
    ]
    assert extractor.stats.stage("extract").calls == 0


def test_assistant_turns_cost_no_call(run: Any) -> None:
    _, server, _ = run(SOURDOUGH, role="assistant")
    assert server.requests == []


def test_several_undecided_clauses_go_in_one_call(run: Any) -> None:
    found, server, _ = run(THREE, "extract_multi")
    assert len(server.requests) == 1
    prompt = server.requests[0]["messages"][1]["content"]
    assert "1. The commute is killing me every single day" in prompt
    assert "3. I keep a sourdough starter alive on my counter" in prompt
    assert [(c.category, c.slot) for c in found] == [
        (Category.COMPLAINT, "commute"),
        (Category.FACT, "home"),
        (Category.FACT, "hobby"),
    ]
    assert found[0].event_status is EventStatus.UNRESOLVED


def test_decided_clauses_are_kept_and_never_sent(run: Any) -> None:
    found, server, _ = run(f"My name is Anna. {SOURDOUGH}")
    prompt = server.requests[0]["messages"][1]["content"]
    assert "Anna" in prompt  # the whole message is context...
    assert "1. I keep a sourdough starter" in prompt
    assert "2." not in prompt
    assert [(c.category, c.slot) for c in found] == [(Category.NAME, "name"), (Category.FACT, "hobby")]


def test_event_times_are_parsed_in_the_message_time_zone(run: Any) -> None:
    found, _, _ = run("My knee finally stopped hurting after the physio sessions", "extract_event_time")
    assert found[0].event_time == datetime(2024, 6, 9, tzinfo=AT.tzinfo)
    assert found[0].event_status is EventStatus.DONE


def test_the_prompt_follows_the_conversation_language(run: Any) -> None:
    found, server, _ = run("我最近总觉得工作没什么意思", "extract_zh")
    system, user = server.requests[0]["messages"]
    assert "提取" in system["content"]
    assert "消息时间：2024-06-10T09:30+08:00" in user["content"]
    assert (found[0].lang, found[0].polarity, found[0].slot) == ("zh", -1, "job_satisfaction")


def test_malformed_json_is_retried_once_showing_the_model_its_error(run: Any) -> None:
    found, server, extractor = run(SOURDOUGH, "extract_malformed", "extract_good")
    assert len(server.requests) == 2
    repair = server.requests[1]["messages"]
    assert repair[-2] == {
        "role": "assistant",
        "content": fixture("extract_malformed")["choices"][0]["message"]["content"],
    }
    assert "not valid JSON" in repair[-1]["content"]
    assert found[0].slot == "hobby"
    assert extractor.stats.stage("extract").failures == 0


@pytest.mark.parametrize(
    ("script", "calls"),
    [
        pytest.param(("extract_malformed", "extract_malformed"), 2, id="malformed-twice"),
        pytest.param(("extract_truncated", "extract_truncated"), 2, id="truncated"),
        pytest.param(("extract_refusal",), 1, id="refusal"),
    ],
)
def test_unusable_answers_fall_back_to_the_rules_and_are_counted(
    run: Any, caplog: pytest.LogCaptureFixture, script: tuple[str, ...], calls: int
) -> None:
    with caplog.at_level(logging.WARNING, logger="memlane.llm"):
        found, server, extractor = run(SOURDOUGH, *script)
    assert len(server.requests) == calls
    assert [(c.category, c.text) for c in found] == [(Category.FACT, SOURDOUGH)]  # the rules' reading stands
    assert extractor.stats.stage("extract").failures == 1
    assert "fell back to the rules" in caplog.text


def test_a_truncated_answer_is_retried_with_a_note_that_it_was_cut_off(run: Any) -> None:
    found, server, _ = run(SOURDOUGH, "extract_truncated", "extract_good")
    assert "cut off" in server.requests[1]["messages"][-1]["content"]
    assert found[0].slot == "hobby"


def test_an_unreachable_endpoint_falls_back_to_the_rules(caplog: pytest.LogCaptureFixture) -> None:
    with ScriptedServer([Scripted(fixture("error_500"), status=500)]) as server:
        with ChatClient(server.url, "test", max_retries=2, backoff=0.001, sleep=lambda _: None) as chat:
            extractor = LLMExtractor(chat)
            with caplog.at_level(logging.WARNING, logger="memlane.llm"):
                found = extractor.extract(said(SOURDOUGH))
        assert len(server.requests) == 3
    assert [c.text for c in found] == [SOURDOUGH]
    stats = extractor.stats.stage("extract")
    assert (stats.calls, stats.retries, stats.failures) == (3, 2, 1)
    assert "InternalServerError" in caplog.text


def test_memory_with_an_llm_url_stores_the_models_fact() -> None:
    with ScriptedServer([Scripted(fixture("extract_good"))]) as server:
        with Memory(":memory:", llm_base_url=server.url, llm_model="test") as mem:
            result = mem.add(SOURDOUGH, user_id="u1", at=AT)
            assert [m.text for m in result.memories] == ["I bake sourdough bread from my own starter"]
            assert [h.memory.slot for h in mem.search("bread", user_id="u1", include_log=False)] == ["hobby"]
        assert len(server.requests) == 1


def test_memory_takes_a_client_and_leaves_an_injected_extractor_alone() -> None:
    with (
        ScriptedServer([Scripted(fixture("extract_good"))]) as server,
        ChatClient(server.url, "test") as chat,
    ):
        with Memory(":memory:", llm=chat) as mem:
            assert isinstance(mem._write.extractor, LLMExtractor)
        with Memory(":memory:", llm=chat, extractor=RuleExtractor()) as mem:
            assert isinstance(mem._write.extractor, RuleExtractor)
