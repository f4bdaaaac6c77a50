"""Per-user consent settings: memory on or off, and which categories may become long-term memory.
They live in the store, so every process serving the user honours them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Action, ConsentSettings, InvalidInput, Memory

Opener = Callable[[], Memory]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return lambda: Memory(tmp_path / "memlane.db")
    url: str = request.getfixturevalue("pg_url")
    return lambda: Memory(store=url)


@pytest.fixture
def mem(opener: Opener) -> Iterator[Memory]:
    with opener() as memory:
        yield memory


def test_a_user_who_never_chose_has_memory_on_for_every_category(mem: Memory) -> None:
    assert mem.consent("u1") == ConsentSettings("u1")
    assert mem.add("我喜欢喝美式", user_id="u1", at=T0).memories


def test_with_memory_off_nothing_at_all_is_kept(mem: Memory) -> None:
    mem.set_consent("u1", enabled=False, at=T0)
    result = mem.add(
        [{"role": "user", "content": "我叫阿白"}, {"role": "user", "content": "我的手机号是13812345678"}],
        user_id="u1",
        session_id="s1",
        at=T0,
    )
    assert [d.action for d in result.decisions] == [Action.DISCARD, Action.DISCARD]
    assert "13812345678" not in str([d.text for d in result.decisions])
    assert mem.remember("I like tea", user_id="u1", at=T0).action is Action.DISCARD
    assert mem.list("u1", include_log=True) == []
    assert mem.session("u1", "s1", now=T0) is None
    assert mem.profile("u1") == {}
    mem.set_consent("u1", enabled=True, at=days(1))
    assert mem.add("我叫阿白", user_id="u1", at=days(1)).memories


def test_what_was_stored_before_consent_was_withdrawn_stays_until_deleted(mem: Memory) -> None:
    kept = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    mem.set_consent("u1", enabled=False, at=days(1))
    assert [m.id for m in mem.list("u1")] == [kept.id]
    assert mem.search("美式", user_id="u1", now=days(1))


@pytest.mark.parametrize(
    ("allowed", "kept", "refused"),
    [
        pytest.param(["preference"], ["我喜欢喝美式"], ["name", "location"], id="preferences-only"),
        pytest.param(["name", "location"], ["我叫阿白", "我住在上海"], ["preference"], id="identity-only"),
    ],
)
def test_only_consented_categories_become_long_term_memory(
    mem: Memory, allowed: list[str], kept: list[str], refused: list[str]
) -> None:
    mem.set_consent("u1", categories=allowed, at=T0)
    result = mem.add("我叫阿白，我住在上海，我喜欢喝美式", user_id="u1", at=T0)
    assert sorted(m.text for m in result.memories) == sorted(kept)
    reasons = [d.reason for d in result.decisions if d.memory is None]
    assert sorted(reasons) == sorted(f"用户没有同意记住这类信息（{c}）" for c in refused)


def test_consent_is_kept_in_the_store_for_every_process(opener: Opener) -> None:
    with opener() as first:
        first.set_consent("u1", categories=["preference", "name"], at=T0)
    with opener() as second:
        consent = second.consent("u1")
        assert consent.categories == ("name", "preference")
        assert consent.updated_at == T0
        assert not consent.allows("location")
        assert second.consent("u2").categories is None


@pytest.mark.parametrize(
    "categories",
    [pytest.param(["shoe_size"], id="unknown"), pytest.param("preference", id="one-string")],
)
def test_unknown_categories_are_refused(mem: Memory, categories: object) -> None:
    with pytest.raises(InvalidInput):
        mem.set_consent("u1", categories=categories)  # type: ignore[arg-type]
    assert mem.consent("u1") == ConsentSettings("u1")


def test_changing_consent_is_audited_and_forgetting_the_user_resets_it(mem: Memory) -> None:
    mem.set_consent("u1", enabled=False, at=T0)
    assert mem.audit("u1")[0].op == "consent"
    assert mem.audit("u1")[0].detail == "memory off, every category"
    mem.forget("u1", all=True)
    assert mem.consent("u1").enabled


def test_consent_travels_with_an_export(mem: Memory, tmp_path: Path) -> None:
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    mem.set_consent("u1", categories=["preference"], at=days(1))
    document = mem.export("u1")
    assert document["consent"]["categories"] == ["preference"]
    with Memory(tmp_path / "other.db") as target:
        report = target.restore(document)
        assert report.audit == len(document["audit"])
        assert target.consent("u1").categories == ("preference",)
        assert [e.op for e in target.audit("u1")] == ["restore", "consent", "write"]
