"""The privacy controls the facade and the write path apply, in one place: the sensitive-data
policy and consent (:class:`~memlane.privacy.policy.SensitivePolicy`), the encrypted originals
(:class:`~memlane.privacy.vault.Vault`) and the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memlane.domain import Action, Category, Decision, Hit, MemoryItem, Message, Outcome
from memlane.errors import ConfigurationError
from memlane.privacy import audit, sensitive
from memlane.privacy.crypto import DataKey, KeyProvider
from memlane.privacy.policy import SensitivePolicy
from memlane.privacy.vault import Vault
from memlane.settings import Settings
from memlane.store import Stores
from memlane.text.lang import detect, said
from memlane.vocabulary import AuditEntry, ConsentSettings, SealedText


def _key_source(settings: Settings, provider: KeyProvider | None) -> KeyProvider | None:
    if provider is not None:
        return provider
    key = settings.data_key
    if key is None:
        return None
    return key.get_secret_value


class PrivacyControls:
    """Policy, consent, sealing and audit for one store."""

    def __init__(self, stores: Stores, settings: Settings, key_provider: KeyProvider | None) -> None:
        self.stores = stores
        self.policy = self.check(settings, key_provider)
        self.vault = Vault(stores, _key_source(settings, key_provider))

    @staticmethod
    def check(settings: Settings, key_provider: KeyProvider | None) -> SensitivePolicy:
        """The policy ``settings`` describe, if it can work: :class:`ConfigurationError` if not (an
        unknown kind or treatment, a malformed key, or encryption with no key).
        """
        policy = SensitivePolicy.from_settings(settings)
        if settings.data_key is not None:
            DataKey.parse(settings.data_key.get_secret_value())
        if policy.encrypts and _key_source(settings, key_provider) is None:
            raise ConfigurationError(
                "the sensitive-data policy encrypts some kinds but no data key is set: set "
                "MEMLANE_DATA_KEY (memlane data-key new) or pass Memory(key_provider=...)"
            )
        return policy

    # -- consent ----------------------------------------------------------------------------------

    def consent(self, user_id: str) -> ConsentSettings | None:
        """The user's consent settings, if the user set any."""
        return self.stores.consent.get(user_id)

    @staticmethod
    def refused(messages: Sequence[Message]) -> list[Decision]:
        """What ``add`` returns for a user whose memory is off: one discard per message, with its reason."""
        return [
            Decision(
                action=Action.DISCARD,
                text=sensitive.redact(m.content),
                reason=said(
                    detect(m.content),
                    "memory is turned off for this user: nothing is kept",
                    "该用户的记忆已关闭：什么都不保存",
                ),
                category=Category.FACT,
                outcome=Outcome.DISCARDED,
            )
            for m in messages
        ]

    # -- sealing ----------------------------------------------------------------------------------------

    def sealed_text(self, item: MemoryItem, original: str) -> SealedText | None:
        """The encrypted original of ``item`` made from the message it came from (not yet stored)."""
        return self.vault.sealed_text(item, original)

    def original(self, user_id: str, item: MemoryItem) -> str | None:
        """The sealed original of a stored memory, or None when it has none."""
        if not self.vault.configured or not sensitive.PLACEHOLDER.search(item.text):
            return None
        opened = self.vault.open(user_id, [item])[0]
        return opened.text if opened.text != item.text else None

    # -- reading sealed originals -------------------------------------------------------------------

    def hidden(self, user_id: str) -> bool:
        """Whether the user has memories that default reads must leave out."""
        return self.stores.sealed.any(user_id)

    def reveal(self, user_id: str, hits: list[Hit]) -> list[Hit]:
        """``hits`` with the original text of each sealed memory."""
        opened = self.vault.open(user_id, [h.memory for h in hits])
        return [replace(h, memory=m) for h, m in zip(hits, opened, strict=True)]

    def open(self, user_id: str, item: MemoryItem) -> MemoryItem:
        """``item`` with its original text if it is sealed."""
        return self.vault.open(user_id, [item])[0]

    # -- the audit log --------------------------------------------------------------------------------

    def record(
        self,
        user_id: str,
        op: str,
        at: datetime,
        ids: Sequence[str] = (),
        *,
        caller: str | None = None,
        detail: str = "",
    ) -> AuditEntry:
        """Append an audit entry for an operation of the facade's."""
        return audit.record(self.stores, user_id, op, at, ids, caller=caller, detail=detail)
