"""Lifecycle rules over months, each with a controlled clock: session end, trends, compression,
decay, stale preferences, the rolling user summary, and feedback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import T0, days
from memlane import InvalidInput, Kind, Memory, NotFound, Status
from memlane.domain import Flag


def test_ending_a_session_writes_a_summary_with_provenance_and_drops_its_slots(mem: Memory) -> None:
    first = mem.add("我喜欢喝美式", user_id="u1", session_id="s1", at=T0)
    second = mem.add("本轮预算500元以内", user_id="u1", session_id="s1", at=days(0.01))
    written = mem.end_session("u1", "s1", at=days(0.02))
    summary = next(m for m in written if m.kind is Kind.SUMMARY)
    assert "美式" in summary.text
    # the budget held for that conversation only: the summary a later one may read does not say it,
    # and its tags keep it for promotion
    assert "500" not in summary.text
    assert any("500" in t for t in summary.tags)
    assert set(summary.provenance) == {*first.message_ids, *second.message_ids}
    assert mem.session("u1", "s1", now=days(0.02)) is None
    with pytest.raises(NotFound):
        mem.end_session("u1", "s1")


def test_an_idle_session_ends_during_maintenance(mem: Memory) -> None:
    mem.add("I like green tea", user_id="u1", session_id="s1", at=T0)
    assert mem.maintain(now=days(0.5)).sessions_ended == 0
    assert mem.maintain(now=days(2)).sessions_ended == 1
    assert mem.list("u1", kinds=["summary"])


def test_a_condition_stated_in_two_sessions_is_promoted_to_long_term(mem: Memory) -> None:
    mem.add("本轮预算500元以内", user_id="u1", session_id="s1", at=T0)
    (record,) = mem.end_session("u1", "s1", at=days(0.1))
    # a conversation that held only its own conditions leaves an archived record, in no index
    assert (record.kind, record.status) == (Kind.SUMMARY, Status.ARCHIVED)
    assert mem.search("预算", user_id="u1", include_log=False, now=days(1)) == []
    mem.add("这次预算还是500元以内", user_id="u1", session_id="s2", at=days(3))
    written = mem.end_session("u1", "s2", at=days(3.1))
    promoted = [m for m in written if m.kind is Kind.SEMANTIC]
    assert promoted
    assert promoted[0].slot == "budget"
    assert "stated again" in promoted[0].reason


def complaints(mem: Memory, texts: list[str], start_day: float = 0.0, gap: float = 30.0) -> None:
    for i, text in enumerate(texts):
        mem.add(text, user_id="u1", at=days(start_day + i * gap))


def test_repeated_similar_complaints_merge_into_a_trend(mem: Memory) -> None:
    complaints(mem, ["快递又延迟了，物流太慢", "物流太慢了，快递延迟好几天", "快递延迟，物流慢得离谱"])
    before = mem.list("u1", kinds=["episodic"])
    assert len(before) == 3
    report = mem.maintain(now=days(61))
    assert report.merged == 3
    trend = next(m for m in mem.list("u1") if Flag.DERIVED in m.flags)
    assert "3 次" in trend.text
    assert "2025-03" in trend.text
    assert "至" in trend.text
    assert set(trend.provenance) == {p for m in before for p in m.provenance}
    for old in before:
        assert mem.get(old.id, user_id=old.user_id).status is Status.ARCHIVED
        assert mem.history(old.id, user_id=old.user_id)[-1].op == "archive"
    hits = mem.search("物流", user_id="u1", include_log=False, now=days(61))
    assert [h.memory.id for h in hits] == [trend.id]


def test_old_events_are_compressed_into_a_monthly_summary_keeping_dates_and_status(mem: Memory) -> None:
    mem.add("上周买了一台iPhone 16", user_id="u1", at=T0)
    mem.add("我的订单到现在还没到", user_id="u1", at=days(2))
    report = mem.maintain(now=days(120))
    assert report.compressed == 2
    # one summary per month of event time: the purchase was "last week", in February
    summaries = {m.text.split("的事")[0]: m for m in mem.list("u1") if "period-summary" in m.tags}
    assert sorted(summaries) == ["2025年2月", "2025年3月"]
    assert "iPhone" in summaries["2025年2月"].text
    assert "尚未解决" in summaries["2025年3月"].text
    assert summaries["2025年3月"].event_status is not None
    assert summaries["2025年3月"].event_status.value == "unresolved"
    assert summaries["2025年2月"].event_status is None
    assert mem.list("u1", kinds=["episodic"]) == []
    hits = mem.search("iPhone", user_id="u1", include_log=False, now=days(120))
    assert hits
    assert all(h.memory.kind is not Kind.EPISODIC for h in hits)


def test_unrecalled_memories_decay_and_archive_but_recalled_ones_stay(mem: Memory) -> None:
    forgotten = mem.add("我有一辆自行车", user_id="u1", at=T0).memories[0]
    used = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    for month in range(1, 37):
        mem.search("美式咖啡", user_id="u1", include_log=False, now=days(30 * month))
        mem.maintain(now=days(30 * month + 1))
    assert mem.get(forgotten.id, user_id=forgotten.user_id).status is Status.ARCHIVED
    assert mem.get(used.id, user_id=used.user_id).status is Status.ACTIVE
    assert any(r.op == "archive" for r in mem.history(forgotten.id, user_id=forgotten.user_id))


def test_decay_does_not_depend_on_how_often_maintenance_runs(tmp_path: Path) -> None:
    results = []
    for step in (1, 30, 360):
        with Memory(tmp_path / f"m{step}.db") as mem:
            item = mem.add("我有一辆自行车", user_id="u1", at=T0).memories[0]
            for day in range(step, 361, step):
                mem.maintain(now=days(day))
            results.append(mem.get(item.id, user_id=item.user_id).importance)
    assert max(results) - min(results) < 0.01, results


def test_old_unconfirmed_preferences_are_listed_to_ask_again(mem: Memory) -> None:
    item = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    assert mem.stale("u1", now=days(30)) == []
    assert [m.id for m in mem.stale("u1", now=days(200))] == [item.id]
    mem.add("我喜欢喝美式", user_id="u1", at=days(200))  # said again: confirmed
    assert mem.stale("u1", now=days(201)) == []


def test_the_user_summary_is_rebuilt_versioned_and_left_out_of_the_search(mem: Memory) -> None:
    mem.add("我叫阿白，平时喜欢喝美式，周末别给我打电话。", user_id="u1", at=T0)
    mem.maintain(now=days(1))
    first = mem.user_summary("u1")
    assert first is not None
    assert "阿白" not in first.text  # the profile is the profile's to say
    assert "美式" in first.text
    mem.add("我最近开始喝冷萃了，不喝美式了", user_id="u1", at=days(5))
    mem.maintain(now=days(6))
    second = mem.user_summary("u1")
    assert second is not None
    assert second.id != first.id
    assert "冷萃" in second.text
    assert second.supersedes == first.id
    assert mem.get(first.id, user_id=first.user_id).status is Status.SUPERSEDED
    block = mem.context("推荐饮料", user_id="u1", now=days(6))
    assert block.text.count("冷萃") == 1  # said once, by its memory line
    assert all(h.memory.id != second.id for h in mem.search("冷萃", user_id="u1", now=days(6)))


def test_feedback_helpful_outdated_and_wrong(mem: Memory) -> None:
    result = mem.add("我住在上海，我喜欢喝美式，我有一只猫", user_id="u1", at=T0)
    city, coffee, cat = (d.memory for d in result.decisions)
    assert None not in (city, coffee, cat)
    helped = mem.feedback(coffee.id, "helpful", at=days(1), user_id=coffee.user_id)
    assert helped.importance > coffee.importance
    assert mem.feedback(cat.id, "outdated", at=days(2), user_id=cat.user_id).status is Status.EXPIRED
    wrong = mem.feedback(city.id, "wrong", note="moved years ago", at=days(3), user_id=city.user_id)
    assert wrong.status is Status.SUPERSEDED
    assert (
        mem.get(coffee.id, user_id=coffee.user_id).confidence < helped.confidence
    )  # same message, less trusted now
    assert mem.history(city.id, user_id=city.user_id)[-1].reason == "feedback: wrong (moved years ago)"
    assert all(h.memory.id != cat.id for h in mem.search("猫", user_id="u1", include_log=False, now=days(3)))
    with pytest.raises(InvalidInput, match="feedback"):
        mem.feedback(coffee.id, "meh", user_id=coffee.user_id)


def test_days_read_in_the_timezone_the_user_speaks_in(mem: Memory) -> None:
    from datetime import datetime, timedelta, timezone

    shanghai = timezone(timedelta(hours=8))
    morning = datetime(2025, 9, 1, 7, 0, tzinfo=shanghai)  # 2025-08-31 23:00 in UTC
    mem.add("我10月18号在厦门办婚礼", user_id="u1", session_id="s1", at=morning)
    mem.add("早上跑了10公里", user_id="u1", session_id="s1", at=morning + timedelta(minutes=1))
    mem.end_session("u1", "s1", at=morning + timedelta(minutes=2))
    block = mem.context("婚礼哪天办", user_id="u1", now=morning + timedelta(days=1)).text
    assert "2025-10-18" in block
    assert "2025-10-17" not in block  # not the day before, as UTC has it
    assert "2025-09-01 的对话" in block
    assert "2025-08-31" not in block
    # the same moments, asked about in UTC, read as UTC days
    assert "2025-10-17" in mem.context("婚礼哪天办", user_id="u1", now=morning.astimezone(timezone.utc)).text
    mem.maintain(morning + timedelta(days=120), user_id="u1")  # the run is old enough to be compressed
    (digest,) = [m for m in mem.list("u1", kinds=["summary"]) if "的事" in m.text]
    assert digest.text.startswith("2025年9月的事"), digest.text
    assert "9月1日" in digest.text
