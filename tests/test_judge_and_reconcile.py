"""The judge's scores and thresholds, and reconcile's rule that a weaker claim never wins."""

from __future__ import annotations

from datetime import timedelta

import pytest

from conftest import T0
from memlane import Memory, Settings, Source
from memlane.domain import Action, Candidate, Category, Kind, MemoryItem, Outcome
from memlane.write.judge import Judge
from memlane.write.pool import Pool
from memlane.write.reconcile import Kin, find_match
from memlane.write.wording import word_overlap


def judge(**settings: float) -> Judge:
    return Judge(Settings(**settings))


def test_every_decision_has_scores_in_range_and_a_reason() -> None:
    for category in Category:
        decision = judge().decide(Candidate(text="x", category=category), T0)
        assert decision.reason
        for score in (decision.importance, decision.confidence, decision.stability, decision.sensitivity):
            assert 0.0 <= score <= 1.0


def test_the_write_threshold_is_configurable() -> None:
    preference = Candidate(text="我喜欢喝美式", category=Category.PREFERENCE)
    assert judge().decide(preference, T0).action is Action.SEMANTIC
    strict = judge(write_threshold=0.9).decide(preference, T0)
    assert strict.action is Action.SESSION
    assert strict.reason == "明确说过的偏好，重要性 0.70 低于阈值 0.90：仅在本次对话中保留"


def test_expiry_follows_the_class() -> None:
    plan = judge().decide(Candidate(text="下个月去日本", category=Category.PLAN), T0)
    event = judge().decide(Candidate(text="上周去了医院", category=Category.EVENT), T0)
    preference = judge().decide(Candidate(text="我喜欢喝茶", category=Category.PREFERENCE), T0)
    assert plan.expires_at is not None
    assert (plan.expires_at - T0).days == 30
    assert event.expires_at is not None
    assert (event.expires_at - T0).days == 90
    assert preference.expires_at is None


def test_asking_to_remember_lifts_importance() -> None:
    plain = judge().decide(Candidate(text="x", category=Category.FACT), T0)
    asked = judge().decide(Candidate(text="x", category=Category.FACT, remember_request=True), T0)
    assert asked.importance > plain.importance


def test_settings_come_from_the_environment_when_memory_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_WRITE_THRESHOLD", "0.95")
    mem = Memory(":memory:")
    assert mem.settings.write_threshold == 0.95
    result = mem.add("我喜欢喝美式", user_id="u1", at=T0)
    assert result.decisions[0].action is Action.SESSION
    mem.close()


def test_an_inferred_claim_does_not_overwrite_an_explicit_one(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", at=T0)
    explicit = mem.list("u1")[0]
    guess = MemoryItem(
        user_id="u1",
        text="住在杭州",
        kind=Kind.PROFILE,
        category=Category.LOCATION,
        slot=explicit.slot,
        value="杭州",
        source=Source.INFERRED,
        confidence=0.6,
        embedding=mem.embedder.embed_passages(["住在杭州"])[0].tolist(),
    )
    match = find_match(Pool(mem.stores, "u1"), guess, [], mem.settings.duplicate_similarity)
    assert match.kin is Kin.WEAKER
    assert match.existing[0].id == explicit.id


@pytest.mark.parametrize(
    ("later", "earlier", "reason"),
    [
        (
            "I live in Berlin now",
            "I live in Paris",
            "an existing memory stands: something said later says otherwise",
        ),
        ("我喜欢喝美式", "我不喝咖啡", "已有的记忆保留：后来说的与此不同"),
    ],
)
def test_what_was_said_before_never_replaces_what_was_said_after(
    mem: Memory, later: str, earlier: str, reason: str
) -> None:
    # written out of order (a clause read again after the write, a history imported backwards)
    mem.add(later, user_id="u1", at=T0 + timedelta(days=30))
    (stood,) = mem.add(earlier, user_id="u1", at=T0).decisions
    assert (stood.action, stood.outcome) == (Action.DISCARD, Outcome.KEPT_EXISTING), stood.reason
    assert stood.reason == reason
    assert [m.text for m in mem.list("u1")] == [later]
    if "Berlin" in later:
        assert mem.profile("u1")["home_city"] == "Berlin"
    # in order, the same words do replace it
    mem.add(earlier, user_id="u2", at=T0)
    mem.add(later, user_id="u2", at=T0 + timedelta(days=30))
    assert [m.text for m in mem.list("u2")] == [later]
    assert [m.text for m in mem.list("u2", status="superseded")] == [earlier]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("关注游戏性能", "关注手机游戏性能", True),
        ("I love americanos", "I like americano", True),
        ("我喜欢喝美式", "我喜欢喝茶", False),
        ("对手机防抖功能感兴趣", "对三星手机感兴趣", False),
    ],
)
def test_near_duplicates_need_shared_content_words(a: str, b: str, same: bool) -> None:
    assert (word_overlap(a, b) >= 0.6) is same


def test_the_same_slot_value_in_words_of_its_own_is_kept_and_quoted(mem: Memory) -> None:
    mem.add("pls text me", user_id="u1", at=T0)
    mem.add("text me, calls wake me up when i sleep during the day", user_id="u1", at=T0)
    mem.add("just text me", user_id="u1", at=T0)  # nothing more than the value: merges
    texts = sorted(m.text for m in mem.list("u1"))
    assert texts == ["pls text me", "text me, calls wake me up when i sleep during the day"]
    assert mem.profile("u1") == {"preferred_channel": "sms"}
    block = mem.context("how should we reach her?", user_id="u1", now=T0).text
    assert "Preferred contact: text messages (in their words: “text me, calls wake me up" in block
    assert block.count("text me, calls wake me up") == 1


@pytest.mark.parametrize(
    ("first", "then", "question", "line"),
    [
        (
            "说重点别绕弯子",
            "别啰嗦",
            "怎么回复我比较好",
            "回答风格：简短（原话：“别啰嗦”；“说重点别绕弯子”）",
        ),
        (
            "text me, calls wake me up when i sleep during the day",
            "texting works best for me at work",
            "how should we reach her?",
            "text messages (in their words: “texting works best for me at work”; “text me,",
        ),
    ],
)
def test_a_value_said_twice_in_words_of_its_own_is_one_profile_line(
    mem: Memory, first: str, then: str, question: str, line: str
) -> None:
    # both sayings stay (each says something the other does not), and the profile line quotes both:
    # neither is a memory line besides
    mem.add(first, user_id="u1", session_id="s1", at=T0)
    mem.add(then, user_id="u1", session_id="s2", at=T0 + timedelta(days=1))
    block = mem.context(question, user_id="u1", now=T0 + timedelta(days=2)).text
    assert line in block
    assert block.count(first) == 1
    assert block.count(then) == 1


def test_a_fuller_statement_of_a_bare_value_takes_its_place(mem: Memory) -> None:
    mem.add("别打电话", user_id="u1", at=T0)
    mem.add("白天别打电话因为会吵醒我", user_id="u1", at=T0)
    (only,) = [m for m in mem.list("u1") if m.slot == "avoid_channel"]
    assert only.text == "白天别打电话因为会吵醒我"
    assert len(only.provenance) == 2
