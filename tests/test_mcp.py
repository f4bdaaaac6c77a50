"""memlane's MCP server through the SDK's own client: a spawned ``memlane mcp`` over stdio, and
``/mcp`` of a running ``memlane serve`` over Streamable HTTP, both protocol generations (the
initialize handshake, and the per-request 2026 protocol the client's "auto" mode picks)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation

from memlane import Memory
from memlane.cli import main
from memlane.mcp.tools import ALIASES, READ_TOOLS
from processes import MEMLANE, Running, create_key, environment, memlane_process

AGENT = Implementation(name="test-agent", version="1.0")
EVERY_TOOL = {
    "remember",
    "recall",
    "context",
    "list_memories",
    "get_memory",
    "update_memory",
    "forget",
    "forget_all",
    "profile",
    "feedback",
    "export",
    *ALIASES,
}


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def refused(result: CallToolResult) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


async def exercise_every_tool(c: Client) -> dict[str, Any]:
    """Call every tool and alias once, checking what each says; returns what the run learned."""
    tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == EVERY_TOOL
    assert tools["recall"].annotations is not None
    assert tools["recall"].annotations.read_only_hint
    assert tools["forget_all"].annotations is not None
    assert tools["forget_all"].annotations.destructive_hint
    assert tools["remember"].annotations is not None
    assert tools["remember"].annotations.destructive_hint is False
    assert "user_id" not in str([t.input_schema for t in tools.values()])  # no tool takes a user

    # a forged user argument is dropped: the memory is the transport's user's
    said = ok(await c.call_tool("remember", {"text": "我叫阿白，平时喜欢喝美式。", "user_id": "victim"}))
    kept = {d["text"]: d for d in said["decisions"]}
    assert kept["平时喜欢喝美式"]["kept"]
    assert kept["平时喜欢喝美式"]["reason"]
    coffee = kept["平时喜欢喝美式"]["memory_id"]
    mood = ok(await c.call_tool("remember", {"text": "我今天有点烦"}))["decisions"]
    assert [d["kept"] for d in mood] == [False]
    assert "情绪" in mood[0]["reason"]
    ok(await c.call_tool("add_memories", {"text": "I prefer email over phone calls."}))

    hits = ok(await c.call_tool("recall", {"query": "早上喝什么", "limit": 3, "user_id": "victim"}))[
        "results"
    ]
    assert hits[0]["id"] == coffee
    assert hits[0]["why"]
    assert ok(await c.call_tool("search_memory", {"query": "how to contact me"}))["results"]
    block = ok(await c.call_tool("context", {"query": "推荐一杯饮料", "max_tokens": 300}))
    assert "美式" in block["text"]
    assert "<memory-data>" in block["text"]
    assert coffee in block["memory_ids"]
    listed = ok(await c.call_tool("list_memories", {}))["memories"]
    assert coffee in {m["id"] for m in listed}
    assert ok(await c.call_tool("list_memories", {"kind": "profile"}))["memories"]
    detail = ok(await c.call_tool("get_memory", {"memory_id": coffee}))
    assert detail["text"] == "平时喜欢喝美式"
    assert detail["reason"]
    fixed = ok(await c.call_tool("update_memory", {"memory_id": coffee, "text": "平时喜欢喝拿铁"}))
    assert fixed["text"] == "平时喜欢喝拿铁"
    assert ok(await c.call_tool("feedback", {"memory_id": coffee, "verdict": "helpful"}))["id"] == coffee
    profile = ok(await c.call_tool("profile", {}))
    assert profile["profile"]["name"] == "阿白"
    assert profile["profile"]["preferred_channel"] == "email"
    document = ok(await c.call_tool("export", {}))["document"]
    assert "拿铁" in str(document["memories"])
    assert "阿白" in (await c.read_resource("memlane://profile")).contents[0].text  # type: ignore[union-attr]
    prompt = await c.get_prompt("with_memory", {"question": "喝什么好？"})
    assert "拿铁" in prompt.messages[0].content.text  # type: ignore[union-attr]

    assert "no memory" in refused(await c.call_tool("get_memory", {"memory_id": "nope"}))
    assert "exactly one" in refused(await c.call_tool("forget", {}))
    ok(await c.call_tool("remember", {"text": "我不吃辣。"}))
    spicy = ok(await c.call_tool("recall", {"query": "辣", "limit": 1}))["results"][0]["id"]
    assert ok(await c.call_tool("forget", {"memory_ids": [spicy]}))["deleted"] == 1
    assert "no memory" in refused(await c.call_tool("get_memory", {"memory_id": spicy}))
    email = next(
        m["id"] for m in ok(await c.call_tool("list_memories", {}))["memories"] if "email" in m["text"]
    )
    assert ok(await c.call_tool("delete_memories", {"memory_ids": [email]}))["deleted"] == 1
    assert ok(await c.call_tool("forget", {"tags": ["咖啡"]}))["deleted"] >= 1
    assert "no session" in refused(await c.call_tool("forget", {"session_id": "s9"}))
    assert "confirm=true" in refused(await c.call_tool("forget_all", {}))
    assert "confirm=true" in refused(await c.call_tool("delete_all_memories", {}))
    assert ok(await c.call_tool("list_memories", {}))["memories"]  # nothing went without confirm
    return {"coffee": coffee, "document": document}


# -- stdio ------------------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def stdio(home: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=MEMLANE, args=["mcp", *args], env=environment(home))


def test_stdio_serves_every_tool_for_its_one_user_and_ignores_a_forged_user(home: Path) -> None:
    async def run() -> None:
        async with Client(stdio(home, "--user", "alice"), mode="legacy", client_info=AGENT) as c:
            await exercise_every_tool(c)
            assert ok(await c.call_tool("delete_all_memories", {"confirm": True}))["deleted"] > 0
            assert ok(await c.call_tool("list_memories", {}))["memories"] == []

    asyncio.run(run())
    with Memory(home / "memlane.db") as mem:
        assert mem.list("victim", include_log=True) == []  # the forged user got nothing
        callers = {e.caller for e in mem.audit("alice", limit=1000)}
    assert callers <= {"mcp:test-agent", None}  # forget_all keeps no audit of the user: it is all gone


def test_stdio_read_only_offers_only_reads_and_refuses_a_write(home: Path) -> None:
    with Memory(home / "memlane.db") as mem:
        mem.add("我叫阿白，平时喜欢喝美式。", user_id="alice")

    async def run() -> None:
        async with Client(stdio(home, "--user", "alice", "--read-only"), client_info=AGENT) as c:  # 2026 mode
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == READ_TOOLS
            assert ok(await c.call_tool("recall", {"query": "喝什么"}))["results"]
            for tool, args in (("remember", {"text": "我住在杭州"}), ("forget_all", {"confirm": True})):
                assert refused(await c.call_tool(tool, args))

    asyncio.run(run())
    with Memory(home / "memlane.db") as mem:
        assert "杭州" not in str([m.text for m in mem.list("alice", include_log=True)])
        assert mem.list("alice")
        assert {e.caller for e in mem.audit("alice") if e.op == "search"} == {"mcp:test-agent"}


def test_stdio_without_a_user_says_how_to_name_one(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMLANE_MCP_USER", raising=False)
    done = CliRunner().invoke(main, ["--db", str(home / "m.db"), "mcp"])
    assert done.exit_code == 2
    assert "--user" in done.output
    assert "MEMLANE_MCP_USER" in done.output


# -- Streamable HTTP on memlane serve ----------------------------------------------------------------


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Running, dict[str, str]]]:
    home = tmp_path_factory.mktemp("mcp-serve")
    env = environment(home)
    keys = {tenant: create_key(env, tenant) for tenant in ("acme", "globex")}
    keys["acme:carol"] = create_key(env, "acme", user="carol")  # a key of one user: carol
    with memlane_process(["serve"], env, home / "serve.log") as running:
        yield running, keys


@asynccontextmanager
async def over_http(
    url: str, key: str | None, user: str | None, mode: str = "legacy"
) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    if user:
        headers["X-Memlane-User"] = user
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode, client_info=AGENT) as c,
    ):
        yield c


def test_http_serves_every_tool_behind_the_key_and_the_user_header(
    service: tuple[Running, dict[str, str]],
) -> None:
    running, keys = service

    async def run() -> None:
        async with over_http(running.url, keys["acme"], "alice") as c:
            await exercise_every_tool(c)
        async with over_http(running.url, keys["acme"], "victim", mode="auto") as c:  # the 2026 protocol
            assert ok(await c.call_tool("list_memories", {}))["memories"] == []  # the forged user: nothing
        async with over_http(running.url, keys["globex"], "alice", mode="auto") as c:  # another tenant
            assert ok(await c.call_tool("list_memories", {}))["memories"] == []
            assert ok(await c.call_tool("recall", {"query": "喝什么"}))["results"] == []
            listed = await acme_ids(running.url, keys["acme"])
            assert "no memory" in refused(await c.call_tool("forget", {"memory_ids": listed[:1]}))
            assert "no memory" in refused(await c.call_tool("get_memory", {"memory_id": listed[0]}))
        assert await acme_ids(running.url, keys["acme"]) == listed  # nothing of acme's went

    asyncio.run(run())
    audit = httpx.get(
        f"{running.url}/v1/audit",
        params={"user_id": "alice"},
        headers={"Authorization": f"Bearer {keys['acme']}"},
    ).json()["entries"]
    assert {e["op"] for e in audit} >= {"write", "search", "context", "read", "export", "update", "delete"}
    assert {e["caller"] for e in audit} == {"mcp:test-agent"}


async def acme_ids(url: str, key: str) -> list[str]:
    async with over_http(url, key, "alice", mode="auto") as c:
        return [m["id"] for m in ok(await c.call_tool("list_memories", {}))["memories"]]


def initialize(url: str, headers: dict[str, str]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    return httpx.post(f"{url}/mcp", json=body, headers={**accept, **headers}, timeout=30)


def test_http_refuses_a_missing_or_bad_key_and_a_missing_user(
    service: tuple[Running, dict[str, str]],
) -> None:
    running, keys = service
    cases = {
        "no key": ({"X-Memlane-User": "alice"}, 401, "missing API key"),
        "bad key": (
            {"Authorization": "Bearer mlk_000000000000_forged", "X-Memlane-User": "alice"},
            401,
            "unknown",
        ),
        "not a key": ({"Authorization": "Basic YWxpY2U6", "X-Memlane-User": "alice"}, 401, "missing API key"),
        "no user": ({"Authorization": f"Bearer {keys['acme']}"}, 400, "X-Memlane-User"),
    }
    for name, (headers, status, message) in cases.items():
        response = initialize(running.url, headers)
        assert response.status_code == status, name
        assert message in response.json()["error"]["message"], name
    assert initialize(running.url, {"X-Memlane-User": "alice"}).headers["www-authenticate"] == "Bearer"

    async def with_sdk() -> None:
        with pytest.raises(Exception):  # noqa: B017, PT011  (the SDK's error for a 401 varies by mode)
            async with over_http(running.url, None, "alice") as c:
                await c.list_tools()

    asyncio.run(with_sdk())


def test_a_user_scoped_key_reaches_its_user_only_whatever_a_header_or_argument_says(
    service: tuple[Running, dict[str, str]],
) -> None:
    running, keys = service
    carol = keys["acme:carol"]

    async def run() -> None:
        async with over_http(running.url, keys["acme"], "dave", mode="auto") as c:  # the tenant's key
            said = ok(await c.call_tool("remember", {"text": "I live in Hangzhou"}))
            dave = said["decisions"][0]["memory_id"]
        async with over_http(running.url, carol, None) as c:  # no header: the key names its user
            ok(await c.call_tool("remember", {"text": "I prefer email to phone calls", "user_id": "dave"}))
            mine = [m["id"] for m in ok(await c.call_tool("list_memories", {}))["memories"]]
            assert len(mine) == 1
            assert "no memory" in refused(await c.call_tool("get_memory", {"memory_id": dave}))
            assert "no memory" in refused(await c.call_tool("forget", {"memory_ids": [dave]}))
            assert ok(await c.call_tool("recall", {"query": "where does the user live?"}))["results"] == []
        async with over_http(running.url, carol, "carol", mode="auto") as c:  # the header agrees: fine
            assert [m["id"] for m in ok(await c.call_tool("list_memories", {}))["memories"]] == mine
        async with over_http(running.url, keys["acme"], "dave", mode="auto") as c:
            assert [m["id"] for m in ok(await c.call_tool("list_memories", {}))["memories"]] == [dave]

    asyncio.run(run())
    forged = initialize(running.url, {"Authorization": f"Bearer {carol}", "X-Memlane-User": "dave"})
    assert forged.status_code == 403
    assert "scoped to one user" in forged.json()["error"]["message"]
    auth = {"Authorization": f"Bearer {carol}"}
    rest = httpx.get(f"{running.url}/v1/memories", params={"user_id": "carol"}, headers=auth)
    assert rest.status_code == 403  # the REST routes act for any user of the tenant


def test_a_session_opened_with_one_key_is_unknown_to_another(service: tuple[Running, dict[str, str]]) -> None:
    running, keys = service
    opened = initialize(running.url, {"Authorization": f"Bearer {keys['acme']}", "X-Memlane-User": "alice"})
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    headers = {
        "Accept": "application/json, text/event-stream",
        "Mcp-Session-Id": session,
        "Mcp-Protocol-Version": "2025-06-18",
    }
    for other in (
        {"Authorization": f"Bearer {keys['globex']}", "X-Memlane-User": "alice"},  # another tenant's key
        {"Authorization": f"Bearer {keys['acme']}", "X-Memlane-User": "bob"},  # the same key, another user
    ):
        response = httpx.post(f"{running.url}/mcp", json=call, headers={**headers, **other}, timeout=30)
        assert response.status_code == 404


def test_http_read_only_offers_only_reads(tmp_path: Path) -> None:
    env = environment(tmp_path, MEMLANE_MCP_READ_ONLY="true")
    key = create_key(env, "acme")
    with memlane_process(["serve"], env, tmp_path / "serve.log") as running:

        async def run() -> None:
            async with over_http(running.url, key, "alice") as c:
                assert {t.name for t in (await c.list_tools()).tools} == READ_TOOLS
                assert refused(await c.call_tool("add_memories", {"text": "我住在杭州"}))
                assert ok(await c.call_tool("list_memories", {}))["memories"] == []

        asyncio.run(run())
