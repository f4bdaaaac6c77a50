"""What happens to each kind of sensitive data, and to what a user has not consented to.

Every kind :mod:`~memlane.privacy.sensitive` detects has a policy:

- ``drop``: a candidate memory that holds it is discarded, with a reason;
- ``redact``: the memory keeps its sentence with the value masked (``我的手机号是[已隐藏:手机号]``);
- ``encrypt``: the memory is stored, indexed and shown as the masked sentence, and the sentence with
  the value is sealed under the data key (:mod:`~memlane.privacy.vault`), out of search and context
  unless a caller asks for it.

The defaults: identity and card numbers, passwords, keys and health details are dropped; phone
numbers, email addresses and precise home addresses are redacted. ``Settings.sensitive_policy``
overrides any of them (``MEMLANE_SENSITIVE_POLICY='{"phone": "encrypt"}'``).

:class:`PolicyJudge` applies the policy and the user's consent (:mod:`~memlane.privacy.consent`) around
the memory judge, so the write path needs to know neither.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from memlane.domain import Action, Candidate, Category, Decision
from memlane.errors import ConfigurationError
from memlane.privacy.consent import ConsentSettings
from memlane.privacy.sensitive import NEVER_STORE
from memlane.settings import Settings
from memlane.write.judge import Judge

Treatment = Literal["drop", "redact", "encrypt"]
TREATMENTS: tuple[str, ...] = ("drop", "redact", "encrypt")

DEFAULT_POLICY: dict[str, Treatment] = {
    "id_card": "drop",
    "bank_card": "drop",
    "password": "drop",
    "api_key": "drop",
    "health": "drop",
    "phone": "redact",
    "email": "redact",
    "address": "redact",
}

_NAMES = {
    "id_card": "an ID-card number",
    "bank_card": "a bank-card number",
    "password": "a password",
    "api_key": "an API key or token",
    "health": "a health detail",
    "phone": "a phone number",
    "email": "an email address",
    "address": "a home address",
}
_LONG_TERM = (Action.SEMANTIC, Action.EPISODIC, Action.PROFILE)


@dataclass(frozen=True)
class SensitivePolicy:
    """The treatment of each kind of sensitive data."""

    treatments: Mapping[str, Treatment]

    @classmethod
    def from_settings(cls, settings: Settings) -> SensitivePolicy:
        """The defaults with ``settings.sensitive_policy`` laid over them (unknown names are an error)."""
        chosen: dict[str, Treatment] = dict(DEFAULT_POLICY)
        for kind, treatment in settings.sensitive_policy.items():
            if kind not in DEFAULT_POLICY:
                raise ConfigurationError(
                    f"sensitive_policy: unknown kind {kind!r}; choose among {', '.join(DEFAULT_POLICY)}"
                )
            if treatment not in TREATMENTS:
                raise ConfigurationError(
                    f"sensitive_policy: {kind} must be drop, redact or encrypt, not {treatment!r}"
                )
            chosen[kind] = treatment  # type: ignore[assignment]  # checked just above
        return cls(chosen)

    def of(self, kind: str) -> Treatment:
        """The treatment of ``kind`` (an unknown kind is dropped: the safe side)."""
        return self.treatments.get(kind, "drop")

    def encrypted(self, kinds: list[str]) -> list[str]:
        """Those of ``kinds`` whose memories are sealed."""
        return [k for k in kinds if self.of(k) == "encrypt"]

    @property
    def encrypts(self) -> bool:
        """Whether any kind is encrypted (and a data key is therefore needed)."""
        return any(t == "encrypt" for t in self.treatments.values())


_CONSENT: ContextVar[ConsentSettings | None] = ContextVar("memlane_consent", default=None)


class PolicyJudge(Judge):
    """The memory judge with the sensitive-data policy and the user's consent applied around it."""

    def __init__(self, inner: Judge, policy: SensitivePolicy) -> None:
        super().__init__(inner.settings)
        self.inner = inner
        self.policy = policy

    @contextmanager
    def consent(self, settings: ConsentSettings | None) -> Iterator[None]:
        """Judge with ``settings`` as the current user's consent until the block ends."""
        token = _CONSENT.set(settings)
        try:
            yield
        finally:
            _CONSENT.reset(token)

    def decide(self, candidate: Candidate, at: datetime) -> Decision:
        """The inner judge's decision, after the policy has said which sensitive kinds may stay."""
        dropped = [k for k in candidate.sensitive if self.policy.of(k) == "drop"]
        kept = candidate
        if candidate.sensitive and not dropped and candidate.category is Category.SENSITIVE:
            # a clause that was only its sensitive value, which the policy keeps: background about the user
            kept = replace(candidate, category=Category.FACT)
        # the inner judge sees only the kinds the policy drops, so that it discards those and no others
        decision = self.inner.decide(replace(kept, sensitive=[k for k in kept.sensitive if k in dropped]), at)
        decision.candidate = kept
        decision.sensitivity = 1.0 if kept.sensitive else decision.sensitivity
        plain_drop = [k for k in dropped if k not in NEVER_STORE]
        if plain_drop and decision.action is not Action.DISCARD:
            what = " and ".join(_NAMES.get(k, k) for k in plain_drop)
            return self._discard(decision, f"contains {what}; the privacy policy drops it")
        consent = _CONSENT.get()
        if consent is not None and decision.action in _LONG_TERM and not consent.allows(kept.category):
            why = (
                "memory is turned off for this user"
                if not consent.enabled
                else (f"the user has not consented to remembering {kept.category.value}")
            )
            return self._discard(decision, why)
        return decision

    @staticmethod
    def _discard(decision: Decision, reason: str) -> Decision:
        decision.action = Action.DISCARD
        decision.reason = reason
        decision.expires_at = None
        return decision
