"""Sensitive values are detected and never reach the database file, its WAL or any index."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import T0
from memlane import Action, Memory

ID_NUMBER = "440304198808151232"  # valid check digit
CARD_NUMBER = "6222021000123456781"  # passes Luhn
SPACED = [CARD_NUMBER[i : i + 4] for i in range(0, len(CARD_NUMBER), 4)]


def file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"我的身份证号是{ID_NUMBER}，帮我查下订单", id="zh-id"),
        pytest.param("my card number is " + " ".join(SPACED), id="en-card-spaced"),
        pytest.param(f"我的银行卡号是{CARD_NUMBER}", id="zh-card"),
        pytest.param(f"ID {ID_NUMBER}, and my card is {CARD_NUMBER}", id="en-both"),
    ],
)
def test_id_and_card_numbers_appear_nowhere_in_the_database(db_path: Path, text: str) -> None:
    with Memory(db_path) as mem:
        result = mem.add(text, user_id="u1", session_id="s1", at=T0)
        never = ("never stored", "从不保存")
        assert any(d.action is Action.DISCARD and d.reason.endswith(never) for d in result.decisions)
        stored = file_bytes(db_path)
    digits = "".join(ch for ch in text if ch.isdigit())
    for number in (ID_NUMBER, CARD_NUMBER):
        if number in digits or number in text:
            assert number.encode() not in stored
            assert number[-8:].encode() not in stored


def test_a_password_is_never_stored(db_path: Path) -> None:
    with Memory(db_path) as mem:
        mem.add("我的密码是 hunter2secret，别告诉别人", user_id="u1", session_id="s1", at=T0)
    assert b"hunter2secret" not in file_bytes(db_path)


@pytest.mark.parametrize(
    ("text", "secret"),
    [("我有糖尿病，每天打胰岛素", "糖尿病"), ("I was diagnosed with diabetes last year", "diabetes")],
    ids=["zh", "en"],
)
def test_health_details_are_not_stored(db_path: Path, text: str, secret: str) -> None:
    with Memory(db_path) as mem:
        result = mem.add(text, user_id="u1", session_id="s1", at=T0)
        assert all(d.action is Action.DISCARD for d in result.decisions)
        assert ("健康信息" if secret == "糖尿病" else "health") in result.decisions[0].reason
        assert mem.list("u1") == []
    assert secret.encode() not in file_bytes(db_path)
