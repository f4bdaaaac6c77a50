"""Corrections, deletion, forgetting, export and expiry, with a controlled clock."""

from __future__ import annotations

from pathlib import Path

from conftest import T0, days
from memlane import Memory, Status


def test_update_keeps_the_old_text_in_history(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    updated = mem.update(item.id, "我喜欢喝拿铁", at=days(1), user_id=item.user_id)
    assert updated.text == "我喜欢喝拿铁"
    record = mem.history(item.id, user_id=item.user_id)[-1]
    assert (record.op, record.before, record.after, record.actor.value) == (
        "update",
        "我喜欢喝美式",
        "我喜欢喝拿铁",
        "user",
    )


def test_delete_leaves_no_copy_of_the_text(db_path: Path) -> None:
    with Memory(db_path) as mem:
        item = mem.add("我特别喜欢喝桂花乌龙", user_id="u1", session_id="s1", at=T0).memories[0]
        mem.delete(item.id, user_id=item.user_id)
        assert mem.search("桂花乌龙", user_id="u1") == []
        assert mem.list("u1", include_log=True) == []
        history = mem.history(item.id, user_id=item.user_id)
        assert history[-1].op == "delete"
        assert all(r.before is None and r.after is None for r in history)


def test_deleting_a_profile_memory_removes_its_slot_value(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", at=T0)
    later = mem.add("我住在杭州", user_id="u1", at=days(5)).memories[0]
    assert mem.profile("u1")["home_city"] == "杭州"
    mem.delete(later.id, user_id=later.user_id)
    assert mem.profile("u1").get("home_city") != "杭州"


def test_forget_by_tag_and_forget_everything(mem: Memory) -> None:
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    mem.add("我住在上海", user_id="u1", at=T0)
    tags = {t for m in mem.list("u1") for t in m.tags}
    coffee = next(t for t in tags if t in {"咖啡", "coffee", "饮品", "drink"})
    assert mem.forget("u1", tags=[coffee]) >= 1
    assert all("美式" not in m.text for m in mem.list("u1", include_log=True))
    assert mem.list("u1")
    mem.forget("u1", all=True)
    assert mem.list("u1", include_log=True) == []
    assert mem.profile("u1") == {}
    assert mem.export("u1")["history"] == []


def test_export_holds_everything_about_the_user(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    mem.add("I like tea", user_id="u2", at=T0)
    doc = mem.export("u1")
    assert doc["user_id"] == "u1"
    assert doc["profile"] == {"name": "阿白"}
    assert any("美式" in m["text"] for m in doc["memories"])
    assert doc["log"]
    assert doc["sessions"][0]["id"] == "s1"
    assert all("tea" not in m["text"] for m in doc["memories"])
    import json

    json.dumps(doc)


def test_maintain_expires_what_is_due_and_drops_old_log_turns(mem: Memory) -> None:
    mem.add("下个月去日本旅游", user_id="u1", session_id="s1", at=T0)
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    report = mem.maintain(now=days(10))
    assert (report.expired, report.log_dropped, report.sessions_ended) == (0, 0, 1)
    report = mem.maintain(now=days(400))
    assert report.expired == 1
    assert report.log_dropped == 2
    active = {m.text for m in mem.list("u1", kinds=["semantic", "episodic"])}
    assert active == {"我喜欢喝美式"}
    expired = mem.list("u1", status="expired")
    assert [m.status for m in expired] == [Status.EXPIRED]
    assert mem.history(expired[0].id, user_id="u1")[-1].op == "expire"
    assert mem.search("日本", user_id="u1", kinds=["episodic"], now=days(400)) == []
