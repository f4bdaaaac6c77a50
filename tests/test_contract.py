"""One contract for every store: the whole public API of :class:`Memory`, run on each backend.

The ``mem`` fixture here is parametrized over the embedded SQLite file, PostgreSQL + pgvector keeping
sessions in its own table, and PostgreSQL + pgvector with sessions in Redis; both server backends are
opened through their URLs, as an application would. The servers are real (see ``tests/stores.py``),
and so is the bundled embedder.
"""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Action, InvalidInput, Kind, Memory, NotFound, Status
from memlane.domain import MemoryItem
from memlane.read.search import _Others
from memlane.text.tokens import estimate_tokens
from memlane.vocabulary import MemoryQuery

INTRO_ZH = "我叫阿白，平时喜欢喝美式，工作日早上9点开会。"


@pytest.fixture
def mem(open_memory: Callable[[], Memory]) -> Iterator[Memory]:
    with open_memory() as memory:
        yield memory


def texts(mem: Memory, user_id: str = "u1", **kwargs: object) -> list[str]:
    return [m.text for m in mem.list(user_id, **kwargs)]  # type: ignore[arg-type]


# -- add, remember, profile, session --------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "name", "query", "drink", "meeting"),
    [
        pytest.param(
            "我叫阿白，平时喜欢喝美式，工作日早上9点开会。", "阿白", "推荐早上的饮料", "美式", "开", id="zh"
        ),
        pytest.param(
            "My name is Alex. I love americanos, and I have a meeting every weekday at 9am.",
            "Alex",
            "suggest a drink for tomorrow morning",
            "americano",
            "meeting",
            id="en",
        ),
    ],
)
def test_facts_are_remembered_and_recalled_in_a_new_session(
    mem: Memory, message: str, name: str, query: str, drink: str, meeting: str
) -> None:
    mem.add(message, user_id="u1", session_id="s1", at=T0)
    assert mem.profile("u1")["name"] == name
    hits = mem.search(query, user_id="u1", limit=5, now=days(1))
    assert any(drink in h.memory.text.lower() for h in hits[:3])
    assert any(meeting in h.memory.text.lower() for h in hits)


def test_a_passing_mood_is_not_remembered(mem: Memory) -> None:
    result = mem.add("我今天有点烦", user_id="u1", session_id="s1", at=T0)
    assert [d.action for d in result.decisions] == [Action.DISCARD]
    assert mem.list("u1") == []


def test_session_holds_one_off_context_and_slots_until_it_expires(mem: Memory) -> None:
    mem.add("我现在在地铁上", user_id="u1", session_id="s1", at=T0)
    result = mem.add("本轮预算500元以内", user_id="u1", session_id="s1", at=days(0.01))
    assert [d.action for d in result.decisions] == [Action.SESSION]
    assert mem.list("u1") == []
    session = mem.session("u1", "s1", now=days(0.01))
    assert session is not None
    assert session.notes
    assert "500" in str(session.slots["budget"])
    assert [t.content for t in session.turns] == ["我现在在地铁上", "本轮预算500元以内"]
    assert mem.session("u2", "s1", now=days(0.01)) is None
    assert mem.session("u1", "s1", now=days(3)) is None  # past its TTL


def test_a_turn_can_be_undone_and_a_session_cleared_keeping_long_term_memory(mem: Memory) -> None:
    mem.add("I prefer email to phone calls.", user_id="u1", session_id="s1", at=T0)
    mem.add("Noted.", user_id="u1", session_id="s1", role="assistant", at=days(0.01))
    turn = mem.pop_turn("u1", "s1", now=days(0.01))
    assert turn is not None
    assert (turn.role, turn.content) == ("assistant", "Noted.")
    session = mem.session("u1", "s1", now=days(0.01))
    assert session is not None
    assert [t.content for t in session.turns] == ["I prefer email to phone calls."]
    assert mem.pop_turn("u2", "s1", now=days(0.01)) is None
    assert mem.clear_session("u1", "s1") is True
    assert mem.session("u1", "s1", now=days(0.01)) is None
    assert mem.pop_turn("u1", "s1", now=days(0.01)) is None
    assert mem.profile("u1")["preferred_channel"] == "email"


def test_the_same_fact_twice_merges_and_strengthens(mem: Memory) -> None:
    first = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    second = mem.add("我喜欢喝美式。", user_id="u1", at=days(3))
    assert second.memories[0].id == first.id
    assert "merged" in second.decisions[0].outcome
    merged = mem.get(first.id, user_id=first.user_id)
    assert merged.importance > first.importance
    assert len(merged.provenance) == 2
    assert texts(mem) == ["我喜欢喝美式"]


@pytest.mark.parametrize(
    ("before", "after", "new", "query"),
    [
        pytest.param("我喜欢美式", "我最近开始喝冷萃了，不喝美式了", "冷萃", "我平时喝什么咖啡", id="zh"),
        pytest.param(
            "I like americano",
            "I switched to cold brew, I don't drink americano anymore",
            "cold brew",
            "what coffee do I drink",
            id="en",
        ),
    ],
)
def test_a_changed_preference_supersedes_the_old_one_and_keeps_history(
    mem: Memory, before: str, after: str, new: str, query: str
) -> None:
    first = mem.add(before, user_id="u1", at=T0).memories[0]
    mem.add(after, user_id="u1", at=days(30))
    old = mem.get(first.id, user_id=first.user_id)
    assert old.status is Status.SUPERSEDED
    assert old.superseded_by is not None
    assert mem.get(old.superseded_by, user_id="u1").supersedes == first.id
    hits = mem.search(query, user_id="u1", limit=3, include_log=False, now=days(31))
    assert any(new in h.memory.text.lower() for h in hits[:2])
    assert all(h.memory.id != first.id for h in hits)
    assert [r.op for r in mem.history(first.id, user_id=first.user_id)] == ["add", "supersede"]


def test_remember_writes_without_extraction_and_deduplicates(mem: Memory) -> None:
    magic = "去年圣诞节在公司年会上表演了魔术"
    first = mem.remember(magic, user_id="u1", kind="episodic", at=T0, tags=["magic"])
    assert first.memory is not None
    assert first.memory.kind is Kind.EPISODIC
    assert mem.get(first.memory.id, user_id=first.memory.user_id).valid_from == T0
    again = mem.remember(magic, user_id="u1", kind="episodic", at=T0)
    assert again.memory is not None
    assert again.memory.id == first.memory.id
    assert "magic" in mem.get(first.memory.id, user_id=first.memory.user_id).tags
    with pytest.raises(InvalidInput):
        mem.remember("x", user_id="u1", kind="dream")


def test_profile_history_keeps_every_version(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", at=T0)
    mem.add("我住在杭州", user_id="u1", at=days(5))
    assert mem.profile("u1")["home_city"] == "杭州"
    versions = mem.profile_history("u1", "home_city")
    assert [(v.value, v.version, v.current) for v in versions] == [("上海", 1, False), ("杭州", 2, True)]
    assert [r.op for r in mem.history("profile:home_city", user_id="u1")] == ["add", "update"]
    assert mem.profile("u2") == {}


# -- search and context ----------------------------------------------------------------------------


def seed(mem: Memory) -> None:
    mem.add(INTRO_ZH, user_id="u1", session_id="s1", at=T0)
    mem.add("客服回复简洁一点，优先邮件联系，周末别给我打电话。", user_id="u1", session_id="s1", at=T0)
    mem.add("上周买了一台iPhone 16，物流太慢了，到现在还没到", user_id="u1", session_id="s1", at=days(2))


def test_search_explains_ranks_filters_and_counts_recalls(mem: Memory) -> None:
    seed(mem)
    hits = mem.search("美式咖啡", user_id="u1", now=days(3))
    top = hits[0]
    assert "美式" in top.memory.text
    assert "美式" in top.explain["matched_terms"]
    assert top.explain["vector"] > 0
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert mem.get(top.memory.id, user_id=top.memory.user_id).access_count == 1
    assert mem.get(top.memory.id, user_id=top.memory.user_id).last_accessed_at == days(3)

    events = mem.search("iPhone 物流", user_id="u1", kinds=["episodic"], now=days(3))
    assert events
    assert {h.memory.kind for h in events} == {Kind.EPISODIC}
    assert mem.search("iPhone 物流", user_id="u1", kinds=["episodic"], until=T0 - timedelta(days=30)) == []
    assert mem.search("美式", user_id="u1", tags=["no-such-tag"], now=days(3)) == []
    contact = mem.search("how should we contact the user", user_id="u1", include_log=False, now=days(3))
    assert any("邮件" in h.memory.text for h in contact[:3])
    assert all(h.memory.kind is not Kind.LOG for h in contact)


def test_a_question_naming_a_period_finds_what_was_said_then(mem: Memory) -> None:
    for month, place in enumerate(["西湖", "黄山", "外滩", "鼓浪屿", "故宫"]):
        mem.add(f"周末和朋友去{place}玩了一天", user_id="u1", session_id=f"s{month}", at=days(30.5 * month))
    for question in ("我2025年6月去哪儿玩了？", "Where did I go in June 2025?"):
        top = mem.search(question, user_id="u1", now=days(200))[0]
        assert "鼓浪屿" in top.memory.text, question
        assert top.explain["time_rank"] == 1


def test_speakers_are_known_from_their_turns_and_leave_with_them(mem: Memory) -> None:
    said = [("Alice", "I went kayaking on the lake"), ("Bob", "Nice, Alice!"), ("阿白", "我也想去")]
    for i, (name, text) in enumerate(said):
        mem.add([{"role": "user", "content": text, "name": name}], user_id="u1", session_id="s1", at=days(i))
    mem.add("no name on this one", user_id="u1", session_id="s2", at=days(4))
    assert mem.stores.records.speakers("u1") == ["Alice", "Bob", "阿白"]
    assert mem.stores.records.speakers("u2") == []
    bob = mem.search("Nice", user_id="u1", tags=["speaker:Bob"], now=days(5))
    assert [h.memory.text for h in bob] == ["Bob: Nice, Alice!"]
    mem.forget_session("u1", "s1", at=days(5))
    assert mem.stores.records.speakers("u1") == []


def two_speakers_on_weekends(mem: Memory) -> None:
    """Bob and Ann, taking turns in one conversation of user u1, an hour apart."""
    said = [
        ("Bob", "My favourite thing on weekends is hiking in the mountains"),
        ("Ann", "For me it's trail running every saturday morning"),
        ("Bob", "I also paint landscapes sometimes"),
        ("Ann", "Cool, my sister paints too"),
    ]
    for i, (name, text) in enumerate(said):
        turn = [{"role": "user", "content": text, "name": name}]
        mem.add(turn, user_id="u1", session_id="s1", at=days(i / 24))


def test_what_each_speaker_said_is_tagged_theirs(mem: Memory) -> None:
    two_speakers_on_weekends(mem)
    # what each said is theirs, memories as well as turns
    assert {t for m in mem.list("u1") for t in m.tags if t.startswith("speaker:")} == {
        "speaker:Ann",
        "speaker:Bob",
    }
    bob = mem.search("weekends", user_id="u1", tags=["speaker:Bob"], limit=5, now=days(1))
    assert {h.memory.kind for h in bob} == {Kind.LOG, Kind.SEMANTIC}


def test_a_question_about_one_speaker_ranks_what_they_said_first(mem: Memory) -> None:
    two_speakers_on_weekends(mem)
    hits = mem.search("What does Bob do on saturdays?", user_id="u1", limit=3, now=days(1))
    # Ann's "every saturday" matches the words best, but the question is about Bob
    assert ["speaker:Bob" in h.memory.tags for h in hits] == [True, True, False]


def test_what_the_named_speaker_said_too_is_not_ranked_lower() -> None:
    asked = _Others.of(["Ann", "Bob", "Cy"], {"Ann"})
    assert asked is not None
    said = {
        "Bob alone": ["speaker:Bob"],
        "Bob and Ann": ["speaker:Bob", "speaker:Ann"],
        "Ann alone": ["speaker:Ann"],
        "nobody named": [],
    }
    lowered = {
        who
        for who, tags in said.items()
        if asked.said_only(MemoryItem(user_id="u1", text="x", kind=Kind.LOG, tags=tags))
    }
    assert lowered == {"Bob alone"}
    assert _Others.of(["Ann", "Bob"], set()) is None  # a question that names no speaker lowers nothing


def test_context_block_fits_the_budget_with_profile_session_and_memories(mem: Memory) -> None:
    seed(mem)
    mem.add("本轮预算500元以内", user_id="u1", session_id="s2", at=days(3))
    block = mem.context("推荐一杯早上的饮料", user_id="u1", session_id="s2", max_tokens=300, now=days(3))
    assert block.tokens <= 300
    assert estimate_tokens(block.text) <= 300
    assert block.text.count("<memory-data>") == 1
    assert block.text.rstrip().endswith("</memory-data>")
    assert "阿白" in block.text
    assert "500" in block.text
    assert any("美式" in m.text for m in block.memories)


@pytest.mark.parametrize(
    ("said", "query", "line"),
    [
        (
            "以后这种英文的东西你都给我弄成表格对照",
            "量子纠缠是什么意思",
            "回答方式：“以后这种英文的东西你都给我弄成表格对照”",
        ),
        ("please always answer in bullet points", "what's the boiling point of mercury", "How to answer:"),
    ],
)
def test_a_way_to_answer_with_no_slot_is_in_every_block_once(
    mem: Memory, said: str, query: str, line: str
) -> None:
    # how the user wants to be answered holds for every answer, whatever is asked: beside the profile,
    # not among the memory lines a query may or may not reach
    mem.add(said, user_id="u1", session_id="s1", at=T0)
    block = mem.context(query, user_id="u1", session_id="s2", now=days(2))
    assert line in block.text
    assert block.text.count(said) == 1
    assert any(m.text == said for m in block.memories)


# -- list, get, history, update, delete, forget, export -----------------------------------------


def test_list_pages_newest_first_and_filters_by_kind_and_status(mem: Memory) -> None:
    for i, drink in enumerate(["美式", "拿铁", "抹茶", "乌龙茶"]):
        mem.remember(f"我喜欢喝{drink}", user_id="u1", at=days(i))
    mem.remember("上个月去了一趟杭州", user_id="u1", kind="episodic", at=days(10))
    newest_first = ["我喜欢喝乌龙茶", "我喜欢喝抹茶", "我喜欢喝拿铁", "我喜欢喝美式"]
    assert texts(mem, kinds=["semantic"]) == newest_first
    assert texts(mem, kinds=["semantic"], limit=2, offset=1) == newest_first[1:3]
    assert [t[:9] for t in texts(mem, kinds=["episodic"])] == ["上个月去了一趟杭州"]
    assert texts(mem, status="superseded") == []
    mem.add("你好，我喜欢喝美式", user_id="u1", at=days(11))
    assert any(m.kind is Kind.LOG for m in mem.list("u1", include_log=True))
    assert all(m.kind is not Kind.LOG for m in mem.list("u1"))


def test_update_replaces_the_text_everywhere_and_keeps_the_old_one_in_history(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    updated = mem.update(item.id, "我喜欢喝绿茶", at=days(1), user_id=item.user_id)
    assert updated.text == "我喜欢喝绿茶"
    assert mem.get(item.id, user_id=item.user_id).text == "我喜欢喝绿茶"
    record = mem.history(item.id, user_id=item.user_id)[-1]
    assert (record.op, record.before, record.after, record.actor.value) == (
        "update",
        "我喜欢喝美式",
        "我喜欢喝绿茶",
        "user",
    )
    hits = mem.search("绿茶", user_id="u1", include_log=False, now=days(1))
    assert hits[0].memory.id == item.id
    assert "绿茶" in hits[0].explain["matched_terms"]


def test_delete_removes_a_memory_from_every_index_and_leaves_a_tombstone(mem: Memory) -> None:
    item = mem.add("我特别喜欢喝桂花乌龙", user_id="u1", session_id="s1", at=T0).memories[0]
    assert mem.search("桂花乌龙", user_id="u1", now=T0)
    mem.delete(item.id, at=days(1), user_id=item.user_id)
    assert mem.search("桂花乌龙", user_id="u1", now=days(1)) == []
    assert mem.list("u1", include_log=True) == []
    with pytest.raises(NotFound):
        mem.get(item.id, user_id=item.user_id)
    history = mem.history(item.id, user_id=item.user_id)
    assert history[-1].op == "delete"
    assert all(r.before is None and r.after is None for r in history)
    with pytest.raises(NotFound):
        mem.delete(item.id, user_id=item.user_id)


def test_forget_by_tag_then_everything(mem: Memory) -> None:
    mem.add("我喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    mem.add("我住在上海", user_id="u1", at=T0)
    mem.add("I like tea", user_id="u2", session_id="s1", at=T0)
    coffee = next(t for m in mem.list("u1") for t in m.tags if t in {"咖啡", "coffee", "饮品", "drink"})
    assert mem.forget("u1", tags=[coffee], at=days(1)) >= 1
    assert all("美式" not in m.text for m in mem.list("u1", include_log=True))
    assert texts(mem) == ["我住在上海"]
    with pytest.raises(InvalidInput):
        mem.forget("u1", tags=[])
    assert mem.forget("u1", all=True) >= 1
    assert mem.list("u1", include_log=True) == []
    assert mem.profile("u1") == {}
    assert mem.session("u1", "s1", now=T0) is None
    assert mem.export("u1")["history"] == []
    assert texts(mem, "u2")  # the other user keeps everything
    assert mem.session("u2", "s1", now=T0) is not None


def test_export_holds_everything_about_the_user_and_nothing_of_others(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    mem.add("I like tea", user_id="u2", session_id="s9", at=T0)
    doc = mem.export("u1")
    assert doc["user_id"] == "u1"
    assert doc["profile"] == {"name": "阿白"}
    assert any("美式" in m["text"] for m in doc["memories"])
    assert doc["log"]
    assert [s["id"] for s in doc["sessions"]] == ["s1"]
    assert doc["history"]
    assert "tea" not in json.dumps(doc, ensure_ascii=False)


def test_an_export_restores_into_the_same_store_exactly(mem: Memory) -> None:
    mem.add(INTRO_ZH, user_id="u1", session_id="s1", at=T0)
    mem.add("我住在上海", user_id="u1", session_id="s1", at=T0)
    mem.add("我搬到杭州了", user_id="u1", session_id="s2", at=days(3))
    document = json.loads(json.dumps(mem.export("u1")))  # through real JSON
    mem.forget("u1", all=True)
    report = mem.restore(document)
    assert report.memories == len(document["memories"])
    again = mem.export("u1")
    for key in ("memories", "log", "profile", "profile_versions", "history"):
        assert again[key] == document[key], key
    assert [s["id"] for s in again["sessions"]] == [s["id"] for s in document["sessions"]]
    with pytest.raises(InvalidInput, match="already has memories"):
        mem.restore(document)


def test_another_users_memory_is_not_found(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="alice", at=T0).memories[0]
    for call in (
        lambda: mem.get(item.id, user_id="bob"),
        lambda: mem.history(item.id, user_id="bob"),
        lambda: mem.update(item.id, "我喜欢喝茶", user_id="bob"),
        lambda: mem.delete(item.id, user_id="bob"),
        lambda: mem.feedback(item.id, "helpful", user_id="bob"),
    ):
        with pytest.raises(NotFound):
            call()
    assert mem.search("美式", user_id="bob", now=T0) == []
    assert mem.list("bob", include_log=True) == []
    assert mem.forget("bob", all=True) == 0
    assert (
        mem.get(item.id, user_id=item.user_id).text == "我喜欢喝美式"
    )  # a single-tenant caller may look up by id alone


# -- lifecycle --------------------------------------------------------------------------------------


def test_maintain_ends_sessions_expires_memories_and_drops_old_log_turns(mem: Memory) -> None:
    mem.add("下个月去日本旅游", user_id="u1", session_id="s1", at=T0)
    mem.add("我喜欢喝美式", user_id="u1", at=T0)
    report = mem.maintain(now=days(10))
    assert (report.expired, report.log_dropped, report.sessions_ended) == (0, 0, 1)
    assert mem.session("u1", "s1", now=days(10)) is None
    assert mem.list("u1", kinds=["summary"])
    report = mem.maintain(now=days(400))
    assert report.expired == 1
    assert report.log_dropped == 2
    assert {m.text for m in mem.list("u1", kinds=["semantic", "episodic"])} == {"我喜欢喝美式"}
    expired = mem.list("u1", status="expired")
    assert [m.status for m in expired] == [Status.EXPIRED]
    assert mem.history(expired[0].id, user_id="u1")[-1].op == "expire"


def test_flush_returns_once_every_turn_has_its_vector(mem: Memory) -> None:
    for user in ("u1", "u2"):
        mem.add("We finally adopted a puppy from the shelter last weekend.", user_id=user, at=T0)
    mem.flush("u1")
    assert mem.stores.records.count("u1", MemoryQuery(kinds=(Kind.LOG,), embedded=True)) == 1
    mem.flush()
    assert mem.stores.records.count("u2", MemoryQuery(kinds=(Kind.LOG,), embedded=False)) == 0
    with pytest.raises(InvalidInput):
        mem.flush("")


def test_end_session_writes_its_summary(mem: Memory) -> None:
    first = mem.add("我喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    second = mem.add("本轮预算500元以内", user_id="u1", session_id="s1", at=days(0.01))
    summary = next(m for m in mem.end_session("u1", "s1", at=days(0.02)) if m.kind is Kind.SUMMARY)
    assert "美式" in summary.text
    assert set(summary.provenance) == {*first.message_ids, *second.message_ids}
    assert mem.session("u1", "s1", now=days(0.02)) is None
    with pytest.raises(NotFound):
        mem.end_session("u1", "s1")


def test_feedback_strengthens_expires_or_supersedes_and_stale_preferences_surface(mem: Memory) -> None:
    result = mem.add("我住在上海，我喜欢喝美式，我有一只猫", user_id="u1", at=T0)
    city, coffee, cat = (d.memory for d in result.decisions)
    assert city is not None
    assert coffee is not None
    assert cat is not None
    helped = mem.feedback(coffee.id, "helpful", at=days(1), user_id=coffee.user_id)
    assert helped.importance > coffee.importance
    assert mem.feedback(cat.id, "outdated", at=days(2), user_id=cat.user_id).status is Status.EXPIRED
    assert (
        mem.feedback(city.id, "wrong", note="moved", at=days(3), user_id=city.user_id).status
        is Status.SUPERSEDED
    )
    assert (
        mem.get(coffee.id, user_id=coffee.user_id).confidence < helped.confidence
    )  # from the same message as a wrong one
    assert mem.stale("u1", now=days(30)) == []
    assert coffee.id in [m.id for m in mem.stale("u1", now=days(400))]


def test_the_user_summary_is_built_by_maintenance_and_never_repeats_the_block(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式，周末别给我打电话。", user_id="u1", at=T0)
    assert mem.user_summary("u1") is None
    mem.maintain(now=days(1))
    portrait = mem.user_summary("u1")
    assert portrait is not None
    # in the user's words and language, without the profile (the block shows that beside it)
    assert portrait.text == "用户概况：平时喜欢喝美式"
    # a question about drinks shows the preference as a memory line: the summary would only repeat it
    drinks = mem.context("推荐饮料", user_id="u1", now=days(1)).text
    assert drinks.count("平时喜欢喝美式") == 1
    assert "用户概况" not in drinks
    # one that finds nothing of the user's gets the profile alone: no memory line, no summary
    body = mem.context("量子力学的基本原理是什么", user_id="u1", now=days(1)).text.split("<memory-data>", 1)[
        1
    ]
    assert body.lstrip().startswith("## 用户档案")
    assert "用户概况" not in body
    assert "## 相关记忆" not in body
    # …as small talk does
    assert "用户概况" not in mem.context("哈哈谢谢你呀", user_id="u1", now=days(1)).text


def test_eight_writers_adding_overlapping_facts_leave_no_duplicates(
    open_memory: Callable[[], Memory],
) -> None:
    facts = ["我喜欢喝美式", "我住在上海", "优先邮件联系", "我是产品经理"]
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            with open_memory() as own:
                for i, fact in enumerate(facts):
                    own.add(fact, user_id="u1", at=days(n + i))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with open_memory() as mem:
        items = mem.list("u1")
        assert sorted(m.text for m in items) == sorted(facts)
        # every writer's message reached the one memory it restated: no update was lost
        assert all(len(m.provenance) == 8 for m in items), [(m.text, len(m.provenance)) for m in items]
        assert len(mem.list("u1", kinds=["log"])) == 8 * len(facts)


# -- privacy: audit, consent, conversations, keys --------------------------------------------------


def test_the_audit_log_names_what_went_into_a_context_for_whom(mem: Memory) -> None:
    added = mem.add(INTRO_ZH, user_id="u1", at=T0)
    block = mem.context("推荐早上的饮料", user_id="u1", caller="chat", now=days(1))
    context, write = mem.audit("u1")
    assert (write.op, context.op, context.caller) == ("write", "context", "chat")
    assert set(write.memory_ids) == {m.id for m in added.memories}
    assert {m.id for m in block.memories} <= set(context.memory_ids)
    assert "美式" not in context.detail + write.detail
    mem.forget("u1", all=True)
    assert mem.audit("u1") == []


def test_consent_turns_memory_off_or_limits_it_to_some_categories(mem: Memory) -> None:
    assert mem.consent("u1").enabled
    mem.set_consent("u1", enabled=False, at=T0)
    result = mem.add("我叫阿白，我喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    assert [d.reason for d in result.decisions] == ["该用户的记忆已关闭：什么都不保存"]
    assert mem.list("u1", include_log=True) == []
    assert mem.session("u1", "s1", now=T0) is None
    mem.set_consent("u1", categories=["preference"], at=days(1))
    assert mem.consent("u1").categories == ("preference",)
    result = mem.add("我叫阿白，我喜欢喝美式", user_id="u1", at=days(1))
    assert [m.text for m in result.memories] == ["我喜欢喝美式"]
    refused = next(d for d in result.decisions if d.memory is None)
    assert refused.reason == "用户没有同意记住这类信息（name）"
    assert mem.profile("u1") == {}


def test_forgetting_a_conversation_removes_what_was_learned_only_there(mem: Memory) -> None:
    kept = mem.add("我喜欢喝美式", user_id="u1", session_id="s1", at=T0).memories[0]
    mem.add("我养了一只蜥蜴叫阿飞", user_id="u1", session_id="s2", at=days(1))
    mem.add("我喜欢喝美式", user_id="u1", session_id="s2", at=days(1.01))
    assert mem.forget_session("u1", "s2", at=days(2)) == 1
    assert [m.text for m in mem.list("u1")] == ["我喜欢喝美式"]
    assert mem.get(kept.id, user_id=kept.user_id).provenance == kept.provenance
    assert mem.session("u1", "s2", now=days(2)) is None
    assert all("蜥蜴" not in m.text for m in mem.list("u1", include_log=True))
    with pytest.raises(NotFound):
        mem.forget_session("u1", "s9")


def test_rotating_a_data_key_with_nothing_encrypted_changes_nothing(mem: Memory) -> None:
    old, new = "A" * 43 + "=", "B" * 43 + "="
    assert mem.rotate_data_key(old, new) == 0
    with pytest.raises(InvalidInput):
        mem.rotate_data_key(old, old)


def test_a_correction_moves_the_profile_and_a_memory_knows_its_turns(mem: Memory) -> None:
    said = mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1", at=T0)
    name = next(m for m in mem.list("u1", kinds=["profile"]) if m.slot == "name")
    assert mem.update(name.id, "我叫小白", user_id="u1", at=days(0.1)).value == "小白"
    assert mem.profile("u1")["name"] == "小白"
    coffee = next(m for m in mem.list("u1") if "美式" in m.text)
    assert [t.provenance for t in mem.sources(coffee.id, user_id="u1")] == [said.message_ids]
    assert [s.id for s in mem.live_sessions("u1", now=days(0.2))] == ["s1"]
    assert mem.live_sessions("u1", now=days(3)) == []
    assert mem.users() == ["u1"]


def test_the_contract_covers_every_public_method() -> None:
    here = Path(__file__).parent  # this file and test_contract_edges.py, which runs on the same backends
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(here.glob("test_contract*.py")))
    public = {n for n, _ in inspect.getmembers(Memory, inspect.isfunction) if not n.startswith("_")}
    missing = {n for n in public if f"mem.{n}(" not in source and n != "close"}
    assert not missing, f"add contract tests for {sorted(missing)}"
