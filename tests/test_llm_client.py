"""The chat client against an in-process OpenAI-shaped server: retries, backoff, JSON mode and usage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memlane.errors import ConfigurationError
from memlane.llm import ChatClient, LLMUnavailable
from memlane.settings import Settings
from memlane.testing.llm import Scripted, ScriptedServer

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
HELLO = [{"role": "user", "content": "hello"}]


def fixture(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return body


def client(server: ScriptedServer, delays: list[float], **options: Any) -> ChatClient:
    options.setdefault("max_retries", 2)
    return ChatClient(server.url, "test", backoff=0.001, sleep=delays.append, **options)


def test_a_reply_carries_its_text_and_usage() -> None:
    delays: list[float] = []
    with ScriptedServer([Scripted(fixture("extract_good"))]) as server, client(server, delays) as chat:
        reply = chat.complete(HELLO, stage="extract")
    assert '"memories"' in reply.content
    assert (reply.prompt_tokens, reply.completion_tokens, reply.finish_reason) == (412, 71, "stop")
    stats = chat.stats.stage("extract")
    assert (stats.calls, stats.retries, stats.tokens) == (1, 0, 483)
    assert stats.latency > 0
    sent = server.requests[0]
    assert sent["model"] == "test"
    assert sent["response_format"] == {"type": "json_object"}
    assert sent["messages"] == HELLO


def test_a_429_is_retried_after_the_delay_it_asked_for() -> None:
    delays: list[float] = []
    script = [
        Scripted(fixture("error_429"), status=429, headers={"retry-after": "0.01"}),
        Scripted(fixture("extract_good")),
    ]
    with ScriptedServer(script) as server, client(server, delays) as chat:
        reply = chat.complete(HELLO, stage="extract")
    assert reply.finish_reason == "stop"
    assert delays == [0.01]
    stats = chat.stats.stage("extract")
    assert (stats.calls, stats.retries, stats.errors) == (2, 1, 1)


def test_backoff_doubles_until_retries_run_out_on_500s() -> None:
    delays: list[float] = []
    with (
        ScriptedServer([Scripted(fixture("error_500"), status=500)]) as server,
        client(server, delays, max_retries=3) as chat,
        pytest.raises(LLMUnavailable, match="InternalServerError"),
    ):
        chat.complete(HELLO, stage="extract")
    assert len(server.requests) == 4
    assert len(delays) == 3
    # each delay is the doubled base with up to 50% jitter taken off
    for attempt, delay in enumerate(delays):
        assert 0.001 * 2**attempt / 2 <= delay <= 0.001 * 2**attempt


def test_a_timeout_is_retried() -> None:
    delays: list[float] = []
    script = [Scripted(fixture("extract_good"), stall=5.0), Scripted(fixture("extract_good"))]
    with ScriptedServer(script) as server, client(server, delays, timeout=0.2) as chat:
        reply = chat.complete(HELLO, stage="extract")
    assert reply.content
    assert len(server.requests) == 2
    assert chat.stats.stage("extract").retries == 1


def test_client_errors_are_not_retried() -> None:
    delays: list[float] = []
    body = {"error": {"message": "bad model", "type": "invalid_request_error", "param": None, "code": None}}
    with (
        ScriptedServer([Scripted(body, status=404)]) as server,
        client(server, delays) as chat,
        pytest.raises(LLMUnavailable),
    ):
        chat.complete(HELLO, stage="extract")
    assert len(server.requests) == 1
    assert delays == []


def test_json_mode_is_dropped_when_the_endpoint_does_not_support_it() -> None:
    delays: list[float] = []
    script = [Scripted(fixture("error_json_mode"), status=400), Scripted(fixture("extract_good"))]
    with ScriptedServer(script) as server, client(server, delays) as chat:
        chat.complete(HELLO, stage="extract")
        chat.complete(HELLO, stage="extract")
    assert ["response_format" in r for r in server.requests] == [True, False, False]
    assert chat.json_mode is False
    assert delays == []


def test_settings_describe_the_client() -> None:
    settings = Settings(
        llm_base_url="http://127.0.0.1:9/v1", llm_model="m", llm_api_key="sk-secret-123", llm_max_retries=5
    )
    with ChatClient.from_settings(settings) as chat:
        assert (chat.model, chat.max_retries) == ("m", 5)
    assert "sk-secret-123" not in repr(settings)
    with pytest.raises(ConfigurationError, match="llm_model"):
        ChatClient.from_settings(Settings(llm_base_url="http://127.0.0.1:9/v1"))


def test_usage_is_a_snapshot_of_plain_numbers_by_stage() -> None:
    delays: list[float] = []
    script = [Scripted(fixture("error_500"), status=500), Scripted(fixture("extract_good"))]
    with ScriptedServer(script) as server, client(server, delays) as chat:
        chat.complete(HELLO, stage="judge")
        chat.stats.add("judge", failures=1)
        usage = chat.usage
        chat.complete(HELLO, stage="reconcile")
    judge = usage["judge"]
    assert set(usage) == {"judge"}  # a snapshot: later calls do not change it
    assert (judge["calls"], judge["retries"], judge["errors"], judge["failures"]) == (2, 1, 1, 1)
    assert (judge["prompt_tokens"], judge["completion_tokens"], judge["tokens"]) == (412, 71, 483)
    assert judge["latency"] > 0
    assert all(isinstance(v, (int, float)) for stage in chat.usage.values() for v in stage.values())
    assert sorted(chat.usage) == ["judge", "reconcile"]
