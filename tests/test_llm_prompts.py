"""The prompts: plain functions returning messages in the conversation's language, with answer models."""

from __future__ import annotations

from datetime import datetime

import pytest

from memlane.domain import Category
from memlane.llm.parse import ParseError, parse
from memlane.llm.prompts import ReconcileAnswer, extraction_prompt, reconcile_prompt, repair_prompt

AT = datetime(2024, 6, 10, 9, 30)


@pytest.mark.parametrize(("lang", "word"), [("en", "Clauses to interpret"), ("zh", "需要解读的分句")])
def test_the_extraction_prompt_numbers_the_clauses_in_the_conversation_language(lang: str, word: str) -> None:
    system, user = extraction_prompt("whole message", ["first", "second"], AT, lang)
    assert system["role"] == "system"
    assert word in user["content"]
    assert "1. first\n2. second" in user["content"]
    assert "2024-06-10T09:30" in user["content"]


def test_every_category_is_offered_to_the_model() -> None:
    for lang in ("en", "zh"):
        system = extraction_prompt("m", ["c"], AT, lang)[0]["content"]
        assert all(c.value in system for c in Category)


def test_the_repair_prompt_shows_the_model_its_reply_and_the_error() -> None:
    turns = repair_prompt("oops", "the reply was not valid JSON", "zh")
    assert turns[0] == {"role": "assistant", "content": "oops"}
    assert "the reply was not valid JSON" in turns[1]["content"]


@pytest.mark.parametrize(("lang", "word"), [("en", "EXISTING"), ("zh", "已有记忆")])
def test_the_reconcile_prompt_numbers_the_existing_memories(lang: str, word: str) -> None:
    system, user = reconcile_prompt("I moved to Berlin", ["I live in Paris", "I like tea"], AT, lang)
    assert "contradict" in system["content"]
    assert word in user["content"]
    assert "1. I live in Paris\n2. I like tea" in user["content"]


def test_reconcile_verdicts_are_read_with_their_reasons() -> None:
    reply = (
        '{"relations": [{"existing": 1, "relation": "Update", "reason": "moved from Paris to Berlin"},'
        ' {"existing": 2, "relation": "unrelated", "reason": "about drinks"},]}'
    )
    answer = parse(reply, ReconcileAnswer, list_key="relations")
    first = answer.of(1)
    assert first is not None
    assert (first.relation, first.reason) == ("update", "moved from Paris to Berlin")
    assert answer.of(3) is None


def test_an_unknown_relation_is_an_error_for_the_model() -> None:
    with pytest.raises(ParseError, match="relation"):
        parse('[{"existing": 1, "relation": "maybe"}]', ReconcileAnswer, list_key="relations")
