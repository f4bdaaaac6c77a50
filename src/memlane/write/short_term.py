"""Short-term memory on the write path: after each write commits, the conversation keeps its turns,
what was set for it only (slots and notes), and the running summary its episode summary will say;
and what was said just before a message, for the log and for pronouns.

A clause the judge keeps after the write (read again off the caller's path, :mod:`memlane.write.keeper`)
joins the running summary of its conversation while that is still live (:meth:`ShortTerm.kept_later`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from memlane.domain import Action, Decision, Message, Outcome, Session, Turn
from memlane.settings import Settings
from memlane.store import Stores
from memlane.text.lang import said
from memlane.write.plan import ForgetMessages, WritePlan
from memlane.write.planner import LONG_TERM

_SUMMARY_LINES = 12


class ShortTerm:
    """Keeps each conversation's short-term memory up to date with what its writes decided."""

    def __init__(self, stores: Stores, settings: Settings) -> None:
        self.stores = stores
        self.settings = settings

    def session(self, user_id: str, session_id: str | None, at: datetime) -> Session | None:
        """The conversation so far, as short-term memory holds it (None without a session)."""
        return self.stores.sessions.get_session(user_id, session_id, at) if session_id else None

    def update(self, user_id: str, session_id: str | None, plan: WritePlan, gone: set[str]) -> list[Decision]:
        """Keep this conversation's turns, conditions and running summary; the decisions returned say
        whether what was kept for the conversation only was kept at all."""
        decisions = list(plan.decisions)
        if session_id is None:
            return [no_session(d) for d in decisions]
        at = plan.at
        ttl = timedelta(hours=self.settings.session_ttl_hours)
        session = self.session(user_id, session_id, at) or Session(
            id=session_id, user_id=user_id, created_at=at, updated_at=at
        )
        kept = [m for m in plan.messages if m.id not in plan.withdrawn]
        forgotten = set(plan.withdrawn) | {i for step in plan.of(ForgetMessages) for i in step.message_ids}
        session.forget_messages(forgotten)  # a withdrawn message's turn, and what it set for the session
        session.turns.extend(
            Turn(role=m.role, content=m.content, at=m.at, message_id=m.id, name=m.name) for m in kept
        )
        session.turns = session.turns[-self.settings.session_turns :]
        for d in decisions:
            c = d.candidate
            if d.action is not Action.SESSION or c is None:
                continue
            if c.slot:
                session.keep_slot(c.slot, c.value, c.message_id)
            else:
                session.keep_note(c.text, c.message_id)
        _summarise(session, decisions, gone)
        session.updated_at = at
        session.expires_at = at + ttl
        if self.stores.sessions.save_session(session):
            return decisions
        return [no_session(d, unavailable=True) for d in decisions]

    def kept_later(self, user_id: str, session_id: str | None, plan: WritePlan, gone: set[str]) -> None:
        """What a write after the fact kept joins the running summary of its conversation, if that
        is still live; the conversation's turns and its time to live stay as they are."""
        session = self.session(user_id, session_id, plan.at)
        if session is None:
            return
        _summarise(session, plan.decisions, gone)
        self.stores.sessions.save_session(session)


def _summarise(session: Session, decisions: Sequence[Decision], gone: set[str]) -> None:
    """What the episode summary will say: the new long-term facts, not a fact merely restated, and not
    what held for this conversation only (its conditions live in the session's slots, and a later
    conversation must not read them as current)."""
    said = [d.text for d in decisions if d.action in LONG_TERM and d.outcome is not Outcome.MERGED]
    lines = [line for line in session.summary.split("\n") if line and line not in gone] + said
    session.summary = "\n".join(list(dict.fromkeys(lines))[-_SUMMARY_LINES:])


def no_session(decision: Decision, *, unavailable: bool = False) -> Decision:
    """A decision to keep something for this conversation only, when there is no conversation to keep
    it in (no session id, or a session store that is down: ``unavailable``): it says that nothing was
    kept."""
    if decision.action is not Action.SESSION:
        return decision
    lang = decision.candidate.lang if decision.candidate is not None else "en"
    if unavailable:
        because = said(lang, "the session store is unavailable", "会话存储暂时不可用")
    else:
        because = said(lang, "no session was given", "没有给出会话")
    reason = said(lang, f"{decision.reason}; not kept: {because}", f"{decision.reason}；没有保存：{because}")
    return replace(decision, outcome=Outcome.DISCARDED, reason=reason)


def turn_before(messages: Sequence[Message], session: Session | None) -> dict[str, str]:
    """The turn each message answers: the one said just before it (in this call, or the session's last
    turn) by another speaker. A message that follows its own speaker's answers none: a user who says
    one thing and then another ("I switched to cold brew" / "my order still hasn't arrived") is not
    answering themselves."""
    out: dict[str, str] = {}
    last = session.turns[-1] if session is not None and session.turns else None
    previous = (last.role, last.name, last.content) if last is not None else None
    for message in messages:
        if previous is not None and previous[2] and previous[:2] != (message.role, message.name):
            out[message.id] = previous[2]
        said = f"{message.name}: {message.content}" if message.name else message.content
        previous = (message.role, message.name, said)
    return out


def user_turn_before(messages: Sequence[Message], session: Session | None) -> dict[str, str]:
    """What the user said in the turn before each of their messages (in this call, or the session's
    last user turn): a pronoun may speak of whom it named."""
    out: dict[str, str] = {}
    turns = [t for t in session.turns if t.role == "user"] if session is not None else []
    previous = turns[-1].content if turns else None
    for message in messages:
        if message.role != "user":
            continue
        if previous:
            out[message.id] = previous
        previous = message.content
    return out
