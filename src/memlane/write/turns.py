"""Log turns that say something no longer current.

A turn that said something since superseded, expired or marked wrong stays in the log (it is what was
said), flagged :attr:`~memlane.domain.Flag.OUTDATED`, so search ranks it below what is true now and
explains why; what else it said lives on in its other memories.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from memlane.domain import Flag, Kind, MemoryItem
from memlane.store import Stores
from memlane.store.tokens import tokens_for
from memlane.text.keywords import index_text
from memlane.vocabulary import MemoryQuery


def outdated(stores: Stores, retired: Iterable[MemoryItem]) -> list[tuple[MemoryItem, str]]:
    """The stored log turns ``retired`` memories came from, flagged outdated, with their index tokens."""
    out: list[tuple[MemoryItem, str]] = []
    seen: set[str] = set()
    for old in retired:
        for source in old.provenance:
            if source in seen:
                continue
            seen.add(source)
            for turn in stores.records.query(old.user_id, MemoryQuery(kinds=(Kind.LOG,), provenance=source)):
                if Flag.OUTDATED not in turn.flags:
                    marked = replace(turn, flags=turn.flags | {Flag.OUTDATED})
                    out.append((marked, tokens_for(marked) + context_tokens(stores, marked)))
    return out


def mark_outdated(stores: Stores, retired: Iterable[MemoryItem]) -> int:
    """Flag, in the stores, the turns ``retired`` memories came from."""
    found = outdated(stores, retired)
    for turn, tokens in found:
        stores.records.put(turn, tokens)
    return len(found)


def context_tokens(stores: Stores, turn: MemoryItem) -> str:
    """The keywords of the turn ``turn`` answers, which a log turn is indexed with: the one said
    before it in its session by another speaker (:func:`memlane.write.short_term.turn_before`)."""
    if turn.session_id is None or turn.valid_from is None:
        return ""
    earlier = MemoryQuery(kinds=(Kind.LOG,), session_id=turn.session_id, until=turn.valid_from, limit=2)
    before = next((m for m in stores.records.query(turn.user_id, earlier) if m.id != turn.id), None)
    if before is None or (before.role, sorted(before.tags)) == (turn.role, sorted(turn.tags)):
        return ""  # none, or the same speaker's: a turn does not answer its own speaker
    return f" {index_text(before.text)}"
