"""What reconciling a new memory decides: how it relates to what is held (:class:`Kin`, :class:`Match`),
a second opinion on a near memory it could not settle (:class:`Ruling`), and how older memories are
retired (:func:`retire`: a weaker claim never overwrites an explicit one, and nothing overwrites what was
said after it). :mod:`memlane.write.reconcile` finds the match; the write plan applies it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from memlane.domain import MemoryItem, Source
from memlane.write.notes import note


class Kin(str, Enum):
    """How a new item relates to what is held."""

    NEW = "new"
    MERGE = "merge"
    SUPERSEDE = "supersede"
    WEAKER = "weaker"
    RESOLVE = "resolve"
    FULFIL = "fulfil"  # new, and the plan it names happened


@dataclass(frozen=True)
class Match:
    """What the new item is to the held memories.

    ``wording`` says, for a merge, whose text the merged memory keeps (``"new"`` when the new
    statement says more). ``doubts`` are the near memories the rules could not settle; when there
    are any, ``kin`` is the rules' guess about them.
    """

    kin: Kin
    existing: tuple[MemoryItem, ...] = ()
    similarity: float = 0.0
    why: str = ""
    doubts: tuple[MemoryItem, ...] = ()
    wording: Literal["old", "new"] = "old"


Relation = Literal["same", "update", "contradict", "unrelated"]


@dataclass(frozen=True)
class Ruling:
    """A second opinion on how a new memory relates to one it was close to, and why."""

    relation: Relation
    reason: str


Rulings = Mapping[tuple[str, str], Ruling]
"""Rulings keyed by (new item id, existing memory id)."""

Originals = Callable[[MemoryItem], "str | None"]
"""The sealed original of a memory (its text with the values its placeholders hide), or None."""


def weaker(new: MemoryItem, old: MemoryItem) -> bool:
    return (
        old.source is Source.EXPLICIT
        and new.source is not Source.EXPLICIT
        and new.confidence < old.confidence
    )


def retire(item: MemoryItem, olds: Sequence[MemoryItem], why: str) -> Match:
    """Supersede ``olds``, unless the strongest of them is an explicit claim and ``item`` a weaker one.
    What was said after ``item`` stays (a clause read again after the write, a history imported out
    of order): the item is older news, not kept when nothing older is left to replace."""
    later = [m for m in olds if said_after(m, item)]
    if later:
        olds = [m for m in olds if m not in later]
        if not olds:
            return Match(Kin.WEAKER, (later[0],), why=note("later", item.text))
    strongest = max(olds, key=lambda m: m.confidence)
    if weaker(item, strongest):
        return Match(Kin.WEAKER, (strongest,), why=note("explicit", item.text))
    return Match(Kin.SUPERSEDE, tuple(olds), why=why)


def said_after(old: MemoryItem, item: MemoryItem) -> bool:
    return old.created_at is not None and item.created_at is not None and old.created_at > item.created_at
