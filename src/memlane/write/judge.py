"""The memory judge: is a candidate worth keeping, where, for how long, and why.

Each candidate is scored for importance, confidence, stability and sensitivity in [0, 1] and given
one action: discard, session only, long-term semantic, episodic, or a profile slot. Every decision
carries a reason a person can read. The policy is a table keyed on the candidate's category, adjusted
by what the extractor noticed (a guess, an inference, a request to remember, an assistant turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memlane.domain import Action, Candidate, Category, Decision
from memlane.privacy.sensitive import NEVER_STORE
from memlane.settings import Settings


@dataclass(frozen=True)
class Policy:
    """How the judge treats a category by default."""

    action: Action
    importance: float
    stability: float
    expiry: str  # "none" | "temporary" | "event" | "session"
    why: str  # the reason given for keeping (or not keeping) it, in a few words


P = Policy
POLICIES: dict[Category, Policy] = {
    Category.NAME: P(Action.PROFILE, 0.9, 0.95, "none", "who the user is"),
    Category.LOCATION: P(Action.PROFILE, 0.8, 0.8, "none", "where the user lives or works"),
    Category.JOB: P(Action.PROFILE, 0.8, 0.8, "none", "the user's work"),
    Category.CONTACT: P(Action.PROFILE, 0.85, 0.8, "none", "how the user wants to be contacted"),
    Category.STYLE: P(Action.PROFILE, 0.8, 0.7, "none", "how the user wants to be answered"),
    Category.FAMILY: P(Action.SEMANTIC, 0.75, 0.9, "none", "the user's family"),
    Category.PREFERENCE: P(Action.SEMANTIC, 0.7, 0.7, "none", "a stated preference"),
    Category.DISLIKE: P(Action.SEMANTIC, 0.75, 0.7, "none", "a stated dislike"),
    Category.CONSTRAINT: P(Action.SEMANTIC, 0.8, 0.8, "none", "a constraint to respect"),
    Category.ROUTINE: P(Action.SEMANTIC, 0.75, 0.7, "none", "a recurring routine"),
    Category.FACT: P(Action.SEMANTIC, 0.7, 0.7, "none", "background about the user"),
    Category.PLAN: P(Action.EPISODIC, 0.7, 0.3, "temporary", "a plan with a time"),
    Category.EVENT: P(Action.EPISODIC, 0.7, 0.5, "event", "something that happened"),
    Category.COMPLAINT: P(Action.EPISODIC, 0.8, 0.5, "event", "a problem the user reported"),
    Category.BUDGET: P(Action.SEMANTIC, 0.7, 0.3, "temporary", "a condition of the user's current task"),
    Category.CONDITION: P(Action.SESSION, 0.5, 0.2, "session", "a condition of the current task"),
    Category.CONTEXT: P(
        Action.SESSION, 0.3, 0.1, "session", "one-off context, useful only in this conversation"
    ),
    Category.MOOD: P(Action.DISCARD, 0.2, 0.1, "session", "a passing mood"),
    Category.SMALLTALK: P(Action.DISCARD, 0.05, 0.0, "session", "small talk"),
    Category.FORGET: P(Action.DISCARD, 0.0, 0.0, "session", "the user asked not to remember this"),
    Category.REQUEST: P(
        Action.DISCARD, 0.1, 0.0, "session", "a request to the assistant, not a fact about the user"
    ),
    Category.SENSITIVE: P(Action.DISCARD, 0.0, 0.0, "session", "sensitive data"),
}

_SENSITIVE_NAMES = {
    "id_card": "an ID-card number",
    "bank_card": "a bank-card number",
    "password": "a password",
    "api_key": "an API key or token",
    "health": "a health detail",
    "phone": "a phone number",
    "email": "an email address",
}


class Judge:
    """Scores candidates and decides where each belongs; the thresholds come from :class:`Settings`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def decide(self, candidate: Candidate, at: datetime) -> Decision:
        """The decision for one candidate extracted from a message sent at ``at``."""
        policy = POLICIES[candidate.category]
        importance = policy.importance
        confidence = 0.9 if candidate.explicit else 0.6
        notes: list[str] = []

        if candidate.remember_request:
            importance = min(1.0, importance + 0.25)
            notes.append("the user asked to remember it")
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
            what = " and ".join(_SENSITIVE_NAMES.get(k, k) for k in blocked)
            return verdict(Action.DISCARD, f"contains {what}; such content is never stored")
        if candidate.role != "user":
            return verdict(Action.DISCARD, f"said by the {candidate.role}, not the user: never a user fact")
        if policy.action is Action.DISCARD and not candidate.remember_request:
            return verdict(Action.DISCARD, f"{policy.why}: not worth remembering")
        if candidate.hedged:
            return verdict(Action.SESSION, "a guess, not a confirmed fact: kept for this conversation only")
        if candidate.session_only or policy.action is Action.SESSION:
            return verdict(Action.SESSION, f"{policy.why}: kept for this conversation only")
        if not candidate.explicit:
            importance -= 0.1
            notes.append("inferred, not stated")
        if importance < self.settings.write_threshold:
            note = f"; {', '.join(notes)}" if notes else ""
            return verdict(
                Action.SESSION,
                f"{policy.why}, importance {importance:.2f} below the threshold "
                f"{self.settings.write_threshold:.2f}{note}: kept for this conversation only",
            )
        action = policy.action
        if action is Action.PROFILE and candidate.slot is None:
            action = Action.SEMANTIC
        if action is Action.DISCARD:  # a remembered mood or small talk, on request
            action = Action.SEMANTIC
        note = f" ({', '.join(notes)})" if notes else ""
        return verdict(action, f"{policy.why}, importance {importance:.2f}{note}")

    def _expiry(self, action: Action, policy: Policy, candidate: Candidate, at: datetime) -> datetime | None:
        if action in (Action.DISCARD, Action.SESSION):
            return None
        if policy.expiry == "temporary":
            start = max(at, candidate.event_time) if candidate.event_time else at
            return start + timedelta(days=self.settings.temporary_days)
        if policy.expiry == "event":
            return at + timedelta(days=self.settings.event_days)
        return None
