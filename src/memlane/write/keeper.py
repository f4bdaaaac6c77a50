"""What one write keeps long-term: a memory for each decision to keep, with its vector, after the
judge's second look at the clause.

Every memory about to be kept long-term is embedded (as before: one pass for the write), and the
judge reads a fact, a preference or an episode again with that vector, its clause's (with its day,
for an episode) (:meth:`~memlane.write.judge.Judge.second_look`): what it moves to the session or the
bin is not kept, and its vector was the only cost. A clause dropped as about nothing in particular
that the judge may still keep is named in ``later``: the write path has it embedded off the
caller's path (:mod:`memlane.write.backlog`), and :meth:`Keeper.rescue` keeps it when the second look
is sure it lasts, or when it says that a memory of the user's no longer holds (:func:`may_end`, read
by the ending head)::

    decisions, made, later = Keeper(embedder, judge).keep("u1", "s1", decisions, said_at, look=True)
    kept = keeper.rescue("u1", "s1", later[0], vector, said_at(later[0]), ends)  # (decision, memory) or None
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import datetime

import numpy as np
import numpy.typing as npt

from memlane.domain import Action, Decision, Flag, Kind, MemoryItem, Source
from memlane.embed import Embedder
from memlane.store.tokens import indexed
from memlane.write.ended import as_news, may_end
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
    ) -> tuple[list[Decision], dict[int, MemoryItem], list[Decision]]:
        """The decisions (after the second look, with ``look``: not for an explicit ``remember``), the
        memory of each decision to keep, by ``id`` of the decision, each with its vector, and the
        dropped decisions the second look may still keep once their clause is embedded. Nothing of a
        message in ``withdrawn`` ("别记这个") is kept again."""
        made = {
            id(d): item(user_id, session_id, d, said_at(d))
            for d in decisions
            if d.action in LONG_TERM and d.candidate is not None
        }
        texts = [indexed(m) for m in made.values()]
        vectors = dict(zip(made, self.embedder.embed_passages(texts) if texts else [], strict=True))
        for key, memory in made.items():
            memory.embedding = vectors[key].tolist()
        if not self._looking(look):
            return list(decisions), made, []
        # the second look only moves a decision out of the long term, as a new decision: one it
        # leaves is the same decision, with the memory made for it
        out = [
            self.judge.second_look(d, vectors[id(d)], said_at(d)) if id(d) in vectors else d
            for d in decisions
        ]
        still = {id(d) for d in out}
        made = {key: m for key, m in made.items() if key in still}
        later = [
            d
            for d in decisions
            if d.action not in LONG_TERM
            and d.candidate is not None
            and d.candidate.message_id not in withdrawn
            and (self.judge.reads_again(d) or may_end(d))
        ]
        # …and a clause the second look took out of the long term, which may still say a change (its
        # look is had: nothing gives it back)
        said = {id(d) for d in decisions}
        later += [replace(d, overruled=None) for d in out if id(d) not in said and may_end(d)]
        return out, made, later

    def rescue(
        self,
        user_id: str,
        session_id: str | None,
        decision: Decision,
        vector: npt.ArrayLike,
        at: datetime,
        ends: Callable[[MemoryItem], bool],
    ) -> tuple[Decision, MemoryItem] | None:
        """``decision`` (one of :meth:`keep`'s ``later``) read again with its clause's ``vector``: the
        decision to keep it and its memory, with its vector, or None to leave it dropped. A clause the
        second look leaves dropped is kept as the user's news when ``ends`` says its memory retires one
        of theirs."""
        again = self.judge.reads_again(decision)
        kept = self.judge.second_look(decision, vector, at) if again else decision
        if kept.candidate is None:
            return None
        news = kept.action not in LONG_TERM
        if news:
            if not may_end(decision):
                return None
            kept = as_news(decision)
        memory = item(user_id, session_id, kept, at)
        plain = memory.kind is not Kind.EPISODIC  # an episode's vector holds its day
        memory.embedding = (np.asarray(vector, dtype=np.float32) if plain else self._vector(memory)).tolist()
        return (kept, memory) if not news or ends(memory) else None

    def _looking(self, look: bool) -> bool:
        """Whether the judge reads clauses again with their e5 vectors."""
        return look and self.embedder.name == "e5" and self.judge.head is not None

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
