"""The keyword tokens a record is indexed under: none unless it is active, so that a superseded,
expired or archived record leaves the keyword index the moment its status changes.
"""

from __future__ import annotations

from memlane.domain import MemoryItem, Status
from memlane.text.keywords import index_text

# tags on log turns that search ranks lower: a turn that said something since superseded, and a turn
# that was small talk only
OUTDATED = "outdated"
CHATTER = "chatter"
# the tag naming who said a log turn (a message's ``name``): "speaker:Melanie". The stores count each
# user's speakers from these tags (``MemoryStore.speakers``), and search reads them (memlane.read.search)
SPEAKER = "speaker:"


def tokens_for(item: MemoryItem) -> str:
    """Space-joined index tokens of an active record's text, or ``""``."""
    return index_text(item.text) if item.status is Status.ACTIVE else ""
