"""Consolidation of episodic memory: repeated similar events become one trend memory, and old raw
events are compressed into period (monthly) summaries that keep provenance, dates and open issues.

Both are extractive by default: the trend is named by its most typical event, a period summary lists
its events with their dates and status. A :class:`PeriodSummariser` (the LLM summariser) may compress a
digest's points (merging those that say the same thing) instead of cutting the list at its limit. The
originals are archived (out of every index), and history says where each went.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Protocol

import numpy as np

from memlane.clock import local
from memlane.domain import Category, EventStatus, Flag, Kind, MemoryItem, Source, Status
from memlane.embed import Embedder
from memlane.lifecycle.history import record
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.text.lang import detect
from memlane.vocabulary import MemoryQuery
from memlane.write.wording import word_overlap

_TREND_SIMILARITY = 0.88
_TREND_OVERLAP = 0.5
_MAX_POINTS = 30  # a digest lists at most this many points
_COMPRESS_FROM = 3  # a digest of one or two points is short already: no summariser is asked


def _when(item: MemoryItem) -> datetime:
    when = item.valid_from or item.created_at
    assert when is not None
    return when


def _by_month(items: list[MemoryItem], now: datetime) -> list[tuple[str, list[MemoryItem]]]:
    """The items by the month they happened in, in the timezone of ``now`` (the caller's)."""
    groups: dict[str, list[MemoryItem]] = defaultdict(list)
    for item in sorted(items, key=_when):
        groups[f"{local(_when(item), now):%Y-%m}"].append(item)
    return sorted(groups.items())


def _open(items: list[MemoryItem]) -> bool:
    latest = max(items, key=_when)
    return latest.event_status is EventStatus.UNRESOLVED


class PeriodSummariser(Protocol):
    """Compresses the points of a period digest."""

    def compress_period(self, title: str, points: list[str], lang: str) -> list[str]:
        """Fewer, merged points keeping dates and open issues; ``points`` themselves as the fallback."""
        ...


class Consolidator:
    """Trends and period summaries for one store."""

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        settings: Settings,
        summariser: PeriodSummariser | None = None,
    ) -> None:
        self.stores = stores
        self.embedder = embedder
        self.settings = settings
        self.summariser = summariser

    def run(self, user_id: str, now: datetime) -> tuple[int, int]:
        """Merge repeated events into trends, then compress old events; returns (merged, compressed)."""
        events = self.stores.records.query(user_id, MemoryQuery(kinds=(Kind.EPISODIC,), newest_first=False))
        merged = self._trends(user_id, events, now)
        cutoff = now - timedelta(days=self.settings.compress_after_days)
        old = [
            m
            for m in self.stores.records.query(
                user_id, MemoryQuery(kinds=(Kind.EPISODIC,), newest_first=False)
            )
            # plans are intentions, not records: they expire rather than compress
            if m.category is not Category.PLAN
            and (_when(m) <= cutoff or (m.expires_at is not None and m.expires_at <= now))
        ]
        sessions = [
            m
            for m in self.stores.records.query(
                user_id, MemoryQuery(kinds=(Kind.SUMMARY,), tags=("session-summary",))
            )
            if _when(m) <= cutoff
        ]
        return merged, self._compress(user_id, old, now) + self._compress_sessions(user_id, sessions, now)

    # -- trends -----------------------------------------------------------------------------------

    def _trends(self, user_id: str, events: list[MemoryItem], now: datetime) -> int:
        groups = self._groups([e for e in events if e.embedding is not None])
        merged = 0
        for group in groups:
            if len(group) < self.settings.trend_min_events:
                continue
            self._write_trend(user_id, group, now)
            merged += len(group)
        return merged

    def _groups(self, events: list[MemoryItem]) -> list[list[MemoryItem]]:
        """Greedy clusters of events that say the same thing (close embedding and shared words)."""
        if not events:
            return []
        matrix = np.asarray([e.embedding for e in events], dtype=np.float32)
        sims = matrix @ matrix.T
        taken: set[int] = set()
        groups: list[list[MemoryItem]] = []
        for i in range(len(events)):
            if i in taken:
                continue
            members = [i]
            for j in range(i + 1, len(events)):
                if j in taken or sims[i, j] < _TREND_SIMILARITY:
                    continue
                if word_overlap(events[i].text, events[j].text) >= _TREND_OVERLAP:
                    members.append(j)
            if len(members) > 1:
                taken.update(members)
                groups.append([events[k] for k in members])
        return groups

    def _write_trend(self, user_id: str, group: list[MemoryItem], now: datetime) -> None:
        matrix = np.asarray([e.embedding for e in group], dtype=np.float32)
        typical = group[int(np.argmax((matrix @ matrix.T).sum(axis=1)))]
        first, last = local(min(map(_when, group)), now), local(max(map(_when, group)), now)
        topic = typical.text
        span = f"{first:%Y-%m}" if first.strftime("%Y-%m") == last.strftime("%Y-%m") else None
        if detect(topic) == "zh":
            period = span or f"{first:%Y-%m} 至 {last:%Y-%m}"
            text = f"用户多次提到「{topic}」：{len(group)} 次，{period}"
        else:
            period = span or f"{first:%Y-%m} to {last:%Y-%m}"
            text = f"Repeatedly ({len(group)} times, {period}): {topic}"
        trend = self._derived(user_id, text, group, now, Kind.SEMANTIC, typical.category, "trend")
        trend.event_status = EventStatus.UNRESOLVED if _open(group) else typical.event_status
        self._replace(group, trend, now, "merged into a trend")

    # -- compression ------------------------------------------------------------------------------

    def _compress(self, user_id: str, old: list[MemoryItem], now: datetime) -> int:
        """Old events join their month's event digest, each with its date and open status."""
        for month, items in _by_month(old, now):
            zh = detect(" ".join(m.text for m in items)) == "zh"
            parts = []
            for m in items:
                day = local(_when(m), now)
                open_ = m.event_status is EventStatus.UNRESOLVED
                if zh:
                    parts.append(f"{m.text}（{day.month}月{day.day}日{'，尚未解决' if open_ else ''}）")
                else:
                    parts.append(f"{m.text} ({day:%b} {day.day}{', still open' if open_ else ''})")
            first = local(_when(items[0]), now)
            title = f"{first.year}年{first.month}月的事" if zh else f"What happened in {first:%B %Y}"
            self._digest(user_id, f"events:{month}", title, parts, items, now, zh)
        return len(old)

    def _compress_sessions(self, user_id: str, old: list[MemoryItem], now: datetime) -> int:
        """Old session summaries join their month's digest of conversation points."""
        for month, items in _by_month(old, now):
            points = [
                p.strip()
                for m in items
                for p in re.split(r"[；;]", re.split(r"[：:]", m.text, maxsplit=1)[-1])
                if p.strip()
            ]
            zh = detect(" ".join(points)) == "zh"
            first = local(_when(items[0]), now)
            title = f"{first.year}年{first.month}月的对话要点" if zh else f"Talked about in {first:%B %Y}"
            self._digest(user_id, f"sessions:{month}", title, points, items, now, zh)
        return len(old)

    def _digest(
        self,
        user_id: str,
        key: str,
        title: str,
        parts: list[str],
        sources: list[MemoryItem],
        now: datetime,
        zh: bool,
    ) -> None:
        """Create the period digest ``key`` or extend the existing one: one digest per month and type."""
        tag = f"period:{key}"
        existing = self.stores.records.query(
            user_id, MemoryQuery(kinds=(Kind.SUMMARY,), tags=(tag,), limit=1)
        )
        if existing:
            body = re.split(r"[：:]", existing[0].text, maxsplit=1)[-1]
            parts = [p for p in re.split(r"[；;] ?", body) if p] + parts
        parts = list(dict.fromkeys(parts))
        if self.summariser is not None and len(parts) >= _COMPRESS_FROM:
            parts = self.summariser.compress_period(title, parts, "zh" if zh else "en")
        parts = parts[:_MAX_POINTS]
        text = f"{title}：" + "；".join(parts) if zh else f"{title}: " + "; ".join(parts)
        digest = self._derived(
            user_id, text, [*existing, *sources], now, Kind.SUMMARY, Category.EVENT, "period-summary"
        )
        digest.tags.append(tag)
        digest.event_status = (
            EventStatus.UNRESOLVED if any(m.event_status is EventStatus.UNRESOLVED for m in sources) else None
        )
        if existing:
            digest.id = existing[0].id  # the same digest, grown: history shows each extension
            digest.created_at = existing[0].created_at
            if existing[0].event_status is EventStatus.UNRESOLVED:
                digest.event_status = EventStatus.UNRESOLVED
        self._replace(sources, digest, now, f"compressed into the digest {key}")

    # -- shared -----------------------------------------------------------------------------------

    def _derived(
        self,
        user_id: str,
        text: str,
        sources: list[MemoryItem],
        now: datetime,
        kind: Kind,
        category: Category,
        tag: str,
    ) -> MemoryItem:
        trend = tag == "trend"  # a trend is a semantic memory: a flag, not a tag, says it was built
        return MemoryItem(
            user_id=user_id,
            text=text,
            kind=kind,
            category=category,
            # a digest is not itself a session summary: it must not be compressed again
            tags=list(
                dict.fromkeys(
                    [
                        *([] if trend else [tag]),
                        *(t for m in sources for t in m.tags if not t.startswith("session-")),
                    ]
                )
            ),
            flags=frozenset({Flag.DERIVED}) if trend else frozenset(),
            entities=list(dict.fromkeys(e for m in sources for e in m.entities)),
            importance=round(min(1.0, max(m.importance for m in sources) + 0.05), 3),
            confidence=max(m.confidence for m in sources),
            stability=0.6,
            source=Source.INFERRED,
            created_at=now,
            updated_at=now,
            last_verified_at=now,
            valid_from=min(map(_when, sources)),
            valid_to=max(map(_when, sources)),
            provenance=list(dict.fromkeys(p for m in sources for p in m.provenance)),
            reason=f"{tag} of {len(sources)} memories",
            embedding=self.embedder.embed_passages([text])[0].tolist(),
        )

    def _replace(self, sources: list[MemoryItem], derived: MemoryItem, now: datetime, why: str) -> None:
        with self.stores.records.transaction(derived.user_id):
            grown = self.stores.records.get(derived.user_id, derived.id) is not None
            self.stores.records.put(derived, tokens_for(derived))
            op = "update" if grown else "add"
            record(self.stores, derived.user_id, derived.id, op, now, derived.reason, after=derived.text)
            for m in sources:
                m.status = Status.ARCHIVED
                m.superseded_by = derived.id
                m.updated_at = now
                self.stores.records.put(m, tokens_for(m))
                record(self.stores, m.user_id, m.id, "archive", now, why)
