"""The prompts: plain functions returning messages in the conversation's language, with answer models."""

from __future__ import annotations

from datetime import datetime

import pytest

from memlane.domain import Category
from memlane.llm.parse import ParseError, parse
from memlane.llm.prompts import (
    Doubt,
    JudgeAnswer,
    ReconcileAnswer,
    SummaryAnswer,
    extraction_prompt,
    judge_prompt,
    period_summary_prompt,
    reconcile_prompt,
    repair_prompt,
    session_summary_prompt,
)

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
def test_the_reconcile_prompt_numbers_the_existing_memories_across_new_ones(lang: str, word: str) -> None:
    groups = [
        ("I moved to Berlin", ["I live in Paris", "I like tea"]),
        ("I drink cold brew", ["I like americanos"]),
    ]
    system, user = reconcile_prompt(groups, AT, lang)
    assert "contradict" in system["content"]
    assert word in user["content"]
    assert "I moved to Berlin" in user["content"]
    assert "1. I live in Paris\n2. I like tea" in user["content"]
    assert "3. I like americanos" in user["content"]
    assert user["content"].index("I drink cold brew") > user["content"].index("2. I like tea")


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


@pytest.mark.parametrize(("lang", "word"), [("en", "Candidates"), ("zh", "候选")])
def test_the_judge_prompt_shows_each_candidate_with_what_the_rules_knew(lang: str, word: str) -> None:
    doubts = [Doubt("I keep a sourdough starter", "fact"), Doubt("iPhone 16", "preference", inferred=True)]
    system, user = judge_prompt(doubts, AT, lang)
    assert '"judgements"' in system["content"]
    assert word in user["content"]
    assert "1. [fact] I keep a sourdough starter" in user["content"]
    assert "2. [preference, " in user["content"]
    assert "iPhone 16" in user["content"]


@pytest.mark.parametrize(
    ("reply", "keep", "layer", "importance"),
    [
        pytest.param(
            '[{"candidate": 1, "keep": true, "layer": "Semantic", "importance": 0.7}]',
            True,
            "semantic",
            0.7,
            id="plain",
        ),
        pytest.param(
            '{"judgements": [{"candidate": 1, "keep": "discard", "layer": "session", "importance": 2}]}',
            False,
            "session",
            0.2,
            id="words-and-out-of-ten",
        ),
        pytest.param(
            "{'judgements': [{'number': 1, 'keep': True, 'layer': 'long-term', 'importance': '70%'}]}",
            True,
            "semantic",
            0.7,
            id="python-literal-percent",
        ),
    ],
)
def test_judgements_are_read_tolerantly(reply: str, keep: bool, layer: str, importance: float) -> None:
    answer = parse(reply, JudgeAnswer, list_key="judgements")
    first = answer.of(1)
    assert first is not None
    assert (first.keep, first.layer, first.importance) == (keep, layer, pytest.approx(importance))


def test_an_unknown_layer_is_an_error_for_the_model() -> None:
    with pytest.raises(ParseError, match="layer"):
        parse(
            '[{"candidate": 1, "keep": true, "layer": "forever", "importance": 0.5}]',
            JudgeAnswer,
            list_key="judgements",
        )


@pytest.mark.parametrize(("lang", "word"), [("en", "What the rules noted"), ("zh", "规则记下的要点")])
def test_the_session_summary_prompt_shows_the_turns_and_the_rules_draft(lang: str, word: str) -> None:
    turns = [("user", "I moved to Berlin"), ("assistant", "Nice!"), ("system", "hidden instructions")]
    system, user = session_summary_prompt(turns, ["moved to Berlin"], AT.date(), lang)
    assert '"points"' in system["content"]
    assert word in user["content"]
    assert "2024-06-10" in user["content"]
    assert "I moved to Berlin" in user["content"]
    assert "- moved to Berlin" in user["content"]
    assert "hidden instructions" not in user["content"]


def test_the_period_prompt_names_the_digest_and_lists_its_points() -> None:
    system, user = period_summary_prompt(
        "2024-03 的事件", ["买了耳机（03-02）", "耳机坏了（03-09，未解决）"], "zh"
    )
    assert "2024-03 的事件" in system["content"]
    assert "未解决" in system["content"]
    assert "- 耳机坏了（03-09，未解决）" in user["content"]


def test_a_summary_given_as_one_string_is_one_point() -> None:
    assert parse('{"points": "the user moved"}', SummaryAnswer, list_key="points").points == [
        "the user moved"
    ]
