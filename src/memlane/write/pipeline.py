"""The write path: messages → (redact) → extract → judge → reconcile → store.

Sensitive values are masked before anything else sees the text, so no stage, index or log can hold
them. One batch of embeddings covers every candidate of a call; the log turns are stored at once and
get their vectors from the backlog, off the caller's path (:mod:`memlane.write.backlog`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from memlane.domain import (
    Action,
    Candidate,
    Category,
    Decision,
    EventStatus,
    Kind,
    MemoryItem,
    Message,
    Session,
    SlotVersion,
    Source,
    Status,
    Turn,
)
from memlane.embed import Embedder
from memlane.lifecycle.edit import Editor
from memlane.lifecycle.history import record
from memlane.privacy import injection, sensitive
from memlane.settings import Settings
from memlane.store import MemoryQuery, MemoryStore, SessionStore
from memlane.store.tokens import CHATTER, OUTDATED, SPEAKER, tokens_for
from memlane.text.keywords import index_text
from memlane.text.lang import detect, normalize
from memlane.write.backlog import VectorBacklog
from memlane.write.extract import Extractor
from memlane.write.judge import Judge
from memlane.write.reconcile import Match, Outcome, Reconciler, Rulings

_KIND_OF_ACTION = {
    Action.SEMANTIC: Kind.SEMANTIC,
    Action.EPISODIC: Kind.EPISODIC,
    Action.PROFILE: Kind.PROFILE,
}
_DATED = {Category.EVENT, Category.PLAN, Category.COMPLAINT}
# a message made only of these says nothing but the withdrawal itself
_TRIVIAL = {Category.FORGET, Category.SMALLTALK, Category.REQUEST}


def dated_text(candidate: Candidate) -> str:
    """The candidate's text with its resolved date, so the memory still reads right next year."""
    if candidate.event_time is None or candidate.category not in _DATED:
        return candidate.text
    day = candidate.event_time.date().isoformat()
    return f"{candidate.text}（{day}）" if candidate.lang == "zh" else f"{candidate.text} ({day})"


class WritePath:
    """Turns messages into decisions and stored memories for one user at a time."""

    def __init__(
        self,
        store: MemoryStore,
        sessions: SessionStore,
        embedder: Embedder,
        extractor: Extractor,
        judge: Judge,
        settings: Settings,
        editor: Editor,
        backlog: VectorBacklog,
        reconciler: Reconciler | None = None,
    ) -> None:
        self.store = store
        self.backlog = backlog
        self.sessions = sessions
        self.embedder = embedder
        self.extractor = extractor
        self.judge = judge
        self.settings = settings
        self.editor = editor
        self.reconciler = reconciler or Reconciler(settings)

    def add(self, user_id: str, session_id: str | None, messages: Sequence[Message]) -> list[Decision]:
        """Process ``messages`` (already validated, in time order) and return one decision per candidate."""
        redacted = [self._redact(m) for m in messages]
        candidates = [c for m in redacted for c in self._candidates(m)]
        at = messages[-1].at
        decisions = self.judge.decide_all([(c, self._time_of(c, redacted)) for c in candidates])
        withdrawn, earlier = self._withdrawals(user_id, session_id, redacted, decisions)
        keep = [d for d in decisions if d.action in _KIND_OF_ACTION]
        for d in keep:
            if d.candidate is not None:
                d.text = dated_text(d.candidate)
        log = [m for m in redacted if self.settings.keep_log and m.id not in withdrawn]
        before = self._turn_before(user_id, session_id, redacted)
        # candidates are embedded now (reconciling needs their vectors); log turns by the backlog
        vectors = self.embedder.embed_passages([d.text for d in keep])

        times = [self._time_of(d.candidate, redacted) if d.candidate else at for d in keep]
        items = [
            self._item(user_id, session_id, d, v.tolist(), when)
            for d, v, when in zip(keep, vectors[: len(keep)], times, strict=True)
        ]
        # a second opinion on what the rules could not settle is asked before the transaction opens
        objects = [d.candidate.objects if d.candidate else [] for d in keep]
        rulings = self.reconciler.review(self.store, list(zip(items, objects, strict=True)))
        with self.store.transaction(user_id):
            for decision, item in zip(keep, items, strict=True):
                self._store(decision, item, rulings)
            chatter = {
                m.id
                for m in log
                if all(
                    d.candidate is not None and d.candidate.category is Category.SMALLTALK
                    for d in decisions
                    if d.candidate is not None and d.candidate.message_id == m.id
                )
            }
            turns = [self._log(user_id, session_id, m, m.id in chatter, before.get(m.id)) for m in log]
            gone = self.editor.forget_messages(user_id, earlier, at, "the user asked not to remember it")
        self.backlog.submit(
            user_id, [(t.id, self._in_context(m, before.get(m.id))) for t, m in zip(turns, log, strict=True)]
        )
        kept = [m for m in redacted if m.id not in withdrawn]
        self._update_session(user_id, session_id, kept, decisions, at, withdrawn | set(earlier), gone)
        return decisions

    def _turn_before(
        self, user_id: str, session_id: str | None, messages: Sequence[Message]
    ) -> dict[str, str]:
        """The turn said just before each message (in this call, or the session's last turn)."""
        out: dict[str, str] = {}
        session = self.sessions.get_session(user_id, session_id, messages[0].at) if session_id else None
        previous = session.turns[-1].content if session is not None and session.turns else None
        for message in messages:
            if previous:
                out[message.id] = previous
            previous = self._log_text(message)
        return out

    def _in_context(self, message: Message, before: str | None) -> str:
        """A log turn is embedded with the turn before it: "Yes, twice!" means little alone, and the
        question it answers is often what a later search asks (LoCoMo dev split: R@10 0.67 → 0.75).
        """
        return f"{before}\n{self._log_text(message)}" if before else self._log_text(message)

    def _candidates(self, message: Message) -> list[Candidate]:
        found = self.extractor.extract(message)
        if injection.kinds(message.content):
            for c in found:
                c.tags.append(injection.FLAG)
        hidden = sensitive.kinds(message.content)
        for c in found:
            c.sensitive = sorted(set(c.sensitive) | set(sensitive.kinds(c.text)))
        if hidden and not any(c.sensitive for c in found):
            # the sensitive clause said nothing else worth a candidate: still tell the caller
            found.append(
                Candidate(
                    text=message.content,
                    category=Category.SENSITIVE,
                    lang=detect(message.content),
                    sensitive=hidden,
                    role=message.role,
                    message_id=message.id,
                )
            )
        return found

    def _withdrawals(
        self, user_id: str, session_id: str | None, messages: Sequence[Message], decisions: list[Decision]
    ) -> tuple[set[str], list[str]]:
        """Honour "别记这个 / don't remember that": nothing of the withdrawing message is kept, and a
        message that says only that withdraws the user's previous message. Returns the ids of messages
        of this call that keep nothing, and of earlier messages to forget.
        """
        asking = {
            d.candidate.message_id
            for d in decisions
            if d.candidate is not None
            and d.candidate.message_id is not None
            and d.candidate.category is Category.FORGET
            and d.candidate.role == "user"
        }
        if not asking:
            return set(), []
        withdrawn = set(asking)
        earlier: list[str] = []
        for i, message in enumerate(messages):
            if message.id not in asking:
                continue
            said = [d for d in decisions if d.candidate is not None and d.candidate.message_id == message.id]
            if all(d.candidate is not None and d.candidate.category in _TRIVIAL for d in said):
                previous = [m for m in messages[:i] if m.role == "user"]
                if previous:
                    withdrawn.add(previous[-1].id)
                else:
                    last = self._last_user_message(user_id, session_id, message.at)
                    earlier += [last] if last else []
        for d in decisions:
            c = d.candidate
            if c is not None and c.message_id in withdrawn and c.category is not Category.FORGET:
                d.action = Action.DISCARD
                d.reason = "the user asked not to remember this"
        return withdrawn, earlier

    def _last_user_message(self, user_id: str, session_id: str | None, before: datetime) -> str | None:
        session = self.sessions.get_session(user_id, session_id, before) if session_id else None
        if session is not None:
            turns = [t for t in session.turns if t.role == "user"]
            return turns[-1].message_id if turns else None
        for item in self.store.query(user_id, MemoryQuery(kinds=(Kind.LOG,), limit=10)):
            if "role:user" in item.tags and item.provenance:
                return item.provenance[0]
        return None

    def remember(
        self, user_id: str, session_id: str | None, message: Message, candidate: Candidate, action: Action
    ) -> Decision:
        """Store one explicit memory: no extraction, but redaction, the sensitivity check and reconcile."""
        redacted = self._redact(message)
        candidate.text = redacted.content
        candidate.sensitive = sensitive.kinds(redacted.content)
        if injection.kinds(redacted.content):
            candidate.tags.append(injection.FLAG)
        decision = self.judge.decide(candidate, message.at)
        if decision.action is Action.DISCARD:
            return decision
        decision.action = action
        decision.reason = f"written explicitly as a {action.value} memory"
        vector = self.embedder.embed_passages([dated_text(candidate)])[0].tolist()
        item = self._item(user_id, session_id, decision, vector, message.at)
        with self.store.transaction(user_id):
            self._store(decision, item)
        return decision

    # -- stages -----------------------------------------------------------------------------------

    def _redact(self, message: Message) -> Message:
        findings = sensitive.scan(message.content)
        if not findings:
            return message
        return replace(message, content=sensitive.redact(message.content, findings))

    @staticmethod
    def _time_of(candidate: Candidate, messages: Sequence[Message]) -> datetime:
        for m in messages:
            if m.id == candidate.message_id:
                return m.at
        return messages[-1].at

    @staticmethod
    def _log_text(message: Message) -> str:
        return f"{message.name}: {message.content}" if message.name else message.content

    def _item(
        self, user_id: str, session_id: str | None, decision: Decision, vector: list[float], at: datetime
    ) -> MemoryItem:
        c = decision.candidate
        assert c is not None
        return MemoryItem(
            user_id=user_id,
            text=dated_text(c),
            kind=_KIND_OF_ACTION[decision.action],
            category=c.category,
            tags=list(dict.fromkeys(c.tags)),
            entities=list(dict.fromkeys([*c.objects, *c.entities])),
            importance=decision.importance,
            confidence=decision.confidence,
            stability=decision.stability,
            sensitivity=decision.sensitivity,
            source=Source.EXPLICIT if c.explicit else Source.INFERRED,
            session_id=session_id,
            slot=c.slot,
            value=c.value,
            polarity=c.polarity,
            event_status=c.event_status,
            created_at=at,
            updated_at=at,
            last_verified_at=at,
            expires_at=decision.expires_at,
            # an event told without a date happened around the time it was told
            valid_from=c.event_time or (at if decision.action is Action.EPISODIC else None),
            provenance=[c.message_id] if c.message_id else [],
            reason=decision.reason,
            embedding=vector,
        )

    def _store(self, decision: Decision, item: MemoryItem, rulings: Rulings | None = None) -> None:
        c = decision.candidate
        assert c is not None
        assert item.created_at is not None
        at = item.created_at
        match = self.reconciler.match(self.store, item, c.objects, rulings)
        if match.outcome is Outcome.MERGE:
            decision.memory = self._merge(match, item, at)
            decision.outcome = f"merged into {match.existing[0].id}: {match.why}"
        elif match.outcome is Outcome.RESOLVE:
            decision.memory = self._resolve(match, item, at)
            decision.outcome = f"resolved {match.existing[0].id}: {match.why}"
        elif match.outcome is Outcome.WEAKER:
            decision.action = Action.DISCARD
            decision.reason = f"a weaker claim than an existing one: {match.why}"
            decision.outcome = f"kept {match.existing[0].id}"
        else:
            if match.outcome is Outcome.SUPERSEDE:
                self._supersede(match, item, at)
                decision.outcome = f"superseded {', '.join(m.id for m in match.existing)}: {match.why}"
            else:
                decision.outcome = f"new: {match.why}" if match.why else "new"
            self.store.put(item, tokens_for(item))
            self._history(item, "add", at, after=item.text, reason=decision.reason)
            decision.memory = item
        if decision.memory is not None and decision.action is Action.PROFILE and c.slot:
            self._set_slot(decision.memory, c, at)

    def _merge(self, match: Match, item: MemoryItem, at: datetime) -> MemoryItem:
        old = match.existing[0]
        before = old.text
        old.importance = round(min(1.0, max(old.importance, item.importance) + 0.05), 3)
        old.confidence = max(old.confidence, item.confidence)
        old.provenance = list(dict.fromkeys([*old.provenance, *item.provenance]))
        old.tags = list(dict.fromkeys([*old.tags, *item.tags]))
        old.entities = list(dict.fromkeys([*old.entities, *item.entities]))
        old.updated_at = at
        old.last_verified_at = at
        if item.expires_at and old.expires_at and item.expires_at > old.expires_at:
            old.expires_at = item.expires_at
        if len(normalize(item.text)) > len(normalize(old.text)):
            # keep the more specific wording ("关注iPhone游戏性能" over "关注游戏性能")
            old.text, old.embedding = item.text, item.embedding
        self.store.put(old, tokens_for(old))
        self._history(old, "merge", at, before=before, after=old.text, reason=match.why)
        return old

    def _resolve(self, match: Match, item: MemoryItem, at: datetime) -> MemoryItem:
        old = match.existing[0]
        before = old.text
        old.event_status = EventStatus.RESOLVED
        # the resolution joins the complaint's text, so the memory reads as the whole story
        old.text = f"{old.text}（{item.text}）" if detect(item.text) == "zh" else f"{old.text} ({item.text})"
        old.provenance = list(dict.fromkeys([*old.provenance, *item.provenance]))
        old.updated_at = at
        old.valid_to = at
        self.store.put(old, tokens_for(old))
        self._history(old, "resolve", at, before=before, after=old.text, reason=match.why)
        return old

    def _supersede(self, match: Match, item: MemoryItem, at: datetime) -> None:
        for old in match.existing:
            old.status = Status.SUPERSEDED
            old.superseded_by = item.id
            old.valid_to = at
            old.updated_at = at
            self.store.put(old, tokens_for(old))
            self._history(old, "supersede", at, before=old.text, after=item.text, reason=match.why)
            self._mark_log(old, OUTDATED)
        item.supersedes = match.existing[0].id

    def _mark_log(self, memory: MemoryItem, tag: str) -> None:
        """Tag the raw turns a memory came from: search ranks a turn that says something since
        superseded below the memory that says what is true now.
        """
        for source in memory.provenance:
            for turn in self.store.query(memory.user_id, MemoryQuery(kinds=(Kind.LOG,), provenance=source)):
                if tag not in turn.tags:
                    turn.tags.append(tag)
                    self.store.put(turn, tokens_for(turn) + self._context_tokens(turn))

    def _context_tokens(self, turn: MemoryItem) -> str:
        """The keywords of the turn said before ``turn`` in its session, as :meth:`_log` indexed them."""
        if turn.session_id is None or turn.valid_from is None:
            return ""
        earlier = MemoryQuery(kinds=(Kind.LOG,), session_id=turn.session_id, until=turn.valid_from, limit=2)
        before = next((m for m in self.store.query(turn.user_id, earlier) if m.id != turn.id), None)
        return f" {index_text(before.text)}" if before is not None else ""

    def _set_slot(self, memory: MemoryItem, c: Candidate, at: datetime) -> None:
        assert c.slot is not None
        current = self.store.slots(memory.user_id, c.slot)
        if current and current[-1].value == c.value:
            return
        version = max((v.version for v in self.store.slots(memory.user_id, c.slot, False)), default=0) + 1
        self.store.put_slot(
            SlotVersion(
                user_id=memory.user_id,
                slot=c.slot,
                value=c.value,
                version=version,
                created_at=at,
                memory_id=memory.id,
                message_ids=list(memory.provenance),
                reason=memory.reason,
            )
        )
        before = repr(current[-1].value) if current else None
        record(
            self.store,
            memory.user_id,
            f"profile:{c.slot}",
            "update" if current else "add",
            at,
            memory.reason,
            before=before,
            after=repr(c.value),
        )

    def _log(
        self,
        user_id: str,
        session_id: str | None,
        message: Message,
        chatter: bool,
        turn_before: str | None,
    ) -> MemoryItem:
        """Store the turn without its vector, which the backlog computes (:mod:`memlane.write.backlog`)."""
        item = MemoryItem(
            user_id=user_id,
            text=self._log_text(message),
            kind=Kind.LOG,
            category=Category.FACT,
            tags=[
                f"role:{message.role}",
                *([f"{SPEAKER}{message.name}"] if message.name else []),
                *([injection.FLAG] if injection.kinds(message.content) else []),
                *([CHATTER] if chatter else []),
            ],
            importance=0.3,
            confidence=0.5,
            source=Source.OBSERVED,
            session_id=session_id,
            created_at=message.at,
            updated_at=message.at,
            valid_from=message.at,
            expires_at=message.at + timedelta(days=self.settings.log_retention_days),
            provenance=[message.id],
            reason="conversation log",
        )
        # like its embedding, a turn's keywords include the turn it answers (LoCoMo dev: R@10 0.76 → 0.80)
        context = f" {index_text(turn_before)}" if turn_before else ""
        self.store.put(item, tokens_for(item) + context)
        return item

    def _history(
        self,
        item: MemoryItem,
        op: str,
        at: datetime,
        *,
        before: str | None = None,
        after: str | None = None,
        reason: str = "",
    ) -> None:
        record(self.store, item.user_id, item.id, op, at, reason, before=before, after=after)

    # -- short-term memory ------------------------------------------------------------------------

    def _update_session(
        self,
        user_id: str,
        session_id: str | None,
        messages: Sequence[Message],
        decisions: list[Decision],
        at: datetime,
        forgotten: set[str],
        forgotten_texts: set[str],
    ) -> None:
        if session_id is None:
            return
        ttl = timedelta(hours=self.settings.session_ttl_hours)
        session = self.sessions.get_session(user_id, session_id, at) or Session(
            id=session_id, user_id=user_id, created_at=at, updated_at=at
        )
        session.turns.extend(Turn(role=m.role, content=m.content, at=m.at, message_id=m.id) for m in messages)
        session.turns = [t for t in session.turns if t.message_id not in forgotten][
            -self.settings.session_turns :
        ]
        for d in decisions:
            c = d.candidate
            if d.action is not Action.SESSION or c is None:
                continue
            if c.slot:
                session.slots[c.slot] = c.value
            elif c.text not in session.notes:
                session.notes.append(c.text)
        # what the episode summary will say: new long-term facts and this task's conditions, not a fact
        # merely restated, and not one-off context
        kept = [
            d.text
            for d in decisions
            if (d.action in _KIND_OF_ACTION and not d.outcome.startswith("merged"))
            or (d.action is Action.SESSION and d.candidate is not None and d.candidate.slot)
        ]
        lines = [line for line in session.summary.split("\n") if line and line not in forgotten_texts] + kept
        session.summary = "\n".join(list(dict.fromkeys(lines))[-12:])
        session.updated_at = at
        session.expires_at = at + ttl
        self.sessions.save_session(session)
