"""The item store under the LangGraph and REST adapters: an item and its memories are written together."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import Kind, Memory
from memlane.integrations import items as items_module
from memlane.integrations.items import Items
from memlane.vocabulary import MemoryQuery


class Crash(Exception):
    """The process dying between the memory and the item's record."""


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "memlane.db") as memory:
        yield memory


def test_a_put_that_fails_before_its_record_is_written_leaves_no_memory(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = Items(mem)

    def crash(*args: object) -> None:
        raise Crash

    monkeypatch.setattr(items_module, "new_record", crash)
    with pytest.raises(Crash):
        items.put(("u1", "memories"), "m1", {"text": "I prefer email to phone calls"})
    monkeypatch.undo()
    assert mem.list("u1") == []
    assert items.get(("u1", "memories"), "m1") is None


def test_an_item_of_several_texts_keeps_the_memory_of_each(mem: Memory) -> None:
    items = Items(mem, fields=["a", "b"])
    items.put(("u1", "memories"), "m1", {"a": "I prefer email to phone calls", "b": "My sister Lily bakes"})
    (record,) = mem.stores.records.query("u1", MemoryQuery(kinds=(Kind.LOG,)))
    assert len(record.value["memories"]) == 2
    assert sorted(m.id for m in mem.list("u1")) == sorted(record.value["memories"])
    assert items.get(("u1", "memories"), "m1") is not None
