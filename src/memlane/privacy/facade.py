"""The privacy surface of :class:`~memlane.Memory`: the audit log, per-user consent, the data key and
deleting a conversation. A base class of ``Memory`` so that the facade module stays a wiring of
stages; every method here is a ``Memory`` method (and an ``AsyncMemory`` coroutine)::

    mem.set_consent("u1", categories=["name", "preference"])
    mem.audit("u1", limit=20)
    mem.rotate_data_key(old_key, new_key)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memlane import validate
from memlane.clock import utcnow
from memlane.errors import InvalidInput
from memlane.lifecycle.edit import Editor
from memlane.privacy.consent import categories as consent_categories
from memlane.privacy.controls import PrivacyControls
from memlane.privacy.crypto import DataKey
from memlane.settings import Settings
from memlane.store import Stores
from memlane.vocabulary import AuditEntry, ConsentSettings
from memlane.write.backlog import VectorBacklog


class PrivacyFacade:
    """The privacy methods of :class:`~memlane.Memory` (which sets the attributes below)."""

    settings: Settings
    stores: Stores
    _privacy: PrivacyControls
    _edit: Editor
    _vectors: VectorBacklog

    def _user(self, user_id: str) -> str:
        return validate.identifier(user_id, "user_id", self.settings)

    def _check_open(self) -> None:
        """Raise when the memory is closed (``Memory`` says how)."""

    def audit(self, user_id: str, *, since: datetime | None = None, limit: int = 100) -> list[AuditEntry]:
        """The user's audit log, the latest recorded first: every write, update, delete, export, restore,
        consent change and context assembly, with the memory ids involved and never their text.
        """
        if not isinstance(limit, int) or not 0 < limit <= 10_000:
            raise InvalidInput("limit must be an integer from 1 to 10000")
        start = validate.when(since, since) if since is not None else None
        return self.stores.audit.entries(self._user(user_id), start, limit)

    def set_consent(
        self,
        user_id: str,
        *,
        enabled: bool = True,
        categories: Sequence[str] | None = None,
        at: datetime | None = None,
        caller: str | None = None,
    ) -> ConsentSettings:
        """Set what the user agrees memlane may keep: ``enabled=False`` keeps nothing from now on (not
        even the log or the session); ``categories`` (names of :class:`Category`) limits long-term
        memory to those, None allowing every one. What is already stored stays until deleted.
        """
        uid = self._user(user_id)
        when = validate.when(at, utcnow())
        chosen = consent_categories(categories)
        consent = ConsentSettings(uid, bool(enabled), chosen, when)
        self._vectors.settle_rereads(uid)  # what was said before is settled under its consent
        self.stores.consent.put(consent)
        allowed = "every category" if chosen is None else f"{len(chosen)} categories"
        detail = f"memory {'on' if enabled else 'off'}, {allowed}"
        who = validate.caller(caller, self.settings)
        self._privacy.record(uid, "consent", when, caller=who, detail=detail)
        return consent

    def consent(self, user_id: str) -> ConsentSettings:
        """The user's consent settings (memory on, every category, when the user never set any)."""
        uid = self._user(user_id)
        return self._privacy.consent(uid) or ConsentSettings(uid)

    def rotate_data_key(self, old: str | bytes | DataKey, new: str | bytes | DataKey) -> int:
        """Re-encrypt every encrypted memory (of every user) sealed under ``old`` with ``new``; returns
        how many. Configure ``new`` afterwards (``MEMLANE_DATA_KEY``); running it again is harmless.
        """
        self._check_open()
        return self._privacy.vault.rotate(DataKey.parse(old), DataKey.parse(new))

    def forget_session(
        self, user_id: str, session_id: str, *, at: datetime | None = None, caller: str | None = None
    ) -> int:
        """Delete one conversation: its short-term memory, its log turns, what was learned only from
        it and what was built from that. Returns how many memories went (log turns aside).
        """
        uid = self._user(user_id)
        sid = validate.identifier(session_id, "session_id", self.settings)
        who = validate.caller(caller, self.settings)
        self._vectors.settle_rereads(uid)  # what is still read again of the session is kept, then forgotten
        return self._edit.forget_session(uid, sid, validate.when(at, utcnow()), who)
