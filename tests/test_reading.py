"""The Mandarin reading of traditional characters and written Cantonese: one character for one, what
the rules and detectors match on, while memlane keeps the user's own characters (real SQLite, the
bundled embedder)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import T0
from memlane import Memory
from memlane.domain import Category
from memlane.text.lang import fold
from memlane.text.reading import reading


@given(st.text())
def test_the_reading_has_as_many_characters_as_the_text(text: str) -> None:
    assert len(reading(text)) == len(text)
    assert len(fold(text)) == len(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("我住在臺中，每天騎機車上班", "我住在台中，每天骑机车上班"),
        ("我喺南庄一間瓷磚廠做質檢", "我在南庄一间瓷砖厂做质检"),
        ("部電動車畀人偷咗，唔想再買啦", "部电动车给人偷了，不想再买啦"),
        ("我而家喺季華路口等廠車", "我现在在季华路口等厂车"),
        ("我嘅密碼係Kiln99abc", "我的密码是Kiln99abc"),
    ],
)
def test_traditional_and_cantonese_read_as_simplified_mandarin(text: str, read: str) -> None:
    assert reading(text) == read


@pytest.mark.parametrize("text", ["我返回北京了", "这事跟我没关系", "中文系的学生", "我喜欢喝美式"])
def test_mandarin_is_read_as_itself(text: str) -> None:
    assert reading(text) == text


def test_cantonese_is_and_the_mandarin_words_that_write_it() -> None:
    assert reading("佢同我冇關係") == "他同我没关系"
    assert reading("我係中文系嘅學生") == "我是中文系的学生"


@pytest.mark.parametrize(
    "text",
    ["我嘅密碼係Kiln99abc", "我的密碼是 Summer2024!", "我嘅銀行卡號係6222021234567890123"],
)
def test_a_secret_written_in_traditional_or_cantonese_is_never_stored(mem: Memory, text: str) -> None:
    mem.add(text, user_id="u1", session_id="s1", at=T0)
    mem.flush("u1")
    for secret in ("Kiln99abc", "Summer2024", "6222021234567890123"):
        assert not any(secret in m.text for m in mem.list("u1", include_log=True))


@pytest.mark.parametrize(
    ("text", "kept", "category"),
    [
        ("我喜歡喝烏龍茶", "我喜歡喝烏龍茶", Category.PREFERENCE),
        ("我而家喺公司等緊車", "我而家喺公司等緊車", Category.CONTEXT),
        ("唔好長篇大論", "唔好長篇大論", Category.STYLE),
    ],
)
def test_what_is_kept_is_the_users_own_characters(
    mem: Memory, text: str, kept: str, category: Category
) -> None:
    (decision,) = mem.add(text, user_id="u1", session_id="s1", at=T0).decisions
    assert decision.text == kept
    assert decision.category is category


def test_a_clause_is_read_as_cantonese_when_its_message_is(mem: Memory) -> None:
    decisions = mem.add(
        "上次个色差查清楚咗，原来系窑温波动，同釉料冇关系", user_id="u1", session_id="s1", at=T0
    ).decisions
    found = {d.text: d.category for d in decisions}
    assert found["原来系窑温波动"] is Category.EVENT


def test_cantonese_this_is_no_particle_that_ends_a_clause(mem: Memory) -> None:
    (decision,) = mem.add("帮我睇下呢段英文系咩意思啦", user_id="u1", session_id="s1", at=T0).decisions
    assert decision.category is Category.REQUEST
