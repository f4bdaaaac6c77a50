"""Export and restore: everything held about one user as one JSON document, and back into any stores.

The document (``format: "memlane.export"``, ``version: 1``; described in docs/privacy.md) keeps ids,
times, statuses, provenance, history and every profile version, so a restore into another store (a
backup, or a move from SQLite to PostgreSQL) gives the same memory. Embeddings and keyword tokens are
not exported: they are derived, and recomputed on restore. The document also holds the user's consent
settings, audit log and, in clear, the originals of encrypted memories (``sealed``): an export is the
user's own copy, and a restore seals them again under the receiving store's data key.

Ids are kept when they are free in the receiving stores. Restored into the stores it came from, under
another user id (a copy of a user, or the way back after a refusal), its memories, history and
audit entries get new ids instead, and every reference between them follows (supersedes, profile
versions, history targets, audit entries, sealed originals): an id belongs to one user only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memlane import profile
from memlane.domain import Actor, HistoryRecord, MemoryItem, Session, SlotVersion, Status, Turn, new_id
from memlane.embed import Embedder
from memlane.errors import ConfigurationError, InvalidInput
from memlane.store import Stores
from memlane.store.tokens import indexed, tokens_for
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery

FORMAT = "memlane.export"
VERSION = 1
_ALL = tuple(Status)
_EVERYTHING = 2**31 - 1  # no limit on the audit entries exported


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


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _time(value: Any, where: str) -> datetime:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise InvalidInput(f"{where}: {value!r} is not an ISO 8601 time") from None


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
        "profile_versions": [
            {**v.__dict__, "created_at": v.created_at.isoformat()}
            for v in stores.profile.slots(user_id, current_only=False)
        ],
        "sessions": [_session_dict(s) for s in stores.sessions.list_sessions(user_id, None)],
        "history": [
            {**h.__dict__, "at": h.at.isoformat(), "actor": h.actor.value} for h in stores.history.of(user_id)
        ],
        "consent": consent.to_dict() if consent is not None else None,
        "audit": [e.to_dict() for e in reversed(stores.audit.entries(user_id, None, _EVERYTHING))],
        "sealed": [{"memory_id": i, "text": t} for i, t in (originals or {}).items()],
    }


def _session_dict(session: Session) -> dict[str, Any]:
    return {
        "id": session.id,
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
        "expires_at": _iso(session.expires_at),
        "summary": session.summary,
        "slots": session.slots,
        "notes": session.notes,
        "turns": [
            {"role": t.role, "content": t.content, "at": t.at.isoformat(), "message_id": t.message_id}
            for t in session.turns
        ],
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
    items = [_memory(raw, uid, f"memories[{i}]") for i, raw in enumerate(document.get("memories", []))]
    log = [_memory(raw, uid, f"log[{i}]") for i, raw in enumerate(document.get("log", []))]
    versions = [
        _version(raw, uid, f"profile_versions[{i}]")
        for i, raw in enumerate(document.get("profile_versions", []))
    ]
    talks = [_session(raw, uid, f"sessions[{i}]") for i, raw in enumerate(document.get("sessions", []))]
    history = [_history(raw, uid, f"history[{i}]") for i, raw in enumerate(document.get("history", []))]
    entries = [_audit(raw, uid, f"audit[{i}]") for i, raw in enumerate(document.get("audit") or [])]
    consent = _consent(document.get("consent"), uid)
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


def _memory(raw: Any, user_id: str, where: str) -> MemoryItem:
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{where} must be an object")
    try:
        return MemoryItem.from_dict({**raw, "user_id": user_id})
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _version(raw: Any, user_id: str, where: str) -> SlotVersion:
    try:
        return SlotVersion(
            user_id=user_id,
            slot=str(raw["slot"]),
            value=raw["value"],
            version=int(raw["version"]),
            created_at=_time(raw["created_at"], where),
            memory_id=raw.get("memory_id"),
            message_ids=list(raw.get("message_ids", [])),
            current=bool(raw.get("current", False)),
            reason=str(raw.get("reason", "")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _session(raw: Any, user_id: str, where: str) -> Session:
    try:
        return Session(
            id=str(raw["id"]),
            user_id=user_id,
            created_at=_time(raw["created_at"], where),
            updated_at=_time(raw["updated_at"], where),
            expires_at=_time(raw["expires_at"], where) if raw.get("expires_at") else None,
            summary=str(raw.get("summary", "")),
            slots=dict(raw.get("slots", {})),
            notes=list(raw.get("notes", [])),
            turns=[
                Turn(
                    role=t["role"], content=t["content"], at=_time(t["at"], where), message_id=t["message_id"]
                )
                for t in raw.get("turns", [])
            ],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _history(raw: Any, user_id: str, where: str) -> HistoryRecord:
    try:
        return HistoryRecord(
            id=str(raw["id"]),
            user_id=user_id,
            target_id=str(raw["target_id"]),
            op=str(raw["op"]),
            at=_time(raw["at"], where),
            actor=Actor(raw.get("actor", "system")),
            reason=str(raw.get("reason", "")),
            before=raw.get("before"),
            after=raw.get("after"),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _audit(raw: Any, user_id: str, where: str) -> AuditEntry:
    try:
        return AuditEntry(
            id=str(raw["id"]),
            user_id=user_id,
            at=_time(raw["at"], where),
            op=str(raw["op"]),
            actor=Actor(raw.get("actor", "user")),
            caller=raw.get("caller"),
            memory_ids=[str(i) for i in raw.get("memory_ids", [])],
            detail=str(raw.get("detail", "")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{where}: {exc}") from None


def _consent(raw: Any, user_id: str) -> ConsentSettings | None:
    if raw is None:
        return None
    try:
        categories = raw.get("categories")
        return ConsentSettings(
            user_id=user_id,
            enabled=bool(raw.get("enabled", True)),
            categories=tuple(str(c) for c in categories) if categories is not None else None,
            updated_at=_time(raw["updated_at"], "consent") if raw.get("updated_at") else None,
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"consent: {exc}") from None


def _originals(raw: Any, known: Mapping[str, MemoryItem], renamed: Mapping[str, str]) -> dict[str, str]:
    try:
        found = {renamed.get(str(r["memory_id"]), str(r["memory_id"])): str(r["text"]) for r in raw}
    except (KeyError, TypeError) as exc:
        raise InvalidInput(f"sealed: {exc}") from None
    stray = sorted(set(found) - set(known))
    if stray:
        raise InvalidInput(f"sealed: {stray[0]!r} is not a memory of this export")
    return found
