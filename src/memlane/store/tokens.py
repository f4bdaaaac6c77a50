"""What the indexes see of a record: its text as the user wrote it, plus, for an episode, the day it
happened (so "what did I do in June 2025" finds it by keyword and by meaning, while the memory's own
text stays the user's words). No keyword tokens unless the record is active, so that a superseded,
expired or archived record leaves the keyword index the moment its status changes.
"""

from __future__ import annotations

from memlane.dated import said
from memlane.domain import Kind, MemoryItem, Status
from memlane.text.keywords import index_text

# the tag naming who said a log turn (a message's ``name``): "speaker:Melanie". The stores count each
# user's speakers from these tags (``Records.speakers``), and search reads them (memlane.read.search)
SPEAKER = "speaker:"


def indexed(item: MemoryItem) -> str:
    """The text the indexes (keywords and vector) hold for ``item``: an episode with its day, or the
    week, month or year its words named (:func:`memlane.dated.said`)."""
    if item.kind is Kind.EPISODIC and item.valid_from is not None:
        return f"{item.text} ({said(item)})"
    return item.text


def tokens_for(item: MemoryItem) -> str:
    """Space-joined index tokens of an active record's text, or ``""``."""
    return index_text(indexed(item)) if item.status is Status.ACTIVE else ""
