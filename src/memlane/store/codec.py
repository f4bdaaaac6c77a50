"""Conversions between domain objects and flat rows, shared by the SQL stores."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
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
# the columns an item is read back from, in the order :func:`from_row` takes them (the keyword
# tokens, the normalised text and the scope token are for the database's own lookups)
READ_COLUMNS = tuple(c for c in COLUMNS if c not in ("norm", "tokens", "scope"))


class Row(Protocol):
    """A result row addressed by column name (``sqlite3.Row`` or a psycopg ``dict_row``)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


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
    """The item a row of :data:`READ_COLUMNS` holds, in that order (a ``sqlite3.Row``, a tuple, or a
    psycopg ``dict_row``). Read by position: looking 30 columns up by name was half the decoding."""
    (
        id_, user_id, agent_id, session_id, kind, category, text, tags, entities, importance,
        confidence, stability, sensitivity, source, status, slot, value, polarity, event_status,
        created_at, updated_at, last_accessed_at, last_verified_at, access_count, expires_at,
        valid_from, valid_to, supersedes, superseded_by, provenance, reason, role, flags, blob,
    ) = tuple(row.values()) if isinstance(row, dict) else tuple(row)  # fmt: skip
    return MemoryItem(
        id=id_,
        user_id=user_id,
        agent_id=agent_id,
        session_id=session_id,
        kind=_KINDS[kind],
        category=_CATEGORIES[category],
        text=text,
        tags=_list(tags),
        entities=_list(entities),
        importance=importance,
        confidence=confidence,
        stability=stability,
        sensitivity=sensitivity,
        source=_SOURCES[source],
        status=_STATUSES[status],
        slot=slot,
        value=json.loads(value) if value is not None else None,
        polarity=polarity,
        event_status=_EVENT_STATUSES[event_status] if event_status else None,
        access_count=access_count,
        supersedes=supersedes,
        superseded_by=superseded_by,
        provenance=_list(provenance),
        reason=reason,
        role=role,
        flags=_NO_FLAGS if flags == "[]" else frozenset(_FLAGS[f] for f in json.loads(flags)),
        embedding=np.frombuffer(blob, dtype=np.float32).tolist() if blob else None,
        created_at=from_epoch(created_at),
        updated_at=from_epoch(updated_at),
        last_accessed_at=from_epoch(last_accessed_at),
        last_verified_at=from_epoch(last_verified_at),
        expires_at=from_epoch(expires_at),
        valid_from=from_epoch(valid_from),
        valid_to=from_epoch(valid_to),
    )


def session_to_json(session: Session) -> str:
    """A session as one JSON document (times as epoch seconds)."""
    return json.dumps(to_data(session, times="epoch"), ensure_ascii=False)


def session_from_json(text: str) -> Session:
    """The session :func:`session_to_json` wrote."""
    return from_data(Session, json.loads(text), where="stored session")
