"""The rule judge: is a candidate worth keeping, where, for how long, and why, by its category.

Each candidate is scored for importance, confidence, stability and sensitivity in [0, 1] and given
one action: discard, session only, long-term semantic, episodic, or a profile slot. Every decision
carries a reason a person can read. The policy is a table keyed on the candidate's category, adjusted
by what the extractor noticed (a guess, an inference, a request to remember, an assistant turn).

Whether a kept candidate goes to the profile is its slot's business (:mod:`memlane.profile`): a
candidate whose slot belongs in the profile is a profile memory, whatever its category.

The rules are sure of most decisions. Where they guess, :meth:`Judge.doubt` says so: a candidate
the rules only inferred, or the catch-all background fact (no subject, no object), whose importance
lands within :attr:`Judge.margin` of the write threshold. :meth:`Judge.decide_all` judges the
candidates of one call together, so a second opinion (the LLM judge) can take all doubts at once.
:class:`~memlane.write.judge.Judge` lets the learned model overrule these rules where it is sure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from memlane.domain import Action, Candidate, Category, Decision
from memlane.privacy.sensitive import NEVER_STORE
from memlane.profile import spec
from memlane.settings import Settings
from memlane.text.lang import said
from memlane.write.extract.holds import LASTING, STANDING

from .reasons import SPEAKERS_ZH, below_threshold, never_stored, noted


@dataclass(frozen=True)
class Policy:
    """How the judge treats a category by default."""

    action: Action
    importance: float
    stability: float
    expiry: str  # "none" | "temporary" | "event" | "session"
    why: str  # the reason given for keeping (or not keeping) it, in a few words
    why_zh: str  # the same, to a user who writes Chinese

    def said(self, lang: str) -> str:
        """Why, in ``lang``."""
        return said(lang, self.why, self.why_zh)


P = Policy
POLICIES: dict[Category, Policy] = {
    Category.NAME: P(Action.PROFILE, 0.9, 0.95, "none", "who the user is", "用户是谁"),
    Category.LOCATION: P(
        Action.PROFILE, 0.8, 0.8, "none", "where the user lives or works", "用户住在或工作在哪里"
    ),
    Category.JOB: P(Action.PROFILE, 0.8, 0.8, "none", "the user's work", "用户的工作"),
    Category.CONTACT: P(
        Action.PROFILE, 0.85, 0.8, "none", "how the user wants to be contacted", "用户希望怎样被联系"
    ),
    Category.STYLE: P(
        Action.PROFILE, 0.8, 0.7, "none", "how the user wants to be answered", "用户希望怎样被回答"
    ),
    Category.FAMILY: P(Action.SEMANTIC, 0.75, 0.9, "none", "the user's family", "用户的家人"),
    Category.PREFERENCE: P(Action.SEMANTIC, 0.7, 0.7, "none", "a stated preference", "明确说过的偏好"),
    Category.DISLIKE: P(Action.SEMANTIC, 0.75, 0.7, "none", "a stated dislike", "明确说过的不喜欢"),
    Category.CONSTRAINT: P(Action.SEMANTIC, 0.8, 0.8, "none", "a constraint to respect", "需要遵守的限制"),
    Category.ROUTINE: P(Action.SEMANTIC, 0.75, 0.7, "none", "a recurring routine", "固定的习惯"),
    Category.FACT: P(Action.SEMANTIC, 0.7, 0.7, "none", "background about the user", "用户的背景"),
    Category.PLAN: P(Action.EPISODIC, 0.7, 0.3, "temporary", "a plan with a time", "有时间的计划"),
    Category.EVENT: P(Action.EPISODIC, 0.7, 0.5, "event", "something that happened", "发生过的事"),
    Category.COMPLAINT: P(
        Action.EPISODIC, 0.8, 0.5, "event", "a problem the user reported", "用户反映的问题"
    ),
    Category.BUDGET: P(
        Action.SESSION, 0.7, 0.3, "session", "a condition of the user's current task", "用户当前任务的条件"
    ),
    Category.CONDITION: P(
        Action.SESSION, 0.5, 0.2, "session", "a condition of the current task", "当前任务的条件"
    ),
    Category.CONTEXT: P(
        Action.SESSION,
        0.3,
        0.1,
        "session",
        "one-off context, useful only in this conversation",
        "一次性的情境，只在本次对话有用",
    ),
    Category.MOOD: P(Action.DISCARD, 0.2, 0.1, "session", "a passing mood", "一时的情绪"),
    Category.SMALLTALK: P(Action.DISCARD, 0.05, 0.0, "session", "small talk", "闲聊"),
    Category.FORGET: P(
        Action.DISCARD, 0.0, 0.0, "session", "the user asked not to remember this", "用户要求不要记住"
    ),
    Category.REQUEST: P(
        Action.DISCARD,
        0.1,
        0.0,
        "session",
        "a request to the assistant, not a fact about the user",
        "对助手的请求，不是关于用户的事实",
    ),
    Category.SENSITIVE: P(Action.DISCARD, 0.0, 0.0, "session", "sensitive data", "敏感信息"),
    Category.HYPOTHETICAL: P(
        Action.DISCARD, 0.1, 0.0, "session", "imagined, not something that is so", "假设的情况，并非事实"
    ),
    Category.OTHER: P(
        Action.DISCARD, 0.1, 0.0, "session", "nothing lasting about the user", "没有关于用户的长久信息"
    ),
}


class RuleJudge:
    """Scores candidates and decides where each belongs by the rules alone; the thresholds come
    from :class:`Settings`. :class:`~memlane.write.judge.Judge` adds the learned model."""

    margin = 0.1
    """How close to the write threshold a guessed importance must be for the rules to doubt it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def decide_all(self, candidates: Sequence[tuple[Candidate, datetime]]) -> list[Decision]:
        """The decisions for the candidates of one call, each with the time of its message; a judge
        that asks for a second opinion asks once for the whole call."""
        return self.for_the_moment([self.decide(candidate, at) for candidate, at in candidates], candidates)

    def for_the_moment(
        self, decisions: Sequence[Decision], candidates: Sequence[tuple[Candidate, datetime]]
    ) -> list[Decision]:
        """A way to answer or to be reached said in a message that the judge found tells this moment
        (a clause it keeps for this conversation only as one-off context), with no word that makes it
        last, as part of it: "坐在Uber后座，reply简短点" (the first one-off context to the model, 0.85),
        "戴着耳机在跑步机上，你说话短一点". Not with a condition of a task ("battery and not being huge.
        tbh just give me the steps" is how the user likes answers). The extractor does the same where
        its own rules name the moment (:func:`~memlane.write.extract.occasion.in_the_moment`)."""
        now = {
            d.candidate.message_id
            for d in decisions
            if d.candidate is not None and d.action is Action.SESSION and d.category is Category.CONTEXT
        } - {None}  # a candidate of no known message is of no moment but its own
        out = []
        for d, (c, at) in zip(decisions, candidates, strict=True):
            if (
                c.message_id in now
                and d.category in (Category.STYLE, Category.CONTACT)
                and d.action in (Action.PROFILE, Action.SEMANTIC)
                and not LASTING.search(c.text)
                and not STANDING.search(c.text)
            ):
                c = replace(c, category=Category.CONTEXT, slot=None, value=None, session_only=True)
                d = RuleJudge.decide(self, c, at)
            out.append(d)
        return out

    def doubt(self, decision: Decision) -> str | None:
        """Why the rules are unsure of ``decision``, or None when they are sure.

        Sure: sensitive data, other speakers, small talk, moods and requests, guesses, one-off
        context, requests to remember, text that reads as an instruction to a model, and every stated
        fact with a subject or an object. Unsure: an inferred candidate or a bare background fact
        whose importance is near the write threshold.
        """
        c = decision.candidate
        if c is None or c.role != "user" or c.sensitive or c.hedged or c.session_only or c.remember_request:
            return None
        if c.instruction:  # text that reads as an instruction is never put before a model
            return None
        policy = POLICIES[c.category]
        if policy.action in (Action.DISCARD, Action.SESSION):
            return None
        bare = c.category is Category.FACT and c.slot is None and not c.objects
        if c.explicit and not bare:
            return None
        threshold = self.settings.write_threshold
        if round(abs(decision.importance - threshold), 3) > self.margin:
            return None
        what = "inferred, not stated" if not c.explicit else "a background fact with no subject or object"
        return f"{what}; importance {decision.importance:.2f} near the threshold {threshold:.2f}"

    def reconsider(
        self, decision: Decision, at: datetime, *, keep: bool, layer: Action, importance: float, reason: str
    ) -> Decision:
        """``decision`` as a second opinion sees it (keep or not, the layer, the importance, why).

        The write threshold still applies: a memory kept below it stays in the session only. A
        profile layer needs a slot; an episodic memory of an undated category expires like an event.
        """
        c = decision.candidate
        assert c is not None
        importance = round(min(1.0, max(0.0, importance)), 3)
        threshold = self.settings.write_threshold
        if not keep or layer is Action.DISCARD:
            action = Action.DISCARD
        elif layer is Action.SESSION:
            action = Action.SESSION
        elif importance < threshold:
            action = Action.SESSION
            reason = below_threshold(reason, importance, threshold, [], c.lang)
        else:
            action = placed(layer, c)
        policy = POLICIES[c.category]
        if action is Action.EPISODIC and policy.expiry == "none":
            policy = POLICIES[Category.EVENT]
        return replace(
            decision,
            action=action,
            importance=importance,
            reason=reason,
            expires_at=self._expiry(action, policy, c, at),
        )

    def decide(self, candidate: Candidate, at: datetime) -> Decision:
        """The decision for one candidate extracted from a message sent at ``at``."""
        policy = POLICIES[candidate.category]
        importance = policy.importance
        confidence = 0.9 if candidate.explicit else 0.6
        notes: list[str] = []

        lang = candidate.lang
        why = policy.said(lang)
        if candidate.remember_request:
            importance = min(1.0, importance + 0.25)
            notes.append(said(lang, "the user asked to remember it", "用户要求记住"))
        if candidate.hedged:
            confidence = 0.35
        sensitivity = 1.0 if candidate.sensitive else 0.0

        def verdict(action: Action, reason: str) -> Decision:
            return Decision(
                action=action,
                text=candidate.text,
                reason=reason,
                category=candidate.category,
                importance=round(importance, 3),
                confidence=confidence,
                stability=policy.stability,
                sensitivity=sensitivity,
                expires_at=self._expiry(action, policy, candidate, at),
                candidate=candidate,
            )

        blocked = [k for k in candidate.sensitive if k in NEVER_STORE]
        if blocked:
            return verdict(Action.DISCARD, never_stored(blocked, lang))
        if candidate.role != "user":
            speaker = said(lang, f"the {candidate.role}", SPEAKERS_ZH.get(candidate.role, candidate.role))
            return verdict(
                Action.DISCARD,
                said(
                    lang,
                    f"said by {speaker}, not the user: never a user fact",
                    f"{speaker}说的，不是用户说的：不算用户的事实",
                ),
            )
        if policy.action is Action.DISCARD and not candidate.remember_request:
            return verdict(Action.DISCARD, said(lang, f"{why}: not worth remembering", f"{why}：不值得记住"))
        if candidate.hedged:
            return verdict(
                Action.SESSION,
                said(
                    lang,
                    "a guess, not a confirmed fact: kept for this conversation only",
                    "只是猜测，不是确定的事实：仅在本次对话中保留",
                ),
            )
        if candidate.session_only or policy.action is Action.SESSION:
            return verdict(
                Action.SESSION,
                said(lang, f"{why}: kept for this conversation only", f"{why}：仅在本次对话中保留"),
            )
        if not candidate.explicit:
            importance -= 0.1
            notes.append(said(lang, "inferred, not stated", "推断而来，并非明说"))
        threshold = self.settings.write_threshold
        if importance < threshold:
            return verdict(Action.SESSION, below_threshold(why, importance, threshold, notes, lang))
        kept = Action.SEMANTIC if policy.action is Action.DISCARD else policy.action  # remembered on request
        action = placed(kept, candidate)
        return verdict(
            action,
            said(lang, f"{why}, importance {importance:.2f}", f"{why}，重要性 {importance:.2f}")
            + noted(notes, lang),
        )

    def _expiry(self, action: Action, policy: Policy, candidate: Candidate, at: datetime) -> datetime | None:
        if action in (Action.DISCARD, Action.SESSION):
            return None
        if policy.expiry == "temporary":
            start = max(at, candidate.event_time) if candidate.event_time else at
            return _later(start, self.settings.temporary_days)
        if policy.expiry == "event":
            return _later(at, self.settings.event_days)
        return None


def _later(at: datetime, days: float) -> datetime | None:
    """``days`` after ``at``; None (no expiry) past the end of the calendar, as for an event dated 9999."""
    try:
        return at + timedelta(days=days)
    except OverflowError:
        return None


def placed(action: Action, candidate: Candidate) -> Action:
    """Where a long-term memory of ``candidate`` lives: the profile exactly when its slot belongs
    there (an episode stays an episode)."""
    if action is Action.EPISODIC:
        return action
    if candidate.slot is not None and spec(candidate.slot).profile:
        return Action.PROFILE
    return Action.SEMANTIC if action is Action.PROFILE else action
