"""What a context block admits: only what should reach a model, each fact once, where it belongs.

Search finds evidence; a context block is what a model will act on, so it is stricter:

- **relevant enough**: a hit below the relevance floor of its kind and language is left out, so a
  question unrelated to anything the user said gets the profile and this conversation's state, and
  no memory lines (as does small talk, which ``context()`` does not search for: ``Judge.chatter``);
- **a raw turn only where no memory speaks**: a log turn said by the user enters only when nothing
  memlane kept covers it; a turn that holds a memory is replaced by that memory, and one that does
  not is shown without the clauses the judge threw away (``"planning my first solo trip!! so
  excited"`` shows as ``"planning my first solo trip"``). A turn the judge
  threw away (a mood, small talk, a request, a guess, a secret), one that says something since
  superseded, expired or marked wrong, one of another conversation's temporary conditions, and
  what the assistant said are never admitted;
- **only what still holds**: a summary's point whose memory was since superseded, expired or marked
  wrong is dropped from it;
- **each fact once**, in the most authoritative section: the profile shows a profile memory's value
  (quoting its sentence when that says more, :mod:`memlane.read.profile_lines`), so the memory is
  not a memory line too; memories come before summaries, and a summary's points that a
  line above already says are dropped (a summary with none left goes).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from memlane.domain import SHOWN, Flag, Hit, Kind, MemoryItem
from memlane.text.lang import normalize

# The hits a model is better off without. The floor is on the absolute relevance search explains
# (keyword and vector agreement, 0..1): an e5 similarity of about 0.80 alone, or a keyword match of a
# rare word, is what "related" looks like; below it, a hit is the best of nothing.
# Chinese scores run higher for the same closeness (e5 places short Chinese texts nearer each other,
# and single characters match as keywords), and each kind scores differently (a raw turn is long and
# matches many words; a memory is one short sentence), so each language and kind has its own floor:
# the relevance that 9 in 10 of the hits a question needs reach, on the dev half of the context
# scenarios (eval/data/context); ``memlane eval context --floors`` prints them again.
FLOORS: dict[tuple[str, Kind], float] = {
    ("zh", Kind.PROFILE): 0.29,
    ("zh", Kind.SEMANTIC): 0.32,
    ("zh", Kind.EPISODIC): 0.32,
    ("zh", Kind.SUMMARY): 0.35,
    ("zh", Kind.LOG): 0.39,
    ("en", Kind.PROFILE): 0.05,
    ("en", Kind.SEMANTIC): 0.06,
    ("en", Kind.EPISODIC): 0.13,
    ("en", Kind.SUMMARY): 0.15,
    ("en", Kind.LOG): 0.20,
}
DEFAULT_FLOOR = 0.12
_JUNK = {Flag.DISCARDED, Flag.CHATTER, Flag.OUTDATED}
_POINTS = re.compile(r"[；;]\s*")
_TITLE = re.compile(r"^[^：:]{0,40}[：:]\s*")


def floor(lang: str, kind: Kind) -> float:
    """The relevance a hit of ``kind`` needs to enter a block for a query in ``lang``."""
    return FLOORS.get((lang, kind), DEFAULT_FLOOR)


Covering = Callable[[Sequence[str]], Iterable[MemoryItem]]
"""The active memories that came from any of the given message ids."""


def admit(
    hits: Sequence[Hit],
    lang: str,
    *,
    session_id: str | None,
    in_session: set[str],
    profile: Sequence[MemoryItem],
    covering: Covering,
    retired: Covering = lambda ids: (),
) -> list[Hit]:
    """The hits of ``hits`` a context block may show, best first.

    ``in_session`` are the message ids of this conversation's turns, which the block shows as turns;
    ``profile`` the memories behind the profile, which its section shows; ``retired`` gives the
    memories of the given messages that no longer hold (superseded, expired, marked wrong), whose
    points a summary built before they were retired no longer makes.
    """
    kept = [h for h in hits if h.explain.get("relevance", 1.0) >= floor(lang, h.memory.kind)]
    turns = [h for h in kept if h.memory.kind is Kind.LOG and _speaks(h.memory, session_id, in_session)]
    # a turn that holds a memory is replaced by the memory, at the turn's place
    ids = [p for h in turns for p in h.memory.provenance]
    stood_for: dict[str, MemoryItem] = {}
    if ids:
        for m in covering(ids):
            for p in m.provenance:
                stood_for.setdefault(p, m)
    profiled = {m.id for m in profile}
    out: list[Hit] = []
    seen: set[str] = set()
    texts: set[str] = set()
    for hit in kept:
        item = hit.memory
        if item.kind is Kind.LOG:
            if hit not in turns:
                continue
            memory = next((stood_for[p] for p in item.provenance if p in stood_for), None)
            if memory is not None:
                hit = replace(
                    hit, memory=memory, explain={**hit.explain, "source": "memory", "through": "log"}
                )
                item = memory
            elif isinstance(item.value, dict) and isinstance(item.value.get(SHOWN), str):
                if not item.value[SHOWN].strip():
                    continue  # the judge threw all of it away (a turn stored before it was flagged so)
                item = replace(item, text=item.value[SHOWN])  # without what the judge threw away
                hit = replace(hit, memory=item)
        if item.id in seen or item.id in profiled:
            continue
        norm = normalize(item.text)
        if norm in texts:
            continue
        seen.add(item.id)
        texts.add(norm)
        out.append(hit)
    summaries = [h for h in out if h.memory.kind is Kind.SUMMARY]
    rest = [h for h in out if h.memory.kind is not Kind.SUMMARY]
    shown = texts - {normalize(h.memory.text) for h in summaries}
    shown |= {normalize(m.text) for m in profile}
    return [*rest, *_new_points(summaries, shown, retired)]


def _speaks(turn: MemoryItem, session_id: str | None, in_session: set[str]) -> bool:
    """Whether a raw turn may stand in a block: the user's, not thrown away or outdated, not another
    conversation's temporary condition, not already shown as a turn of this one."""
    if turn.role not in (None, "user") or turn.flags & _JUNK:
        return False
    if Flag.SESSION_ONLY in turn.flags and turn.session_id != session_id:
        return False
    return not set(turn.provenance) & in_session


def points(text: str) -> tuple[str, list[str]]:
    """A summary's title and its points: "2025-03-03 的对话：a；b" → ("2025-03-03 的对话：", [a, b])."""
    title = _TITLE.match(text)
    head = title.group(0) if title else ""
    body = text[len(head) :]
    return head, [p.strip(" 。.") for p in _POINTS.split(body) if p.strip(" 。.")]


def _new_points(summaries: Sequence[Hit], shown: set[str], retired: Covering) -> list[Hit]:
    """Each summary with only the points no line above says and that still hold, and none left with
    no such point."""
    out: list[Hit] = []
    for hit in summaries:
        head, said = points(hit.memory.text)
        stale = (
            {normalize(m.text) for m in retired(hit.memory.provenance)} if hit.memory.provenance else set()
        )
        fresh = [
            p for p in said if normalize(p) not in shown | stale and not any(normalize(p) in s for s in shown)
        ]
        if not fresh:
            continue
        shown |= {normalize(p) for p in fresh}
        joiner = "；" if re.search(r"[\u4e00-\u9fff]", hit.memory.text) else "; "
        if len(fresh) < len(said):
            hit = replace(hit, memory=replace(hit.memory, text=head + joiner.join(fresh)))
        out.append(hit)
    return out
