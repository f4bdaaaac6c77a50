"""The LLM judge: the rule judge decides, and the candidates it doubts go to the model in one call.

The rule judge (:class:`memlane.write.judge.Judge`) scores every candidate first. Most decisions are
sure: small talk, moods, sensitive data, assistant turns and stated facts with a subject or an
object never cost a call. The ones it doubts (:meth:`Judge.doubt`: an inferred candidate, or a bare
background fact, whose importance is near the write threshold) are sent together, ONE request per
``add``, and the model's verdict (keep or not, layer, importance, reason) replaces the rules' guess;
the write threshold still applies to the model's importance. A turn that withdraws consent
("don't remember that") costs no call. When the model cannot be reached, refuses, or twice sends
an answer that cannot be used, the failure is logged on ``memlane.llm`` and counted, and the rules'
decisions stand.

The request covers every doubtful candidate of one :meth:`Judge.decide_all`; the privacy policy and
the user's consent still have the last word on each decision (the write path applies them after
the judge). A candidate judged alone through :meth:`decide` (an explicit ``remember``) is decided by
the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memlane.domain import Action, Candidate, Category, Decision
from memlane.settings import Settings
from memlane.text.lang import detect
from memlane.write.judge import Judge

from .ask import Unusable, ask, fall_back, numbered
from .client import ChatClient, LLMStats, LLMUnavailable
from .prompts import Doubt, JudgeAnswer, Judgement, judge_prompt

STAGE = "judge"


class LLMJudge(Judge):
    """A :class:`~memlane.write.judge.Judge` that asks an LLM about the candidates the rules doubt.

    >>> from memlane import Settings
    >>> from memlane.llm import ChatClient
    >>> judge = LLMJudge(Settings(), ChatClient("http://localhost:11434/v1", "qwen2.5:7b"))  # doctest: +SKIP
    >>> judge.stats.stage("judge").calls  # doctest: +SKIP
    """

    def __init__(self, settings: Settings, client: ChatClient) -> None:
        super().__init__(settings)
        self.client = client

    @property
    def stats(self) -> LLMStats:
        """Calls, tokens, latency and failures by stage."""
        return self.client.stats

    def decide_all(self, candidates: Sequence[tuple[Candidate, datetime]]) -> list[Decision]:
        """The rules' decisions, each replaced by the model's where the rules doubt it and the model
        spoke of it: one request for all the doubts of the call."""
        rules = self.for_the_moment([self.decide(c, at) for c, at in candidates], candidates)
        judgements = self._advise(candidates, rules)
        out: list[Decision] = []
        for decision, (candidate, at) in zip(rules, candidates, strict=True):
            why = self.doubt(decision)
            judgement = judgements.get(_key(candidate)) if why is not None else None
            out.append(
                decision if judgement is None or why is None else self._overrule(decision, judgement, why, at)
            )
        return out

    def _advise(
        self, candidates: Sequence[tuple[Candidate, datetime]], rules: Sequence[Decision]
    ) -> dict[tuple[str | None, str], Judgement]:
        """The model's judgements on every doubt of the call, by candidate; none when it fails."""
        if any(c.category is Category.FORGET for c, _ in candidates):
            return {}  # the user is withdrawing what they said: nothing of it goes anywhere
        doubtful = list({_key(d.candidate): d for d in rules if d.candidate and self.doubt(d)}.values())
        if not doubtful:
            return {}
        lang = detect(" ".join(d.text for d in doubtful))
        at = max(when for _, when in candidates)

        def check(answer: JudgeAnswer) -> None:
            numbered([j.candidate for j in answer.judgements], len(doubtful), "candidate")

        prompt = judge_prompt([_doubt(d) for d in doubtful], at, lang)
        try:
            answer = ask(
                self.client, prompt, JudgeAnswer, stage=STAGE, lang=lang, list_key="judgements", check=check
            )
        except (LLMUnavailable, Unusable) as exc:
            fall_back(self.client, STAGE, f"{len(doubtful)} candidate(s)", exc)
            return {}
        out: dict[tuple[str | None, str], Judgement] = {}
        for number, decision in enumerate(doubtful, 1):
            judgement = answer.of(number)
            if judgement is not None and decision.candidate is not None:
                out[_key(decision.candidate)] = judgement
        return out

    def _overrule(self, decision: Decision, judgement: Judgement, why: str, at: datetime) -> Decision:
        reason = judgement.reason.strip() or ("worth keeping" if judgement.keep else "not worth keeping")
        verdict = "keep" if judgement.keep else "discard"
        return self.reconsider(
            decision,
            at,
            keep=judgement.keep,
            layer=Action(judgement.layer),
            importance=judgement.importance,
            reason=f"{reason} (the LLM judge: {verdict}, importance {judgement.importance:.2f}; the rules "
            f"were unsure: {why})",
        )


def _key(candidate: Candidate) -> tuple[str | None, str]:
    # the policy hands the judge a copy of the candidate: its message and text still name it
    return candidate.message_id, candidate.text


def _doubt(decision: Decision) -> Doubt:
    c = decision.candidate
    assert c is not None
    return Doubt(decision.text, c.category.value, c.slot, inferred=not c.explicit)
