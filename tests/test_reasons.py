"""Why a clause was kept, kept for the conversation only or dropped is told in the user's language:
every branch of the rules, the learned model, the privacy policy, consent and a missing session."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from conftest import T0
from memlane import Memory, Settings
from memlane.domain import Candidate, Category, Decision
from memlane.write.judge import Judge

_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z]{3,}")

# each says something that a branch of the judge decides: a profile slot, a preference, a mood, a
# guess, a condition of this task, an imagined case, a request, a secret, a phrasing only the model reads
ZH = [
    "我叫阿白，住在杭州",
    "我喜欢喝美式，今天有点烦",
    "我可能喜欢爵士乐吧",
    "这次预算500以内",
    "如果我中了彩票我就飞去火星",
    "帮我查下明天的天气",
    "我的密码是hunter2Blue，身份证号是110101199003074514",
    "周末一般去爬山",
    "刚被老板骂了一顿",
]
EN = [
    "My name is Bo and I live in Leeds",
    "I love black coffee, I'm a bit tired today",
    "I might like jazz, not sure",
    "for this search only show me hotels under 150 euros a night",
    "If I won the lottery I'd buy a castle in Scotland",
    "can you check tomorrow's weather",
    "My password for the portal is hunter2-Blue-77",
    "running a 4-person startup in sf",
    "lol ok thanks",
]


def _in_chinese(reason: str) -> bool:
    """Chinese words, and no English word (numbers and the clause's own values aside)."""
    return bool(_CJK.search(reason)) and not _WORD.search(reason)


def _in_english(reason: str) -> bool:
    return not _CJK.search(reason) and bool(_WORD.search(reason))


@pytest.fixture(scope="module")
def mem() -> Iterator[Memory]:
    with Memory(":memory:") as memory:
        yield memory


def _decided(mem: Memory, user: str, texts: list[str], session: str | None = "s1") -> list[Decision]:
    return [d for text in texts for d in mem.add(text, user_id=user, session_id=session, at=T0).decisions]


def test_a_chinese_speaker_is_told_why_in_chinese(mem: Memory) -> None:
    decisions = _decided(mem, "zh-user", ZH)
    assert {d.action.value for d in decisions} == {"profile", "semantic", "session", "discard"}
    assert [d.reason for d in decisions if not _in_chinese(d.reason)] == []
    assert any(d.reason.startswith("学习判断：") for d in decisions)  # the model's reasons too


def test_an_english_speaker_is_told_why_in_english(mem: Memory) -> None:
    decisions = _decided(mem, "en-user", EN)
    assert {d.action.value for d in decisions} == {"profile", "semantic", "session", "discard"}
    assert [d.reason for d in decisions if not _in_english(d.reason)] == []
    assert any(d.reason.startswith("learned: ") for d in decisions)


def test_the_privacy_policy_consent_and_a_missing_session_speak_the_users_language() -> None:
    with Memory(":memory:", sensitive_policy={"email": "drop"}) as mem:
        (zh,) = mem.add("我的邮箱是bo@example.com", user_id="u1", at=T0).decisions
        (en,) = mem.add("my email is bo@example.com", user_id="u1", at=T0).decisions
        assert (zh.reason, en.reason) == (
            "含有邮箱：隐私策略不保存它",
            "contains an email address; the privacy policy drops it",
        )
        mem.set_consent("u2", categories=["preference"], at=T0)
        (refused,) = mem.add("我叫阿白", user_id="u2", at=T0).decisions
        assert refused.reason == "用户没有同意记住这类信息（name）"
        mem.set_consent("u3", enabled=False, at=T0)
        assert [d.reason for d in mem.add("I'm Bo", user_id="u3", at=T0).decisions] == [
            "memory is turned off for this user: nothing is kept"
        ]
        (unkept,) = mem.add("I'm at the bus stop right now", user_id="u4", at=T0).decisions
        assert unkept.reason.endswith("; not kept: no session was given")


def test_the_rules_reasons_for_an_assistant_turn_and_an_inferred_fact() -> None:
    judge = Judge(Settings(learned_judge=False))
    said = Candidate(text="你喜欢喝美式", category=Category.PREFERENCE, role="assistant")
    assert judge.decide(said, T0).reason == "助手说的，不是用户说的：不算用户的事实"
    inferred = Candidate(text="I like tea", category=Category.PREFERENCE, lang="en", explicit=False)
    assert judge.decide(inferred, T0).reason == (
        "a stated preference, importance 0.60 below the threshold 0.65; inferred, not stated: "
        "kept for this conversation only"
    )
    asked = Candidate(text="记住我喜欢喝美式", category=Category.PREFERENCE, remember_request=True)
    assert judge.decide(asked, T0).reason == "明确说过的偏好，重要性 0.95（用户要求记住）"


@pytest.mark.parametrize(
    ("before", "after", "note"),
    [
        ("我喜欢喝美式", "不喝美式了", "用户对美式改变了主意"),
        (
            "I love black coffee",
            "I don't drink black coffee anymore",
            "the user changed their mind about black coffee",
        ),
        ("我住在杭州", "我搬到上海了", "home_city 有了新的值"),
    ],
)
def test_what_reconcile_notes_is_in_the_users_language(before: str, after: str, note: str) -> None:
    with Memory(":memory:") as mem:
        (old,) = mem.add(before, user_id="u1", at=T0).memories
        (changed,) = mem.add(after, user_id="u1", at=T0).decisions
        assert changed.note == note
        assert mem.history(old.id, user_id="u1")[-1].reason == note  # the old memory's history says so too


def test_a_profile_slots_history_says_why_each_value_was_set_and_why_it_went() -> None:
    with Memory(":memory:") as mem:
        mem.add("I live in Leeds", user_id="u1", at=T0)
        mem.add("I don't live in Leeds anymore", user_id="u1", at=T0)
        history = mem.history("profile:home_city", user_id="u1")
        assert [(h.op, h.reason) for h in history] == [
            ("add", "where the user lives or works, importance 0.80"),
            ("retract", "the user says this no longer holds"),  # what retired its memory
        ]
