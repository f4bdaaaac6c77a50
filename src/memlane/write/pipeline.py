"""The write path: messages → redact → extract → judge → look again → reconcile → one plan, applied once.

Sensitive values are masked before anything else sees the text, so no stage, index or log holds
them. Every clause of a user's message gets exactly one decision with a reason. The decisions are
judged before the transaction (a second opinion from an LLM costs no lock), and what is about to be
kept is embedded and read again with its vector (:mod:`memlane.write.keeper`); inside it, the kept
ones are reconciled with the user's memories and with each other into a
:class:`~memlane.write.plan.WritePlan`, which :func:`~memlane.write.apply.apply` writes all at once.
The log turns get their vectors from the backlog, off the caller's path
(:mod:`memlane.write.backlog`), and so do the dropped clauses the judge may still keep by their
meaning: what it keeps of them is written afterwards, on its own. The session is updated after the
commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from memlane.domain import (
    Action,
    Candidate,
    Category,
    Decision,
    Kind,
    Message,
    Session,
)
from memlane.embed import Embedder, Vector
from memlane.privacy import injection, sensitive
from memlane.privacy.controls import PrivacyControls
from memlane.profile import holds
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import SPEAKER
from memlane.text.lang import detect, said
from memlane.vocabulary import ConsentSettings, MemoryQuery
from memlane.write import corrections, forget_about
from memlane.write.apply import apply
from memlane.write.backlog import Reread, VectorBacklog
from memlane.write.extract import Extractor
from memlane.write.judge import Judge
from memlane.write.judge.rules import POLICIES
from memlane.write.keeper import Keeper
from memlane.write.plan import Correct, ForgetMemories, UserEdits, WritePlan
from memlane.write.planner import Draft, Planner
from memlane.write.reconcile import Reconciler
from memlane.write.short_term import ShortTerm, turn_before, user_turn_before

# the note of a dropped clause the judge reads again by its meaning after the write (it may keep it)
READ_AGAIN = "read again by its meaning after this write"
# a message made only of these says nothing but the withdrawal itself
_TRIVIAL = {Category.FORGET, Category.SMALLTALK, Category.REQUEST}
# a layer as a reason names it to a user who writes Chinese
_KIND_ZH = {
    Action.SESSION: "会话",
    Action.SEMANTIC: "语义",
    Action.EPISODIC: "情景",
    Action.PROFILE: "个人资料",
}


@dataclass(frozen=True)
class Written:
    """What one call wrote: its decisions, and how many clauses were left unjudged (over the bound)."""

    decisions: list[Decision]
    skipped: int = 0


class WritePath:
    """Turns messages into decisions and stored memories for one user at a time."""

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        extractor: Extractor,
        judge: Judge,
        settings: Settings,
        edits: UserEdits,
        backlog: VectorBacklog,
        privacy: PrivacyControls,
        reconciler: Reconciler | None = None,
    ) -> None:
        self.stores = stores
        self.backlog = backlog
        self.embedder = embedder
        self.extractor = extractor
        self.judge = judge
        self.settings = settings
        self.edits = edits
        self.privacy = privacy
        self.reconciler = reconciler or Reconciler(settings)
        self.planner = Planner(stores, self.reconciler, privacy, settings)
        self.keeper = Keeper(embedder, judge)
        self.short_term = ShortTerm(stores, settings)

    def add(
        self,
        user_id: str,
        session_id: str | None,
        messages: Sequence[Message],
        consent: ConsentSettings | None = None,
        caller: str | None = None,
    ) -> Written:
        """Process ``messages`` (already validated, in time order): one decision per candidate."""
        redacted = [self._redact(m) for m in messages]
        session = self.short_term.session(user_id, session_id, messages[0].at)
        said_before = user_turn_before(redacted, session)
        found: list[tuple[Candidate, datetime]] = []
        fixes: list[tuple[Decision, tuple[str, str]]] = []  # "I meant Berlin, not Munich"
        skipped = 0
        for original, message in zip(messages, redacted, strict=True):
            if (fix := corrections.corrects(self.stores, user_id, message)) is not None:
                fixes.append(fix)
                continue
            candidates = self._candidates(message, original, said_before.get(message.id))
            limit = self.settings.max_clauses
            skipped += max(0, len(candidates) - limit)
            found += [(c, message.at) for c in candidates[:limit]]
        decisions = self._judged(found, consent) + [d for d, _ in fixes]
        decisions, withdrawn, earlier = self._withdrawals(user_id, session_id, redacted, decisions)
        if earlier or forget_about.requested(decisions):
            self.backlog.settle_rereads(user_id)  # what is read again of them is kept, then forgotten
        decisions, forgotten = forget_about.asked(self.stores, user_id, decisions)
        draft, later = self._draft(
            user_id, session_id, messages, redacted, decisions, withdrawn, earlier, caller, session
        )
        asked = (ForgetMemories(forgotten, "the user asked to forget it"),) if forgotten else ()
        draft = replace(draft, asked=asked + tuple(Correct(*fixed) for _, fixed in fixes))
        plan, gone = self._write(draft)
        self.backlog.submit(user_id, [self._reread(draft, d, said) for d, said in later])
        decisions = self.short_term.update(user_id, session_id, plan, gone)
        reading = {id(d.candidate) for d, _ in later}
        decisions = [replace(d, note=READ_AGAIN) if id(d.candidate) in reading else d for d in decisions]
        return Written(decisions, skipped)

    def remember(
        self,
        user_id: str,
        session_id: str | None,
        message: Message,
        candidate: Candidate,
        action: Action,
        consent: ConsentSettings | None = None,
        caller: str | None = None,
        also: Callable[[Decision], None] | None = None,
    ) -> Decision:
        """Store one explicit memory: no extraction, but redaction, the sensitivity check and reconcile.
        ``also`` runs with the decision inside the transaction that stores it."""
        redacted = self._redact(message)
        candidate = replace(
            candidate,
            text=redacted.content,
            sensitive=sensitive.kinds(redacted.content),
            instruction=bool(injection.kinds(redacted.content)),
        )
        (decision,) = self._judged([(candidate, message.at)], consent)
        if decision.action is not Action.DISCARD:
            decision = replace(
                decision,
                action=action,
                reason=said(
                    candidate.lang,
                    f"written explicitly as a {action.value} memory",
                    f"按调用直接写成{_KIND_ZH[action]}记忆",
                ),
            )
        session = self.short_term.session(user_id, session_id, message.at)
        draft, _ = self._draft(
            user_id, session_id, [message], [redacted], [decision], set(), [], caller, session, log=False
        )
        plan, _ = self._write(draft, also)
        return plan.decisions[0]

    # -- stages -----------------------------------------------------------------------------------

    def _redact(self, message: Message) -> Message:
        findings = sensitive.scan(message.content)
        if not findings:
            return message
        return replace(message, content=sensitive.redact(message.content, findings))

    def _candidates(self, message: Message, original: Message, before: str | None) -> list[Candidate]:
        found = self.extractor.extract(message, before)
        instruction = bool(injection.kinds(original.content))
        # what a named speaker said is theirs: "I" in it is them, and forgetting them forgets it
        speaker = [f"{SPEAKER}{message.name}"] if message.name else []
        out = [
            replace(
                _checked(c),
                sensitive=sorted(set(c.sensitive) | set(sensitive.kinds(c.text))),
                instruction=instruction,
                tags=list(dict.fromkeys([*c.tags, *speaker])),
            )
            for c in found
        ]
        hidden = sensitive.kinds(message.content)
        if hidden and not any(c.sensitive for c in out):
            # the sensitive clause said nothing else worth a candidate: still tell the caller
            out.append(
                Candidate(
                    text=message.content,
                    category=Category.SENSITIVE,
                    lang=detect(message.content),
                    sensitive=hidden,
                    role=message.role,
                    message_id=message.id,
                    instruction=instruction,
                )
            )
        return out

    def _judged(
        self, candidates: Sequence[tuple[Candidate, datetime]], consent: ConsentSettings | None
    ) -> list[Decision]:
        """The judge's decisions (it sees only the sensitive kinds the policy drops), with the policy
        and the user's consent applied to each."""
        policy = self.privacy.policy
        decisions = self.judge.decide_all([(policy.for_judge(c), at) for c, at in candidates])
        return [policy.review(d, c, consent) for d, (c, _) in zip(decisions, candidates, strict=True)]

    def _withdrawals(
        self, user_id: str, session_id: str | None, messages: Sequence[Message], decisions: list[Decision]
    ) -> tuple[list[Decision], set[str], list[str]]:
        """Honour "别记这个 / don't remember that": nothing of the withdrawing message is kept, and a
        message that says only that withdraws the user's previous message. A message that names what
        to forget ("忘掉我住哪") is not logged, but the rest of it stands (:mod:`forget_about`).
        Returns the decisions, the ids of messages of this call not logged, and of earlier messages
        to forget.
        """
        asking = {
            d.candidate.message_id: not d.candidate.objects  # True: takes back, False: names what goes
            for d in decisions
            if d.candidate is not None
            and d.candidate.message_id is not None
            and d.candidate.category is Category.FORGET
            and d.candidate.role == "user"
        }
        if not asking:
            return decisions, set(), []
        withdrawn = {m for m, back in asking.items() if back}
        earlier: list[str] = []
        for i, message in enumerate(messages):
            if not asking.get(message.id):
                continue
            said = [d for d in decisions if d.candidate is not None and d.candidate.message_id == message.id]
            if all(d.candidate is not None and d.candidate.category in _TRIVIAL for d in said):
                previous = [m for m in messages[:i] if m.role == "user"]
                if previous:
                    withdrawn.add(previous[-1].id)
                else:
                    last = self._last_user_message(user_id, session_id, message.at)
                    earlier += [last] if last else []
        out = [
            replace(
                d,
                action=Action.DISCARD,
                reason=POLICIES[Category.FORGET].said(d.candidate.lang),
                expires_at=None,
            )
            if d.candidate is not None
            and d.candidate.message_id in withdrawn
            and d.candidate.category is not Category.FORGET
            else d
            for d in decisions
        ]
        return out, withdrawn | set(asking), earlier

    def _last_user_message(self, user_id: str, session_id: str | None, before: datetime) -> str | None:
        session = self.stores.sessions.get_session(user_id, session_id, before) if session_id else None
        if session is not None:
            turns = [t for t in session.turns if t.role == "user"]
            return turns[-1].message_id if turns else None
        for item in self.stores.records.query(user_id, MemoryQuery(kinds=(Kind.LOG,), limit=10)):
            if item.role == "user" and item.provenance:
                return item.provenance[0]
        return None

    def _draft(
        self,
        user_id: str,
        session_id: str | None,
        originals: Sequence[Message],
        messages: Sequence[Message],
        decisions: list[Decision],
        withdrawn: set[str],
        earlier: list[str],
        caller: str | None,
        session: Session | None,
        *,
        log: bool = True,
    ) -> tuple[Draft, list[tuple[Decision, datetime]]]:
        """Everything the plan needs that costs time: the vectors of what is kept, and a second
        opinion on what the rules doubt, both before the transaction opens; and the dropped decisions
        to read again once their clause is embedded, each with when it was said."""
        times = {m.id: m.at for m in messages}
        at = messages[-1].at

        def said_at(d: Decision) -> datetime:
            return times.get(d.candidate.message_id or "", at) if d.candidate is not None else at

        decisions, made, later = self.keeper.keep(
            user_id, session_id, decisions, said_at, look=log, withdrawn=withdrawn
        )
        items = tuple(made.get(id(d)) for d in decisions)
        pending = [
            (item, d.candidate.objects)
            for d, item in zip(decisions, items, strict=True)
            if item and d.candidate
        ]
        rulings = self.reconciler.review(self.stores, pending)
        logged = [m for m in messages if log and self.settings.keep_log and m.id not in withdrawn]
        draft = Draft(
            user_id=user_id,
            session_id=session_id,
            at=at,
            messages=tuple(messages),
            originals={m.id: m.content for m in originals},
            decisions=tuple(decisions),
            items=items,
            rulings=rulings,
            logged=tuple(logged),
            before=turn_before(messages, session),
            withdrawn=frozenset(withdrawn),
            earlier=tuple(earlier),
            caller=caller,
        )
        return draft, [(d, said_at(d)) for d in later]

    def _reread(self, draft: Draft, decision: Decision, said: datetime) -> Reread:
        """The backlog's job for a dropped clause of ``draft``, said at ``said``, to read again with
        its vector."""
        assert decision.candidate is not None

        def then(vector: Vector) -> None:
            self._rescue(draft.user_id, draft.session_id, decision, vector, said, draft.caller)

        return Reread(decision.candidate.text, then)

    def _rescue(
        self,
        user_id: str,
        session_id: str | None,
        decision: Decision,
        vector: Vector,
        at: datetime,
        caller: str | None,
    ) -> None:
        """Keep what the second look keeps of a dropped clause, and a dropped clause that says a memory
        of the user's no longer holds, reconciled like any write."""
        ends = partial(self.reconciler.ends_one, self.stores)
        found = self.keeper.rescue(user_id, session_id, decision, vector, at, ends)
        if found is None:
            return
        kept, memory = found
        assert kept.candidate is not None
        draft = Draft(
            user_id=user_id,
            session_id=session_id,
            at=at,
            messages=(),
            originals={},
            decisions=(kept,),
            items=(memory,),
            rulings=self.reconciler.review(self.stores, [(memory, kept.candidate.objects)]),
            logged=(),
            before={},
            withdrawn=frozenset(),
            earlier=(),
            caller=caller,
        )
        plan, gone = self._write(draft)
        self.short_term.kept_later(user_id, session_id, plan, gone)

    def _write(
        self, draft: Draft, also: Callable[[Decision], None] | None = None
    ) -> tuple[WritePlan, set[str]]:
        with self.stores.records.transaction(draft.user_id):
            plan = self.planner.plan(draft)
            gone = apply(self.stores, plan, self.edits)
            if also is not None:
                also(plan.decisions[0])
        self.backlog.submit(draft.user_id, list(plan.vectors))
        return plan, gone


def _checked(candidate: Candidate) -> Candidate:
    """``candidate`` without its slot when the value cannot stand in it (a masked fragment, a street
    address as a city): what it says is still judged, as the sentence it is."""
    if candidate.slot is None or holds(candidate.slot, candidate.value):
        return candidate
    return replace(candidate, slot=None, value=None)
