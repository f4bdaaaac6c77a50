"""The LoCoMo retrieval benchmark: ingest each conversation through the public API, ask every
scorable question through ``search`` (and ``context``), and score turn-level evidence recall.

Each conversation gets its own ``user_id`` (the sample id); its sessions are added in order, one
``add`` call per turn, with the turn's ``dia_id`` as the message id, so that provenance names turns.
The questions of a sample are read only after its conversation has been ingested (see
:mod:`memlane.eval.dataset`), and are asked at the end of the conversation: one hour after its last
turn, which is when a chat app would be asked. With ``llm=`` (a :class:`memlane.llm.ChatClient`) the
conversations go through the LLM stages, and the run records what they cost; without it the rules
alone run, whatever ``MEMLANE_LLM_BASE_URL`` says, so that numbers stay comparable.

::

    from memlane.eval import dataset, locomo
    run = locomo.evaluate(dataset.load("locomo10.json"))
    print(run.recall()["R@10"])
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.progress import Progress, TaskID

from memlane.domain import Hit, Kind, MemoryItem
from memlane.errors import InvalidInput
from memlane.eval.dataset import Conversation, Question, read_conversation, read_questions
from memlane.memory import Memory
from memlane.text.tokens import estimate_tokens
from memlane.vocabulary import MemoryQuery

if TYPE_CHECKING:
    from memlane.llm import ChatClient

KS = (1, 5, 10, 25, 50)
"""The cut-offs recall is reported at."""

SEARCH_LIMIT = 100  # hits asked for: 50 hits may cover fewer than 50 distinct turns
TOP_HITS = 10  # hits kept per answer for the details report
CONTEXT_TOKENS = 800  # the token budget of a context block (the product's default)
DEV_SIZE = 3  # the first conversations form the "dev" split for tuning; the rest are "test"
SPLITS = ("all", "dev", "test")
_ASKED_AFTER = timedelta(hours=1)


@dataclass(frozen=True)
class Seen:
    """A hit as the details report shows it (without the embedding a full hit carries)."""

    kind: str
    turns: tuple[str, ...]
    score: float
    text: str


@dataclass(frozen=True)
class Answer:
    """How one question fared: the ranked evidence turns and its recall at each cut-off."""

    question: Question
    ranked: tuple[str, ...]  # the first max(KS) distinct turns of the hits, in rank order
    recall: dict[int, float]  # k → fraction of evidence turns among the first k turns
    context_recall: float  # fraction of evidence turns behind the memories in the context block
    top: tuple[Seen, ...] = ()  # the first few hits, to see what came instead
    block_lines: int = 0  # memory lines in the context block
    on_topic_lines: int = 0  # of those, lines drawn from a session that holds an evidence turn


@dataclass(frozen=True)
class Stored:
    """What one conversation left in the store."""

    sample_id: str
    sessions: int
    turns: int
    items: dict[str, int]  # kind → active records (``log`` holds the raw turns)
    transcript_tokens: int


@dataclass
class Run:
    """Everything measured in one benchmark run; :mod:`memlane.eval.report` turns it into numbers."""

    split: str = "all"
    answers: list[Answer] = field(default_factory=list)
    stored: list[Stored] = field(default_factory=list)
    add_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    context_ms: list[float] = field(default_factory=list)
    context_tokens: list[int] = field(default_factory=list)
    ingest_seconds: float = 0.0
    seconds: float = 0.0
    db_bytes: int = 0
    llm_model: str | None = None  # the model behind the LLM stages, None for the rules alone
    llm_usage: dict[str, dict[str, float]] = field(default_factory=dict)  # by stage (ChatClient.usage)

    def recall(self, category: str | None = None) -> dict[str, float]:
        """Mean ``R@k`` over the answers (of one category when given); 0.0 when there are none."""
        chosen = [a for a in self.answers if category is None or a.question.category == category]
        n = len(chosen)
        return {f"R@{k}": (sum(a.recall[k] for a in chosen) / n if n else 0.0) for k in KS}


def ranked_turns(hits: Iterable[Hit], limit: int = max(KS)) -> list[str]:
    """The turns behind ``hits`` in rank order, each once: a hit that came from 20 turns takes 20 places."""
    out: list[str] = []
    seen: set[str] = set()
    for hit in hits:
        for turn in hit.memory.provenance:
            if turn not in seen:
                seen.add(turn)
                out.append(turn)
                if len(out) >= limit:
                    return out
    return out


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """The fraction of ``evidence`` among the first ``k`` of ``ranked``."""
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def select(samples: Sequence[Mapping[str, Any]], split: str, conversations: int | None) -> list[Any]:
    """The samples of a split (``dev``: the first few, ``test``: the rest), at most ``conversations``."""
    if split not in SPLITS:
        raise InvalidInput(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    chosen = list(samples)
    if split == "dev":
        chosen = chosen[:DEV_SIZE]
    elif split == "test":
        chosen = chosen[DEV_SIZE:]
    if conversations is not None:
        chosen = chosen[:conversations]
    if not chosen:
        raise InvalidInput(f"no conversations in split {split!r}")
    return chosen


def ingest(memory: Memory, conversation: Conversation, run: Run, progress: _Tracker | None = None) -> None:
    """Add the conversation session by session, one ``add`` per turn, timing each call (not the work
    it leaves for the backlog, which is done before the next turn and counted in ingest time)."""
    for session in conversation.sessions:
        for turn in session.turns:
            started = time.perf_counter()
            memory.add([turn.message()], user_id=conversation.sample_id, session_id=session.key)
            run.add_ms.append((time.perf_counter() - started) * 1000)
            # what the write left to do off the caller's path (vectors, clauses read again by their
            # meaning) lands before the next turn, as it does when a person types the next one: back to
            # back, it landed before or after that turn by timing, and two runs kept different memories
            memory.flush(conversation.sample_id)
            if progress is not None:
                progress.ingested()


def ingest_sample(
    memory: Memory, sample: Mapping[str, Any], run: Run, progress: _Tracker | None = None
) -> Conversation:
    """Ingest one sample, reading nothing of it but ``sample_id`` and ``conversation``."""
    conversation = read_conversation(str(sample["sample_id"]), sample["conversation"])
    ingest(memory, conversation, run, progress)
    return conversation


def ask(memory: Memory, conversation: Conversation, question: Question, run: Run, budget: int) -> Answer:
    """Ask one question through ``search`` and ``context`` and score the evidence turns they reach."""
    user_id, now = conversation.sample_id, conversation.ended_at + _ASKED_AFTER
    started = time.perf_counter()
    hits = memory.search(question.text, user_id=user_id, limit=SEARCH_LIMIT, now=now)
    run.search_ms.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    block = memory.context(question.text, user_id=user_id, max_tokens=budget, now=now)
    run.context_ms.append((time.perf_counter() - started) * 1000)
    run.context_tokens.append(block.tokens)
    ranked = ranked_turns(hits)
    in_context = {t for m in block.memories for t in m.provenance}
    session_of = {t.dia_id: s.key for s in conversation.sessions for t in s.turns}
    wanted = {session_of[e] for e in question.evidence if e in session_of}
    behind = [_turns_behind(memory, user_id, m, session_of) for m in block.memories]
    sessions = [{session_of[t] for t in turns} for turns in behind]
    return Answer(
        question=question,
        ranked=tuple(ranked),
        recall={k: recall_at(ranked, question.evidence, k) for k in KS},
        context_recall=sum(1 for e in question.evidence if e in in_context) / len(question.evidence),
        top=tuple(
            Seen(h.memory.kind.value, tuple(h.memory.provenance), h.score, h.memory.text)
            for h in hits[:TOP_HITS]
        ),
        block_lines=len(block.memories),
        on_topic_lines=sum(1 for held in sessions if held & wanted),
    )


def _turns_behind(memory: Memory, user_id: str, item: MemoryItem, turns: Mapping[str, str]) -> set[str]:
    """The conversation turns a block line stands on: its own provenance, and for a summary or digest
    (whose provenance names the memories it was built from) theirs."""
    direct = {t for t in item.provenance if t in turns}
    built = [p for p in item.provenance if p not in turns]
    for source in memory.stores.records.get_many(user_id, built, embeddings=False) if built else []:
        direct |= {t for t in source.provenance if t in turns}
    return direct


def stored(memory: Memory, conversation: Conversation) -> Stored:
    """Count the active records the conversation left, by kind."""
    user_id = conversation.sample_id
    items = {k.value: memory.stores.records.count(user_id, MemoryQuery(kinds=(k,))) for k in Kind}
    return Stored(
        sample_id=user_id,
        sessions=len(conversation.sessions),
        turns=len(conversation.turns),
        items=items,
        transcript_tokens=estimate_tokens(conversation.transcript()),
    )


def evaluate(
    samples: Sequence[Mapping[str, Any]],
    *,
    memory: Memory | None = None,
    db: str | Path | None = None,
    split: str = "all",
    conversations: int | None = None,
    limit: int | None = None,
    context_tokens: int = CONTEXT_TOKENS,
    progress: Progress | None = None,
    llm: ChatClient | None = None,
) -> Run:
    """Run the benchmark over ``samples`` and return the measurements.

    A fresh :class:`Memory` in a temporary SQLite file is used unless ``memory`` (or a new file ``db``)
    is given. ``limit`` caps the questions asked per conversation. ``llm`` turns on the LLM stages of
    the fresh memory (a given ``memory`` keeps its own); the usage of either is recorded.
    """
    chosen = select(samples, split, conversations)
    run = Run(split=split)
    tracker = _Tracker(progress, chosen)
    started = time.perf_counter()
    if memory is not None:
        _run(memory, chosen, run, tracker, limit, context_tokens)
        where = memory.settings.path
        run.db_bytes = _size(Path(where)) if where and where != ":memory:" else 0
    else:
        with tempfile.TemporaryDirectory(prefix="memlane-locomo-") as tmp:
            path = Path(db) if db is not None else Path(tmp) / "locomo.db"
            if path.exists():
                raise InvalidInput(f"{path} already exists; the benchmark needs a new database file")
            # without a client the rules alone run, even when MEMLANE_LLM_BASE_URL is set
            fresh = Memory(path, llm=llm) if llm is not None else Memory(path, llm_base_url=None)
            with fresh as mem:
                _run(mem, chosen, run, tracker, limit, context_tokens)
            run.db_bytes = _size(path)  # after close, so the write-ahead log is folded in
            memory = fresh
    run.seconds = time.perf_counter() - started
    if memory.llm is not None:
        run.llm_model, run.llm_usage = memory.llm.model, memory.llm.usage
    return run


def _run(
    memory: Memory,
    samples: Sequence[Mapping[str, Any]],
    run: Run,
    tracker: _Tracker,
    limit: int | None,
    budget: int,
) -> None:
    for sample in samples:
        started = time.perf_counter()
        conversation = ingest_sample(memory, sample, run, tracker)
        run.ingest_seconds += time.perf_counter() - started
        run.stored.append(stored(memory, conversation))
        # the answer key is opened only once the conversation is in the store
        questions = read_questions(conversation.sample_id, sample.get("qa") or [], conversation.turn_ids)
        questions = questions[:limit] if limit is not None else questions
        tracker.plan(len(questions))
        for question in questions:
            run.answers.append(ask(memory, conversation, question, run, budget))
            tracker.asked()
        tracker.note(
            f"{conversation.sample_id}: {len(conversation.turns)} turns ingested, "
            f"{len(questions)} questions asked ({time.perf_counter() - started:.0f} s)"
        )


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


class _Tracker:
    """Progress over turns ingested and questions asked (a no-op without a rich Progress)."""

    def __init__(self, progress: Progress | None, samples: Sequence[Mapping[str, Any]]) -> None:
        self.progress = progress
        self.turns: TaskID | None = None
        self.questions: TaskID | None = None
        if progress is not None:
            total = sum(len(read_conversation(str(s["sample_id"]), s["conversation"]).turns) for s in samples)
            self.turns = progress.add_task("ingesting turns", total=total)
            self.questions = progress.add_task("asking questions", total=0)

    def ingested(self) -> None:
        if self.progress is not None and self.turns is not None:
            self.progress.advance(self.turns)

    def plan(self, n: int) -> None:
        if self.progress is not None and self.questions is not None:
            task = self.progress.tasks[self.questions]
            self.progress.update(self.questions, total=(task.total or 0) + n)

    def note(self, line: str) -> None:
        # a line per conversation: the only sign of life when the bar cannot render (output to a file)
        if self.progress is not None:
            self.progress.console.print(line)

    def asked(self) -> None:
        if self.progress is not None and self.questions is not None:
            self.progress.advance(self.questions)
