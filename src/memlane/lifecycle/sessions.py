"""Ending a session: write an episode summary with provenance to its turns, drop its temporary slots,
and promote the session facts that proved stable (stated again in a later session).

A session ends explicitly (``Memory.end_session``) or when maintenance finds it idle past its TTL.
Without an LLM the summary is extractive: what the judge kept during the session, in order. A
:class:`SessionSummariser` (the LLM summariser) may rewrite those points from the session's turns;
the title and the joining stay here, so period digests can split a summary back into points.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from memlane.clock import local
from memlane.domain import Category, Kind, MemoryItem, Session, Source, Status
from memlane.embed import Embedder
from memlane.lifecycle.history import record
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.text.lang import detect, normalize
from memlane.vocabulary import MemoryQuery

# tags that mark what a session summary holds, so a later session can recognise a repeated condition
_NOTE_TAG = "session-note:"


def _notes(session: Session) -> list[str]:
    slots = [f"{slot}={value}" for slot, value in session.slots.items()]
    return [*slots, *session.notes]


class SessionSummariser(Protocol):
    """Writes the points of a finished session's episode summary."""

    def summarise_session(self, session: Session, draft: list[str]) -> list[str]:
        """The summary's points; ``draft`` is the rules' extractive version, and the fallback."""
        ...


def summary_points(session: Session) -> list[str]:
    """The extractive points of a session: what the judge kept during it, in order."""
    return [line for line in session.summary.split("\n") if line]


def summary_text(session: Session, points: Sequence[str] | None = None, at: datetime | None = None) -> str:
    """The episode summary of a session (its extractive points unless ``points`` are given), in the
    language of its turns, titled with its day in the timezone of ``at`` (when it ended).
    """
    kept = list(summary_points(session) if points is None else points)
    if not kept:
        return ""
    day = local(session.created_at, at or session.created_at).date().isoformat()
    sample = " ".join(t.content for t in session.turns[-5:]) or " ".join(kept)
    if detect(sample) == "zh":
        return f"{day} 的对话：" + "；".join(kept)
    return f"Conversation on {day}: " + "; ".join(kept)


def conditions_text(session: Session, at: datetime | None = None) -> str:
    """What a conversation that left only its own conditions held, for its archived record."""
    day = local(session.created_at, at or session.created_at).date().isoformat()
    notes = [f"{slot}: {value}" for slot, value in session.slots.items()] + list(session.notes)
    sample = " ".join(t.content for t in session.turns[-5:]) or " ".join(notes)
    if detect(sample) == "zh":
        return f"{day} 的对话只有当时的条件：" + "；".join(notes)
    return f"Conversation on {day}, with conditions for that conversation only: " + "; ".join(notes)


class SessionCloser:
    """Turns a finished session into long-term memory."""

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        summariser: SessionSummariser | None = None,
    ) -> None:
        self.stores = stores
        self.embedder = embedder
        self.summariser = summariser

    def end(self, session: Session, at: datetime) -> list[MemoryItem]:
        """Summarise and promote; the session itself is removed. Returns the memories written."""
        written: list[MemoryItem] = []
        points = summary_points(session)
        if self.summariser is not None:  # asked before the transaction: a slow answer holds no lock
            points = self.summariser.summarise_session(session, points)
        text = summary_text(session, points, at)
        with self.stores.records.transaction(session.user_id):
            if text:
                written.append(self._summary(session, text, at))
            elif _notes(session):
                # only this conversation's conditions: kept as the record a later conversation's
                # promotion looks for, out of every index (a later block must not read them as current)
                written.append(self._summary(session, conditions_text(session, at), at, Status.ARCHIVED))
            written.extend(self._promote(session, at))
        self.stores.sessions.delete_session(session.user_id, session.id)
        return written

    def _summary(
        self, session: Session, text: str, at: datetime, status: Status = Status.ACTIVE
    ) -> MemoryItem:
        item = MemoryItem(
            user_id=session.user_id,
            text=text,
            kind=Kind.SUMMARY,
            category=Category.EVENT,
            tags=["session-summary", *(_NOTE_TAG + n for n in _notes(session))],
            importance=0.6,
            confidence=0.9,
            stability=0.4,
            source=Source.INFERRED,
            session_id=session.id,
            status=status,
            created_at=at,
            updated_at=at,
            last_verified_at=at,
            valid_from=session.created_at,
            valid_to=session.updated_at,
            provenance=[t.message_id for t in session.turns],
            reason="summary of a finished conversation",
            embedding=self.embedder.embed_passages([text])[0].tolist(),
        )
        self.stores.records.put(item, tokens_for(item))
        self._record(item, "add", at, item.reason)
        return item

    def _promote(self, session: Session, at: datetime) -> list[MemoryItem]:
        """A temporary condition stated again in a later session is lasting: keep it long-term."""
        earlier = self.stores.records.query(
            session.user_id,
            MemoryQuery(
                kinds=(Kind.SUMMARY,),
                statuses=(Status.ACTIVE, Status.ARCHIVED),
                tags=tuple(_NOTE_TAG + n for n in _notes(session)),
            ),
        )
        seen = {t.removeprefix(_NOTE_TAG) for m in earlier if m.session_id != session.id for t in m.tags}
        promoted: list[MemoryItem] = []
        for note in _notes(session):
            if note not in seen:
                continue
            slot, _, value = note.partition("=")
            text = f"{slot}: {value}" if value else note
            known = MemoryQuery(slot=slot, limit=1) if value else MemoryQuery(norm=normalize(text), limit=1)
            if self.stores.records.query(session.user_id, known):
                continue  # already long-term
            item = MemoryItem(
                user_id=session.user_id,
                text=text,
                kind=Kind.SEMANTIC,
                category=Category.CONDITION,
                tags=["promoted"],
                importance=0.7,
                confidence=0.8,
                stability=0.6,
                source=Source.INFERRED,
                session_id=session.id,
                slot=slot if value else None,
                value=value or None,
                created_at=at,
                updated_at=at,
                last_verified_at=at,
                provenance=[t.message_id for t in session.turns],
                reason="stated again in more than one conversation: kept long-term",
                embedding=self.embedder.embed_passages([text])[0].tolist(),
            )
            self.stores.records.put(item, tokens_for(item))
            self._record(item, "add", at, item.reason)
            promoted.append(item)
        return promoted

    def _record(self, item: MemoryItem, op: str, at: datetime, reason: str) -> None:
        record(self.stores, item.user_id, item.id, op, at, reason, after=item.text)
