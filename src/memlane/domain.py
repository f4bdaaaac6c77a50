"""The vocabulary of memlane: memories, profile slots, sessions, history and the write-path values.

Everything here is a plain dataclass or enum, with no storage or I/O. Stores persist these objects,
the write path produces them and the read path returns them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any


class _Text(str, Enum):
    """A string enum that prints as its value (``print(Kind.EPISODIC)`` shows ``episodic``)."""

    def __str__(self) -> str:
        return str(self.value)


class Kind(_Text):
    """Which layer a long-term record lives in."""

    SEMANTIC = "semantic"  # facts, preferences, constraints
    EPISODIC = "episodic"  # dated events with a status
    PROFILE = "profile"  # the sentence behind a profile slot value
    SUMMARY = "summary"  # session, period and user summaries
    LOG = "log"  # a raw (redacted) conversation turn: searchable, but not a memory


class Status(_Text):
    """Where a record is in its life; only active records are searched."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    ARCHIVED = "archived"
    DELETED = "deleted"


class Source(_Text):
    """How memlane came to know something."""

    EXPLICIT = "explicit"  # the user said it in so many words
    INFERRED = "inferred"  # derived from what the user said
    OBSERVED = "observed"  # seen in behaviour, not said


class Actor(_Text):
    """Who made a change recorded in history."""

    SYSTEM = "system"
    USER = "user"
    ADMIN = "admin"


class Action(_Text):
    """What the judge decided to do with a candidate memory."""

    DISCARD = "discard"
    SESSION = "session"
    SEMANTIC = "semantic"
    EPISODIC = "episodic"
    PROFILE = "profile"


class Category(_Text):
    """What a candidate is about; the judge's policy is keyed on it."""

    NAME = "name"
    LOCATION = "location"
    JOB = "job"
    FAMILY = "family"
    PREFERENCE = "preference"  # likes, loves, prefers, and interests
    DISLIKE = "dislike"
    CONSTRAINT = "constraint"  # don't / never / 不要 / 别
    CONTACT = "contact"  # preferred channel, times not to call
    STYLE = "style"  # how the user wants to be answered
    ROUTINE = "routine"  # every Monday, weekdays at 9
    PLAN = "plan"  # an intention with a time
    EVENT = "event"  # something that happened, with a time
    COMPLAINT = "complaint"  # a problem the user reported, resolved or not
    BUDGET = "budget"  # a condition of a task: price range
    CONDITION = "condition"  # other conditions of the current task
    FACT = "fact"  # other background about the user
    MOOD = "mood"  # a passing feeling
    CONTEXT = "context"  # one-off situation: where I am right now
    SMALLTALK = "smalltalk"
    REQUEST = "request"  # asks the assistant to do something: 帮我查天气 / recommend a film
    HYPOTHETICAL = "hypothetical"  # imagined, not real: 如果我中了彩票 / if I won the lottery
    OTHER = "other"  # says nothing the judge recognises about the user: the world, someone else
    FORGET = "forget"  # withdraws consent: 别记这个 / don't remember that / forget what I just said
    SENSITIVE = "sensitive"  # ID/bank numbers, secrets, health details


class Flag(_Text):
    """What memlane itself knows about a record, kept apart from the user's tags."""

    INSTRUCTION = "instruction"  # reads like an instruction to a model: shown as data, flagged
    CHATTER = "chatter"  # a log turn that was small talk only
    DISCARDED = "discarded"  # a log turn the judge kept nothing of (a mood, small talk, a request...)
    SESSION_ONLY = "session_only"  # a log turn that held what belongs to its conversation only
    OUTDATED = "outdated"  # a log turn whose memory was since superseded, expired or marked wrong
    DERIVED = "derived"  # built from other memories (a trend): deleting a source deletes it


SHOWN = "shown"
"""The key of a log turn's ``value`` that holds what a context block may show of the turn: its text
without the clauses the judge threw away (set only when some were)."""


class Outcome(_Text):
    """What the write path did with a judged candidate."""

    NEW = "new"  # stored as a new memory
    MERGED = "merged"  # the same as an existing memory, which it strengthened
    SUPERSEDED = "superseded"  # stored, retiring the memories it changes or contradicts
    RESOLVED = "resolved"  # settled an open event, which now says so
    KEPT_EXISTING = "kept_existing"  # a weaker or older claim than an existing memory: that one stands
    SESSION = "session"  # kept for this conversation only
    DISCARDED = "discarded"  # not kept


class EventStatus(_Text):
    """The state of an episodic memory: a complaint resolved or not, a plan done, cancelled or not."""

    RESOLVED = "resolved"
    UNRESOLVED = "unresolved"
    PLANNED = "planned"
    DONE = "done"
    CANCELLED = "cancelled"


def new_id() -> str:
    """A new random identifier (32 hex characters)."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Message:
    """One turn of a conversation as the caller gave it."""

    role: str  # "user" | "assistant" | "system"
    content: str
    at: datetime
    id: str = field(default_factory=new_id)
    name: str | None = None  # the speaker's name, when the caller gives one
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class MemoryItem:
    """A long-term memory: one readable sentence plus the metadata that governs its life."""

    user_id: str
    text: str
    kind: Kind
    id: str = field(default_factory=new_id)
    category: Category = Category.FACT
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    importance: float = 0.5
    confidence: float = 0.8
    stability: float = 0.5
    sensitivity: float = 0.0
    source: Source = Source.EXPLICIT
    status: Status = Status.ACTIVE
    agent_id: str | None = None
    session_id: str | None = None
    slot: str | None = None  # profile slot or subject key this item states
    value: Any = None  # the slot value, JSON-ready
    polarity: int = 1  # +1 for "likes / does", -1 for "does not / no longer"
    event_status: EventStatus | None = None
    role: str | None = None  # who said a log turn ("user", "assistant", "system"); None for memories
    flags: frozenset[Flag] = frozenset()  # memlane's own marks (never the user's tags)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    last_accessed_at: datetime | None = None
    last_verified_at: datetime | None = None
    access_count: int = 0
    expires_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    provenance: list[str] = field(default_factory=list)  # message ids it came from
    reason: str = ""  # why the judge kept it
    embedding: list[float] | None = field(default=None, repr=False, compare=False, metadata={"data": False})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MemoryItem:
        """The item :meth:`to_dict` described (unknown keys are an error, missing ones take defaults)."""
        from memlane.data import from_data

        return from_data(cls, data, where="memory")

    def to_dict(self) -> dict[str, Any]:
        """The item as JSON-ready data (times as ISO 8601, no embedding): :func:`memlane.data.to_data`."""
        from memlane.data import to_data

        return to_data(self)


@dataclass
class SlotVersion:
    """One value a profile slot has held, with where it came from."""

    user_id: str
    slot: str
    value: Any
    version: int
    created_at: datetime
    memory_id: str | None = None
    message_ids: list[str] = field(default_factory=list)
    current: bool = True
    reason: str = ""


@dataclass
class Turn:
    """A turn kept in a session's short-term memory."""

    role: str
    content: str
    at: datetime
    message_id: str = field(default_factory=new_id)
    name: str | None = None  # the speaker's name, when the caller gave one


@dataclass
class Session:
    """Short-term memory for one conversation: recent turns, a rolling summary, temporary slots."""

    id: str
    user_id: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None
    summary: str = ""
    slots: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # one-off context the judge kept for this session only
    turns: list[Turn] = field(default_factory=list)
    # the message each slot and note came from ("slot:budget", "note:<text>" -> message id), so that
    # withdrawing or deleting the message takes them too
    sources: dict[str, str] = field(default_factory=dict)

    def keep_slot(self, slot: str, value: Any, message_id: str | None) -> None:
        """Hold ``slot`` at ``value`` for this conversation, said in ``message_id``."""
        self.slots[slot] = value
        if message_id:
            self.sources[f"slot:{slot}"] = message_id

    def keep_note(self, note: str, message_id: str | None) -> None:
        """Hold a one-off ``note`` for this conversation, said in ``message_id``."""
        if note not in self.notes:
            self.notes.append(note)
        if message_id:
            self.sources[f"note:{note}"] = message_id

    def forget_messages(self, message_ids: set[str], texts: set[str] | frozenset[str] = frozenset()) -> bool:
        """Drop the turns, slots and notes that came from ``message_ids`` (a note with no recorded
        source goes when a forgotten turn holds it), and the notes that say one of ``texts``; whether
        anything went."""
        turns = [t for t in self.turns if t.message_id not in message_ids]
        said = [t.content for t in self.turns if t.message_id in message_ids]
        slots = {k: v for k, v in self.slots.items() if self.sources.get(f"slot:{k}") not in message_ids}
        notes = [
            n
            for n in self.notes
            if n not in texts
            and self.sources.get(f"note:{n}") not in message_ids
            and not any(n in content for content in said)
        ]
        if len(turns) == len(self.turns) and slots == self.slots and notes == self.notes:
            return False
        self.turns, self.slots, self.notes = turns, slots, notes
        kept = {f"slot:{k}" for k in slots} | {f"note:{n}" for n in notes}
        self.sources = {k: v for k, v in self.sources.items() if k in kept}
        return True


@dataclass
class HistoryRecord:
    """One change to a memory or a profile slot: what, before/after, who and why."""

    user_id: str
    target_id: str  # a memory id, or "profile:<slot>"
    op: str  # add | merge | update | supersede | expire | delete | restore | feedback
    at: datetime
    actor: Actor = Actor.SYSTEM
    reason: str = ""
    before: str | None = None
    after: str | None = None
    id: str = field(default_factory=new_id)


@dataclass(frozen=True)
class Candidate:
    """A possible memory found in a message by an extractor, before the judge has looked at it.

    Frozen, like every value of the write path: a stage that changes one makes a new one
    (``dataclasses.replace``), and the lists it holds are never changed in place.
    """

    text: str  # readable sentence in the user's own words (sensitive values already masked)
    category: Category
    lang: str = "zh"  # "zh" | "en"
    slot: str | None = None  # profile slot or subject key, e.g. "name", "preferred_channel", "budget:phone"
    value: Any = None  # the slot value
    objects: list[str] = field(default_factory=list)  # what a preference/dislike is about, e.g. ["美式"]
    polarity: int = 1  # -1 for negations and "no longer"
    event_time: datetime | None = None  # resolved against the message time
    event_status: EventStatus | None = None
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    explicit: bool = True  # False when inferred rather than said
    hedged: bool = False  # a guess: maybe / 可能 / I think
    session_only: bool = False  # marked as one-off: 本轮 / 这次 / this time / right now
    remember_request: bool = False  # the user asked to remember it: 记住 / remember that
    sensitive: list[str] = field(default_factory=list)  # kinds of sensitive data found: id_card, bank_card...
    instruction: bool = False  # the text reads like an instruction to a model
    change: str | None = (
        None  # a change of state the words say: "replace" (换成), "start" (开始), "stop" (不再)
    )
    role: str = "user"
    message_id: str | None = None
    clauses: int = 1  # how many clauses of the message it stands for (an elaboration joins its clause)


@dataclass(frozen=True)
class Decision:
    """The judge's verdict on one candidate and, once the write path has applied it, what it did.

    ``outcome`` is None while the decision is only the judge's; every decision :meth:`Memory.add`
    returns has one. ``related`` names the existing memories it merged into, superseded, resolved or
    deferred to, and ``note`` says why in a few words (or, for a clause returned dropped, that the
    judge reads it again by its meaning after the write and may still keep it).
    """

    action: Action
    text: str
    reason: str
    category: Category
    importance: float = 0.0
    confidence: float = 0.0
    stability: float = 0.0
    sensitivity: float = 0.0
    expires_at: datetime | None = None
    memory: MemoryItem | None = None
    outcome: Outcome | None = None
    related: tuple[str, ...] = ()
    note: str = ""
    candidate: Candidate | None = field(default=None, repr=False)
    # the rules' own decision where the learned judge overruled it (its second look may restore it)
    overruled: Decision | None = field(default=None, repr=False, compare=False)


@dataclass
class AddResult:
    """What :meth:`memlane.Memory.add` did with the messages."""

    decisions: list[Decision]
    session_id: str | None
    message_ids: list[str]
    skipped_clauses: int = 0  # clauses past Settings.max_clauses in one message: logged, not judged

    @property
    def memories(self) -> list[MemoryItem]:
        """The long-term memories written or strengthened."""
        return [d.memory for d in self.decisions if d.memory is not None]


@dataclass
class Hit:
    """One search result with its score and why it matched."""

    memory: MemoryItem
    score: float
    explain: dict[str, Any]


@dataclass
class ContextBlock:
    """Prompt-ready text assembled under a token budget, and the memories it used."""

    text: str
    memories: list[MemoryItem]
    tokens: int
    profile: dict[str, Any] = field(default_factory=dict)
