"""Reconcile a judged candidate with what the user's memory already holds.

In order: an exact duplicate (same normalised text) or a near duplicate (close in meaning, same
polarity, same slot value, same day for events) merges into the existing item and strengthens it; a
contradiction (same single-valued slot with another value, or the same object liked and now not)
supersedes the old item, which stays in history; a weaker claim never overwrites an explicit one.

Where the rules only guess, the match says so: its ``doubts`` are the near memories it could not
settle (close in meaning but sharing few words, close but just under the duplicate threshold, or of
opposite polarity by the embedding alone). :class:`Reconciler` is the port the write path uses; the
rule reconciler keeps the guess, and a second opinion (the LLM reconciler) can rule on every doubt of
one call at once through :meth:`Reconciler.review`, with :func:`settle` turning its rulings into the
outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum
from typing import Literal

import numpy as np

from memlane.domain import Category, EventStatus, Kind, MemoryItem, Source
from memlane.privacy import injection
from memlane.settings import Settings
from memlane.store import MemoryQuery, MemoryStore
from memlane.text.keywords import content_words
from memlane.text.lang import normalize

# how far back a resolution looks for the complaint it settles, and how close a named one must be
_RESOLVE_WINDOW_DAYS = 60
_RESOLVE_SIMILARITY = 0.85
# share of content words two near duplicates must have in common
_MIN_OVERLAP = 0.6
# slots that hold many values at once: liking tea does not contradict liking coffee
_MULTI_VALUED_CATEGORIES = {Category.PREFERENCE, Category.DISLIKE, Category.FAMILY, Category.FACT}
# categories one statement can update or contradict across; others only within themselves
_FAMILIES = (
    {Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT},
    {Category.ROUTINE, Category.FACT},
    {Category.EVENT, Category.COMPLAINT, Category.PLAN},
)


class Outcome(str, Enum):
    NEW = "new"
    MERGE = "merge"
    SUPERSEDE = "supersede"
    WEAKER = "weaker"
    RESOLVE = "resolve"


@dataclass
class Match:
    """What the new item is to the existing memory.

    ``doubts`` are the near memories the rules could not settle; when there are any, ``outcome`` is
    the rules' guess about them.
    """

    outcome: Outcome
    existing: list[MemoryItem]
    similarity: float = 0.0
    why: str = ""
    doubts: list[MemoryItem] = field(default_factory=list)


Relation = Literal["same", "update", "contradict", "unrelated"]


@dataclass(frozen=True)
class Ruling:
    """A second opinion on how a new memory relates to one it was close to, and why."""

    relation: Relation
    reason: str


Rulings = Mapping[tuple[str, str], Ruling]
"""Rulings keyed by (new item id, existing memory id)."""


def _kin(a: Category, b: Category) -> bool:
    return a is b or any(a in family and b in family for family in _FAMILIES)


def _objects(item: MemoryItem) -> set[str]:
    return {normalize(o) for o in item.entities if o}


def _same_day(a: MemoryItem, b: MemoryItem) -> bool:
    if a.valid_from is None or b.valid_from is None:
        return a.valid_from is None and b.valid_from is None
    return a.valid_from.date() == b.valid_from.date()


def word_overlap(a: str, b: str) -> float:
    """Share of the smaller statement's content words found in the other (a word inside a longer one
    counts: 游戏 in 手机游戏). Near duplicates need this as well as a close embedding, because the
    embedding alone puts "我喜欢喝美式" and "我喜欢喝茶" at 0.96.
    """
    left, right = content_words(a), content_words(b)
    if not left or not right:
        return 1.0 if normalize(a) == normalize(b) else 0.0
    small, large = (left, right) if len(left) <= len(right) else (right, left)

    def found(word: str) -> bool:
        return word in large or (
            len(word) > 1 and any(word in other or other in word for other in large if len(other) > 1)
        )

    return sum(found(w) for w in small) / len(small)


def _resolved_complaint(store: MemoryStore, item: MemoryItem) -> MemoryItem | None:
    """The open complaint a resolution refers to: the most similar one when the resolution names its
    subject ("耳机收到了"), else the most recent one within the window ("问题解决了").
    """
    open_ones = [
        m
        for m in store.query(
            item.user_id, MemoryQuery(kinds=(Kind.EPISODIC,), categories=(Category.COMPLAINT.value,))
        )
        if m.event_status is EventStatus.UNRESOLVED
    ]
    if item.created_at is not None:
        horizon = item.created_at - timedelta(days=_RESOLVE_WINDOW_DAYS)
        open_ones = [m for m in open_ones if (m.created_at or horizon) >= horizon]
    if not open_ones:
        return None
    if item.embedding is not None:
        vector = np.asarray(item.embedding, dtype=np.float32)
        scored = [
            (float(np.dot(np.asarray(m.embedding, dtype=np.float32), vector)), m)
            for m in open_ones
            if m.embedding
        ]
        best = max(scored, key=lambda pair: pair[0], default=None)
        if best is not None and best[0] >= _RESOLVE_SIMILARITY and word_overlap(best[1].text, item.text) > 0:
            return best[1]
    return open_ones[0]  # newest first


def _weaker(new: MemoryItem, old: MemoryItem) -> bool:
    return (
        old.source is Source.EXPLICIT
        and new.source is not Source.EXPLICIT
        and new.confidence < old.confidence
    )


def find_match(
    store: MemoryStore, item: MemoryItem, objects: list[str], threshold: float, floor: float | None = None
) -> Match:
    """How ``item`` (not yet stored, with its embedding) relates to the user's active memories.

    Near memories of a kindred category from ``floor`` (the threshold unless given) up to the
    threshold, and near ones the rules cannot tell apart, become the match's ``doubts``.
    """
    uid = item.user_id
    exact = store.query(uid, MemoryQuery(norm=normalize(item.text), kinds=(item.kind,), limit=1))
    if exact:
        return Match(Outcome.MERGE, exact, 1.0, "the same words as an existing memory")

    if item.slot and item.category not in _MULTI_VALUED_CATEGORIES:
        same_slot = [m for m in store.query(uid, MemoryQuery(slot=item.slot)) if m.kind is not Kind.LOG]
        if same_slot:
            if any(m.value == item.value for m in same_slot):
                same = [m for m in same_slot if m.value == item.value]
                return Match(Outcome.MERGE, same, 1.0, f"the same {item.slot} as before")
            strongest = max(same_slot, key=lambda m: m.confidence)
            if _weaker(item, strongest):
                return Match(Outcome.WEAKER, [strongest], 0.0, f"an explicit {item.slot} is already known")
            return Match(Outcome.SUPERSEDE, same_slot, 0.0, f"a new value for {item.slot}")

    wanted = {normalize(o) for o in objects if o}
    if wanted and item.category in (Category.PREFERENCE, Category.DISLIKE, Category.CONSTRAINT):
        # only the memories about the same objects: a user may hold thousands of preferences
        spellings = tuple(dict.fromkeys(n for o in objects if o for n in (o, o.casefold())))
        related = store.query(
            uid,
            MemoryQuery(
                categories=(Category.PREFERENCE.value, Category.DISLIKE.value, Category.CONSTRAINT.value),
                entities=spellings,
            ),
        )
        flipped = [m for m in related if m.polarity != item.polarity and _objects(m) & wanted]
        if flipped:
            strongest = max(flipped, key=lambda m: m.confidence)
            if _weaker(item, strongest):
                return Match(Outcome.WEAKER, [strongest], 0.0, "an explicit statement says otherwise")
            names = ", ".join(sorted(wanted & set().union(*(_objects(m) for m in flipped))))
            return Match(Outcome.SUPERSEDE, flipped, 0.0, f"the user changed their mind about {names}")

    if item.category is Category.COMPLAINT and item.event_status is EventStatus.RESOLVED:
        solved = _resolved_complaint(store, item)
        if solved is not None:
            return Match(Outcome.RESOLVE, [solved], 0.0, "the problem the user reported is solved")

    if item.embedding is None:
        return Match(Outcome.NEW, [])
    vector = np.asarray(item.embedding, dtype=np.float32)
    near = store.vector_search(uid, vector, MemoryQuery(kinds=(item.kind,)), limit=5)
    floor = threshold if floor is None else min(floor, threshold)
    doubts: list[MemoryItem] = []
    for hit in near:
        if hit.score < floor:
            break
        old = store.get(uid, hit.id)
        if old is None or old.kind is Kind.LOG:
            continue
        if hit.score >= threshold and old.polarity != item.polarity:
            doubts.append(old)  # the embedding alone says "the opposite": a guess
            if _weaker(item, old):
                why = "an explicit statement says otherwise"
                return Match(Outcome.WEAKER, [old], hit.score, why, doubts)
            why = "says the opposite of an existing memory"
            return Match(Outcome.SUPERSEDE, [old], hit.score, why, doubts)
        if item.kind is Kind.EPISODIC and not _same_day(item, old):
            continue  # another day, another event
        if old.slot and item.slot and old.slot == item.slot and old.value != item.value:
            continue  # another value of a subject that holds many
        if hit.score < threshold:
            if _kin(old.category, item.category):  # close, but not enough for the rules to call it the same
                doubts.append(old)
            continue
        if word_overlap(old.text, item.text) < _MIN_OVERLAP:
            doubts.append(old)  # close in meaning, few words in common: "喜欢喝美式" and "喜欢喝茶"
            continue
        return Match(
            Outcome.MERGE, [old], hit.score, f"means the same as an existing memory ({hit.score:.2f})"
        )
    return Match(Outcome.NEW, [], doubts=doubts)


def settle(match: Match, item: MemoryItem, rulings: Rulings) -> Match:
    """The outcome for ``item`` once every doubt of ``match`` has a ruling; ``match`` when any has none.

    The same as a near memory merges into it; an update or a contradiction supersedes (a weaker
    claim still never overwrites an explicit one); unrelated to all of them, the item is new.
    """
    found = [(m, rulings.get((item.id, m.id))) for m in match.doubts]
    ruled = [(m, r) for m, r in found if r is not None]
    if not match.doubts or len(ruled) < len(found):
        return match
    same = [(m, r) for m, r in ruled if r.relation == "same"]
    if same:
        old, ruling = same[0]
        return Match(Outcome.MERGE, [old], why=ruling.reason)
    changed = [(m, r) for m, r in ruled if r.relation in ("update", "contradict")]
    if changed:
        strongest = max((m for m, _ in changed), key=lambda m: m.confidence)
        if _weaker(item, strongest):
            return Match(Outcome.WEAKER, [strongest], why="an explicit statement says otherwise")
        return Match(Outcome.SUPERSEDE, [m for m, _ in changed], why="; ".join(r.reason for _, r in changed))
    return Match(Outcome.NEW, [], why="; ".join(dict.fromkeys(r.reason for _, r in ruled)))


class Reconciler:
    """The rule reconciler, and the port a second opinion plugs into.

    :meth:`review` is asked, before anything is written, about all the new items of one call; the
    rules have no second opinion and return no rulings. :meth:`match` then settles each item, using
    the rulings where they cover every doubt and the rules' own guess elsewhere.
    """

    band = 0.05
    """How far under the duplicate threshold a near memory is still worth a second opinion."""

    def __init__(self, settings: Settings) -> None:
        self.threshold = settings.duplicate_similarity

    def review(self, store: MemoryStore, pending: Sequence[tuple[MemoryItem, list[str]]]) -> Rulings:
        """Rulings on the doubts of ``pending`` (new items with their objects); none from the rules."""
        return {}

    def match(
        self, store: MemoryStore, item: MemoryItem, objects: list[str], rulings: Rulings | None = None
    ) -> Match:
        """How ``item`` relates to the user's memories, with ``rulings`` settling the rules' doubts."""
        if not rulings:
            return find_match(store, item, objects, self.threshold)
        return settle(self.doubts(store, item, objects), item, rulings)

    def doubts(self, store: MemoryStore, item: MemoryItem, objects: list[str]) -> Match:
        """The rules' match with every near memory a second opinion should see (none for instructions)."""
        if injection.FLAG in item.tags:  # text that reads as an instruction is never put before a model
            return find_match(store, item, objects, self.threshold)
        return find_match(store, item, objects, self.threshold, floor=self.threshold - self.band)
