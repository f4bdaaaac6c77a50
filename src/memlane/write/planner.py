"""From judged decisions to a :class:`~memlane.write.plan.WritePlan`: reconcile each kept candidate
with the user's memories and with the statements before it, and say what each decision did.

The planner reads (inside the caller's transaction) but writes nothing: every change is a step of
the plan. The pool it reconciles against is the store with the plan's own changes over it, so a
message that supersedes what it said a clause earlier, or says the same thing twice, is planned as
it will be stored.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from memlane.domain import (
    SHOWN,
    Action,
    Category,
    Decision,
    EventStatus,
    Flag,
    Kind,
    MemoryItem,
    Message,
    Outcome,
    Source,
    Status,
)
from memlane.privacy import injection, sensitive
from memlane.privacy.audit import entry
from memlane.privacy.controls import PrivacyControls
from memlane.profile import backing, changes, spec
from memlane.settings import Settings
from memlane.store import Stores
from memlane.store.tokens import SPEAKER, tokens_for
from memlane.text.keywords import index_text
from memlane.vocabulary import AuditEntry, MemoryQuery
from memlane.write.notes import note
from memlane.write.plan import (
    Audit,
    ForgetMessages,
    Insert,
    LogTurn,
    Merge,
    Reflag,
    Resolve,
    RetractSlot,
    Seal,
    SetSlot,
    Step,
    Supersede,
    WritePlan,
    strengthened,
)
from memlane.write.pool import Pool
from memlane.write.reconcile import Kin, Match, Reconciler, Rulings
from memlane.write.turns import outdated

LONG_TERM = (Action.SEMANTIC, Action.EPISODIC, Action.PROFILE)
_KEPT = (Outcome.NEW, Outcome.MERGED, Outcome.SUPERSEDED, Outcome.RESOLVED, Outcome.KEPT_EXISTING)


@dataclass(frozen=True)
class Draft:
    """What the write path knows before the transaction: the redacted messages, the decisions and,
    for each decision kept long-term, its new item with its vector (``items`` in decision order)."""

    user_id: str
    session_id: str | None
    at: datetime
    messages: tuple[Message, ...]
    originals: Mapping[str, str]  # message id → the text as the user sent it, before masking
    decisions: tuple[Decision, ...]
    items: tuple[MemoryItem | None, ...]
    rulings: Rulings
    logged: tuple[Message, ...]  # the messages that go to the conversation log
    before: Mapping[str, str]  # message id → the turn said before it
    withdrawn: frozenset[str]
    earlier: tuple[str, ...]
    caller: str | None
    asked: tuple[Step, ...] = ()  # what the user asked of earlier memories: forget these, correct that


def _said_only(decisions: Sequence[Decision], categories: set[Category]) -> bool:
    return bool(decisions) and all(
        d.candidate is not None and d.candidate.category in categories for d in decisions
    )


# what the judge recognised as not for a model (a turn of nothing else never reaches a context
# block); a clause it merely found nothing lasting in (OTHER) is not a judgement on the turn
_JUNK = {
    Category.MOOD,
    Category.CONTEXT,
    Category.SMALLTALK,
    Category.REQUEST,
    Category.HYPOTHETICAL,
    Category.FORGET,
    Category.SENSITIVE,
}
# what holds for one conversation by its nature, not because the judge was unsure of it
_TASK = {Category.BUDGET, Category.CONDITION, Category.CONTEXT}


def _thrown_away(d: Decision) -> bool:
    c = d.candidate
    return c is not None and (c.category in _JUNK or c.hedged or bool(c.sensitive))


_LOOSE_ENDS = re.compile(r"^[\s,，.。!！?？;；:：、~～-]+|[\s,，;；:：、~～-]+$")
# what is left of a turn that said nothing else: a word that only leads on to what followed
_FILLER = re.compile(
    r"(?:(?:对了|哦+|嗯+|啊+|好吧|那个|还有|另外|顺便说一下|然后|(?i:by\s+the\s+way|btw|oh|ok|okay|so|also|anyway|well))"
    r"[\s,，.。!！?？~～]*)*"
)
_EMPTY_BETWEEN = re.compile(r"\s*([,，;；、.。!！?？])(?:\s*[,，;；、.。!！?？])+")


def _without(text: str, dropped: Sequence[Decision]) -> str:
    """The turn without the clauses the judge threw away (a mood, small talk, a request, a guess): what
    a context block may show of it. The whole turn stays searchable; only the block leaves them out.
    Each clause is taken out where it stands whole: "ok" of "oh crap. revoked. ok" is not the "ok" of
    "revoked"."""
    spans: list[tuple[int, int]] = []
    for d in dropped:
        assert d.candidate is not None
        span = _whole(text, d.candidate.text, spans)
        if span is not None:
            spans.append(span)
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + text[end:]
    text = _LOOSE_ENDS.sub("", re.sub(r"\s{2,}", " ", _EMPTY_BETWEEN.sub(r"\1", text)))
    return "" if _FILLER.fullmatch(text) else text  # "对了，…" with all that followed it thrown away


def _whole(text: str, clause: str, taken: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """Where ``clause`` stands in ``text`` as a whole, at no span already ``taken``: not inside a
    word of Latin letters or digits (Chinese has no spaces to stand between words)."""
    if not clause:
        return None
    at = text.find(clause)
    while at >= 0:
        end = at + len(clause)
        inside = (at > 0 and _letter(text[at - 1]) and _letter(clause[0])) or (
            end < len(text) and _letter(text[end]) and _letter(clause[-1])
        )
        if not inside and not any(start < end and at < stop for start, stop in taken):
            return at, end
        at = text.find(clause, at + 1)
    return None


def _letter(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _secret(decisions: Sequence[Decision]) -> bool:
    """Whether a turn held a secret: what it said is worth only what memlane kept of it."""
    return any(d.candidate is not None and d.candidate.sensitive for d in decisions)


def _of_the_task(d: Decision) -> bool:
    c = d.candidate
    return c is not None and (c.category in _TASK or c.session_only)


class Planner:
    """Builds the plan of one call inside its transaction."""

    def __init__(
        self,
        stores: Stores,
        reconciler: Reconciler,
        privacy: PrivacyControls,
        settings: Settings,
    ) -> None:
        self.stores = stores
        self.reconciler = reconciler
        self.privacy = privacy
        self.settings = settings

    def plan(self, draft: Draft) -> WritePlan:
        """The plan for ``draft``: one final decision per decision, and the steps that carry them out."""
        pool = Pool(self.stores, draft.user_id)
        steps: list[Step] = []
        decisions: list[Decision] = []
        slots: set[str] = set()
        ended: dict[str, str] = {}  # slot → why a statement of this plan retired its memory
        retired: list[MemoryItem] = []
        sealed_originals: dict[str, str] = {}

        def originals(m: MemoryItem) -> str | None:
            return sealed_originals.get(m.id) or self.privacy.original(draft.user_id, m)

        for decision, item in zip(draft.decisions, draft.items, strict=True):
            c = decision.candidate
            if item is None or c is None or decision.action not in LONG_TERM:
                kept = Outcome.SESSION if decision.action is Action.SESSION else Outcome.DISCARDED
                decisions.append(replace(decision, outcome=kept))
                continue
            original = draft.originals.get(c.message_id or "")
            if original is not None and self.privacy.policy.encrypted(c.sensitive):
                sealed_originals[item.id] = sensitive.reveal(item.text, original)
            match = self.reconciler.match(
                pool, item, c.objects, draft.rulings, change=c.change, originals=originals
            )
            done = self._carry_out(decision, item, match, pool, steps, retired)
            decisions.append(done)
            if done.memory is not None:
                slots |= {s for s in (done.memory.slot, *(m.slot for m in match.existing)) if s}
                ended.update({m.slot: done.note for m in match.existing if m.slot and done.note})
                if item.id in sealed_originals:
                    sealed = self.privacy.sealed_text(done.memory, original or "")
                    if sealed is not None:
                        steps.append(Seal(sealed))
        steps += self._slot_versions(draft, pool, slots, ended)
        steps += self._outdated_turns(retired)
        turns = [self._log(draft, m, decisions, retired) for m in draft.logged]
        steps += turns
        if draft.earlier:
            steps.append(ForgetMessages(draft.earlier, "the user asked not to remember it"))
        steps += draft.asked
        steps.append(Audit(self._audit(draft, decisions)))
        vectors = tuple(
            (t.item.id, self._in_context(draft, m)) for t, m in zip(turns, draft.logged, strict=True)
        )
        return WritePlan(
            user_id=draft.user_id,
            session_id=draft.session_id,
            at=draft.at,
            messages=draft.messages,
            decisions=tuple(decisions),
            steps=tuple(steps),
            vectors=vectors,
            withdrawn=draft.withdrawn,
        )

    # -- one decision -----------------------------------------------------------------------------

    def _carry_out(
        self,
        decision: Decision,
        item: MemoryItem,
        match: Match,
        pool: Pool,
        steps: list[Step],
        retired: list[MemoryItem],
    ) -> Decision:
        """Add the steps ``match`` calls for to ``steps`` and ``pool``; returns the final decision."""
        at = item.created_at
        related = tuple(m.id for m in match.existing)
        if match.kin is Kin.MERGE:
            old = match.existing[0]
            merged = strengthened(old, item, match.wording)
            pool.pending[merged.id] = merged
            steps.append(Merge(merged, old.text, match.why))
            return replace(decision, outcome=Outcome.MERGED, memory=merged, related=related, note=match.why)
        if match.kin is Kin.RESOLVE:
            old = match.existing[0]
            status = (
                EventStatus.CANCELLED if item.event_status is EventStatus.CANCELLED else EventStatus.RESOLVED
            )
            settled = replace(
                old,
                event_status=status,
                provenance=list(dict.fromkeys([*old.provenance, *item.provenance])),
                updated_at=at,
                valid_to=at,
            )
            pool.pending[settled.id] = settled
            steps.append(Resolve(settled, match.why))
            return replace(
                decision, outcome=Outcome.RESOLVED, memory=settled, related=related, note=match.why
            )
        if match.kin is Kin.FULFIL:
            # the plan happened: it still says what was planned (and a question about the plan
            # finds it), now done; the event is a memory of its own
            old = match.existing[0]
            done = replace(old, event_status=EventStatus.DONE, updated_at=at, valid_to=at)
            pool.pending[done.id] = done
            steps.append(Resolve(done, match.why))
        if match.kin is Kin.WEAKER:
            reason = note("stands", decision.text, why=match.why)
            return replace(
                decision,
                action=Action.DISCARD,
                reason=reason,
                outcome=Outcome.KEPT_EXISTING,
                related=related,
                note=match.why,
            )
        if match.kin is Kin.SUPERSEDE:
            for old in match.existing:
                gone = replace(
                    old, status=Status.SUPERSEDED, superseded_by=item.id, valid_to=at, updated_at=at
                )
                pool.pending[gone.id] = gone
                steps.append(Supersede(gone, item, match.why))
                retired.append(gone)
            item = replace(item, supersedes=match.existing[0].id)
        pool.pending[item.id] = item
        steps.append(Insert(item, decision.reason))
        outcome = Outcome.SUPERSEDED if match.kin is Kin.SUPERSEDE else Outcome.NEW
        return replace(decision, outcome=outcome, memory=item, related=related, note=match.why)

    # -- what follows from the decisions ------------------------------------------------------------

    def _slot_versions(
        self, draft: Draft, pool: Pool, slots: set[str], ended: Mapping[str, str]
    ) -> list[Step]:
        """A version for each profile slot whose value the plan changes (or retracts): a value says
        why its memory was kept, a retraction why it ``ended`` (or that no memory states it any more)."""
        wanted = {s for s in slots if spec(s).profile}
        if not wanted:
            return []
        held = backing(pool.query(MemoryQuery(kinds=(Kind.PROFILE,))))
        found = changes(self.stores, draft.user_id, wanted, held, draft.at, "no memory states it any more")
        why = {m.id: m.reason for memories in held.values() for m in memories}
        return [
            SetSlot(replace(v, reason=why.get(v.memory_id) or v.reason), before)
            if v.memory_id
            else RetractSlot(replace(v, reason=ended.get(v.slot) or v.reason), before)
            for v, before in found
        ]

    def _outdated_turns(self, retired: Sequence[MemoryItem]) -> list[Step]:
        """The stored log turns of the memories the plan retired: they say something outdated now."""
        return [Reflag(turn, tokens) for turn, tokens in outdated(self.stores, retired)]

    def _log(
        self, draft: Draft, message: Message, decisions: Sequence[Decision], retired: Sequence[MemoryItem]
    ) -> LogTurn:
        """The turn for the conversation log, flagged with what the judge made of it; its keywords
        include the turn it answers, like its vector (LoCoMo dev: R@10 0.76 → 0.80)."""
        said = [d for d in decisions if d.candidate is not None and d.candidate.message_id == message.id]
        flags: set[Flag] = set()
        if injection.kinds(draft.originals.get(message.id, message.content)):
            flags.add(Flag.INSTRUCTION)
        if message.role == "user" and said:
            outcomes = {d.outcome for d in said}
            if _said_only(said, {Category.SMALLTALK}):
                flags.add(Flag.CHATTER)
            if outcomes == {Outcome.DISCARDED} and (all(_thrown_away(d) for d in said) or _secret(said)):
                flags.add(Flag.DISCARDED)
            elif not outcomes & set(_KEPT):
                if any(_of_the_task(d) for d in said if d.outcome is Outcome.SESSION):
                    flags.add(Flag.SESSION_ONLY)
                elif all(_thrown_away(d) for d in said):
                    # a guess or a one-off kept for this conversation only ("I think my husband
                    # prefers window seats, not sure"): its session shows it, no later block should
                    flags.add(Flag.DISCARDED)
        if any(message.id in m.provenance for m in retired):
            flags.add(Flag.OUTDATED)  # it says something this very plan retires
        text = self._log_text(message)
        shown = _without(text, [d for d in said if d.outcome not in _KEPT and _thrown_away(d)])
        item = MemoryItem(
            user_id=draft.user_id,
            text=text,
            kind=Kind.LOG,
            category=Category.FACT,
            tags=[f"{SPEAKER}{message.name}"] if message.name else [],
            importance=0.3,
            confidence=0.5,
            source=Source.OBSERVED,
            session_id=draft.session_id,
            role=message.role,
            flags=frozenset(flags),
            created_at=message.at,
            updated_at=message.at,
            valid_from=message.at,
            expires_at=message.at + timedelta(days=self.settings.log_retention_days),
            provenance=[message.id],
            value={SHOWN: shown} if shown != text else None,
            reason="conversation log",
        )
        before = draft.before.get(message.id)
        context = f" {index_text(before)}" if before else ""
        return LogTurn(item, tokens_for(item) + context)

    @staticmethod
    def _log_text(message: Message) -> str:
        return f"{message.name}: {message.content}" if message.name else message.content

    def _in_context(self, draft: Draft, message: Message) -> str:
        """A log turn is embedded with the turn before it: "Yes, twice!" means little alone, and the
        question it answers is often what a later search asks (LoCoMo dev split: R@10 0.67 → 0.75).
        """
        before = draft.before.get(message.id)
        text = self._log_text(message)
        return f"{before}\n{text}" if before else text

    @staticmethod
    def _audit(draft: Draft, decisions: Sequence[Decision]) -> AuditEntry:
        actions = Counter(d.action.value for d in decisions)
        detail = ", ".join(f"{n} {a}" for a, n in sorted(actions.items())) or "nothing to remember"
        ids = [d.memory.id for d in decisions if d.memory is not None]
        return entry(draft.user_id, "write", draft.at, ids, caller=draft.caller, detail=detail)
