"""Which open episode a new one settles: the complaint a resolution refers to ("耳机收到了"), the
planned event a cancellation or a new date refers to ("vet cancelled friday, rebooked for tuesday"),
the plan whose time has come that a done event says happened ("FINALS DONE" after "finals in 2
weeks"), and the habit a move from now on gives a new time ("从下礼拜开始训练挪到放学后" after "我们现在
是早上六点半练"). :mod:`memlane.write.reconcile` resolves or retires what these find."""

from __future__ import annotations

import re
from datetime import timedelta

import numpy as np

from memlane.domain import Category, EventStatus, Kind, MemoryItem
from memlane.vocabulary import MemoryQuery
from memlane.write.changes import changeable
from memlane.write.extract.holds import FROM_NOW_ON
from memlane.write.extract.reference import kin_subject
from memlane.write.pool import Pool
from memlane.write.wording import shares_a_word

# how far back a resolution looks for the complaint it settles, and how close a named one must be
_RESOLVE_WINDOW_DAYS = 60
_RESOLVE_SIMILARITY = 0.85
# what says a plan waits on someone's answer
_WAITING = re.compile(
    r"还在等|在等(?:通知|消息|结果|回复|审批|批)|审核中|审批中|还没(?:消息|回复|下来|批)"
    r"|(?i:\bwaiting\s+(?:on|for|to\s+hear)\b|\bpending\b|\bstill\s+hasn'?t\s+(?:replied|heard|come\s+back)"
    r"|\bhaven'?t\s+heard\s+back\b)"
)


def resolved_complaint(pool: Pool, item: MemoryItem) -> MemoryItem | None:
    """The open complaint a resolution refers to: the most similar one when the resolution names its
    subject ("耳机收到了"), else the most recent one within the window ("问题解决了"). A plan still
    waiting on an answer is open too, when the resolution names it ("签证续签批下来了" settles "续签材料
    上周交了 还在等入境处消息")."""
    episodes = MemoryQuery(kinds=(Kind.EPISODIC,), categories=(Category.COMPLAINT.value, Category.PLAN.value))
    held = pool.query(episodes)
    open_ones = [
        m for m in held if m.category is Category.COMPLAINT and m.event_status is EventStatus.UNRESOLVED
    ]
    waiting = [m for m in held if m.event_status is EventStatus.PLANNED and _WAITING.search(m.text)]
    if item.created_at is not None:
        horizon = item.created_at - timedelta(days=_RESOLVE_WINDOW_DAYS)
        open_ones, waiting = (
            [m for m in ms if (m.created_at or horizon) >= horizon] for ms in (open_ones, waiting)
        )
    if item.embedding is not None:
        vector = np.asarray(item.embedding, dtype=np.float32)
        scored = [
            (float(np.dot(np.asarray(m.embedding, dtype=np.float32), vector)), m)
            for m in [*open_ones, *waiting]
            if m.embedding
        ]
        best = max(scored, key=lambda pair: pair[0], default=None)
        if best is not None and best[0] >= _RESOLVE_SIMILARITY and shares_a_word(best[1].text, item.text):
            return best[1]
    return open_ones[0] if open_ones else None  # newest first


def open_plan(pool: Pool, item: MemoryItem) -> MemoryItem | None:
    """The planned event a cancellation or a new date refers to: of the plans still ahead (or due
    within the window), the closest in meaning among those sharing a word with it ("vet cancelled
    friday, rebooked for tuesday" → "biscuit has his first vet appointment on friday")."""
    plans = MemoryQuery(kinds=(Kind.EPISODIC,), categories=(Category.PLAN.value,))
    open_ones = [m for m in pool.query(plans) if m.event_status is EventStatus.PLANNED and m.id != item.id]
    if item.created_at is not None:
        horizon = item.created_at - timedelta(days=_RESOLVE_WINDOW_DAYS)
        open_ones = [m for m in open_ones if (m.valid_from or m.created_at or horizon) >= horizon]
    return _closest([m for m in open_ones if shares_a_word(m.text, item.text)], item)


def happened_plan(pool: Pool, item: MemoryItem) -> MemoryItem | None:
    """The plan a done event says happened: a plan still open whose time has come by when the event
    was told (its day, or up to a day later) and not more than the window before it, that shares a
    word with the event, the closest in meaning. A plan still ahead is another occasion ("上周去了
    上海" leaves "下周去上海出差" planned)."""
    if item.created_at is None:
        return None
    told = item.created_at
    plans = MemoryQuery(kinds=(Kind.EPISODIC,), categories=(Category.PLAN.value,))
    due = [
        m
        for m in pool.query(plans)
        if m.event_status is EventStatus.PLANNED
        and m.id != item.id
        and m.valid_from is not None
        and told - timedelta(days=_RESOLVE_WINDOW_DAYS) <= m.valid_from <= told + timedelta(days=1)
        and shares_a_word(m.text, item.text)
    ]
    return _closest(due, item)


def _closest(found: list[MemoryItem], item: MemoryItem) -> MemoryItem | None:
    """Of ``found`` (newest first), the one closest in meaning to ``item``; the newest when either
    side has no vector."""
    if not found or item.embedding is None:
        return found[0] if found else None
    vector = np.asarray(item.embedding, dtype=np.float32)
    return max(
        found,
        key=lambda m: (
            float(np.dot(np.asarray(m.embedding, dtype=np.float32), vector)) if m.embedding else -1.0
        ),
    )


# how close in meaning the habit a move from now on retimes must be
_RETIMED_SIMILARITY = 0.9


def retimed_habit(pool: Pool, item: MemoryItem) -> MemoryItem | None:
    """The habit a plan of how things will be from a time on gives a new time or a new way ("从下礼拜开始
    训练挪到放学后", "from next monday my buses go dey run ikotun to oshodi only"): the closest lasting
    memory of the same person that could change, at least :data:`_RETIMED_SIMILARITY` in meaning and
    sharing a word ("下周的组会挪到周四" moves that one meeting, and retires nothing)."""
    if item.embedding is None or not FROM_NOW_ON.search(item.text):
        return None
    kin = kin_subject(item.text)
    near = [
        m
        for score, m in pool.near(item.embedding, Kind.SEMANTIC)
        if score >= _RETIMED_SIMILARITY
        and m.id != item.id
        and m.category is not Category.STYLE
        and changeable(m, bool(kin))
        and kin_subject(m.text) == kin
        and shares_a_word(m.text, item.text)
    ]
    return near[0] if near else None
