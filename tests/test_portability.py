"""Export and restore: one JSON document holds everything about a user and loads into any store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import InvalidInput, Memory


def seeded(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式，工作日早上9点开会。", user_id="u1", session_id="s1", at=T0)
    mem.add("我住在上海", user_id="u1", session_id="s1", at=T0)
    mem.add("我搬到杭州了", user_id="u1", session_id="s2", at=days(3))
    mem.add("本轮预算500元以内", user_id="u1", session_id="s2", at=days(3))


def test_export_then_restore_into_another_store_keeps_everything(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db") as source:
        seeded(source)
        document = json.loads(json.dumps(source.export("u1")))  # through real JSON
    with Memory(tmp_path / "b.db") as target:
        report = target.restore(document)
        assert report.memories == len(document["memories"])
        again = target.export("u1")
    for key in ("memories", "log", "profile", "profile_versions", "history"):
        assert again[key] == document[key], key
    assert [s["id"] for s in again["sessions"]] == [s["id"] for s in document["sessions"]]
    assert again["profile"]["home_city"] == "杭州"
    assert {v["value"] for v in again["profile_versions"] if v["slot"] == "home_city"} == {"上海", "杭州"}


def test_a_restored_memory_is_searchable_and_keeps_its_history(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db") as source:
        seeded(source)
        document = source.export("u1")
    with Memory(tmp_path / "b.db") as target:
        target.restore(document, user_id="u9")
        hits = target.search("美式", user_id="u9", include_log=False, now=days(4))
        assert "美式" in hits[0].memory.text
        shanghai = next(m for m in target.list("u9", status="superseded") if "上海" in m.text)
        assert [r.op for r in target.history(shanghai.id, user_id="u9")] == ["add", "supersede"]


def test_restore_refuses_bad_documents_and_occupied_scopes(mem: Memory) -> None:
    seeded(mem)
    document = mem.export("u1")
    with pytest.raises(InvalidInput, match="already has memories"):
        mem.restore(document)
    with pytest.raises(InvalidInput, match="not a memlane export"):
        mem.restore({"hello": "world"}, user_id="u2")
    with pytest.raises(InvalidInput, match="version"):
        mem.restore({**document, "version": 99}, user_id="u2")
    broken = {**document, "memories": [{**document["memories"][0], "kind": "nonsense"}]}
    with pytest.raises(InvalidInput, match=r"memories\[0\]"):
        mem.restore(broken, user_id="u2")
    assert mem.list("u2", include_log=True) == []
