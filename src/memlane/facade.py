"""What the parts of :class:`~memlane.Memory` share: the attributes ``Memory.__init__`` sets and the
checks every public method starts with. ``Memory`` is the wiring (``memory.py``); its methods live by
job in :mod:`memlane.read.facade` (search, context, profile, reads), :mod:`memlane.lifecycle.facade`
(corrections, deletion, export, maintenance), :mod:`memlane.conversations` (live sessions and sources,
for the memory page and framework adapters) and :mod:`memlane.privacy.facade`.
"""

from __future__ import annotations

from collections.abc import Sequence

from memlane import validate
from memlane.clock import utcnow
from memlane.embed import Embedder
from memlane.errors import StoreUnavailable
from memlane.lifecycle.edit import Editor
from memlane.lifecycle.feedback import Feedback
from memlane.lifecycle.maintain import Maintenance
from memlane.privacy.controls import PrivacyControls
from memlane.read.search import Searcher
from memlane.settings import Settings
from memlane.store import Stores
from memlane.write.backlog import VectorBacklog
from memlane.write.judge import Judge


class Facade:
    """The state and checks the parts of :class:`~memlane.Memory` share (``Memory`` sets them)."""

    settings: Settings
    stores: Stores
    embedder: Embedder
    judge: Judge
    _closed: bool
    _edit: Editor
    _privacy: PrivacyControls
    _vectors: VectorBacklog
    _search: Searcher
    _maintenance: Maintenance
    _feedback: Feedback

    def _user(self, user_id: str) -> str:
        self._check_open()
        return validate.identifier(user_id, "user_id", self.settings)

    def _check_open(self) -> None:
        """Every method's first step: after :meth:`close`, one error for all of them."""
        if self._closed:
            raise StoreUnavailable("this memory is closed; open a new Memory to go on")

    def _read(self, uid: str, caller: str | None, ids: Sequence[str], what: str) -> None:
        """Audit a read for a named caller (a read with no caller named is not recorded)."""
        who = validate.caller(caller, self.settings)
        if who is not None:
            self._privacy.record(uid, "read", utcnow(), ids, caller=who, detail=what)

    def _owner(self, memory_id: str, user_id: str) -> tuple[str, str]:
        """The checked user and memory ids; the owner is required (isolation holds below the API)."""
        uid = self._user(user_id)
        return uid, validate.identifier(memory_id, "memory id", self.settings)
