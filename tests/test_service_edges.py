"""The service's edges as an attacker or a careless client meets them: bounded work, explicit
deletion, unknown fields, input that passes the schema but not the store, the framework's own
errors, and what error bodies and redirects give away. In-process, on the real embedded store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memlane import Settings
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.keycache import Grant, KeyCache
from memlane.service.routes.deps import ServiceState


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServiceSettings(rate_limit=1000, rate_burst=1000, maintain_every_minutes=0)
    with TestClient(create_app(Settings(path=str(tmp_path / "svc.db")), config)) as c:
        yield c


def state_of(client: TestClient) -> ServiceState:
    found: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
    return found


@pytest.fixture
def auth(client: TestClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {state_of(client).keys.create('acme', now=utcnow()).secret}"}


def error_of(response: Any) -> dict[str, Any]:
    """The documented error shape, checked: ``{"error": {"code", "message", "request_id"}}``."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "request_id"}, body
    assert body["error"]["request_id"] == response.headers["x-request-id"]
    found: dict[str, Any] = body["error"]
    return found


# -- work an attacker can multiply ------------------------------------------------------------------


def test_a_write_of_many_identical_messages_returns_ids_not_copies(
    client: TestClient, auth: dict[str, str]
) -> None:
    messages = [{"role": "user", "content": "我喜欢喝美式咖啡，每天早上一杯。"}] * 100
    body = {"user_id": "u1", "messages": messages}
    inline = client.post("/v1/messages", json=body, headers=auth, params={"wait": "true"})
    assert inline.status_code == 200
    result = inline.json()
    assert len(result["decisions"]) >= 100
    assert all("memory" not in d and "provenance" not in json.dumps(d) for d in result["decisions"])
    assert {d["memory_id"] for d in result["decisions"] if d["memory_id"]}  # merged into few memories
    # each decision is a few hundred bytes, whatever the merged memory's provenance holds
    assert len(inline.content) < 600 * len(result["decisions"])


def test_a_write_is_bounded_in_messages(client: TestClient, auth: dict[str, str]) -> None:
    body = {"user_id": "u1", "messages": [{"content": "hi"}] * 101}
    response = client.post("/v1/messages", json=body, headers=auth)
    assert response.status_code == 422
    assert "100" in error_of(response)["message"]
    assert state_of(client).queue.stats(utcnow()).depth == 0


def test_random_keys_neither_grow_the_cache_nor_go_unlimited(tmp_path: Path) -> None:
    # one failure back per 100 s: a slow machine cannot refill the bucket while the test runs
    config = ServiceSettings(auth_failure_rate=0.01, auth_failure_burst=5, maintain_every_minutes=0)
    app = create_app(Settings(path=str(tmp_path / "k.db")), config)
    state: ServiceState = app.state.memlane
    state.keys._cache = KeyCache(size=3)  # a small bound, to see it hold
    with TestClient(app) as c:
        codes = [
            c.get(
                "/v1/profile", params={"user_id": "u1"}, headers={"Authorization": f"Bearer mlk_{n:012x}_x"}
            )
            for n in range(12)
        ]
        assert [r.status_code for r in codes[:5]] == [401] * 5
        assert {r.status_code for r in codes[6:]} == {429}
        limited = error_of(codes[-1])
        assert limited["code"] == "rate_limited"
        assert f"retry in {codes[-1].headers['retry-after']} s" in limited["message"]
        assert len(state.keys._cache) <= 3
        # a client with a good key from elsewhere is not held up
        good = state.keys.create("acme", now=utcnow()).secret
        ok = c.get("/v1/profile", params={"user_id": "u1"}, headers={"Authorization": f"Bearer {good}"})
        assert ok.status_code in (200, 429)  # same test client address: the bucket is the address's


def test_the_key_cache_evicts_the_least_recently_used() -> None:
    cache = KeyCache(size=2)
    cache.verified("a", Grant("acme"))
    cache.verified("b", Grant("acme"))
    assert cache.lookup("a") is not None  # a is used again: b is now the oldest
    cache.verified("c", Grant("acme"))
    assert cache.lookup("b") is None
    assert cache.lookup("a") is not None
    for n in range(10):
        cache.refused(f"bad-{n}")
    assert len(cache) <= 4


# -- deletion is explicit, and unknown fields are refused --------------------------------------------


def remember(client: TestClient, auth: dict[str, str], user: str, text: str, tags: list[str]) -> None:
    made = client.post("/v1/memories", json={"user_id": user, "text": text, "tags": tags}, headers=auth)
    assert made.status_code == 201, made.text


def test_forget_without_tags_or_all_deletes_nothing(client: TestClient, auth: dict[str, str]) -> None:
    remember(client, auth, "u2", "我喜欢喝美式", ["coffee"])
    for body in (
        {"user_id": "u2"},
        {"user_id": "u2", "tags": None},
        {"user_id": "u2", "tag": ["coffee"]},  # the typo that deleted everything
        {"user_id": "u2", "tags": []},
        {"user_id": "u2", "tags": ["coffee"], "all": True},
    ):
        response = client.post("/v1/forget", json=body, headers=auth)
        assert response.status_code == 422, body
        assert error_of(response)["code"] in ("invalid_request", "invalid_input")
    listed = client.get("/v1/memories", params={"user_id": "u2"}, headers=auth).json()["memories"]
    assert [m["text"] for m in listed] == ["我喜欢喝美式"]
    tagged = client.post("/v1/forget", json={"user_id": "u2", "tags": ["coffee"]}, headers=auth)
    assert tagged.json() == {"deleted": 1}
    remember(client, auth, "u2", "我住在杭州", ["home"])
    assert client.post("/v1/forget", json={"user_id": "u2", "all": True}, headers=auth).json()["deleted"] >= 1
    assert client.get("/v1/memories", params={"user_id": "u2"}, headers=auth).json()["memories"] == []


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        pytest.param("POST", "/v1/search", {"user_id": "u1", "query": "x", "limt": 5}, id="search"),
        pytest.param(
            "POST",
            "/v1/messages",
            {"user_id": "u1", "messages": [{"content": "hi", "rol": "user"}]},
            id="message",
        ),
        pytest.param("POST", "/v1/memories", {"user_id": "u1", "text": "x", "tag": ["a"]}, id="remember"),
        pytest.param(
            "PUT", "/v1/consent", {"user_id": "u1", "enabled": False, "categoris": []}, id="consent"
        ),
    ],
)
def test_an_unknown_body_field_is_a_422(
    client: TestClient, auth: dict[str, str], method: str, url: str, body: dict[str, Any]
) -> None:
    response = client.request(method, url, json=body, headers=auth)
    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"


def test_an_unknown_query_parameter_is_a_422(client: TestClient, auth: dict[str, str]) -> None:
    response = client.get("/v1/memories", params={"user_id": "u1", "kinds": "semantic"}, headers=auth)
    assert response.status_code == 422
    assert "kinds" in error_of(response)["message"]
    assert client.get("/healthz", params={"verbose": "1"}).status_code == 422
    assert (
        client.get("/v1/memories", params={"user_id": "u1", "kind": "semantic"}, headers=auth).status_code
        == 200
    )


# -- input that fits the schema but not the store -----------------------------------------------------


def test_a_time_past_what_memlane_can_compute_with_is_refused_at_once(
    client: TestClient, auth: dict[str, str]
) -> None:
    far = "9999-12-31T23:59:59Z"
    queued = client.post(
        "/v1/messages",
        json={"user_id": "u1", "messages": [{"content": "I flew to Lisbon.", "at": far}]},
        headers=auth,
    )
    assert queued.status_code == 422  # not 202, then five failures in the worker
    assert state_of(client).queue.stats(utcnow()).depth == 0
    remembered = client.post(
        "/v1/memories",
        json={"user_id": "u1", "text": "Renewed the plan", "kind": "episodic", "at": far},
        headers=auth,
    )
    assert remembered.status_code == 422
    assert error_of(remembered)["code"] == "invalid_input"


@pytest.mark.parametrize(
    ("url", "body"),
    [
        pytest.param("/v1/messages", {"user_id": "u1", "messages": [{"content": "a\ud800b"}]}, id="content"),
        pytest.param(
            "/v1/messages", {"user_id": "u1", "messages": [{"content": "hi", "name": "\ud800"}]}, id="name"
        ),
        pytest.param(
            "/v1/messages",
            {"user_id": "u1", "messages": [{"content": "hi"}], "idempotency_key": "k\ud800"},
            id="key",
        ),
        pytest.param("/v1/memories", {"user_id": "u1", "text": "x", "tags": ["\udfff"]}, id="tags"),
        pytest.param("/v1/search", {"user_id": "u\ud800", "query": "x"}, id="user"),
    ],
)
def test_a_lone_surrogate_is_a_422_not_a_500(
    client: TestClient, auth: dict[str, str], url: str, body: dict[str, Any]
) -> None:
    raw = json.dumps(body).encode()  # json.dumps writes the surrogate as the escape \\ud800
    response = client.post(url, content=raw, headers={**auth, "Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert "surrogate" in error_of(response)["message"]


# -- the framework's own errors have the one shape ---------------------------------------------------


def test_a_body_that_is_not_utf8_is_a_422_in_the_error_shape(
    client: TestClient, auth: dict[str, str]
) -> None:
    headers = {**auth, "Content-Type": "application/json"}
    response = client.post("/v1/search", content=b'{"user_id": "u1", "query": "\xff\xfe"}', headers=headers)
    assert response.status_code == 422
    assert "UTF-8" in error_of(response)["message"]


def test_a_body_nested_too_deep_is_a_422(client: TestClient, auth: dict[str, str]) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    response = client.post("/v1/search", content=deep, headers={**auth, "Content-Type": "application/json"})
    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"


def test_a_body_without_a_json_content_type_says_what_to_send(
    client: TestClient, auth: dict[str, str]
) -> None:
    response = client.post(
        "/v1/search",
        content=b'{"user_id": "u1", "query": "x"}',
        headers={**auth, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 422
    assert "Content-Type: application/json" in error_of(response)["message"]


def test_an_oversized_body_without_a_length_is_a_413(tmp_path: Path) -> None:
    config = ServiceSettings(max_body_bytes=1000, maintain_every_minutes=0)
    with TestClient(create_app(Settings(path=str(tmp_path / "b.db")), config)) as c:
        key = state_of(c).keys.create("acme", now=utcnow()).secret

        def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is met while reading
            yield b'{"user_id": "u1", "query": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        response = c.post(
            "/v1/search",
            content=chunks(),
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )
        assert response.status_code == 413
        assert error_of(response)["code"] == "payload_too_large"


def test_an_unknown_path_and_a_wrong_method_have_the_error_shape(
    client: TestClient, auth: dict[str, str]
) -> None:
    missing = client.get("/v1/nothing-here", headers=auth)
    assert missing.status_code == 404
    assert error_of(missing)["code"] == "not_found"
    wrong = client.delete("/v1/search", headers=auth)
    assert wrong.status_code == 405
    assert error_of(wrong)["code"] == "method_not_allowed"
    assert "POST" in wrong.headers["allow"]


def test_a_trailing_slash_is_not_redirected_to_the_host_the_client_named(
    client: TestClient, auth: dict[str, str]
) -> None:
    response = client.post(
        "/v1/search/",
        json={"user_id": "u1", "query": "x"},
        headers={**auth, "Host": "evil.example"},
        follow_redirects=False,
    )
    assert "location" not in response.headers
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


# -- what an error says, and does not -----------------------------------------------------------------


def test_a_429_says_the_same_wait_as_its_retry_after(tmp_path: Path) -> None:
    config = ServiceSettings(rate_limit=0.2, rate_burst=1, maintain_every_minutes=0)
    with TestClient(create_app(Settings(path=str(tmp_path / "r.db")), config)) as c:
        key = state_of(c).keys.create("acme", now=utcnow()).secret
        headers = {"Authorization": f"Bearer {key}"}
        assert c.get("/v1/profile", params={"user_id": "u1"}, headers=headers).status_code == 200
        limited = c.get("/v1/profile", params={"user_id": "u1"}, headers=headers)
        assert limited.status_code == 429
        wait = int(limited.headers["retry-after"])
        assert wait >= 1
        assert error_of(limited)["message"].endswith(f"retry in {wait} s")


def test_readiness_and_503s_name_no_database_user_or_path(tmp_path: Path) -> None:
    import stores

    port = stores.closed_port()
    settings = Settings(path=str(tmp_path / "s.db"), sessions=f"redis://secretuser:pw@127.0.0.1:{port}/0")
    config = ServiceSettings(queue=f"redis://127.0.0.1:{port}/7", maintain_every_minutes=0)
    with TestClient(create_app(settings, config)) as c:
        ready = c.get("/readyz")
        assert ready.status_code == 503
        assert ready.json() == {
            "status": "unavailable",
            "checks": {"store": "ok", "sessions": "unavailable", "keys": "ok", "queue": "unavailable"},
            "embedder": state_of(c).tenants.embedder.runs_on(),  # an engine and a reason, no path
        }
        assert str(tmp_path) not in ready.text
        key = state_of(c).keys.create("acme", now=utcnow()).secret
        down = c.post(
            "/v1/messages",
            json={"user_id": "u1", "messages": [{"content": "我喜欢猫"}]},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert down.status_code == 503
        message = error_of(down)["message"]
        for leak in (str(port), "127.0.0.1", "secretuser", str(tmp_path)):
            assert leak not in message, leak
            assert leak not in ready.text, leak
