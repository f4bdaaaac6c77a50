"""The write-back queue keeps no more than memlane would store, and forgets with the user.

Each test runs the service in-process on the real embedded store with a real queue: the SQLite file
beside it, or Redis under a key prefix of the test's own. What the queue holds is read from the
bytes of its file, or from Redis itself, not through the API.
"""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient

from memlane import Settings
from memlane.clock import utcnow
from memlane.privacy.crypto import DataKey
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.jobs import job_handler, job_withdrawal
from memlane.service.queue import Job
from memlane.service.queue.redis import RedisJobQueue
from memlane.service.routes.deps import ServiceState
from memlane.service.worker import Worker
from test_sensitive import ID_1990, UNIONPAY

PASSWORD = "Qwerty!9xk"
SECRET_MESSAGE = f"我的身份证号是{ID_1990}，银行卡{UNIONPAY}，密码是{PASSWORD}。我喜欢喝美式。"
PHONE = "13800138000"


@pytest.fixture(params=["sqlite", "redis"])
def queue_url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """None: the SQLite file beside the store; else Redis under this test's own prefix."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("redis_url")
    return url


def service(tmp_path: Path, queue: str | None, *, worker: bool = True, **settings: Any) -> TestClient:
    config = ServiceSettings(
        queue=queue, embedded_worker=worker, rate_limit=1000, rate_burst=1000, maintain_every_minutes=0
    )
    return TestClient(create_app(Settings(path=str(tmp_path / "svc.db"), **settings), config))


@pytest.fixture
def idle(tmp_path: Path, queue_url: str | None) -> Iterator[TestClient]:
    """The service with no worker: what is queued stays queued until the test works it."""
    with service(tmp_path, queue_url, worker=False) as client:
        yield client


def state_of(client: TestClient) -> ServiceState:
    found: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
    return found


def headers(client: TestClient, tenant: str = "acme") -> dict[str, str]:
    return {"Authorization": f"Bearer {state_of(client).keys.create(tenant, now=utcnow()).secret}"}


def queue_bytes(client: TestClient, tmp_path: Path) -> bytes:
    """Everything the queue holds, as raw bytes: the SQLite file and its WAL, or every Redis value."""
    queue = state_of(client).queue
    if isinstance(queue, RedisJobQueue):
        raw = redis.Redis.from_url(queue.url)
        try:
            return b"".join(_redis_value(raw, key) for key in raw.scan_iter(match=f"{queue.prefix}*"))
        finally:
            raw.close()
    return b"".join(p.read_bytes() for p in tmp_path.glob("svc.jobs.db*"))


def _redis_value(raw: redis.Redis, key: bytes) -> bytes:
    """A key's name and contents as plain bytes (DUMP may compress them)."""
    kind = raw.type(key)
    parts: list[Any] = [key]
    if kind == b"hash":
        parts += [x for pair in raw.hgetall(key).items() for x in pair]  # type: ignore[union-attr]
    elif kind == b"stream":
        parts += [str(entry).encode() for entry in raw.xrange(key)]
    elif kind == b"string":
        parts.append(raw.get(key) or b"")
    elif kind == b"zset":
        parts += raw.zrange(key, 0, -1)  # type: ignore[operator]
    elif kind == b"set":
        parts += list(raw.smembers(key))  # type: ignore[arg-type]
    return b"".join(p if isinstance(p, bytes) else str(p).encode() for p in parts)


def work_all(client: TestClient) -> None:
    """Run every queued job to its end with a worker like the service's own."""
    state = state_of(client)
    memory = state.tenants.memory
    worker = Worker(state.queue, job_handler(memory), "test", withdraw=job_withdrawal(memory))
    while worker.run_once(utcnow()):
        pass


def post(client: TestClient, auth: dict[str, str], body: dict[str, Any], **params: str) -> Any:
    return client.post("/v1/messages", json=body, headers=auth, params=params)


def test_a_queued_message_holds_no_id_card_bank_card_or_password(idle: TestClient, tmp_path: Path) -> None:
    auth = headers(idle)
    body = {"user_id": "u1", "messages": [{"role": "user", "content": SECRET_MESSAGE}]}
    assert post(idle, auth, body).status_code == 202
    held = queue_bytes(idle, tmp_path)
    assert held  # the job is there...
    for secret in (ID_1990, UNIONPAY, PASSWORD):
        assert secret.encode() not in held, secret  # ...masked
    work_all(idle)
    texts = [
        m["text"] for m in idle.get("/v1/memories", params={"user_id": "u1"}, headers=auth).json()["memories"]
    ]
    assert any("美式" in t for t in texts)  # and it is still written as the write path would write it


def test_a_finished_job_keeps_its_result_but_not_its_payload(idle: TestClient, tmp_path: Path) -> None:
    auth = headers(idle)
    body = {"user_id": "u1", "messages": [{"role": "user", "content": "我叫阿白，平时喜欢喝手冲咖啡。"}]}
    job_id = post(idle, auth, body).json()["job_id"]
    work_all(idle)
    job = idle.get(f"/v1/jobs/{job_id}", headers=auth).json()
    assert job["status"] == "done"
    assert job["result"]["decisions"]
    assert "手冲" not in json.dumps(job)  # a result names memories by id: no copy of their text
    assert "手冲".encode() not in queue_bytes(idle, tmp_path)


def test_forgetting_a_user_removes_their_jobs_and_results(idle: TestClient, tmp_path: Path) -> None:
    auth = headers(idle)
    done = post(idle, auth, {"user_id": "u1", "messages": [{"content": "我住在杭州西湖边。"}]}).json()
    work_all(idle)
    queued = post(idle, auth, {"user_id": "u1", "messages": [{"content": "我养了一只猫，叫豆豆。"}]}).json()
    other = post(idle, auth, {"user_id": "u2", "messages": [{"content": "我喜欢爬山。"}]}).json()
    forgot = idle.post("/v1/forget", json={"user_id": "u1", "all": True}, headers=auth)
    assert forgot.status_code == 200
    for job in (done, queued):
        assert idle.get(f"/v1/jobs/{job['job_id']}", headers=auth).status_code == 404
    assert idle.get(f"/v1/jobs/{other['job_id']}", headers=auth).json()["status"] == "queued"
    held = queue_bytes(idle, tmp_path)
    assert "豆豆".encode() not in held
    assert "爬山".encode() in held  # another user's job is untouched
    assert state_of(idle).queue.stats(utcnow()).depth == 1


def test_a_job_queued_before_a_forget_is_never_applied_after_it(idle: TestClient) -> None:
    auth = headers(idle)
    post(idle, auth, {"user_id": "u1", "messages": [{"content": "我叫阿白，我住在杭州。"}]})
    assert idle.post("/v1/forget", json={"user_id": "u1", "all": True}, headers=auth).status_code == 200
    work_all(idle)  # the worker comes round afterwards
    memories = idle.get("/v1/memories", params={"user_id": "u1", "include_log": "true"}, headers=auth).json()
    assert memories["memories"] == []
    assert idle.get("/v1/profile", params={"user_id": "u1"}, headers=auth).json()["profile"] == {}


def test_a_job_running_while_its_user_is_forgotten_is_withdrawn(idle: TestClient) -> None:
    auth = headers(idle)
    post(
        idle, auth, {"user_id": "u1", "session_id": "s1", "messages": [{"content": "我叫阿白，我住在杭州。"}]}
    )
    state = state_of(idle)
    handle = job_handler(state.tenants.memory)

    def forgotten_midway(job: Job) -> dict[str, Any]:
        # the worker has claimed the job when the user is forgotten (another request, another
        # thread), and the job writes afterwards: what it wrote must not outlive the forget
        thread = threading.Thread(
            target=lambda: idle.post("/v1/forget", json={"user_id": "u1", "all": True}, headers=auth)
        )
        thread.start()
        thread.join()
        return handle(job)

    worker = Worker(state.queue, forgotten_midway, "test", withdraw=job_withdrawal(state.tenants.memory))
    assert worker.run_once(utcnow())
    params = {"user_id": "u1", "include_log": "true"}
    assert idle.get("/v1/memories", params=params, headers=auth).json()["memories"] == []
    assert idle.get("/v1/profile", params={"user_id": "u1"}, headers=auth).json()["profile"] == {}
    assert idle.get("/v1/sessions/s1", params={"user_id": "u1"}, headers=auth).status_code == 404


def test_the_queue_store_and_key_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    with service(tmp_path, None) as client:
        auth = headers(client)
        body = {"user_id": "u1", "messages": [{"content": "我喜欢喝美式。"}]}
        assert post(client, auth, body, wait="true").status_code == 200
        assert post(client, auth, body).status_code == 202
    files = sorted(tmp_path.glob("svc*.db*"))
    names = {p.name for p in files}
    assert {"svc.db", "svc.jobs.db", "svc.keys.db"} <= names
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


def test_a_file_an_older_memlane_left_readable_is_narrowed(tmp_path: Path) -> None:
    for name in ("svc.db", "svc.jobs.db", "svc.keys.db"):
        (tmp_path / name).touch(mode=0o644)
        (tmp_path / name).chmod(0o644)
    with service(tmp_path, None):
        pass
    for name in ("svc.db", "svc.jobs.db", "svc.keys.db"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


@pytest.mark.parametrize(
    ("body", "where"),
    [
        pytest.param(
            {"user_id": "u1", "messages": [{"content": "hi", "name": PHONE}]}, "name", id="name-phone"
        ),
        pytest.param(
            {"user_id": "u1", "session_id": f"call-{PHONE}", "messages": [{"content": "hi"}]},
            "session_id",
            id="session-phone",
        ),
        pytest.param(
            {"user_id": "u1", "messages": [{"content": "hi", "name": f"身份证{ID_1990}"}]},
            "name",
            id="name-id-card",
        ),
    ],
)
def test_names_and_session_ids_holding_sensitive_data_are_refused(
    idle: TestClient, tmp_path: Path, body: dict[str, Any], where: str
) -> None:
    response = post(idle, headers(idle), body)
    assert response.status_code == 422, response.text
    assert where in response.json()["error"]["message"]
    assert state_of(idle).queue.stats(utcnow()).depth == 0


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"text": "客户偏好邮件联系", "tags": [f"vip-{PHONE}"]}, id="tag"),
        pytest.param({"text": "客户偏好邮件联系", "session_id": f"call-{PHONE}"}, id="session"),
    ],
)
def test_tags_and_sessions_of_a_remembered_sentence_are_checked_too(
    idle: TestClient, body: dict[str, Any]
) -> None:
    auth = headers(idle)
    response = idle.post("/v1/memories", json={"user_id": "u1", **body}, headers=auth)
    assert response.status_code == 422, response.text
    assert idle.get("/v1/memories", params={"user_id": "u1"}, headers=auth).json()["memories"] == []


def test_an_encrypted_kind_waits_in_the_queue_sealed_and_is_kept_sealed(tmp_path: Path) -> None:
    key = DataKey.generate().encoded()
    with service(tmp_path, None, worker=False, sensitive_policy={"phone": "encrypt"}, data_key=key) as client:
        auth = headers(client)
        body = {"user_id": "u1", "messages": [{"content": f"我的手机号是{PHONE}"}]}
        assert post(client, auth, body).status_code == 202
        assert PHONE.encode() not in queue_bytes(client, tmp_path)
        work_all(client)
        found = client.post(
            "/v1/search",
            json={"user_id": "u1", "query": "手机号", "include_sensitive": True, "include_log": False},
            headers=auth,
        ).json()["results"]
    assert f"我的手机号是{PHONE}" in [
        h["memory"]["text"] for h in found
    ]  # the original, opened for its owner
