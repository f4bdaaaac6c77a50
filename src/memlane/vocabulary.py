"""The values that cross the storage ports: filters, scored ids, audit entries, consent settings and
sealed originals.

They sit beside :mod:`memlane.domain` (which would pass 400 lines with them) and, like it, hold no
storage or I/O, so :mod:`memlane.store` and :mod:`memlane.privacy` both import them and neither
imports the other::

    from memlane.vocabulary import MemoryQuery
    store.records.query("u1", MemoryQuery(tags=("coffee",), limit=10))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memlane.data import to_data
from memlane.domain import Actor, Category, Kind, Status, new_id


@dataclass(frozen=True)
class MemoryQuery:
    """Filters for listing and searching one user's records; empty means no filter."""

    kinds: tuple[Kind, ...] = ()
    statuses: tuple[Status, ...] = (Status.ACTIVE,)
    categories: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()  # any of these tags
    entities: tuple[str, ...] = ()  # any of these entities (or objects of a preference)
    slot: str | None = None
    norm: str | None = None  # normalised text, for exact duplicates
    session_id: str | None = None
    since: datetime | None = None  # on event time when set, else creation time
    until: datetime | None = None
    expires_before: datetime | None = None
    provenance: str | None = None  # items that came from this message id
    provenances: tuple[str, ...] = ()  # items that came from any of these message ids
    sealed: bool | None = None  # only items with (True) or without (False) an encrypted original
    embedded: bool | None = None  # only items with (True) or without (False) a vector
    limit: int | None = None
    offset: int = 0
    newest_first: bool = True


@dataclass
class ScoredId:
    """A record id with a raw score from one index (higher is better)."""

    id: str
    score: float
    terms: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SealedText:
    """The encrypted original of one memory (see :mod:`memlane.privacy.crypto`): base64 ciphertext
    and the id of the key that sealed it. The store never sees the plaintext or the key.
    """

    user_id: str
    memory_id: str
    key_id: str
    body: str


@dataclass
class AuditEntry:
    """One audited operation on a user's memories: what, when, by whom, for which caller, on which ids.

    ``op`` is one of :data:`memlane.privacy.audit.OPS`. ``detail`` is content-free by construction
    (counts, actions, slot names): never memory text.
    """

    user_id: str
    at: datetime
    op: str
    actor: Actor = Actor.USER
    caller: str | None = None  # the application or component that asked (``context(caller=...)``)
    memory_ids: list[str] = field(default_factory=list)
    detail: str = ""
    id: str = field(default_factory=new_id)

    def to_dict(self) -> dict[str, object]:
        """The entry as JSON-ready data (:func:`memlane.data.to_data`)."""
        return to_data(self)


@dataclass(frozen=True)
class ConsentSettings:
    """What a user has agreed memlane may keep. ``categories`` None means every category."""

    user_id: str
    enabled: bool = True
    categories: tuple[str, ...] | None = None
    updated_at: datetime | None = None

    def allows(self, category: Category | str) -> bool:
        """Whether a candidate of ``category`` may be kept (beyond this conversation)."""
        if not self.enabled:
            return False
        return self.categories is None or str(category) in self.categories

    def to_dict(self) -> dict[str, object]:
        """The settings as JSON-ready data (:func:`memlane.data.to_data`)."""
        return to_data(self)
