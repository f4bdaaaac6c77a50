"""Sessions on Redis: JSON under a TTL, expiry on the caller's clock, per-user keys within one key
prefix, and the degraded mode in which long-term memory carries on while Redis is down.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta

import pytest
import redis

import stores
from conftest import T0, days
from memlane import ConfigurationError, Memory, Session, StoreUnavailable
from memlane.domain import Turn
from memlane.store.codec import scope_token
from memlane.store.redis import RedisSessionStore, RedisURL


def session(user: str, sid: str, at: float = 0.0, hours: float = 24.0) -> Session:
    start = days(at)
    return Session(
        id=sid,
        user_id=user,
        created_at=start,
        updated_at=start,
        expires_at=start + timedelta(hours=hours),
        summary="喜欢喝美式",
        slots={"budget": "500元以内"},
        notes=["在地铁上"],
        turns=[Turn(role="user", content="本轮预算500元以内", at=start)],
    )


@pytest.fixture
def sessions(redis_url: str) -> Iterator[RedisSessionStore]:
    s = RedisSessionStore(redis_url)
    yield s
    s.close()


@pytest.fixture
def raw(redis_server: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server, decode_responses=True)
    yield client
    client.close()


def test_a_session_is_json_under_a_hash_tagged_key_with_its_idle_window_as_ttl(
    sessions: RedisSessionStore, raw: redis.Redis
) -> None:
    saved = session("u1", "s1", hours=2)
    sessions.save_session(saved)
    key = f"{sessions.prefix}{{{scope_token('u1')}}}:session:s1"
    assert 0 < int(raw.pttl(key)) <= 2 * 3600 * 1000  # type: ignore[arg-type]
    assert '"budget": "500元以内"' in str(raw.get(key))
    assert sessions.get_session("u1", "s1", now=days(0.01)) == saved


def test_expiry_follows_the_callers_clock(sessions: RedisSessionStore) -> None:
    sessions.save_session(session("u1", "old", at=0))
    sessions.save_session(session("u1", "new", at=2))
    assert sessions.get_session("u1", "old", now=days(1.5)) is None
    assert [s.id for s in sessions.list_sessions("u1", now=days(2.5))] == ["new"]
    assert [s.id for s in sessions.list_sessions("u1", now=None)] == ["new", "old"]


def test_purge_drops_what_expired_and_counts_it(sessions: RedisSessionStore, raw: redis.Redis) -> None:
    sessions.save_session(session("u1", "old", at=0))
    sessions.save_session(session("u2", "old", at=0))
    sessions.save_session(session("u1", "new", at=5))
    assert sessions.purge_sessions(now=days(3)) == 2
    assert [s.id for s in sessions.list_sessions("u1", now=None)] == ["new"]
    assert sessions.list_sessions("u2", now=None) == []
    assert sessions.purge_sessions(now=days(3)) == 0
    assert len(list(raw.scan_iter(match=f"{sessions.prefix}*"))) == 2  # u1's session and its index


def test_sessions_belong_to_one_user(sessions: RedisSessionStore) -> None:
    sessions.save_session(session("u1", "s1"))
    sessions.save_session(session("u2", "s1"))
    assert sessions.get_session("u3", "s1", now=T0) is None
    assert sessions.delete_sessions("u1") == 1
    assert sessions.get_session("u1", "s1", now=T0) is None
    assert sessions.get_session("u2", "s1", now=T0) is not None
    assert sessions.delete_session("u2", "s1") is True
    assert sessions.delete_session("u2", "s1") is False


def test_another_prefix_is_never_touched(redis_server: str, raw: redis.Redis) -> None:
    mine = RedisSessionStore(stores.with_prefix(redis_server, "memlane-test-mine:"))
    theirs = RedisSessionStore(stores.with_prefix(redis_server, "memlane-test-theirs:"))
    try:
        mine.save_session(session("u1", "s1"))
        theirs.save_session(session("u1", "s1"))
        assert mine.purge_sessions(now=days(30)) == 1
        assert mine.delete_sessions("u1") == 0
        assert theirs.get_session("u1", "s1", now=T0) is not None
    finally:
        for sessions in (mine, theirs):
            stores.remove_prefix(redis_server, sessions.prefix)
            sessions.close()


@pytest.mark.parametrize(
    ("url", "address", "prefix"),
    [
        pytest.param("redis://h:6379/0", "redis://h:6379/0", "memlane:", id="default"),
        pytest.param("redis://h/1?key_prefix=app1:", "redis://h/1", "app1:", id="prefix"),
        pytest.param("rediss://h/0?ssl=1&key_prefix=a:", "rediss://h/0?ssl=1", "a:", id="other-options"),
    ],
)
def test_the_key_prefix_is_read_off_the_url(url: str, address: str, prefix: str) -> None:
    parsed = RedisURL.parse(url)
    assert (parsed.address, parsed.prefix) == (address, prefix)


def test_a_redis_url_is_shown_without_its_password() -> None:
    assert RedisURL.parse("redis://u:s3cret@h:6379/0?key_prefix=a:").shown == "redis://h:6379/0"
    assert RedisURL.parse("redis://h/0", prefix="mine:").prefix == "mine:"


def test_a_prefix_with_braces_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="braces"):
        RedisSessionStore("redis://127.0.0.1:6379/0?key_prefix={x}:")


def test_while_redis_is_down_long_term_memory_keeps_working(
    pg_url: str, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    down = f"redis://memlane:s3cret@127.0.0.1:{stores.closed_port()}/0"
    logs = caplog.at_level(logging.WARNING, logger="memlane.store.redis")
    with logs, Memory(store=pg_url, sessions=down) as mem:
        result = mem.add("我叫阿白，平时喜欢喝美式", user_id="u1", session_id="s1", at=T0)
        mem.add("我住在上海", user_id="u1", session_id="s1", at=days(0.01))
        assert len(result.memories) == 2
        assert mem.session("u1", "s1", now=T0) is None
        assert any("美式" in h.memory.text for h in mem.search("咖啡", user_id="u1", now=days(1)))
        assert "阿白" in mem.context("推荐饮料", user_id="u1", session_id="s1", now=days(1)).text
        with pytest.raises(StoreUnavailable, match="Redis"):
            mem.export("u1")  # an export without the sessions would not be everything
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1  # once per outage, not once per call
    assert "unreachable" in warnings[0]
    assert "s3cret" not in warnings[0]
    # nothing stored while Redis was down is lost: the same store, with Redis back, has it all
    with Memory(store=pg_url, sessions=redis_url) as mem:
        assert mem.profile("u1") == {"name": "阿白", "home_city": "上海"}
        assert {m.text for m in mem.list("u1")} >= {"平时喜欢喝美式", "我住在上海"}
    with Memory(store=pg_url, sessions=down) as mem, pytest.raises(StoreUnavailable, match="Redis"):
        mem.forget("u1", all=True)  # the sessions could not be deleted: "forget" must not report success
