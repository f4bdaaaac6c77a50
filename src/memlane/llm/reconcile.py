"""The LLM reconciler: conflicts the rules cannot settle go to the model, all of one call in one request.

The rules settle most new memories alone: the same words, the same slot value, a new value of a
single-valued slot, a like turned into a dislike of the same object, a resolved complaint, a near
duplicate that shares its words. What they cannot settle are the *doubts* of
:func:`memlane.write.reconcile.find_match`: memories close in meaning that share few words ("我喜欢喝美式"
and "我最近开始喝冷萃了"), just under the duplicate threshold, or of opposite polarity by the embedding
alone. Before anything is written, every doubt of the new items of one ``add`` goes to the model in ONE
request; it answers same / update / contradict / unrelated with a reason, and
:func:`memlane.write.reconcile.settle` turns that into a merge, a supersede or a new memory, with the
reason in the decision's outcome and in history. A failure is logged and counted, and the rules' own
outcome stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlane.domain import MemoryItem
from memlane.settings import Settings
from memlane.store import Stores
from memlane.text.lang import detect
from memlane.write.pool import Pool
from memlane.write.reconcile import Reconciler, Ruling, Rulings

from .ask import Unusable, ask, fall_back, numbered
from .client import ChatClient, LLMStats, LLMUnavailable
from .prompts import ReconcileAnswer, reconcile_prompt

STAGE = "reconcile"
_SAID = {
    "same": "the same as an existing memory",
    "update": "an update of an existing memory",
    "contradict": "contradicts an existing memory",
    "unrelated": "unrelated to similar memories",
}


class LLMReconciler(Reconciler):
    """A :class:`~memlane.write.reconcile.Reconciler` whose doubts are ruled on by an LLM.

    >>> from memlane import Settings
    >>> from memlane.llm import ChatClient
    >>> client = ChatClient("http://localhost:11434/v1", "qwen2.5:7b")  # doctest: +SKIP
    >>> reconciler = LLMReconciler(Settings(), client)  # doctest: +SKIP
    """

    def __init__(self, settings: Settings, client: ChatClient) -> None:
        super().__init__(settings)
        self.client = client

    @property
    def stats(self) -> LLMStats:
        """Calls, tokens, latency and failures by stage."""
        return self.client.stats

    def review(self, stores: Stores, pending: Sequence[tuple[MemoryItem, list[str]]]) -> Rulings:
        """The model's rulings on every doubt of ``pending``, in one request; none when it fails."""
        matches = [
            (item, self.doubts(Pool(stores, item.user_id), item, objects)) for item, objects in pending
        ]
        # a memory that another statement of the same turn settles for sure needs no opinion
        settled = {m.id for _, match in matches if not match.doubts for m in match.existing}
        asked = [
            (item, doubts)
            for item, match in matches
            if (doubts := [m for m in match.doubts if m.id not in settled])
        ]
        if not asked:
            return {}
        pairs = [(item, old) for item, doubts in asked for old in doubts]
        lang = detect(" ".join(item.text for item, _ in asked))
        at = max((item.created_at for item, _ in asked if item.created_at is not None), default=None)
        if at is None:
            return {}

        def check(answer: ReconcileAnswer) -> None:
            numbered([v.existing for v in answer.relations], len(pairs), "existing memory")

        prompt = reconcile_prompt(
            [(item.text, [old.text for old in doubts]) for item, doubts in asked], at, lang
        )
        try:
            answer = ask(
                self.client,
                prompt,
                ReconcileAnswer,
                stage=STAGE,
                lang=lang,
                list_key="relations",
                check=check,
            )
        except (LLMUnavailable, Unusable) as exc:
            fall_back(self.client, STAGE, f"{len(pairs)} pair(s) of memories", exc)
            return {}
        rulings: dict[tuple[str, str], Ruling] = {}
        for number, (item, old) in enumerate(pairs, 1):
            verdict = answer.of(number)
            assert verdict is not None  # check() saw to it
            reason = verdict.reason.strip() or _SAID[verdict.relation]
            rulings[(item.id, old.id)] = Ruling(verdict.relation, f"{reason} (the LLM: {verdict.relation})")
        return rulings
