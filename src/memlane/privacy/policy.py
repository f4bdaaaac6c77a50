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

:meth:`SensitivePolicy.for_judge` and :meth:`SensitivePolicy.review` apply the policy and the user's
consent (:mod:`~memlane.privacy.consent`) before and after the memory judge, so the judge needs to
know neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from memlane.domain import Action, Candidate, Category, Decision
from memlane.errors import ConfigurationError
from memlane.privacy.sensitive import KINDS, NEVER_STORE, described
from memlane.settings import Settings
from memlane.text.lang import said
from memlane.vocabulary import ConsentSettings

Treatment = Literal["drop", "redact", "encrypt"]
TREATMENTS: tuple[str, ...] = ("drop", "redact", "encrypt")

DEFAULT_POLICY: dict[str, Treatment] = {k.name: "drop" if k.never_store else "redact" for k in KINDS.values()}
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

    def for_judge(self, candidate: Candidate) -> Candidate:
        """``candidate`` as the memory judge should see it: holding only the sensitive kinds this policy
        drops (so that it discards those and no others); a clause that was only its sensitive value,
        which the policy keeps, is background about the user."""
        dropped = [k for k in candidate.sensitive if self.of(k) == "drop"]
        kept = candidate
        if candidate.sensitive and not dropped and candidate.category is Category.SENSITIVE:
            kept = replace(candidate, category=Category.FACT)
        return replace(kept, sensitive=dropped)

    def review(self, decision: Decision, candidate: Candidate, consent: ConsentSettings | None) -> Decision:
        """The judge's ``decision`` on ``candidate`` (as :meth:`for_judge` showed it), with this policy
        and the user's consent applied: what the policy drops, or the user has not consented to, is
        discarded with the reason."""
        shown = decision.candidate if decision.candidate is not None else candidate
        judged = replace(
            decision,
            candidate=replace(shown, sensitive=candidate.sensitive),
            sensitivity=1.0 if candidate.sensitive else decision.sensitivity,
        )
        lang = candidate.lang
        dropped = [k for k in candidate.sensitive if self.of(k) == "drop" and k not in NEVER_STORE]
        if dropped and judged.action is not Action.DISCARD:
            why = said(
                lang,
                f"contains {described(dropped)}; the privacy policy drops it",
                f"含有{described(dropped, 'zh')}：隐私策略不保存它",
            )
            return _discarded(judged, why)
        category = judged.candidate.category if judged.candidate is not None else candidate.category
        if consent is not None and judged.action in _LONG_TERM and not consent.allows(category):
            if not consent.enabled:
                why = said(lang, "memory is turned off for this user", "该用户的记忆已关闭")
            else:
                why = said(
                    lang,
                    f"the user has not consented to remembering {category.value}",
                    f"用户没有同意记住这类信息（{category.value}）",
                )
            return _discarded(judged, why)
        return judged


def _discarded(decision: Decision, reason: str) -> Decision:
    return replace(decision, action=Action.DISCARD, reason=reason, expires_at=None)
