"""An item's record: how one item of a namespaced store is kept in memlane, and read back.

A record is a row of the user's conversation log (``kind = log``, so ``list()`` never shows it as a
memory and every deletion path reaches it), addressed by a ``slot`` unique to (namespace, key) and
holding, in ``value``, the item as it was put (sensitive values masked), its texts, the ids of the
memories made from them and its TTL. Its ``provenance`` is those memories' message ids, so deleting
such a memory deletes the record too.

>>> checked_value({"text": "我的手机号是13812345678", "n": 1}, 1000)
{'text': '我的手机号是[已隐藏:手机号]', 'n': 1}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memlane.domain import Category, Kind, MemoryItem, Source
from memlane.errors import InvalidInput, TextTooLong
from memlane.integrations.namespaces import address, path, prefix_tags
from memlane.privacy import sensitive
from memlane.text.keywords import index_text


@dataclass(frozen=True)
class StoredItem:
    """One item as the store returns it; ``score`` is set by a search with a query."""

    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    score: float | None = None
    expires_at: datetime | None = None


def checked_value(value: object, max_chars: int) -> dict[str, Any]:
    """The value as it will be kept: a JSON mapping of at most ``max_chars`` characters, with
    sensitive values masked as memlane masks them in every memory."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"an item's value must be a mapping (a dict), not {type(value).__name__}")
    try:
        encoded = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"an item's value must be JSON-serialisable: {exc}") from None
    if len(encoded) > max_chars:
        raise TextTooLong(
            f"the item's value is {len(encoded):,} characters of JSON; the limit is {max_chars:,} "
            "(MEMLANE_MAX_TEXT_CHARS)"
        )
    masked: dict[str, Any] = _mask(json.loads(encoded))
    return masked


def _mask(value: Any) -> Any:
    if isinstance(value, str):
        findings = sensitive.scan(value)
        return sensitive.redact(value, findings) if findings else value
    if isinstance(value, list):
        return [_mask(v) for v in value]
    if isinstance(value, dict):
        return {k: _mask(v) for k, v in value.items()}
    return value


def new_record(
    record_id: str,
    user_id: str,
    namespace: tuple[str, ...],
    key: str,
    value: dict[str, Any],
    texts: Sequence[str],
    memories: Sequence[str],
    provenance: Sequence[str],
    now: datetime,
    ttl: float | None,
    old: MemoryItem | None,
) -> MemoryItem:
    """The record of an item put at ``now`` (keeping ``old``'s creation time when it replaces it)."""
    body: dict[str, Any] = {
        "namespace": list(namespace),
        "key": key,
        "value": value,
        "texts": list(texts),
        "memories": list(memories),
    }
    if ttl is not None:
        body["ttl"] = float(ttl)
    return MemoryItem(
        id=record_id,
        user_id=user_id,
        text="; ".join(texts) if texts else json.dumps(value, ensure_ascii=False),
        kind=Kind.LOG,
        category=Category.FACT,
        tags=prefix_tags(namespace),
        importance=0.5,
        confidence=1.0,
        source=Source.EXPLICIT,
        slot=address(namespace, key),
        value=body,
        created_at=old.created_at if old is not None else now,
        updated_at=now,
        valid_from=now,  # the store lists log rows by this time: the latest written first
        expires_at=now + timedelta(minutes=ttl) if ttl is not None else None,
        provenance=list(provenance),
        reason=f"an item of namespace {path(namespace)}, key {key}",
    )


def live(record: MemoryItem, now: datetime) -> bool:
    """Whether the record's TTL (if any) has not passed."""
    return record.expires_at is None or record.expires_at > now


def tokens(record: MemoryItem) -> str:
    """A record is keyword-searchable by its texts; one put with ``index=False`` is not searchable."""
    return index_text(record.text) if record.value.get("texts") else ""


def item_of(record: MemoryItem, score: float | None = None) -> StoredItem:
    """The item a record holds."""
    assert record.created_at is not None
    assert record.updated_at is not None
    body = record.value
    return StoredItem(
        namespace=tuple(body["namespace"]),
        key=body["key"],
        value=body["value"],
        created_at=record.created_at,
        updated_at=record.updated_at,
        score=score,
        expires_at=record.expires_at,
    )
