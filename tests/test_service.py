"""The REST service in-process (httpx through FastAPI's TestClient) on the real embedded store, the real
bundled embedder and a real SQLite job queue worked by the in-process worker."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from memlane import Settings
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.queue.redis import RedisJobQueue
from memlane.service.routes.deps import ComputeSlots, ServiceState


class Api:
    """A client holding one tenant's key."""

    def __init__(self, client: TestClient, key: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {key}"}

    def get(self, url: str, **params: Any) -> Any:
        return self.client.get(url, params=params, headers=self.headers)

    def post(self, url: str, body: Any, **params: Any) -> Any:
        return self.client.post(url, json=body, params=params, headers=self.headers)

    def patch(self, url: str, body: Any) -> Any:
        return self.client.patch(url, json=body, headers=self.headers)

    def delete(self, url: str, **params: Any) -> Any:
        return self.client.delete(url, params=params, headers=self.headers)

    def wait_for(self, job_id: str, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job: dict[str, Any] = self.get(f"/v1/jobs/{job_id}").json()
            if job["status"] in ("done", "failed"):
                return job
            time.sleep(0.05)
        raise AssertionError(f"job {job_id} did not finish in {timeout} s")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServiceSettings(rate_limit=1000, rate_burst=1000, max_body_bytes=200_000)
    app = create_app(Settings(path=str(tmp_path / "svc.db")), config)
    with TestClient(app) as c:  # the context runs the lifespan: the embedded worker starts
        yield c


def state(client: TestClient) -> ServiceState:
    found: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
    return found


def api_for(client: TestClient, tenant: str) -> Api:
    return Api(client, state(client).keys.create(tenant, now=utcnow()).secret)


@pytest.fixture
def acme(client: TestClient) -> Api:
    return api_for(client, "acme")


@pytest.fixture
def globex(client: TestClient) -> Api:
    return api_for(client, "globex")


def remember_coffee(api: Api, user: str = "u1") -> dict[str, Any]:
    body = {"user_id": user, "messages": [{"role": "user", "content": "我叫阿白，平时喜欢喝美式。"}]}
    response = api.post("/v1/messages", body, wait="true")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


# -- the two routes every client starts with ------------------------------------------------------


def test_messages_are_queued_and_a_worker_writes_them(acme: Api) -> None:
    body = {
        "user_id": "u1",
        "session_id": "s1",
        "messages": [
            {"role": "user", "content": "I'm vegetarian and I prefer email over phone calls."},
            {"role": "assistant", "content": "Noted."},
        ],
        "idempotency_key": None,
    }
    response = acme.post("/v1/messages", body)
    assert response.status_code == 202
    job_id = response.json()["job_id"]
    assert response.headers["location"] == f"/v1/jobs/{job_id}"
    job = acme.wait_for(job_id)
    assert job["status"] == "done", job
    actions = {d["action"] for d in job["result"]["decisions"]}
    assert actions & {"semantic", "profile"}
    hits = acme.post("/v1/search", {"user_id": "u1", "query": "how to contact them?", "limit": 5}).json()
    assert any("email" in h["memory"]["text"] for h in hits["results"])


def test_search_results_have_the_documented_shape(acme: Api) -> None:
    remember_coffee(acme)
    response = acme.post("/v1/search", {"user_id": "u1", "query": "推荐一杯早上的饮料", "limit": 3})
    assert response.status_code == 200
    results = response.json()["results"]
    assert 1 <= len(results) <= 3
    top = results[0]
    assert {"id", "text", "kind"} <= set(top["memory"])
    assert isinstance(top["score"], float)
    assert "why" in top["explain"]
    assert "美式" in " ".join(r["memory"]["text"] for r in results)


def test_idempotency_key_returns_the_first_job_and_writes_once(acme: Api) -> None:
    body = {"user_id": "u1", "messages": [{"content": "我喜欢爬山。"}], "idempotency_key": "turn-1"}
    first = acme.post("/v1/messages", body).json()
    second = acme.post("/v1/messages", body).json()
    assert second["job_id"] == first["job_id"]
    assert second["duplicate"] is True
    acme.wait_for(first["job_id"])
    memories = acme.get("/v1/memories", user_id="u1").json()["memories"]
    assert sum("爬山" in m["text"] for m in memories) == 1


def test_a_message_id_sent_twice_is_processed_once(acme: Api) -> None:
    body = {"user_id": "u1", "messages": [{"content": "我住在杭州。", "id": "m-1"}]}
    first = acme.post("/v1/messages", body, wait="true").json()
    again = acme.post("/v1/messages", body, wait="true").json()
    assert first["message_ids"] == ["m-1"]
    assert again["decisions"] == []
    assert again["skipped_message_ids"] == ["m-1"]
    log = acme.get("/v1/memories", user_id="u1", include_log="true", kind="log").json()["memories"]
    assert len(log) == 1


# -- every other route ---------------------------------------------------------------------------


def test_every_memory_route_round_trips(acme: Api) -> None:
    made = acme.post("/v1/memories", {"user_id": "u1", "text": "客户偏好邮件联系", "tags": ["contact"]})
    assert made.status_code == 201
    mid = made.json()["memory"]["id"]
    assert acme.get(f"/v1/memories/{mid}", user_id="u1").json()["text"] == "客户偏好邮件联系"
    fixed = acme.patch(f"/v1/memories/{mid}", {"user_id": "u1", "text": "客户偏好电话联系"}).json()
    assert fixed["text"] == "客户偏好电话联系"
    history = acme.get(f"/v1/memories/{mid}/history", user_id="u1").json()["history"]
    assert [h["op"] for h in history][-1] == "update"
    assert history[-1]["before"] == "客户偏好邮件联系"
    helped = acme.post(f"/v1/memories/{mid}/feedback", {"user_id": "u1", "verdict": "helpful"})
    assert helped.status_code == 200
    block = acme.post("/v1/context", {"user_id": "u1", "query": "怎么联系客户", "max_tokens": 300}).json()
    assert mid in block["memory_ids"]
    assert "<memory-data>" in block["text"]
    assert acme.delete(f"/v1/memories/{mid}", user_id="u1").status_code == 204
    gone = acme.get(f"/v1/memories/{mid}", user_id="u1")
    assert gone.status_code == 404
    assert gone.json()["error"]["code"] == "not_found"


def test_user_routes_profile_sessions_forget_export(acme: Api) -> None:
    body = {"user_id": "u1", "session_id": "s1", "messages": [{"content": "我叫阿白，预算500元以内。"}]}
    assert acme.post("/v1/messages", body, wait="true").status_code == 200
    assert acme.get("/v1/profile", user_id="u1").json()["profile"].get("name") == "阿白"
    versions = acme.get("/v1/profile/history", user_id="u1", slot="name").json()["versions"]
    assert versions[0]["value"] == "阿白"
    sessions = acme.get("/v1/sessions", user_id="u1").json()["sessions"]
    assert [s["id"] for s in sessions] == ["s1"]
    one = acme.get("/v1/sessions/s1", user_id="u1").json()
    assert one["turns"][0]["content"].startswith("我叫阿白")
    ended = acme.post("/v1/sessions/end", {"user_id": "u1", "session_id": "s1"})
    assert ended.status_code == 200
    assert acme.get("/v1/sessions/s1", user_id="u1").status_code == 404
    document = acme.get("/v1/export", user_id="u1").json()
    assert document["format"] == "memlane.export"
    assert document["user_id"] == "u1"
    assert acme.post("/v1/forget", {"user_id": "u1", "all": True}).json()["deleted"] >= 1
    assert acme.get("/v1/memories", user_id="u1").json()["memories"] == []
    assert acme.get("/v1/profile", user_id="u1").json()["profile"] == {}


# -- tenants and keys ------------------------------------------------------------------------------


def test_requests_without_a_valid_key_get_401(client: TestClient, acme: Api) -> None:
    body = {"user_id": "u1", "query": "x", "limit": 1}
    missing = client.post("/v1/search", json=body)
    assert missing.status_code == 401
    assert missing.json()["error"]["code"] == "unauthorized"
    wrong = client.post("/v1/search", json=body, headers={"Authorization": "Bearer mlk_nope_nope"})
    assert wrong.status_code == 401
    assert acme.post("/v1/search", body).status_code == 200
    keys = state(client).keys
    (key,) = keys.keys("acme")
    keys.revoke(key.id, now=utcnow())
    assert acme.post("/v1/search", body).status_code == 401


def test_one_tenant_cannot_read_change_or_detect_anothers_data(acme: Api, globex: Api) -> None:
    written = remember_coffee(acme)
    mid = next(d["memory_id"] for d in written["decisions"] if d["memory_id"])
    job = acme.post("/v1/messages", {"user_id": "u1", "messages": [{"content": "我喜欢猫。"}]}).json()
    # the same user id in another tenant is another person
    assert globex.post("/v1/search", {"user_id": "u1", "query": "美式", "limit": 10}).json()["results"] == []
    assert globex.get("/v1/memories", user_id="u1", include_log="true").json()["memories"] == []
    assert globex.get("/v1/profile", user_id="u1").json()["profile"] == {}
    assert "美式" not in str(globex.get("/v1/export", user_id="u1").json())
    # guessing ids reads exactly like an unknown id
    unknown = globex.get("/v1/memories/no-such-id", user_id="u1").json()["error"]
    for response in (
        globex.get(f"/v1/memories/{mid}", user_id="u1"),
        globex.get(f"/v1/memories/{mid}/history", user_id="u1"),
        globex.patch(f"/v1/memories/{mid}", {"user_id": "u1", "text": "hacked"}),
        globex.delete(f"/v1/memories/{mid}", user_id="u1"),
        globex.post(f"/v1/memories/{mid}/feedback", {"user_id": "u1", "verdict": "wrong"}),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["message"] == unknown["message"].replace("no-such-id", mid)
    assert globex.get(f"/v1/jobs/{job['job_id']}").status_code == 404
    assert globex.post("/v1/forget", {"user_id": "u1", "all": True}).json()["deleted"] == 0
    # and acme's memory is untouched
    assert acme.get(f"/v1/memories/{mid}", user_id="u1").json()["text"] == written["decisions"][0]["text"]


# -- errors and limits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param({"user_id": "u1", "messages": [{"content": "   "}]}, "invalid_input", id="blank-text"),
        pytest.param({"user_id": "", "messages": [{"content": "hi"}]}, "invalid_input", id="empty-user"),
        pytest.param({"user_id": "u1", "messages": []}, "invalid_request", id="no-messages"),
        pytest.param(
            {"user_id": "u1", "messages": [{"role": "bot", "content": "x"}]}, "invalid_request", id="role"
        ),
        pytest.param({"messages": [{"content": "hi"}]}, "invalid_request", id="no-user"),
    ],
)
def test_bad_writes_fail_at_once_with_a_code_and_queue_nothing(
    client: TestClient, acme: Api, body: dict[str, Any], code: str
) -> None:
    response = acme.post("/v1/messages", body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert error["request_id"] == response.headers["x-request-id"]
    assert state(client).queue.stats(utcnow()).depth == 0


def test_a_body_over_the_limit_gets_413(acme: Api) -> None:
    huge = {"user_id": "u1", "messages": [{"content": "长" * 100_000}]}
    response = acme.post("/v1/messages", huge)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_malformed_json_gets_422(client: TestClient, acme: Api) -> None:
    headers = {**acme.headers, "Content-Type": "application/json"}
    response = client.post("/v1/search", content=b'{"user_id": "u1", "query": ', headers=headers)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"


def test_a_key_over_its_rate_gets_429_with_retry_after(tmp_path: Path) -> None:
    config = ServiceSettings(rate_limit=0.5, rate_burst=3)
    with TestClient(create_app(Settings(path=str(tmp_path / "r.db")), config)) as c:
        api = api_for(c, "acme")
        codes = [api.get("/v1/profile", user_id="u1").status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200]
        assert codes[-1] == 429
        limited = api.get("/v1/profile", user_id="u1")
        assert limited.json()["error"]["code"] == "rate_limited"
        assert int(limited.headers["retry-after"]) >= 1
        other = api_for(c, "globex")  # limits are per key
        assert other.get("/v1/profile", user_id="u1").status_code == 200


def test_a_full_queue_refuses_new_jobs_with_503_until_it_drains(tmp_path: Path) -> None:
    # no worker: the three jobs stay queued until this test finishes them
    config = ServiceSettings(queue_limit=3, embedded_worker=False, rate_limit=1000, rate_burst=1000)
    with TestClient(create_app(Settings(path=str(tmp_path / "q.db")), config)) as c:
        api = api_for(c, "acme")

        def add(text: str, **params: Any) -> Any:
            body = {"user_id": "u1", "messages": [{"role": "user", "content": text}]}
            return api.post("/v1/messages", body, **params)

        assert [add(f"I moved to Lisbon in {y}.").status_code for y in (2019, 2020, 2021)] == [202] * 3
        refused = add("我养了一只猫，叫豆豆。")
        assert refused.status_code == 503
        assert refused.json()["error"]["code"] == "queue_full"
        assert int(refused.headers["retry-after"]) >= 1
        queue = state(c).queue
        assert queue.stats(utcnow()).depth == 3  # the refused one was not queued
        assert add("我养了一只猫，叫豆豆。", wait="true").status_code == 200  # inline needs no queue

        while (job := queue.claim("test", utcnow())) is not None:
            queue.complete(job, {}, utcnow())
        time.sleep(1.1)  # the API reads the depth at most once a second
        assert add("我养了一只猫，叫豆豆。").status_code == 202


def test_a_repeated_idempotency_key_takes_no_place_in_a_bounded_queue(tmp_path: Path) -> None:
    config = ServiceSettings(queue_limit=2, embedded_worker=False, rate_limit=1000, rate_burst=1000)
    with TestClient(create_app(Settings(path=str(tmp_path / "q.db")), config)) as c:
        api = api_for(c, "acme")

        def add(text: str, key: str) -> Any:
            body = {"user_id": "u1", "messages": [{"role": "user", "content": text}], "idempotency_key": key}
            return api.post("/v1/messages", body)

        first = add("I moved to Lisbon in 2019.", "k1")
        assert first.status_code == 202
        for _ in range(3):  # a client retrying the same write, within the second the depth is kept
            again = add("I moved to Lisbon in 2019.", "k1")
            assert again.status_code == 202
            assert again.json()["duplicate"] is True
            assert again.json()["job_id"] == first.json()["job_id"]
        assert add("我养了一只猫，叫豆豆。", "k2").status_code == 202  # the second place was still free
        assert add("I work as a nurse.", "k3").status_code == 503
        assert state(c).queue.stats(utcnow()).depth == 2


# -- operations --------------------------------------------------------------------------------------


def test_the_api_tells_the_workers_of_its_host_when_it_serves_reads(tmp_path: Path, redis_url: str) -> None:
    config = ServiceSettings(queue=redis_url, rate_limit=1000, rate_burst=1000)
    with TestClient(create_app(Settings(path=str(tmp_path / "b.db")), config)) as c:
        api, queue = api_for(c, "acme"), state(c).queue
        assert isinstance(queue, RedisJobQueue)
        host = socket.gethostname()
        for _ in range(5):  # cheap requests (a job's status, health) do not hold the workers up
            assert api.get("/v1/jobs/nope").status_code == 404
            assert c.get("/healthz").status_code == 200
        time.sleep(0.4)
        assert not queue.serving(host)
        assert api.post("/v1/search", {"user_id": "u1", "query": "咖啡 coffee"}).status_code == 200
        deadline = time.monotonic() + 2
        while not queue.serving(host) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert queue.serving(host)
        assert not queue.serving("another-host")


def test_health_readiness_and_metrics(client: TestClient, acme: Api) -> None:
    remember_coffee(acme)
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert set(ready.json()["checks"]) == {"store", "sessions", "keys", "queue"}
    assert ready.json()["embedder"].startswith("e5")  # the engine, its kernel and why
    text = client.get("/metrics").text
    for name in (
        'memlane_request_seconds_count{method="POST",route="/v1/messages",status="200"}',
        "memlane_queue_depth",
        "memlane_queue_lag_seconds",
        "memlane_vectors_queued",
        "memlane_judge_decisions_total",
        'memlane_memories{kind="semantic"}',
    ):
        assert name in text, name


def test_readiness_fails_when_the_queue_is_down(tmp_path: Path) -> None:
    import stores

    config = ServiceSettings(queue=f"redis://127.0.0.1:{stores.closed_port()}/0")
    with TestClient(create_app(Settings(path=str(tmp_path / "q.db")), config)) as c:
        response = c.get("/readyz")
        assert response.status_code == 503
        assert response.json()["checks"]["queue"].startswith("unavailable")
        api = api_for(c, "acme")
        queued = api.post("/v1/messages", {"user_id": "u1", "messages": [{"content": "我喜欢猫"}]})
        assert queued.status_code == 503
        assert queued.json()["error"]["code"] == "store_unavailable"


def test_openapi_documents_every_route_with_examples_in_both_languages(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert {
        "/v1/messages",
        "/v1/search",
        "/v1/context",
        "/v1/jobs/{job_id}",
        "/v1/memories/{memory_id}",
    } <= paths
    examples = str(schema["components"]["schemas"]["AddMessages"])
    assert "美式" in examples
    assert "vegetarian" in examples


def test_audit_consent_and_forgetting_a_session_over_http(acme: Api, globex: Api) -> None:
    body = {"user_id": "u1", "session_id": "s1", "messages": [{"content": "我喜欢喝美式。"}]}
    acme.post("/v1/messages", body, wait="true")
    block = acme.post("/v1/context", {"user_id": "u1", "query": "喝什么"}).json()
    entries = acme.get("/v1/audit", user_id="u1").json()["entries"]
    assert [e["op"] for e in entries][:2] == ["context", "write"]
    assert entries[0]["caller"].startswith("api:acme:")
    assert set(block["memory_ids"]) <= set(entries[0]["memory_ids"])
    assert "美式" not in str(entries)  # ids and counts, never the text
    assert globex.get("/v1/audit", user_id="u1").json()["entries"] == []

    assert acme.get("/v1/consent", user_id="u2").json()["enabled"] is True
    off = acme.client.put(
        "/v1/consent", json={"user_id": "u2", "enabled": False}, headers=acme.headers
    ).json()
    assert off["enabled"] is False
    kept = acme.post(
        "/v1/messages", {"user_id": "u2", "messages": [{"content": "我住在杭州。"}]}, wait="true"
    )
    assert {d["action"] for d in kept.json()["decisions"]} == {"discard"}
    assert acme.get("/v1/memories", user_id="u2", include_log="true").json()["memories"] == []

    gone = acme.post("/v1/sessions/forget", {"user_id": "u1", "session_id": "s1"}).json()
    assert gone["deleted"] >= 1
    assert acme.get("/v1/memories", user_id="u1", include_log="true").json()["memories"] == []


def test_readiness_fails_when_redis_sessions_are_down(tmp_path: Path) -> None:
    import stores

    settings = Settings(path=str(tmp_path / "s.db"), sessions=f"redis://127.0.0.1:{stores.closed_port()}/0")
    with TestClient(create_app(settings, ServiceSettings())) as c:
        response = c.get("/readyz")
        assert response.status_code == 503
        assert response.json()["checks"]["sessions"].startswith("unavailable")
        assert response.json()["checks"]["store"] == "ok"
        # long-term memory keeps working while sessions are down (degraded mode)
        api = api_for(c, "acme")
        written = api.post(
            "/v1/messages", {"user_id": "u1", "messages": [{"content": "我喜欢喝美式"}]}, wait="true"
        )
        assert written.status_code == 200


def test_a_job_that_cannot_succeed_is_parked_listed_and_retried(
    client: TestClient, acme: Api, globex: Api
) -> None:
    # a payload the API would have refused, queued behind its back: the worker parks it at once
    queue = state(client).queue
    bad = {
        "user_id": "",
        "session_id": None,
        "messages": [{"role": "user", "content": "hi", "id": "m1", "at": "2026-01-01T00:00:00+00:00"}],
    }
    job, _ = queue.submit("acme", bad, utcnow())
    parked = acme.wait_for(job.id)
    assert parked["status"] == "failed"
    assert parked["error"].startswith("InvalidInput")
    listed = acme.get("/v1/jobs").json()
    assert [j["job_id"] for j in listed] == [job.id]
    assert globex.get("/v1/jobs").json() == []
    assert globex.post(f"/v1/jobs/{job.id}/retry", {}).status_code == 404
    again = acme.post(f"/v1/jobs/{job.id}/retry", {}).json()
    assert again["status"] == "queued"


def test_compute_slots_run_at_most_n_at_once_in_arrival_order() -> None:
    slots = ComputeSlots(2)
    running, most, started = [0], [0], []
    lock = threading.Lock()

    def work(i: int) -> int:
        with lock:
            started.append(i)
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return i * 10

    async def main() -> list[int]:
        results: list[int] = [0] * 6

        async def one(i: int) -> None:
            results[i] = await slots.run(work, i)

        async with anyio.create_task_group() as tg:
            for i in range(6):
                tg.start_soon(one, i)
                await anyio.sleep(0.005)  # arrive in order
        return results

    assert anyio.run(main) == [0, 10, 20, 30, 40, 50]
    assert most[0] == 2
    assert started == [0, 1, 2, 3, 4, 5]


def test_a_context_variable_set_in_a_slot_stays_with_its_call() -> None:
    var: ContextVar[str] = ContextVar("memlane_test_var", default="unset")
    slots = ComputeSlots(1)  # one thread: both calls run on it

    async def main() -> str:
        await slots.run(var.set, "first call")
        return await slots.run(var.get)

    try:
        assert anyio.run(main) == "unset"
    finally:
        slots.close()


def test_compute_slots_default_to_the_cores_and_follow_the_setting(tmp_path: Path) -> None:
    cores = os.cpu_count() or 1
    assert ComputeSlots().slots == cores
    assert ComputeSlots(remote_store=True).slots == 2 * cores
    with TestClient(create_app(Settings(path=str(tmp_path / "d.db")), ServiceSettings())) as c:
        assert state(c).compute.slots == cores  # SQLite: nothing to wait for but the CPU
    config = ServiceSettings(compute_slots=3)
    with TestClient(create_app(Settings(path=str(tmp_path / "s.db")), config)) as c:
        acme = api_for(c, "acme")
        assert state(c).compute.slots == 3
        remember_coffee(acme)
        hits = acme.post("/v1/search", {"user_id": "u1", "query": "咖啡", "limit": 3}).json()["results"]
        assert "美式" in hits[0]["memory"]["text"]


def test_on_postgresql_a_core_has_two_compute_slots(pg_url: str, redis_url: str) -> None:
    settings = Settings(store=pg_url, sessions=redis_url)
    config = ServiceSettings(queue=redis_url, rate_limit=1000, rate_burst=1000)
    with TestClient(create_app(settings, config)) as c:
        assert state(c).compute.slots == 2 * (os.cpu_count() or 1)
