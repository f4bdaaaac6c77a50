"""Sensitive data is found however it is phrased, in Chinese, English and mixed, and talk about a
password, a card or a flat is not taken for one.

Each positive (``tests/sensitive_cases.py``) names the kind and the exact value that must be masked
(for health, words inside the clause, which is masked whole); each is also added through the real
``Memory.add`` on SQLite.
"""

from __future__ import annotations

import pytest

from conftest import T0
from memlane import Action, Memory
from memlane.privacy.sensitive import NEVER_STORE, kinds, scan
from sensitive_cases import NEGATIVES, POSITIVES

P = pytest.param


def found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in scan(text)]


@pytest.mark.parametrize(("text", "kind", "value"), POSITIVES)
def test_each_phrasing_is_found(text: str, kind: str, value: str) -> None:
    findings = [(k, v) for k, v in found(text) if k == kind]
    assert findings, f"no {kind} in {text!r}: {found(text)}"
    if kind == "health":
        assert [v for _, v in findings if value in v]
    else:
        assert findings == [(kind, value)]


@pytest.mark.parametrize("text", NEGATIVES)
def test_talk_is_not_sensitive(text: str) -> None:
    assert found(text) == []


def test_the_tables_are_large_and_bilingual() -> None:
    assert len(POSITIVES) >= 60
    assert len(NEGATIVES) >= 40
    for table in (POSITIVES, NEGATIVES):
        ids = [p.id or "" for p in table]
        assert sum(i.startswith(("zh-", "mixed-")) for i in ids) >= len(ids) // 4


@pytest.mark.parametrize(("text", "kind", "value"), POSITIVES)
def test_each_phrasing_is_kept_out_of_memory(mem: Memory, text: str, kind: str, value: str) -> None:
    result = mem.add(text, user_id="u1", session_id="s1", at=T0)
    shown = [d.text for d in result.decisions] + [m.text for m in mem.list("u1")]
    if kind in NEVER_STORE:
        # nothing that held it is kept, not even masked (the rest of a message may be: "别告诉别人")
        held = [d for d in result.decisions if d.candidate is not None and kind in d.candidate.sensitive]
        assert held
        assert [d.action for d in held] == [Action.DISCARD] * len(held)
        assert [d.sensitivity for d in held] == [1.0] * len(held)
        assert not [m.text for m in mem.list("u1") if set(kinds(m.text)) & NEVER_STORE]
    assert not [s for s in shown if value in s]


def test_a_password_leaves_no_junk_memory_of_its_label(mem: Memory) -> None:
    result = mem.add("我的密码：123456", user_id="u1", session_id="s1", at=T0)
    assert mem.list("u1") == []
    assert [d.text for d in result.decisions] == ["我的密码：[已隐藏:密码]"]


def test_blood_type_is_health_and_needs_consent(mem: Memory) -> None:
    result = mem.add("我血型是O型", user_id="u1", session_id="s1", at=T0)
    (decision,) = result.decisions
    assert decision.action is Action.DISCARD
    assert decision.sensitivity == 1.0
    assert "健康信息" in decision.reason  # the reason speaks the user's language


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        P("I'm a sound engineer and I got diagnosed with tinnitus", ["I'm a sound engineer"], "tinnitus"),
        P(
            "I work night shifts as an ER nurse, and I'm on sertraline",
            ["I work night shifts as an ER nurse"],
            "sertraline",
        ),
        P("我在银行上班但是去年确诊了糖尿病", ["我在银行上班"], "糖尿病"),
        P("我是程序员 最近在吃抗焦虑的药", ["我是程序员"], "抗焦虑"),
    ],
)
def test_a_health_clause_takes_only_itself_out_of_the_message(
    mem: Memory, text: str, kept: list[str], dropped: str
) -> None:
    """The masked clause is a clause of its own: what else the message says is kept, in the user's
    language's reason, and the health detail is nowhere."""
    result = mem.add(text, user_id="u1", session_id="s1", at=T0)
    assert [m.text for m in mem.list("u1")] == kept
    assert all(dropped not in d.text for d in result.decisions)
    (masked,) = [d for d in result.decisions if d.candidate is not None and d.candidate.sensitive]
    assert masked.action is Action.DISCARD
    assert ("健康信息" in masked.reason) == ("我" in text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        P("我淘宝和支付宝的密码是一样的，都是 launch0x9", [], id="zh-same-as-next-clause"),
        P("我住在杭州，支付密码嘛，就是 660912，别忘了", ["我住在杭州"], id="zh-among-other-clauses"),
        P("I'm Tom. my netflix password... it's Kiwi2020!", ["I'm Tom"], id="en-after-a-profile"),
        P("my pin? its 5502", [], id="en-question"),
        P("我的卡号，6222 0212 3456 7890 123", [], id="zh-card"),
    ],
)
def test_a_value_announced_in_an_earlier_clause_leaves_no_memory_of_either(
    mem: Memory, text: str, kept: list[str]
) -> None:
    """The clause holding the value and the one announcing it are one placeholder, discarded whole:
    no "都是[已隐藏:密码]" kept as a fact, no "…的密码是一样的" kept as a junk memory."""
    result = mem.add(text, user_id="u1", session_id="s1", at=T0)
    assert [m.text for m in mem.list("u1")] == kept
    held = [d for d in result.decisions if d.candidate is not None and d.candidate.sensitive]
    assert [d.action for d in held] == [Action.DISCARD]
