"""One serialisation for every core dataclass (:mod:`memlane.data`), in ISO and epoch times."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import T0
from memlane.data import from_data, to_data
from memlane.domain import Flag, HistoryRecord, Kind, MemoryItem, Session, SlotVersion, Turn
from memlane.errors import InvalidInput
from memlane.vocabulary import AuditEntry, ConsentSettings, SealedText

VALUES: list[Any] = [
    MemoryItem(
        user_id="u1",
        text="我喜欢喝美式",
        kind=Kind.SEMANTIC,
        tags=["drink"],
        flags=frozenset({Flag.DERIVED, Flag.CHATTER}),
        created_at=T0,
        value={"drink": "美式"},
    ),
    SlotVersion(user_id="u1", slot="city", value="上海", version=2, created_at=T0, message_ids=["m1"]),
    Session(id="s1", user_id="u1", created_at=T0, updated_at=T0, turns=[Turn("user", "hi", T0, "m1")]),
    HistoryRecord(user_id="u1", target_id="m1", op="update", at=T0, before="tea", after="coffee"),
    AuditEntry(user_id="u1", at=T0, op="context", caller="chat-api", memory_ids=["m1", "m2"]),
    ConsentSettings(user_id="u1", enabled=True, categories=("name", "preference"), updated_at=T0),
    SealedText(user_id="u1", memory_id="m1", key_id="k1", body="Y2lwaGVy"),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("times", ["iso", "epoch"])
def test_every_core_value_reads_back_from_its_json(value: Any, times: str) -> None:
    text = json.dumps(to_data(value, times=times), ensure_ascii=False)  # type: ignore[arg-type]
    assert from_data(type(value), json.loads(text)) == value


def test_a_memorys_embedding_is_not_data() -> None:
    item = MemoryItem(user_id="u1", text="x", kind=Kind.LOG, embedding=[1.0, 0.0])
    assert "embedding" not in to_data(item)
    assert to_data(item)["flags"] == []


MEMORY = {"user_id": "u1", "text": "x", "kind": "semantic"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {"user_id": "u1", "text": "x", "kind": "semantic", "colour": 1},
            "unknown fields colour",
            id="unknown",
        ),
        pytest.param(
            {"user_id": "u1", "text": "x", "kind": "semantic", "created_at": "soon"}, "memories", id="time"
        ),
        pytest.param({"user_id": "u1", "text": "x", "kind": "mood"}, "mood", id="enum"),
        pytest.param({"user_id": "u1", "text": "x"}, "kind", id="missing"),
    ],
)
def test_data_that_does_not_fit_is_refused_with_where(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        from_data(MemoryItem, data, where="memories[0]")
