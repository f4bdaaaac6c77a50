"""What one write keeps long-term: a memory for each decision to keep, with its vector, after the
judge's second look at the clause.

Every memory about to be kept long-term is embedded (as before: one pass for the write), and the
judge reads a fact, a preference or an episode again with that vector, its clause's (with its day,
for an episode) (:meth:`~memlane.write.judge.Judge.second_look`): what it moves to the session or the
bin is not kept, and its vector was the only cost. A clause dropped as about nothing in particular
is embedded in the same pass, and what the second look keeps of it is kept with that vector (an
episode is embedded again with its day)::

    decisions, made = Keeper(embedder, judge).keep("u1", "s1", decisions, said_at, look=True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt

from memlane.domain import Action, Decision, Flag, Kind, MemoryItem, Source
from memlane.embed import Embedder
from memlane.store.tokens import indexed
from memlane.write.judge import Judge
from memlane.write.planner import LONG_TERM

_KIND = {Action.SEMANTIC: Kind.SEMANTIC, Action.EPISODIC: Kind.EPISODIC, Action.PROFILE: Kind.PROFILE}


class Keeper:
    """Makes the memories of one write's decisions to keep, and their vectors."""

    def __init__(self, embedder: Embedder, judge: Judge) -> None:
        self.embedder = embedder
        self.judge = judge

    def keep(
        self,
        user_id: str,
        session_id: str | None,
        decisions: Sequence[Decision],
        said_at: Callable[[Decision], datetime],
        *,
        look: bool,
        withdrawn: Collection[str] = (),
    ) -> tuple[list[Decision], dict[int, MemoryItem]]:
        """The decisions (after the second look, with ``look``: not for an explicit ``remember``) and
        the memory of each decision to keep, by ``id`` of the decision, each with its vector. Nothing
        of a message in ``withdrawn`` ("别记这个") is kept again."""
        made = {
            id(d): item(user_id, session_id, d, said_at(d))
            for d in decisions
            if d.action in LONG_TERM and d.candidate is not None
        }
        looking = look and self.embedder.name == "e5" and self.judge.head is not None
        spare = [
            d
            for d in decisions
            if looking
            and d.action not in LONG_TERM
            and d.candidate is not None
            and d.candidate.message_id not in withdrawn
            and self.judge.reads_again(d)
        ]
        texts = [indexed(m) for m in made.values()] + [d.candidate.text for d in spare if d.candidate]
        embedded = list(self.embedder.embed_passages(texts)) if texts else []
        vectors = dict(zip(made, embedded[: len(made)], strict=True))
        vectors.update(zip(map(id, spare), embedded[len(made) :], strict=True))
        out = list(decisions)
        if looking:
            out = [
                self.judge.second_look(d, vectors[id(d)], said_at(d)) if id(d) in vectors else d
                for d in decisions
            ]
            still = {id(d) for d in out}
            made = {key: m for key, m in made.items() if key in still}
            for before, after in zip(decisions, out, strict=True):
                if after.action in LONG_TERM and id(after) not in made and id(before) in vectors:
                    made[id(after)] = kept = item(user_id, session_id, after, said_at(after))
                    plain = kept.kind is not Kind.EPISODIC  # an episode's vector holds its day
                    vectors[id(after)] = vectors[id(before)] if plain else self._vector(kept)
        for key, memory in made.items():
            memory.embedding = vectors[key].tolist()
        return out, made

    def _vector(self, memory: MemoryItem) -> npt.NDArray[np.float32]:
        (vector,) = self.embedder.embed_passages([indexed(memory)])
        return np.asarray(vector, dtype=np.float32)


def item(user_id: str, session_id: str | None, decision: Decision, at: datetime) -> MemoryItem:
    """The memory a decision to keep makes of its candidate, said at ``at``."""
    c = decision.candidate
    assert c is not None
    return MemoryItem(
        user_id=user_id,
        text=c.text,
        kind=_KIND[decision.action],
        category=c.category,
        tags=list(dict.fromkeys(c.tags)),
        entities=list(dict.fromkeys([*c.objects, *c.entities])),
        importance=decision.importance,
        confidence=decision.confidence,
        stability=decision.stability,
        sensitivity=decision.sensitivity,
        source=Source.EXPLICIT if c.explicit else Source.INFERRED,
        session_id=session_id,
        slot=c.slot,
        value=c.value,
        polarity=c.polarity,
        event_status=c.event_status,
        flags=frozenset({Flag.INSTRUCTION}) if c.instruction else frozenset(),
        created_at=at,
        updated_at=at,
        last_verified_at=at,
        expires_at=decision.expires_at,
        # an event told without a date happened around the time it was told
        valid_from=c.event_time or (at if decision.action is Action.EPISODIC else None),
        provenance=[c.message_id] if c.message_id else [],
        reason=decision.reason,
    )
