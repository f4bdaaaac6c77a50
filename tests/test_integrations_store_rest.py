"""LangGraph's store REST routes in ``memlane serve``: the real ``langgraph_sdk`` client, sync and
async, against a real server process on a free port, behind the service's keys and tenants."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client, get_sync_client
from langgraph_sdk.client import SyncStoreClient
from langgraph_sdk.errors import NotFoundError

from memlane import Memory


@dataclass(frozen=True)
class Server:
    url: str
    key: str  # tenant acme
    other_key: str  # tenant globex
    db: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


MEMLANE = str(Path(sys.executable).with_name("memlane"))  # the installed console script


def _memlane(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run([MEMLANE, *args], env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("serve")
    db = tmp / "memlane.db"
    env = {**os.environ, "MEMLANE_PATH": str(db), "MEMLANE_EMBED_INSTANCES": "1"}
    key = _memlane("keys", "create", "--tenant", "acme", env=env)
    other = _memlane("keys", "create", "--tenant", "globex", env=env)
    port = _free_port()
    log = (tmp / "server.log").open("wb")
    command = [MEMLANE, "serve", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"memlane serve did not start: {(tmp / 'server.log').read_text()}")
            time.sleep(0.2)
        yield Server(url, key, other, db)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_the_sync_client_puts_gets_searches_lists_and_deletes(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=server.key) as client:
        _exercise(client.store)


def _exercise(store: SyncStoreClient) -> None:
    store.put_item(["u1", "memories"], "contact", {"text": "Please email me, never call me", "n": 1})
    store.put_item(["u1", "memories"], "drink", {"text": "我平时喜欢喝美式咖啡", "n": 2})
    store.put_item(["u1", "notes"], "misc", {"text": "The parking spot is B12"}, index=False, ttl=30)
    item = store.get_item(["u1", "memories"], "contact")
    assert item["value"] == {"text": "Please email me, never call me", "n": 1}
    assert item["namespace"] == ["u1", "memories"]
    assert item["created_at"]
    found = store.search_items(["u1"], query="how do I reach the user? email?")["items"]
    assert found[0]["key"] == "contact"
    assert found[0]["score"] > 0
    filtered = store.search_items(["u1", "memories"], filter={"n": {"$gt": 1}})["items"]
    assert [i["key"] for i in filtered] == ["drink"]
    spaces = store.list_namespaces(prefix=["u1"])["namespaces"]
    assert spaces == [["u1", "memories"], ["u1", "notes"]]
    assert store.list_namespaces(max_depth=1)["namespaces"] == [["u1"]]
    store.delete_item(["u1", "memories"], "drink")
    with pytest.raises(NotFoundError):
        store.get_item(["u1", "memories"], "drink")


def test_the_async_client_works_the_same(server: Server) -> None:
    async def run() -> list[str]:
        async with get_client(url=server.url, api_key=server.key) as client:
            await client.store.put_item(["u2", "memories"], "hobby", {"text": "I go hiking every weekend"})
            found = await client.store.search_items(["u2"], query="what do I do on weekends?")
            return [i["key"] for i in found["items"]]

    assert asyncio.run(run()) == ["hobby"]


def test_a_bearer_key_works_and_a_missing_or_unknown_one_is_refused(server: Server) -> None:
    headers = {"Authorization": f"Bearer {server.key}"}
    with get_sync_client(url=server.url, api_key=None, headers=headers) as bearer:
        bearer.store.put_item(["u3", "m"], "k", {"text": "I like jazz"})
    for headers in ({}, {"x-api-key": "mk_nope_nope"}):
        response = httpx.post(f"{server.url}/store/namespaces", json={}, headers=headers)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthorized"


def test_tenants_never_see_each_others_items(server: Server) -> None:
    with (
        get_sync_client(url=server.url, api_key=server.key) as one,
        get_sync_client(url=server.url, api_key=server.other_key) as two,
    ):
        _isolated(one.store, two.store)


def _isolated(acme: SyncStoreClient, globex: SyncStoreClient) -> None:
    acme.put_item(["shared", "memories"], "k", {"text": "acme's secret plan"})
    assert globex.search_items(["shared"])["items"] == []
    with pytest.raises(NotFoundError):
        globex.get_item(["shared", "memories"], "k")
    globex.delete_item(["shared", "memories"], "k")  # a no-op in globex
    assert acme.get_item(["shared", "memories"], "k")["value"] == {"text": "acme's secret plan"}


def test_items_are_memories_of_the_tenants_user(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=server.key) as client:
        client.store.put_item(["u9", "memories"], "k", {"text": "My sister lives in Chengdu"})
    time.sleep(0.2)  # the server's write has committed; read the file as another process would
    with Memory(server.db) as mem:
        assert "acme/u9" in set(mem.stores.records.users())
        assert [m.text for m in mem.list("acme/u9")] == ["My sister lives in Chengdu"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param({"namespace": ["langgraph"], "key": "k", "value": {}}, "langgraph", id="reserved"),
        pytest.param({"namespace": ["u1", "a.b"], "key": "k", "value": {}}, "period", id="period"),
        pytest.param({"namespace": [], "key": "k", "value": {}}, "empty", id="empty"),
        pytest.param({"namespace": ["u1"], "key": "k", "value": [1]}, "value", id="not-a-dict"),
        pytest.param({"namespace": ["u1"], "key": "k", "value": {}, "ttl": -1}, "ttl", id="bad-ttl"),
    ],
)
def test_bad_puts_get_a_clear_error(server: Server, body: dict[str, object], message: str) -> None:
    response = httpx.put(f"{server.url}/store/items", json=body, headers={"x-api-key": server.key})
    assert response.status_code == 422
    assert message in response.json()["error"]["message"]


def test_the_docs_rest_example_runs(
    server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_integrations_package import examples

    monkeypatch.setenv("MEMLANE_URL", server.url)
    monkeypatch.setenv("MEMLANE_KEY", server.key)
    exec(compile(examples()[1], "docs/integrations.md REST example", "exec"), {"__name__": "docs"})
    assert "email" in capsys.readouterr().out  # u1 may hold other tests' items too
