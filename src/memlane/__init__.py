"""memlane: long-term memory for LLM applications and agents.

It keeps what will matter next time, forgets what should go, and shows every memory as a sentence a
person can read, correct or delete. Chinese and English are both first-class. The embedded default
needs no server, no network and no LLM::

    from memlane import Memory

    mem = Memory(":memory:")
    mem.add("我叫阿白，平时喜欢喝美式。", user_id="u1", session_id="s1")
    for hit in mem.search("推荐一杯早上的饮料", user_id="u1"):
        print(hit.memory.text, hit.explain["why"])
"""

from __future__ import annotations

from memlane.aio import AsyncMemory
from memlane.domain import (
    Action,
    AddResult,
    Category,
    ContextBlock,
    Decision,
    HistoryRecord,
    Hit,
    Kind,
    MemoryItem,
    Session,
    SlotVersion,
    Source,
    Status,
)
from memlane.errors import (
    ConfigurationError,
    InvalidInput,
    MemlaneError,
    MissingExtra,
    NotFound,
    StoreUnavailable,
    TextTooLong,
)
from memlane.lifecycle.maintain import MaintenanceReport
from memlane.lifecycle.portability import RestoreReport
from memlane.memory import Memory
from memlane.read.options import SearchOptions
from memlane.settings import Settings
from memlane.vocabulary import AuditEntry, ConsentSettings

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AddResult",
    "AsyncMemory",
    "AuditEntry",
    "Category",
    "ConfigurationError",
    "ConsentSettings",
    "ContextBlock",
    "Decision",
    "HistoryRecord",
    "Hit",
    "InvalidInput",
    "Kind",
    "MaintenanceReport",
    "MemlaneError",
    "Memory",
    "MemoryItem",
    "MissingExtra",
    "NotFound",
    "RestoreReport",
    "SearchOptions",
    "Session",
    "Settings",
    "SlotVersion",
    "Source",
    "Status",
    "StoreUnavailable",
    "TextTooLong",
    "__version__",
]
