"""``memlane proxy`` as a running process in front of a recorded OpenAI-shaped upstream
(:class:`memlane.testing.llm.ScriptedServer`), through httpx and OpenAI's own client."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from memlane.clock import utcnow
from memlane.proxy.app import create_proxy_app
from memlane.proxy.settings import ProxySettings
from memlane.service.keys import open_keys
from memlane.settings import Settings
from memlane.testing.llm import Scripted, ScriptedServer, chunks, completion, error_body
from processes import Running, create_key, environment, memlane_process

UPSTREAM_KEY = "sk-upstream-secret"
TOOL_CALL = {"id": "call_1", "name": "get_weather", "arguments": '{"city": "杭州"}'}


class Proxy:
    """The running proxy, its upstream and a tenant's key."""

    def __init__(self, running: Running, upstream: ScriptedServer, key: str) -> None:
        self.running, self.upstream, self.key = running, upstream, key
        self.url = running.url

    def headers(self, user: str | None = "alice", **extra: str) -> dict[str, str]:
        out = {"Authorization": f"Bearer {self.key}", **extra}
        if user:
            out["X-Memlane-User"] = user
        return out

    def chat(
        self, messages: list[dict[str, Any]], user: str | None = "alice", **extra: str
    ) -> httpx.Response:
        body = {"model": "test", "messages": messages}
        return httpx.post(
            f"{self.url}/v1/chat/completions", json=body, headers=self.headers(user, **extra), timeout=60
        )

    def job(self, job_id: str) -> dict[str, Any]:
        """The write-back job once a worker finished it (waits for the worker, not for a time)."""
        deadline = time.monotonic() + 60
        while True:
            job = httpx.get(f"{self.url}/v1/jobs/{job_id}", headers=self.headers(), timeout=10).json()
            if job["status"] in ("done", "failed") or time.monotonic() > deadline:
                assert job["status"] == "done", job
                return dict(job)
            time.sleep(0.1)

    def memories(self, user: str, *, log: bool = False) -> list[str]:
        params = {"user_id": user, "include_log": str(log).lower()}
        found = httpx.get(f"{self.url}/v1/memories", params=params, headers=self.headers(), timeout=10)
        return [m["text"] for m in found.json()["memories"]]


def injected(request: dict[str, Any]) -> list[str]:
    """The system messages memlane added to a request the upstream received."""
    return [
        m["content"] for m in request["messages"] if m["role"] == "system" and "memory-data" in m["content"]
    ]


def sse(events: list[dict[str, Any]]) -> bytes:
    """The bytes the recorded upstream sends for ``events``."""
    lines = [json.dumps(e, ensure_ascii=False) for e in events] + ["[DONE]"]
    return "".join(f"data: {line}\n\n" for line in lines).encode()


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    home = tmp_path_factory.mktemp("proxy")
    env = environment(home, MEMLANE_PROXY_UPSTREAM_KEY=UPSTREAM_KEY)
    key = create_key(env, "acme")
    with ScriptedServer([Scripted(completion("好的。"))]) as upstream:
        args = ["proxy", "--upstream", upstream.url]
        with memlane_process(args, env, home / "proxy.log") as running:
            yield Proxy(running, upstream, key)


def test_a_reply_passes_through_unchanged_and_the_next_request_carries_the_memory(proxy: Proxy) -> None:
    reply = completion("好的，阿白，记住了。")
    proxy.upstream.play([Scripted(reply, headers={"x-request-id": "up-1", "openai-processing-ms": "12"})])
    first = proxy.chat(
        [{"role": "user", "content": "我叫阿白，平时喜欢喝美式，请用邮件联系我。"}], user="abai"
    )
    assert first.status_code == 200
    assert first.content == json.dumps(reply).encode()  # the upstream's bytes
    assert first.headers["openai-processing-ms"] == "12"
    assert first.headers["x-memlane-memory"] == "empty"  # a new user: nothing to add yet
    assert proxy.upstream.headers[0]["authorization"] == f"Bearer {UPSTREAM_KEY}"  # never the memlane key
    assert injected(proxy.upstream.requests[0]) == []
    job = proxy.job(first.headers["x-memlane-writeback-job"])
    assert {d["action"] for d in job["result"]["decisions"]} >= {"semantic", "profile"}
    assert "平时喜欢喝美式" in proxy.memories("abai")

    proxy.upstream.play([Scripted(completion("来一杯美式吧。"))])
    app_prompt = {"role": "system", "content": "You are a barista."}
    second = proxy.chat(
        [app_prompt, {"role": "user", "content": "推荐一杯早上的饮料"}],
        user="abai",
        **{"X-Memlane-Max-Tokens": "120"},
    )
    assert second.headers["x-memlane-memory"] == "injected"
    assert int(second.headers["x-memlane-memories"]) >= 1
    assert 0 < int(second.headers["x-memlane-context-tokens"]) <= 120
    sent = proxy.upstream.requests[0]["messages"]
    assert sent[0] == app_prompt  # the application's own prompt stays first
    assert "美式" in sent[1]["content"]
    assert "<memory-data>" in sent[1]["content"]
    assert sent[2] == {"role": "user", "content": "推荐一杯早上的饮料"}
    audit = httpx.get(
        f"{proxy.url}/v1/audit", params={"user_id": "abai"}, headers=proxy.headers(), timeout=10
    )
    assert any(
        e["op"] == "context" and e["caller"].startswith("proxy:acme:") for e in audit.json()["entries"]
    )


def test_the_user_comes_from_the_body_when_no_header_names_one(proxy: Proxy) -> None:
    proxy.upstream.play([Scripted(completion("嗯。"))])
    body = {
        "model": "test",
        "user": "bodyuser",
        "messages": [{"role": "user", "content": "我养了一只猫，叫豆豆。"}],
    }
    reply = httpx.post(f"{proxy.url}/v1/chat/completions", json=body, headers=proxy.headers(None), timeout=60)
    proxy.job(reply.headers["x-memlane-writeback-job"])
    assert any("豆豆" in t for t in proxy.memories("bodyuser", log=True))
    assert proxy.upstream.requests[0]["user"] == "bodyuser"  # the field is the upstream's too


def test_a_streamed_reply_arrives_chunk_by_chunk_and_is_remembered_after_it(proxy: Proxy) -> None:
    events = chunks("你好，阿白！今天也来一杯美式吗？", pieces=5)
    proxy.upstream.play([Scripted(events=events, gap=0.1)])
    body = {"model": "test", "stream": True, "messages": [{"role": "user", "content": "你好"}]}
    received: list[bytes] = []
    with httpx.stream(
        "POST", f"{proxy.url}/v1/chat/completions", json=body, headers=proxy.headers("abai"), timeout=60
    ) as reply:
        assert reply.headers["content-type"].startswith("text/event-stream")
        assert reply.headers["x-memlane-writeback-job"] == "after-stream"
        received = list(reply.iter_raw())
    stream = b"".join(received)
    expected = sse(events)
    assert stream.startswith(expected)  # every byte the upstream sent, unchanged
    assert len(received) >= len(events)  # as it came: one event at a time, not the whole reply at the end
    trailer = stream[len(expected) :].decode()
    assert trailer.startswith(": memlane-writeback-job ")  # an SSE comment: clients skip it
    job = proxy.job(trailer.split()[-1])
    assert job["result"]["message_ids"]
    assert all(i.startswith("px-") for i in job["result"]["message_ids"])  # ids from the conversation
    assert any("今天也来一杯美式吗" in t for t in proxy.memories("abai", log=True))  # the reply, in the log


def test_openai_clients_read_the_proxy_like_the_upstream(proxy: Proxy) -> None:
    client = openai.OpenAI(base_url=f"{proxy.url}/v1", api_key=proxy.key, max_retries=0)
    proxy.upstream.play([Scripted(events=chunks("Hello, Abai!", pieces=3))])
    stream = client.chat.completions.create(
        model="test",
        messages=[{"role": "user", "content": "hi"}],
        stream=True,
        extra_headers={"X-Memlane-User": "abai"},
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == "Hello, Abai!"
    assert [m.id for m in client.models.list()] == ["test"]
    proxy.upstream.play([Scripted(error_body("slow down", "rate_limit_error"), status=429)])
    with pytest.raises(openai.RateLimitError, match="slow down"):
        client.chat.completions.create(
            model="test",
            messages=[{"role": "user", "content": "hi"}],
            extra_headers={"X-Memlane-User": "abai"},
        )


def test_tool_calls_pass_through_untouched_and_the_user_turn_is_written_once(proxy: Proxy) -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "杭州"}'},
    }
    asked = completion(None, finish_reason="tool_calls")
    asked["choices"][0]["message"]["tool_calls"] = [call]
    question = {"role": "user", "content": "我在杭州，明天要不要带伞？"}
    proxy.upstream.play([Scripted(asked)])
    first = proxy.chat([question], user="tooluser")
    assert first.content == json.dumps(asked).encode()
    job = proxy.job(first.headers["x-memlane-writeback-job"])
    assert len(job["result"]["message_ids"]) == 1  # the user turn; a tool call has no text to remember

    followup = [
        question,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "明天小雨"},
    ]
    proxy.upstream.play([Scripted(completion("明天杭州小雨，记得带伞。"))])
    second = proxy.chat(followup, user="tooluser")
    assert proxy.upstream.requests[0]["messages"][-2:] == followup[-2:]  # the tool turns go as they came
    done = proxy.job(second.headers["x-memlane-writeback-job"])["result"]
    assert done["skipped_message_ids"] == job["result"]["message_ids"]  # the same user turn, not again
    assert len(done["message_ids"]) == 1  # only the reply was new

    events = chunks(None, tool_calls=[TOOL_CALL])
    proxy.upstream.play([Scripted(events=events)])
    body = {"model": "test", "stream": True, "messages": [question], "tools": [{"type": "function"}]}
    with httpx.stream(
        "POST", f"{proxy.url}/v1/chat/completions", json=body, headers=proxy.headers("tooluser"), timeout=60
    ) as reply:
        stream = reply.read()
    assert stream.startswith(sse(events))
    assert proxy.upstream.requests[0]["tools"] == [{"type": "function"}]


@pytest.mark.parametrize(
    ("status", "body", "headers"),
    [
        pytest.param(
            429, error_body("Rate limit reached", "rate_limit_error"), {"retry-after": "7"}, id="429"
        ),
        pytest.param(500, error_body("The server had an error"), {}, id="500"),
        pytest.param(400, error_body("bad model", "invalid_request_error"), {}, id="400"),
    ],
)
def test_upstream_errors_pass_through_verbatim(
    proxy: Proxy, status: int, body: dict[str, Any], headers: dict[str, str]
) -> None:
    proxy.upstream.play([Scripted(body, status=status, headers=headers)])
    reply = proxy.chat([{"role": "user", "content": "你好"}])
    assert reply.status_code == status
    assert reply.content == json.dumps(body).encode()
    for name, value in headers.items():
        assert reply.headers[name] == value
    assert "x-memlane-writeback-job" not in reply.headers  # nothing was said back: nothing to remember


def test_requests_without_a_user_or_a_key(proxy: Proxy) -> None:
    proxy.upstream.play([Scripted(completion("hi"))])
    anonymous = proxy.chat([{"role": "user", "content": "hello"}], user=None)
    assert anonymous.status_code == 200
    assert anonymous.headers["x-memlane-memory"].startswith("off; no user")
    assert "x-memlane-writeback-job" not in anonymous.headers
    body = {"model": "test", "messages": [{"role": "user", "content": "hello"}]}
    for headers in ({}, {"Authorization": "Bearer mlk_000000000000_forged"}):
        refused = httpx.post(f"{proxy.url}/v1/chat/completions", json=body, headers=headers, timeout=30)
        assert refused.status_code == 401
    assert len(proxy.upstream.requests) == 1  # a refused request never reaches the upstream
    bad = proxy.chat([{"role": "user", "content": "hello"}], **{"X-Memlane-Max-Tokens": "lots"})
    assert bad.status_code == 400
    assert "X-Memlane-Max-Tokens" in bad.json()["error"]["message"]
    not_json = httpx.post(
        f"{proxy.url}/v1/chat/completions", content=b"{", headers=proxy.headers(), timeout=30
    )
    assert not_json.status_code == 400


def test_an_unreachable_upstream_is_a_502(tmp_path: Path) -> None:
    import stores

    settings = Settings(path=str(tmp_path / "m.db"), embed_instances=1)
    upstream = ProxySettings(upstream=f"http://127.0.0.1:{stores.closed_port()}/v1")
    with TestClient(create_proxy_app(upstream, settings)) as client:
        key = client.app.state.memlane.keys.create("acme", now=utcnow()).secret  # type: ignore[attr-defined]
        body = {"model": "test", "messages": [{"role": "user", "content": "hello"}]}
        headers = {"Authorization": f"Bearer {key}", "X-Memlane-User": "u1"}
        reply = client.post("/v1/chat/completions", json=body, headers=headers)
        listed = client.get("/v1/models", headers=headers)
    assert reply.status_code == 502
    assert reply.json()["error"]["type"] == "upstream_unavailable"
    assert listed.status_code == 502


def test_the_proxy_leaves_a_core_to_its_event_loop(tmp_path: Path) -> None:
    import os

    from memlane.service.config import ServiceSettings

    upstream = ProxySettings(upstream="http://127.0.0.1:9/v1")
    settings = Settings(path=str(tmp_path / "m.db"), embed_instances=1)
    with TestClient(create_proxy_app(upstream, settings)) as client:
        slots = client.app.state.memlane.compute.slots  # type: ignore[attr-defined]
    assert slots == max(1, (os.cpu_count() or 1) - 1)  # the relay of every reply runs on the loop
    chosen = ServiceSettings(compute_slots=3)
    with TestClient(create_proxy_app(upstream, settings, chosen)) as client:
        assert client.app.state.memlane.compute.slots == 3  # type: ignore[attr-defined]


def test_with_the_store_slow_or_down_the_chat_goes_through_without_memory(
    tmp_path: Path, pg_url: str
) -> None:
    env = environment(
        tmp_path,
        MEMLANE_STORE=pg_url,
        MEMLANE_KEYS=str(tmp_path / "keys.db"),
        MEMLANE_QUEUE=str(tmp_path / "jobs.db"),
    )
    keys = str(tmp_path / "keys.db")
    key = open_keys(keys).create("acme", now=utcnow()).secret
    database = conninfo_to_dict(pg_url)["dbname"]
    elsewhere = make_conninfo(pg_url, dbname="postgres")  # to let connections in again
    messages = [{"role": "user", "content": "推荐一杯饮料"}]
    with ScriptedServer([Scripted(completion("好的。"))]) as upstream:
        args = ["proxy", "--upstream", upstream.url, "--memory-timeout", "0.5"]
        with memlane_process(args, env, tmp_path / "proxy.log") as running:
            proxy = Proxy(running, upstream, key)
            warm = proxy.chat([{"role": "user", "content": "我平时喜欢喝美式。"}])
            proxy.job(warm.headers["x-memlane-writeback-job"])
            assert proxy.chat(messages).headers["x-memlane-memory"] == "injected"

            with psycopg.connect(pg_url, autocommit=True) as admin:  # slow: the memories table is locked
                admin.execute("BEGIN")
                admin.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")
                upstream.play([Scripted(completion("好的。"))])
                slow = proxy.chat(messages)
                admin.execute("ROLLBACK")
            assert slow.status_code == 200
            assert slow.headers["x-memlane-memory"] == "unavailable; no context block within 0.5 s"
            assert injected(upstream.requests[0]) == []

            with psycopg.connect(elsewhere, autocommit=True) as admin:  # down: no connection gets through
                admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = %s AND backend_type = 'client backend'",
                    (database,),
                )
            try:
                upstream.play([Scripted(completion("好的。"))])
                down = proxy.chat(messages)
            finally:
                with psycopg.connect(elsewhere, autocommit=True) as admin:
                    admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
            assert down.status_code == 200
            assert down.headers["x-memlane-memory"].startswith("unavailable; ")
            assert injected(upstream.requests[0]) == []
            assert down.content == json.dumps(completion("好的。")).encode()


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
CHAT = "我叫阿白，平时喜欢喝美式。\nWhat should I drink this morning?\n"


def test_the_example_assistant_chats_through_the_proxy_and_is_remembered(
    proxy: Proxy, tmp_path: Path
) -> None:
    proxy.upstream.play([Scripted(events=chunks("好的，阿白！")), Scripted(events=chunks("An americano!"))])
    args = ["--proxy", f"{proxy.url}/v1", "--user", "example", "--model", "test"]
    env = environment(tmp_path, MEMLANE_API_KEY=proxy.key)
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "chat_through_proxy.py"), *args],
        input=CHAT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["好的，阿白！", "An americano!"]
    second = proxy.upstream.requests[1]["messages"]
    assert second[-1] == {"role": "user", "content": "What should I drink this morning?"}
    assert second[-2] == {"role": "assistant", "content": "好的，阿白！"}
    deadline = time.monotonic() + 60
    while not any("美式" in t for t in proxy.memories("example")) and time.monotonic() < deadline:
        time.sleep(0.2)  # the write-back runs in the proxy's worker, after the reply
    assert any("美式" in t for t in proxy.memories("example"))


def test_the_example_assistant_on_the_python_api_recalls_the_first_turn(tmp_path: Path) -> None:
    with ScriptedServer(
        [Scripted(completion("好的，阿白！")), Scripted(completion("An americano!"))]
    ) as upstream:
        args = [
            "--base-url",
            upstream.url,
            "--user",
            "example",
            "--model",
            "test",
            "--db",
            str(tmp_path / "m.db"),
        ]
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "chat_with_python_api.py"), *args],
            input=CHAT,
            env=environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["好的，阿白！", "An americano!"]
        assert "美式" in str(upstream.requests[1]["messages"][1]["content"])  # memory of turn one
