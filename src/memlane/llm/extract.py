"""The LLM extractor: the rules decide first, and only what they could not decide costs a call.

Per message, the rule extractor runs first. Its confident candidates (names, contacts, styles, clear
preferences with objects, budgets, plans and events, small talk, moods, requests...) are kept as they
are and never sent anywhere. What is left is *undecided*:

- a rule candidate that is only the catch-all first-person fact (category fact, no slot, no objects);
- a rule candidate the rules merely inferred (``explicit=False``, e.g. a bare "iPhone 16");
- a user clause no rule recognised (``other``) that is longer than a few words.

All undecided clauses of one message go to the model in ONE request. Its answer replaces the
undecided rule candidate of each clause it speaks about and adds candidates for clauses the rules
had nothing for. When the model cannot be reached, refuses, or twice sends an answer that cannot be
read, the failure is logged on ``memlane.llm`` and counted, and the rule result stands unchanged:
the user's facts are never dropped. Messages by the assistant or system never cost a call.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memlane.domain import Candidate, Category, Message
from memlane.text.lang import detect, has_cjk
from memlane.text.timeparse import find_times
from memlane.write.extract import Extractor, RuleExtractor
from memlane.write.extract.clauses import split_clauses

from .ask import Unusable, ask, fall_back
from .client import ChatClient, LLMStats, LLMUnavailable
from .parse import ParseError
from .prompts import ExtractedMemory, ExtractionAnswer, extraction_prompt

STAGE = "extract"
_DATED = {Category.EVENT, Category.PLAN, Category.COMPLAINT}


@dataclass
class _Slot:
    """One clause of a message: the rule candidate for it (if any) and whether the model is asked."""

    text: str
    candidate: Candidate | None
    ask: bool
    remember: bool = False


def needs_llm(candidate: Candidate) -> bool:
    """The rules could not decide this candidate: a bare first-person fact, an inference, or a clause
    no rule recognised that is long enough to say something."""
    if candidate.role != "user":
        return False
    bare_fact = candidate.category is Category.FACT and candidate.slot is None and not candidate.objects
    unknown = candidate.category is Category.OTHER and worth_asking(candidate.text)
    return bare_fact or unknown or not candidate.explicit


def worth_asking(text: str, min_words: int = 4, min_chars: int = 6) -> bool:
    """A clause no rule matched is long enough to say something (4 English words, 6 Chinese characters)."""
    if has_cjk(text):
        return sum(1 for c in text if has_cjk(c)) >= min_chars
    return len(text.split()) >= min_words


def _event_time(raw: str | None, text: str, category: Category, at: datetime) -> datetime | None:
    """The model's ISO time; the rules' reading of the text when it gave none usable for a dated item."""
    if raw:
        try:
            when = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
        except ValueError:
            when = None
        if when is not None:
            if when.tzinfo is None and at.tzinfo is not None:
                when = when.replace(tzinfo=at.tzinfo)  # the model resolved it in the message's own zone
            elif when.tzinfo is not None and at.tzinfo is None:
                when = when.replace(tzinfo=None)
            return when
    if raw or category in _DATED:
        mentions = find_times(text, at)
        return mentions[0].at if mentions else None
    return None


class LLMExtractor:
    """An :class:`~memlane.write.extract.Extractor` that asks an LLM about what the rules could not decide.

    >>> from memlane.llm import ChatClient
    >>> extractor = LLMExtractor(ChatClient("http://localhost:11434/v1", "qwen2.5:7b"))  # doctest: +SKIP
    >>> extractor.stats.stage("extract").calls  # doctest: +SKIP
    """

    def __init__(self, client: ChatClient, rules: Extractor | None = None) -> None:
        self.client = client
        self.rules: Extractor = rules or RuleExtractor()

    @property
    def stats(self) -> LLMStats:
        """Calls, tokens, latency and failures by stage."""
        return self.client.stats

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()

    def extract(self, message: Message, before: str | None = None) -> list[Candidate]:
        """The rule candidates of ``message``, with its undecided clauses interpreted by the model."""
        found = self.rules.extract(message, before)
        if message.role != "user":
            return found
        plan = self._plan(message, found)
        asked = [s for s in plan if s.ask]
        if not asked:
            return found
        lang = detect(message.content)
        try:
            answer = self._ask(message, [s.text for s in asked], lang)
        except (LLMUnavailable, Unusable) as exc:
            fall_back(self.client, STAGE, f"message {message.id}", exc)
            return found
        by_clause: dict[int, list[ExtractedMemory]] = {}
        for item in answer.memories:
            by_clause.setdefault(item.clause, []).append(item)
        number = {id(s): i for i, s in enumerate(asked, 1)}  # the clause numbers the prompt showed
        out: list[Candidate] = []
        for slot in plan:
            items = by_clause.get(number[id(slot)], []) if slot.ask else []
            if items:
                out += [self._candidate(item, slot, message, lang) for item in items]
            elif slot.candidate is not None:  # the model said nothing of it: the rules' reading stands
                out.append(slot.candidate)
        return out

    def _plan(self, message: Message, found: list[Candidate]) -> list[_Slot]:
        """Each clause of ``message`` in order, with its rule candidate and whether to ask about it."""
        plan: list[_Slot] = []
        placed: set[int] = set()
        for clause in split_clauses(message.content):
            # the rule extractor keeps a clause's text; consecutive complaints are merged into one
            match = next((c for c in found if c.text == clause.text), None) or next(
                (c for c in found if c.category is Category.COMPLAINT and clause.text in c.text), None
            )
            if match is None:
                ask = not clause.question and worth_asking(clause.text)
                plan.append(_Slot(clause.text, None, ask, clause.remember))
            elif id(match) not in placed:
                placed.add(id(match))
                plan.append(_Slot(match.text, match, needs_llm(match), clause.remember))
        # candidates of another extractor that no clause matched keep their place at the end
        plan += [_Slot(c.text, c, False) for c in found if id(c) not in placed]
        return plan

    def _ask(self, message: Message, clauses: list[str], lang: str) -> ExtractionAnswer:
        def check(answer: ExtractionAnswer) -> None:
            wrong = sorted({m.clause for m in answer.memories if m.clause > len(clauses)})
            if wrong:
                raise ParseError(f"clause numbers {wrong} do not exist; use 1 to {len(clauses)}")

        prompt = extraction_prompt(message.content, clauses, message.at, lang)
        return ask(
            self.client, prompt, ExtractionAnswer, stage=STAGE, lang=lang, list_key="memories", check=check
        )

    @staticmethod
    def _candidate(item: ExtractedMemory, slot: _Slot, message: Message, lang: str) -> Candidate:
        rule = slot.candidate
        text = item.text.strip() or slot.text
        value = None if item.value in ("", "null") else item.value
        return Candidate(
            text=text,
            category=item.category,
            lang=detect(text) if text else lang,
            slot=item.slot or None,
            value=value,
            objects=[o.strip() for o in item.objects if o.strip()],
            polarity=item.polarity,
            event_time=_event_time(item.event_time, slot.text, item.category, message.at),
            event_status=item.event_status,
            tags=list(rule.tags) if rule else [],
            entities=list(rule.entities) if rule else [],
            explicit=item.explicit,
            hedged=item.hedged,
            session_only=rule.session_only if rule else False,
            remember_request=slot.remember or (rule.remember_request if rule else False),
            role=message.role,
            message_id=message.id,
        )
