"""Whether a context block is one a model can trust: the bilingual scenario benchmark.

Each scenario (``eval/data/context/scenarios.jsonl``, README beside it) is one user's short history of
conversations, replayed turn by turn through :meth:`Memory.add` (an ended conversation ends with
:meth:`Memory.end_session`, and maintenance runs at the first question's time, as a daily job would),
and questions an application asks on the user's behalf. A question lists what its block must hold
(each item a list of alternatives) and what it must not: a forbidden phrase in a line that says it is
outdated or superseded does not count, since such a line tells the model not to rely on it. Text is
compared NFKC-folded and case-insensitive (the block neutralises characters such as ``#``).

Reported per half (``dev`` was written first and may be tuned on; ``test`` never is) and language:

- **coverage**: the share of must items present;
- **junk rate**: the share of blocks holding a forbidden item;
- **memory lines** and **tokens** per block.

:func:`floors` calibrates the relevance floor of context blocks (:data:`memlane.read.admit.FLOORS`) on
the dev half alone.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from memlane.domain import Kind
from memlane.extras import optional
from memlane.memory import Memory
from memlane.read.facade import CONTEXT_HITS
from memlane.text.lang import detect

OUTDATED_MARKS = ("superseded", "outdated", "已过时", "已被取代", "不再成立")
"""Words that mark a block line as no longer current (as :mod:`memlane.read.context` writes them)."""
SETTLED = re.compile(r"^- \[[^\]]*·\s*(?:resolved|cancelled)\b")
"""A memory line whose header says its problem was resolved or its plan cancelled: it no longer holds
as told (:mod:`memlane.read.context` writes the status in the line's header, in every language)."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def load(path: Path | None = None) -> list[dict[str, Any]]:
    """The scenarios, in file order."""
    source = path or Path(str(resources.files("memlane.eval").joinpath("data", "context", "scenarios.jsonl")))
    return [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class Answer:
    """One question's block and how it scored."""

    scenario: str
    question: str
    split: str
    lang: str
    category: str
    must: int  # must items asked for
    found: int  # of those, present
    junk: tuple[str, ...]  # forbidden items present as current
    missing: tuple[str, ...]  # must items absent (their first alternative)
    memory_lines: int
    tokens: int
    block: str


@dataclass
class Report:
    """Every answer, and the numbers by half and language."""

    answers: list[Answer] = field(default_factory=list)

    def numbers(
        self, split: str | None = None, lang: str | None = None, category: str | None = None
    ) -> dict[str, float]:
        """Coverage, junk rate, memory lines and tokens per block over the chosen answers."""
        chosen = [
            a
            for a in self.answers
            if (split is None or a.split == split)
            and (lang is None or a.lang == lang)
            and (category is None or a.category == category)
        ]
        if not chosen:
            return {"questions": 0, "coverage": 1.0, "junk_rate": 0.0, "memory_lines": 0.0, "tokens": 0.0}
        must = sum(a.must for a in chosen)
        return {
            "questions": len(chosen),
            "coverage": round(sum(a.found for a in chosen) / must, 4) if must else 1.0,
            "junk_rate": round(sum(1 for a in chosen if a.junk) / len(chosen), 4),
            "memory_lines": round(sum(a.memory_lines for a in chosen) / len(chosen), 2),
            "tokens": round(sum(a.tokens for a in chosen) / len(chosen), 1),
        }

    def to_dict(self) -> dict[str, Any]:
        """The numbers as JSON-ready data, with every question that missed or leaked."""
        halves = {
            split: {"all": self.numbers(split)} | {lang: self.numbers(split, lang) for lang in ("zh", "en")}
            for split in ("dev", "test")
        }
        categories = sorted({a.category for a in self.answers})
        return {
            "halves": halves,
            "categories": {c: {s: self.numbers(s, category=c) for s in ("dev", "test")} for c in categories},
            "failures": [
                {
                    "scenario": a.scenario,
                    "question": a.question,
                    "split": a.split,
                    "category": a.category,
                    "missing": list(a.missing),
                    "junk": list(a.junk),
                }
                for a in self.answers
                if a.junk or a.missing
            ],
        }


def _current_lines(block: str) -> list[str]:
    """The block's lines that do not say they are outdated, resolved or cancelled."""
    return [
        line
        for line in block.splitlines()
        if not any(mark in _fold(line) for mark in OUTDATED_MARKS) and not SETTLED.match(line)
    ]


def _memory_lines(block: str) -> int:
    return sum(1 for line in block.splitlines() if line.startswith("- ["))


def replay(mem: Memory, scenario: dict[str, Any]) -> str:
    """Say the scenario's conversations as its user (one ``add`` per turn); returns the user id."""
    user = f"scenario-{scenario['id']}"
    for session in scenario["sessions"]:
        start = datetime.fromisoformat(session["at"])
        at = start
        for n, turn in enumerate(session["turns"]):
            at = start + timedelta(minutes=n)
            mem.add(turn["content"], user_id=user, session_id=session["id"], role=turn["role"], at=at)
            # a clause read again by its meaning lands before the next turn, as it does when a person
            # types the next one (back to back, it landed before or after it by timing)
            mem.flush(user)
        if session.get("ended"):
            mem.end_session(user, session["id"], at=at + timedelta(minutes=1))
    return user


def score(scenario: dict[str, Any], question: dict[str, Any], block: str, tokens: int) -> Answer:
    """How one block answers one question."""
    folded = _fold(block)
    current = _fold("\n".join(_current_lines(block)))
    present = [any(_fold(alt) in folded for alt in item) for item in question["must"]]
    junk = tuple(bad for bad in question["must_not"] if _fold(bad) in current)
    return Answer(
        scenario=scenario["id"],
        question=question["id"],
        split=scenario["split"],
        lang=scenario["lang"],
        category=question["category"],
        must=len(question["must"]),
        found=sum(present),
        junk=junk,
        missing=tuple(item[0] for item, ok in zip(question["must"], present, strict=True) if not ok),
        memory_lines=_memory_lines(block),
        tokens=tokens,
        block=block,
    )


def evaluate(
    scenarios: Iterable[dict[str, Any]] | None = None,
    *,
    max_tokens: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Replay every scenario on a fresh in-memory store and score each question's block."""
    chosen = list(scenarios if scenarios is not None else load())
    report = Report()
    with Memory(":memory:") as mem:
        for n, scenario in enumerate(chosen, 1):
            user = replay(mem, scenario)
            first = min(datetime.fromisoformat(q["at"]) for q in scenario["questions"])
            mem.maintain(first, user_id=user)
            for question in scenario["questions"]:
                block = mem.context(
                    question["query"],
                    user_id=user,
                    session_id=question["session"],
                    now=datetime.fromisoformat(question["at"]),
                    max_tokens=max_tokens,
                    caller="eval-context",
                )
                report.answers.append(score(scenario, question, block.text, block.tokens))
            if progress is not None:
                progress(n, len(chosen))
    return report


def plot(report: Report, path: Path) -> Path:
    """A PNG of coverage and junk rate for each half and language."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    groups = [(s, lang) for s in ("dev", "test") for lang in ("zh", "en")]
    numbers = [report.numbers(s, lang) for s, lang in groups]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    labels = [f"{s} {lang}" for s, lang in groups]
    left.bar(labels, [n["coverage"] for n in numbers], color="#3b7dd8")
    left.axhline(0.95, color="#555", linestyle="--", linewidth=1)
    left.set_ylim(0, 1.05)
    left.set_title("coverage (must items present)")
    right.bar(labels, [n["junk_rate"] for n in numbers], color="#d8553b")
    right.set_ylim(0, max(0.1, max(n["junk_rate"] for n in numbers) * 1.2))
    right.set_title("junk rate (blocks with a forbidden item)")
    fig.suptitle("memlane eval context")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def floors(
    scenarios: Iterable[dict[str, Any]] | None = None, share: float = 0.9
) -> dict[tuple[str, Kind], float]:
    """The relevance floor of each query language and kind of hit: the highest that ``share`` of the
    hits a question needs reach (a hit is needed when its text holds one of the question's must
    items). Calibrated on the dev half only (a test scenario raises ValueError). The search is the
    one ``context()`` runs; small-talk queries, which search nothing, are left out."""
    needed: dict[tuple[str, Kind], list[float]] = {}
    with Memory(":memory:") as mem:
        for scenario in scenarios if scenarios is not None else load():
            if scenario["split"] != "dev":
                if scenarios is None:
                    continue
                raise ValueError(f"scenario {scenario['id']} is held out: floors are set on dev only")
            user = replay(mem, scenario)
            mem.maintain(min(datetime.fromisoformat(q["at"]) for q in scenario["questions"]), user_id=user)
            for q in scenario["questions"]:
                if mem.judge.chatter(q["query"]):
                    continue
                when = datetime.fromisoformat(q["at"])
                for hit in mem.search(q["query"], user_id=user, limit=CONTEXT_HITS, now=when):
                    text = _fold(hit.memory.text)
                    if any(_fold(alt) in text for item in q["must"] for alt in item):
                        key = (detect(q["query"]), hit.memory.kind)
                        needed.setdefault(key, []).append(hit.explain.get("relevance", 1.0))
    return {
        key: int(sorted(values)[int((1 - share) * len(values))] * 100) / 100
        for key, values in sorted(needed.items(), key=lambda kv: (kv[0][0], kv[0][1].value))
    }
