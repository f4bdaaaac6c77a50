"""The rolling user summary: a short portrait of the user (stable preferences, habits and
constraints, open issues, in their own words) rebuilt from the active memories, versioned, with
provenance. Who the user is stays in the profile, which a context block shows beside it.

Without an LLM it is templated and extractive. Each rebuild that changes the text supersedes the
previous version, so history shows how the portrait evolved; an unchanged portrait is left alone.
"""

from __future__ import annotations

from datetime import datetime

from memlane.domain import Category, EventStatus, Kind, MemoryItem, Source, Status
from memlane.embed import Embedder
from memlane.lifecycle.history import record
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.text.lang import detect
from memlane.vocabulary import MemoryQuery

SLOT = "user_summary"
_PREFS = (Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT, Category.ROUTINE, Category.FAMILY)
_WORDS = {
    "zh": {"title": "用户概况：", "sep": "；", "open": "（尚未解决）"},
    "en": {"title": "About the user: ", "sep": "; ", "open": " (still open)"},
}
_MAX_PREFS = 8
_MAX_OPEN = 3


class Portrait:
    """Builds and stores the user summary."""

    def __init__(self, stores: Stores, embedder: Embedder) -> None:
        self.stores = stores
        self.embedder = embedder

    def current(self, user_id: str) -> MemoryItem | None:
        """The latest portrait, if one was built."""
        found = self.stores.records.query(user_id, MemoryQuery(kinds=(Kind.SUMMARY,), slot=SLOT, limit=1))
        return found[0] if found else None

    def compose(self, user_id: str) -> tuple[str, list[str]]:
        """The portrait text and the ids of the memories it was built from.

        It says, in the user's own words and language, their most important lasting preferences,
        habits and constraints and what is still open for them. It leaves out the profile (a context
        block shows the profile's slots beside it): each fact is said once.
        """
        active = self.stores.records.query(user_id, MemoryQuery(kinds=(Kind.SEMANTIC, Kind.EPISODIC)))
        if not active:
            return "", []
        lang = detect(" ".join(m.text for m in active[:20]))
        words = _WORDS[lang]
        prefs = sorted((m for m in active if m.category in _PREFS), key=lambda m: (-m.importance, m.text))[
            :_MAX_PREFS
        ]
        open_issues = [m for m in active if m.event_status is EventStatus.UNRESOLVED][:_MAX_OPEN]
        parts = [m.text for m in prefs] + [m.text + words["open"] for m in open_issues]
        if not parts:
            return "", []
        text = words["title"] + words["sep"].join(parts)
        return text, [m.id for m in (*prefs, *open_issues)]

    def rebuild(self, user_id: str, now: datetime) -> MemoryItem | None:
        """Store a new version when the portrait changed; returns the current portrait."""
        text, sources = self.compose(user_id)
        old = self.current(user_id)
        if not text or (old is not None and old.text == text):
            return old
        item = MemoryItem(
            user_id=user_id,
            text=text,
            kind=Kind.SUMMARY,
            category=Category.FACT,
            tags=["user-summary"],
            importance=0.9,
            confidence=0.8,
            stability=0.5,
            source=Source.INFERRED,
            slot=SLOT,
            created_at=now,
            updated_at=now,
            last_verified_at=now,
            provenance=sources,
            reason="rolling summary of the user, rebuilt from active memories",
            embedding=self.embedder.embed_passages([text])[0].tolist(),
            supersedes=old.id if old else None,
        )
        with self.stores.records.transaction(user_id):
            if old is not None:
                old.status, old.superseded_by, old.updated_at = Status.SUPERSEDED, item.id, now
                self.stores.records.put(old, tokens_for(old))
            self.stores.records.put(item, tokens_for(item))
            record(
                self.stores,
                user_id,
                item.id,
                "add",
                now,
                item.reason,
                before=old.text if old else None,
                after=text,
            )
        return item
