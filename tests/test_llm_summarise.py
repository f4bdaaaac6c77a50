"""The LLM summariser: session summaries and monthly digests, with the rules' points as the fallback."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from memlane import Memory
from memlane.domain import Kind, Session, Turn
from memlane.lifecycle.consolidate import Consolidator
from memlane.lifecycle.sessions import summary_text
from memlane.llm import ChatClient, LLMSummariser
from memlane.testing.llm import Scripted, ScriptedServer, completion
from memlane.write.extract import RuleExtractor

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
T0 = datetime(2025, 3, 3, 8, 30, tzinfo=timezone(timedelta(hours=8)))
EVENTS_ZH = ["3月2日耳机坏了", "3月9日耳机又坏了，还没修好", "3月15日买了新手机"]


def fixture(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return body


def steps(*script: Scripted | str) -> list[Scripted]:
    return [s if isinstance(s, Scripted) else Scripted(fixture(s)) for s in script]


def session(*turns: tuple[str, str], draft: tuple[str, ...] = ()) -> Session:
    return Session(
        id="s1",
        user_id="u1",
        created_at=T0,
        updated_at=T0,
        summary="\n".join(draft),
        turns=[Turn(role, text, T0) for role, text in turns],
    )


@pytest.fixture
def summariser() -> Iterator[Any]:
    """An LLMSummariser on a scripted server: (summariser, server)."""
    opened: list[Any] = []

    def go(
        *script: Scripted | str, timeout: float = 30.0, retries: int = 1
    ) -> tuple[LLMSummariser, ScriptedServer]:
        server = ScriptedServer(steps(*script)).__enter__()
        chat = ChatClient(
            server.url, "test", max_retries=retries, backoff=0.001, sleep=lambda _: None, timeout=timeout
        )
        opened.append((chat, server))
        return LLMSummariser(chat), server

    yield go
    for chat, server in opened:
        chat.close()
        server.__exit__(None, None, None)


# -- session summaries ------------------------------------------------------------------------------


def test_ending_a_session_writes_the_models_summary_under_memlanes_title() -> None:
    with ScriptedServer(steps("summary_session_en")) as server, ChatClient(server.url, "test") as chat:
        with Memory(":memory:", llm=chat, extractor=RuleExtractor()) as mem:
            mem.add("I go running every morning", user_id="u1", session_id="s1", at=T0)
            mem.add("I live in Lisbon", user_id="u1", session_id="s1", at=T0 + timedelta(minutes=1))
            assert server.requests == []  # clear facts cost nothing while the session runs
            written = mem.end_session("u1", "s1", at=T0 + timedelta(minutes=5))
        assert len(server.requests) == 1
        prompt = server.requests[0]["messages"][1]["content"]
    summary = next(m for m in written if m.kind is Kind.SUMMARY)
    assert summary.text == (
        "Conversation on 2025-03-03: The user jogs before work every day; "
        "Wants running shoes under 100 dollars"
    )
    assert "User: I go running every morning" in prompt
    assert "- I live in Lisbon" in prompt  # the rules' draft is shown
    assert chat.usage["session_summary"]["calls"] == 1


def test_the_session_prompt_follows_the_conversation_language(summariser: Any) -> None:
    summary, server = summariser("summary_session_zh")
    talk = session(("user", "我每天早上跑步"), ("assistant", "很好！"), ("user", "想买双跑鞋，预算500元以内"))
    points = summary.summarise_session(talk, ["我每天早上跑步"])
    system, user = server.requests[0]["messages"]
    assert "情景摘要" in system["content"]
    assert "用户: 我每天早上跑步" in user["content"]
    assert "助手: 很好！" in user["content"]
    assert points == ["用户每天早上跑步", "想买一双500元以内的跑鞋"]
    assert summary_text(talk, points) == "2025-03-03 的对话：用户每天早上跑步；想买一双500元以内的跑鞋"


def test_a_small_talk_session_costs_no_call_and_writes_no_summary(summariser: Any) -> None:
    summary, server = summariser("summary_session_en")
    assert (
        summary.summarise_session(session(("user", "hi!"), ("assistant", "Hello!"), ("user", "thanks")), [])
        == []
    )
    assert server.requests == []


def test_a_long_session_the_rules_kept_nothing_of_is_still_summarised(summariser: Any) -> None:
    summary, server = summariser("summary_session_en")
    said = "we talked for a while about which trail shoes would suit the muddy paths near my place"
    assert summary.summarise_session(session(("user", said)), []) == [
        "The user jogs before work every day",
        "Wants running shoes under 100 dollars",
    ]
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("script", "calls"),
    [
        pytest.param(("summary_truncated", "summary_truncated"), 2, id="truncated-twice"),
        pytest.param(("summary_empty", "summary_empty"), 2, id="empty-twice"),
        pytest.param(("summary_refusal",), 1, id="refusal"),
        pytest.param(("summary_filtered",), 1, id="content-filter"),
        pytest.param((Scripted(fixture("error_429"), status=429),), 2, id="429s-until-retries-run-out"),
    ],
)
def test_a_failed_session_summary_falls_back_to_the_rules_points(
    summariser: Any, caplog: pytest.LogCaptureFixture, script: tuple[Any, ...], calls: int
) -> None:
    summary, server = summariser(*script)
    with caplog.at_level(logging.WARNING, logger="memlane.llm"):
        points = summary.summarise_session(
            session(("user", "I go running every morning")), ["I go running every morning"]
        )
    assert points == ["I go running every morning"]
    assert len(server.requests) == calls
    assert summary.stats.stage("session_summary").failures == 1
    assert "session_summary fell back to the rules for session s1" in caplog.text


def test_an_empty_answer_is_retried_with_a_note(summariser: Any) -> None:
    summary, server = summariser("summary_empty", "summary_session_en")
    points = summary.summarise_session(
        session(("user", "I go running every morning")), ["I go running every morning"]
    )
    assert "the points were empty" in server.requests[1]["messages"][-1]["content"]
    assert points[0] == "The user jogs before work every day"


def test_a_timeout_at_session_end_keeps_the_rules_summary() -> None:
    script = [Scripted(fixture("summary_session_en"), stall=5.0)]
    with (
        ScriptedServer(script) as server,
        ChatClient(server.url, "test", timeout=0.2, max_retries=0) as chat,
        Memory(":memory:", llm=chat, extractor=RuleExtractor()) as mem,
    ):
        mem.add("I go running every morning", user_id="u1", session_id="s1", at=T0)
        written = mem.end_session("u1", "s1", at=T0 + timedelta(minutes=5))
    assert [m.text for m in written] == ["Conversation on 2025-03-03: I go running every morning"]
    assert chat.usage["session_summary"]["failures"] == 1


# -- period digests ---------------------------------------------------------------------------------


@pytest.fixture
def old_events() -> Iterator[Memory]:
    """Three March events, ingested by the rules alone, ready to be compressed in July."""
    with Memory(":memory:") as mem:
        for i, text in enumerate(EVENTS_ZH):
            mem.add(text, user_id="u1", at=T0 + timedelta(days=i * 6))
        yield mem


def compress(mem: Memory, summariser: LLMSummariser) -> list[str]:
    Consolidator(mem.stores, mem.embedder, mem.settings, summariser).run("u1", T0 + timedelta(days=130))
    return [m.text for m in mem.list("u1") if "period-summary" in m.tags]


def test_a_monthly_digest_is_compressed_by_the_model(old_events: Memory, summariser: Any) -> None:
    summary, server = summariser("summary_period_zh")
    assert compress(old_events, summary) == [
        "2025年3月的事：耳机先后两次出问题（03-02、03-09，未解决）；买了新手机（03-15）"
    ]
    system, user = server.requests[0]["messages"]
    assert "「2025年3月的事」" in system["content"]
    assert "未解决" in user["content"]
    assert summary.stats.stage("period_summary").calls == 1


def test_a_digest_that_loses_an_open_issue_is_retried_then_left_to_the_rules(
    old_events: Memory, summariser: Any
) -> None:
    summary, server = summariser("summary_period_lost_open", "summary_period_lost_open")
    [digest] = compress(old_events, summary)
    assert len(server.requests) == 2
    assert "an open issue was lost" in server.requests[1]["messages"][-1]["content"]
    assert digest.count("未解决") == 2  # the rules' digest, every event with its status
    assert "3月15日买了新手机" in digest
    assert summary.stats.stage("period_summary").failures == 1


def test_a_short_digest_costs_no_call(summariser: Any) -> None:
    summary, server = summariser("summary_period_zh")
    with Memory(":memory:") as mem:
        mem.add(EVENTS_ZH[0], user_id="u1", at=T0)
        assert compress(mem, summary) != []
    assert server.requests == []


def test_an_unreachable_endpoint_leaves_the_rules_digest(old_events: Memory, summariser: Any) -> None:
    summary, server = summariser(Scripted(fixture("error_500"), status=500))
    [digest] = compress(old_events, summary)
    assert len(server.requests) == 2
    assert "3月15日买了新手机" in digest
    assert summary.stats.stage("period_summary").failures == 1


def test_points_are_cleaned_of_bullets_and_separators(summariser: Any) -> None:
    reply = json.dumps(
        {"points": ["- 耳机坏了；还没修好（03-02，未解决）", "1. 买了新手机（03-15）", "买了新手机（03-15）"]}
    )
    summary, _ = summariser(Scripted(completion(reply)))
    points = summary.compress_period("2025-03 的事件", ["a（03-02，未解决）", "b", "c"], "zh")
    assert points == ["耳机坏了，还没修好（03-02，未解决）", "买了新手机（03-15）"]
