"""Export and restore: everything held about one user as one JSON document, and back into any store.

The document (``format: "memlane.export"``, ``version: 1``; described in docs/privacy.md) keeps ids,
times, statuses, provenance, history and every profile version, so a restore into another store (a
backup, or a move from SQLite to PostgreSQL) gives the same memory. Embeddings and keyword tokens are
not exported: they are derived, and recomputed on restore. The document also holds the user's consent
settings, audit log and, in clear, the originals of encrypted memories (``sealed``): an export is the
user's own copy, and a restore seals them again under the receiving store's data key.

Ids are kept when they are free in the receiving store. Restored into the store it came from, under
another user id (a copy of a user, or the way back after a refusal), its memories, history and
audit entries get new ids instead, and every reference between them follows (supersedes, profile
versions, history targets, audit entries, sealed originals): an id belongs to one user only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from memlane import profile
from memlane.data import from_data, to_data
from memlane.domain import HistoryRecord, MemoryItem, Session, SlotVersion, Status, new_id
from memlane.embed import Embedder
from memlane.errors import ConfigurationError, InvalidInput
from memlane.store import Stores
from memlane.store.tokens import indexed, tokens_for
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery

FORMAT = "memlane.export"
VERSION = 1
_ALL = tuple(Status)
_EVERYTHING = 2**31 - 1  # no limit on the audit entries exported

T = TypeVar("T")


@dataclass
class RestoreReport:
    """What a restore wrote."""

    user_id: str
    memories: int
    log: int
    profile_versions: int
    sessions: int
    history: int
    audit: int = 0
    sealed: int = 0


def export_user(
    stores: Stores,
    user_id: str,
    now: datetime,
    originals: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The export document of one user; ``originals`` are the opened texts of encrypted memories."""
    records = stores.records.query(user_id, MemoryQuery(statuses=_ALL, newest_first=False))
    consent = stores.consent.get(user_id)
    return {
        "format": FORMAT,
        "version": VERSION,
        "user_id": user_id,
        "exported_at": now.isoformat(),
        "memories": [m.to_dict() for m in records if m.kind.value != "log"],
        "log": [m.to_dict() for m in records if m.kind.value == "log"],
        "profile": profile.read(stores, user_id),
        "profile_versions": [to_data(v) for v in stores.profile.slots(user_id, current_only=False)],
        "sessions": [to_data(s) for s in stores.sessions.list_sessions(user_id, None)],
        "history": [to_data(h) for h in stores.history.of(user_id)],
        "consent": consent.to_dict() if consent is not None else None,
        "audit": [e.to_dict() for e in reversed(stores.audit.entries(user_id, None, _EVERYTHING))],
        "sealed": [{"memory_id": i, "text": t} for i, t in (originals or {}).items()],
    }


def restore_user(
    stores: Stores,
    embedder: Embedder,
    document: Mapping[str, Any],
    user_id: str | None = None,
    seal: Callable[[MemoryItem, str], object] | None = None,
) -> RestoreReport:
    """Load an export document (under its own user id, or ``user_id``) into an empty scope; ``seal``
    encrypts the originals of its encrypted memories again (required when it has any).
    """
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise InvalidInput(f"not a memlane export: expected format {FORMAT!r}")
    if document.get("version") != VERSION:
        raise InvalidInput(
            f"unsupported export version {document.get('version')!r}; this memlane reads {VERSION}"
        )
    uid = user_id or document.get("user_id")
    if not isinstance(uid, str) or not uid:
        raise InvalidInput("the export names no user_id; pass user_id=")
    if stores.records.count(uid, MemoryQuery(statuses=_ALL)) or stores.profile.slots(uid, current_only=False):
        raise InvalidInput(
            f"user {uid!r} already has memories; forget them first or restore under another user_id"
        )
    items = _read(document, "memories", MemoryItem, uid)
    log = _read(document, "log", MemoryItem, uid)
    versions = _read(document, "profile_versions", SlotVersion, uid)
    talks = _read(document, "sessions", Session, uid)
    history = _read(document, "history", HistoryRecord, uid)
    entries = _read(document, "audit", AuditEntry, uid)
    raw_consent = document.get("consent")
    consent = None if raw_consent is None else _one(ConsentSettings, raw_consent, uid, "consent")
    renamed = _new_ids([*items, *log], versions, history, entries) if _taken(stores, [*items, *log]) else {}
    known = {m.id: m for m in items}
    originals = _originals(document.get("sealed") or [], known, renamed)
    if originals and seal is None:
        raise ConfigurationError("the export holds encrypted memories: configure a data key to restore it")
    everything = [*items, *log]
    vectors = embedder.embed_passages([indexed(m) for m in everything])
    with stores.records.transaction(uid):
        for item, vector in zip(everything, vectors, strict=True):
            item.embedding = vector.tolist()
            stores.records.put(item, tokens_for(item))
        # the current version last: storing a version makes it the current one
        for version in sorted(versions, key=lambda v: (v.current, v.slot, v.version)):
            stores.profile.put(version)
        for record in history:
            stores.history.add(record)
        for entry in entries:
            stores.audit.add(entry)
        if consent is not None:
            stores.consent.put(consent)
        for memory_id, text in originals.items():
            assert seal is not None
            seal(known[memory_id], text)
    for session in talks:
        stores.sessions.save_session(session)
    return RestoreReport(
        uid, len(items), len(log), len(versions), len(talks), len(history), len(entries), len(originals)
    )


def _taken(stores: Stores, items: Sequence[MemoryItem]) -> bool:
    """Whether any of these ids is already some user's here (a memory, or a deleted one's history)."""
    return any(
        stores.records.owner(m.id) is not None or stores.history.owner(m.id) is not None for m in items
    )


def _new_ids(
    items: Sequence[MemoryItem],
    versions: Sequence[SlotVersion],
    history: Sequence[HistoryRecord],
    entries: Sequence[AuditEntry],
) -> dict[str, str]:
    """Give the restored records fresh ids, in place, and point every reference at the new ones;
    returns the memory ids' renaming."""
    renamed = {m.id: new_id() for m in items}
    for item in items:
        item.id = renamed[item.id]
        item.supersedes = renamed.get(item.supersedes or "", item.supersedes)
        item.superseded_by = renamed.get(item.superseded_by or "", item.superseded_by)
    for version in versions:
        version.memory_id = renamed.get(version.memory_id or "", version.memory_id)
    for record in history:
        record.id = new_id()
        record.target_id = renamed.get(record.target_id, record.target_id)
    for entry in entries:
        entry.id = new_id()
        entry.memory_ids = [renamed.get(i, i) for i in entry.memory_ids]
    return renamed


def _one(cls: type[T], raw: Any, user_id: str, where: str) -> T:
    """One object of the document, under the user it is restored for."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{where} must be an object")
    return from_data(cls, {**raw, "user_id": user_id}, where=where)


def _read(document: Mapping[str, Any], key: str, cls: type[T], user_id: str) -> list[T]:
    """The document's list under ``key`` (absent or null: none)."""
    raws = document.get(key) or []
    if not isinstance(raws, list):
        raise InvalidInput(f"{key} must be a list")
    return [_one(cls, raw, user_id, f"{key}[{i}]") for i, raw in enumerate(raws)]


def _originals(raw: Any, known: Mapping[str, MemoryItem], renamed: Mapping[str, str]) -> dict[str, str]:
    try:
        found = {renamed.get(str(r["memory_id"]), str(r["memory_id"])): str(r["text"]) for r in raw}
    except (KeyError, TypeError) as exc:
        raise InvalidInput(f"sealed: {exc}") from None
    stray = sorted(set(found) - set(known))
    if stray:
        raise InvalidInput(f"sealed: {stray[0]!r} is not a memory of this export")
    return found
