"""The tolerant reader of model replies: the usual slips are repaired, anything else is a clear error."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from memlane.llm.parse import ParseError, loads, parse
from memlane.llm.prompts import ExtractionAnswer

WANT = {"memories": [{"clause": 1, "ok": True, "note": None}]}


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param('{"memories": [{"clause": 1, "ok": true, "note": null}]}', id="strict"),
        pytest.param('```json\n{"memories": [{"clause": 1, "ok": true, "note": null}]}\n```', id="fenced"),
        pytest.param('```\n{"memories": [{"clause": 1, "ok": true, "note": null}]}\n```', id="bare-fence"),
        pytest.param('{"memories": [{"clause": 1, "ok": true, "note": null,},],}', id="trailing-commas"),
        pytest.param("{'memories': [{'clause': 1, 'ok': True, 'note': None}]}", id="python-literal"),
        pytest.param("{'memories': [{'clause': 1, 'ok': true, 'note': null}]}", id="single-quotes"),
        pytest.param('{"memories": [{"clause": 1, "ok": True, "note": None}]}', id="python-words"),
        pytest.param(
            'Sure! Here it is:\n{"memories": [{"clause": 1, "ok": true, "note": null}]}\nHope it helps.',
            id="prose-around",
        ),
    ],
)
def test_usual_slips_are_repaired(reply: str) -> None:
    assert loads(reply) == WANT


def test_apostrophes_in_prose_do_not_open_strings() -> None:
    assert loads('Here\'s what I\'d say: {"a": "I\'m fine"}') == {"a": "I'm fine"}


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param("", id="empty"),
        pytest.param("The user likes tea.", id="prose-only"),
        pytest.param('{"memories": [{"clause": 1, "text": "cut of', id="truncated"),
    ],
)
def test_unreadable_replies_raise_a_message_for_the_model(reply: str) -> None:
    with pytest.raises(ParseError, match="JSON"):
        loads(reply)


def test_a_top_level_list_is_taken_as_the_list_field() -> None:
    answer = parse('[{"clause": 1, "category": "fact"}]', ExtractionAnswer, list_key="memories")
    assert [m.category.value for m in answer.memories] == ["fact"]


def test_categories_are_read_case_insensitively_and_unknown_ones_are_errors() -> None:
    ok = parse(
        '{"memories": [{"clause": 2, "category": " Preference ", "event_status": "none"}]}', ExtractionAnswer
    )
    assert ok.memories[0].category.value == "preference"
    assert ok.memories[0].event_status is None
    with pytest.raises(ParseError, match=r"memories\.0\.category"):
        parse('{"memories": [{"clause": 1, "category": "hobby"}]}', ExtractionAnswer)


def test_polarity_is_a_sign() -> None:
    answer = parse('{"memories": [{"clause": 1, "category": "fact", "polarity": -0.5}]}', ExtractionAnswer)
    assert answer.memories[0].polarity == -1


def test_a_subject_is_accepted_as_the_slot() -> None:
    answer = parse(
        '{"memories": [{"clause": 1, "category": "fact", "subject": "pet:dog"}]}', ExtractionAnswer
    )
    assert answer.memories[0].slot == "pet:dog"


def test_shape_errors_name_the_field() -> None:
    class Answer(BaseModel):
        items: list[int]

    with pytest.raises(ParseError, match="items"):
        parse('{"items": "many"}', Answer)
