"""Conversions between domain objects and flat rows, shared by the SQL stores."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol

import numpy as np

from memlane.clock import from_epoch, to_epoch
from memlane.data import from_data, to_data
from memlane.domain import Category, EventStatus, Flag, Kind, MemoryItem, Session, Source, Status
from memlane.text.lang import normalize

# column order of the memories table, shared by every SQL store
COLUMNS = (
    "id user_id agent_id session_id kind category text norm tokens scope tags entities importance "
    "confidence stability sensitivity source status slot value polarity event_status created_at "
    "updated_at last_accessed_at last_verified_at access_count expires_at valid_from valid_to "
    "supersedes superseded_by provenance reason role flags embedding"
).split()


class Row(Protocol):
    """A result row addressed by column name (``sqlite3.Row`` or a psycopg ``dict_row``)."""

    def __getitem__(self, key: str, /) -> Any: ...


_TIMES = "created_at updated_at last_accessed_at last_verified_at expires_at valid_from valid_to".split()


def scope_token(user_id: str) -> str:
    """A keyword-index token that stands for one user (letters and digits only)."""
    return "u" + hashlib.sha1(user_id.encode()).hexdigest()[:20]


def to_row(item: MemoryItem, tokens: str) -> dict[str, Any]:
    """The item as column values (``embedding`` as float32 bytes)."""
    embedding = None
    if item.embedding is not None:
        embedding = np.asarray(item.embedding, dtype=np.float32).tobytes()
    row: dict[str, Any] = {
        "id": item.id,
        "user_id": item.user_id,
        "agent_id": item.agent_id,
        "session_id": item.session_id,
        "kind": item.kind.value,
        "category": item.category.value,
        "text": item.text,
        "norm": normalize(item.text),
        "tokens": tokens,
        "scope": scope_token(item.user_id),
        "tags": json.dumps(item.tags, ensure_ascii=False),
        "entities": json.dumps(item.entities, ensure_ascii=False),
        "importance": item.importance,
        "confidence": item.confidence,
        "stability": item.stability,
        "sensitivity": item.sensitivity,
        "source": item.source.value,
        "status": item.status.value,
        "slot": item.slot,
        "value": json.dumps(item.value, ensure_ascii=False) if item.value is not None else None,
        "polarity": item.polarity,
        "event_status": item.event_status.value if item.event_status else None,
        "access_count": item.access_count,
        "supersedes": item.supersedes,
        "superseded_by": item.superseded_by,
        "provenance": json.dumps(item.provenance),
        "reason": item.reason,
        "role": item.role,
        "flags": json.dumps(sorted(f.value for f in item.flags)),
        "embedding": embedding,
    }
    for name in _TIMES:
        row[name] = to_epoch(getattr(item, name))
    return row


# enum members by value: a dict lookup, where calling the enum is several times slower (search reads
# tens of rows per request)
_KINDS = {k.value: k for k in Kind}
_CATEGORIES = {c.value: c for c in Category}
_SOURCES = {s.value: s for s in Source}
_STATUSES = {s.value: s for s in Status}
_EVENT_STATUSES = {e.value: e for e in EventStatus}
_FLAGS = {f.value: f for f in Flag}
_NO_FLAGS: frozenset[Flag] = frozenset()


def _list(text: str) -> Any:
    return [] if text == "[]" else json.loads(text)


def from_row(row: Row) -> MemoryItem:
    """The item a row of :data:`COLUMNS` holds."""
    blob = row["embedding"]
    value, event_status = row["value"], row["event_status"]
    item = MemoryItem(
        id=row["id"],
        user_id=row["user_id"],
        agent_id=row["agent_id"],
        session_id=row["session_id"],
        kind=_KINDS[row["kind"]],
        category=_CATEGORIES[row["category"]],
        text=row["text"],
        tags=_list(row["tags"]),
        entities=_list(row["entities"]),
        importance=row["importance"],
        confidence=row["confidence"],
        stability=row["stability"],
        sensitivity=row["sensitivity"],
        source=_SOURCES[row["source"]],
        status=_STATUSES[row["status"]],
        slot=row["slot"],
        value=json.loads(value) if value is not None else None,
        polarity=row["polarity"],
        event_status=_EVENT_STATUSES[event_status] if event_status else None,
        access_count=row["access_count"],
        supersedes=row["supersedes"],
        superseded_by=row["superseded_by"],
        provenance=_list(row["provenance"]),
        reason=row["reason"],
        role=row["role"],
        flags=_NO_FLAGS if row["flags"] == "[]" else frozenset(_FLAGS[f] for f in json.loads(row["flags"])),
        embedding=np.frombuffer(blob, dtype=np.float32).tolist() if blob else None,
    )
    for name in _TIMES:
        setattr(item, name, from_epoch(row[name]))
    return item


def session_to_json(session: Session) -> str:
    """A session as one JSON document (times as epoch seconds)."""
    return json.dumps(to_data(session, times="epoch"), ensure_ascii=False)


def session_from_json(text: str) -> Session:
    """The session :func:`session_to_json` wrote."""
    return from_data(Session, json.loads(text), where="stored session")
