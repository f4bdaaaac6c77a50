"""Consent: "别记这个 / don't remember that" removes what was just said, from every table and index."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import T0, days
from memlane import Action, Memory


@pytest.mark.parametrize(
    ("said", "withdraw", "secret"),
    [
        ("我养了一只蜥蜴叫阿飞", "别记这个", "蜥蜴"),
        ("I keep a pet iguana called Ziggy", "don't remember that", "iguana"),
        ("我在考虑辞职去开咖啡馆", "忘掉我刚才说的", "咖啡馆"),
        ("I'm thinking of quitting to open a bakery", "forget what I just said", "bakery"),
        ("我养了一只蜥蜴叫阿飞", "刚刚说的那个不算", "蜥蜴"),
        ("我养了一只蜥蜴叫阿飞", "当我没说", "蜥蜴"),
        ("I keep a pet iguana called Ziggy", "nah, don't hang on to that one", "iguana"),
        ("I keep a pet iguana called Ziggy", "nope, wipe that last bit", "iguana"),
    ],
    ids=[
        "zh-bie-ji",
        "en-dont-remember",
        "zh-wang-diao",
        "en-forget",
        "zh-bu-suan",
        "zh-mei-shuo",
        "en-hang-on",
        "en-wipe",
    ],
)
def test_withdrawing_the_previous_message_removes_it_everywhere(
    db_path: Path, said: str, withdraw: str, secret: str
) -> None:
    with Memory(db_path) as mem:
        mem.add(said, user_id="u1", session_id="s1", at=T0)
        result = mem.add(withdraw, user_id="u1", session_id="s1", at=days(0.001))
        assert {d.action for d in result.decisions} == {Action.DISCARD}
        assert mem.list("u1", include_log=True) == []
        assert mem.search(secret, user_id="u1", now=days(0.01)) == []
        session = mem.session("u1", "s1", now=days(0.01))
        assert session is not None
        assert all(secret not in t.content for t in session.turns)
        assert secret not in session.summary
        assert secret not in str(mem.export("u1"))


def test_a_message_that_withdraws_itself_keeps_nothing(mem: Memory) -> None:
    result = mem.add("我住在深圳，这个别记", user_id="u1", session_id="s1", at=T0)
    assert all(d.action is Action.DISCARD for d in result.decisions)
    assert mem.list("u1", include_log=True) == []
    assert mem.profile("u1") == {}


def test_withdrawing_a_change_brings_back_what_it_replaced(mem: Memory) -> None:
    mem.add("我住在上海", user_id="u1", session_id="s1", at=T0)
    mem.add("我搬到杭州了", user_id="u1", session_id="s1", at=days(1))
    assert mem.profile("u1")["home_city"] == "杭州"
    mem.add("别记这个", user_id="u1", session_id="s1", at=days(1.001))
    assert mem.profile("u1")["home_city"] == "上海"
    assert [m.text for m in mem.list("u1")] == ["我住在上海"]


def test_a_fact_also_said_earlier_survives_withdrawing_the_repeat(mem: Memory) -> None:
    first = mem.add("我喜欢喝美式", user_id="u1", session_id="s1", at=T0).memories[0]
    mem.add("我喜欢喝美式", user_id="u1", session_id="s2", at=days(3))
    mem.add("别记这个", user_id="u1", session_id="s2", at=days(3.001))
    kept = mem.get(first.id, user_id=first.user_id)
    assert len(kept.provenance) == 1
    assert mem.history(first.id, user_id=first.user_id)[-1].reason.endswith("one source withdrawn")


@pytest.mark.parametrize(
    "said", ["I don't remember that movie", "刚才那家店不错", "当我没钱的时候就在家做饭"]
)
def test_words_that_only_look_like_a_withdrawal_withdraw_nothing(mem: Memory, said: str) -> None:
    mem.add("I collect vintage typewriters", user_id="u1", session_id="s1", at=T0)
    mem.add(said, user_id="u1", session_id="s1", at=days(0.01))
    assert "I collect vintage typewriters" in [m.text for m in mem.list("u1")]


def test_without_a_session_the_latest_user_message_is_withdrawn(mem: Memory) -> None:
    mem.add("I collect vintage typewriters", user_id="u1", at=T0)
    mem.add("scratch that", user_id="u1", at=days(0.01))
    assert mem.list("u1", include_log=True) == []


@pytest.mark.parametrize(
    ("said", "withdraw", "secret"),
    [
        ("这次买礼物预算控制在500元以内", "忘掉我刚才说的", "500元"),  # not "500": ids are hex
        (
            "for this trip only, keep restaurant suggestions under 30 euros",
            "forget what I just said",
            "30 euros",
        ),
        ("我在考虑辞职去开咖啡馆", "别记这个", "咖啡馆"),
    ],
    ids=["zh-slot", "en-note", "zh-undecided-note"],
)
def test_withdrawing_a_message_takes_what_it_set_for_the_session(
    mem: Memory, said: str, withdraw: str, secret: str
) -> None:
    mem.add(said, user_id="u1", session_id="s1", at=T0)
    before = mem.session("u1", "s1", now=days(0.0005))
    assert before is not None
    assert before.slots or before.notes  # kept for this conversation
    mem.add(withdraw, user_id="u1", session_id="s1", at=days(0.001))
    session = mem.session("u1", "s1", now=days(0.01))
    assert session is not None
    assert session.slots == {}
    assert session.notes == []
    assert session.sources == {}
    assert secret not in str(mem.export("u1"))


def test_forgetting_a_message_takes_what_it_set_for_the_session(mem: Memory) -> None:
    first = mem.add("这次买礼物预算控制在500元以内", user_id="u1", session_id="s1", at=T0)
    mem.add("我现在在地铁上", user_id="u1", session_id="s1", at=days(0.001))
    mem.forget_messages("u1", first.message_ids, at=days(0.002))
    session = mem.session("u1", "s1", now=days(0.003))
    assert session is not None
    assert session.slots == {}
    assert session.notes == ["我现在在地铁上"]
    assert "500元" not in str(mem.export("u1"))
