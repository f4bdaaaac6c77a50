"""What the write path keeps: a scored set of supersede, merge, keep-apart, channel and profile cases,
and how many clauses of real messages get a decision.

Each case (``eval/data/writes/cases.jsonl``) is a few messages a user says days apart and what memory
must hold afterwards: the active memories (exactly), the superseded ones, and profile slots. The
``dev`` half holds the cases the write path was built against; the ``test`` half was written
afterwards and is never tuned on. Coverage runs every message of the judge corpus
(``eval/data/judge``) through extraction and the judge and counts, per language, the clauses of the
message that got exactly one decision, and the corpus's own clauses that a decision covers::

    report = evaluate()
    report.passed("test", "zh"), report.coverage["zh"]
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from importlib import resources
from pathlib import Path
from typing import Any

from memlane.domain import Message
from memlane.extras import optional
from memlane.memory import Memory
from memlane.write.extract import RuleExtractor
from memlane.write.extract.clauses import split_clauses

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=timezone(timedelta(hours=8)))
LANGS = ("zh", "en", "mixed")


def _data(name: str) -> Path:
    return Path(str(resources.files("memlane.eval").joinpath("data", name)))


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    """The scored cases, in file order."""
    source = path or _data("writes") / "cases.jsonl"
    return [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class Result:
    """One case: whether memory held what it must, and what it held instead."""

    case: dict[str, Any]
    passed: bool
    wrong: tuple[str, ...] = ()  # what did not hold, one line each


@dataclass
class Report:
    """The cases by split and language, and clause coverage by language."""

    results: list[Result] = field(default_factory=list)
    coverage: dict[str, dict[str, float]] = field(default_factory=dict)

    def passed(self, split: str, lang: str | None = None, kind: str | None = None) -> tuple[int, int]:
        """(passed, cases) of one split, optionally one language and one kind of case."""
        chosen = [
            r
            for r in self.results
            if r.case["split"] == split
            and (lang is None or r.case["lang"] == lang)
            and (kind is None or r.case["kind"] == kind)
        ]
        return sum(r.passed for r in chosen), len(chosen)

    def to_dict(self) -> dict[str, Any]:
        """The numbers as JSON-ready data, with every failing case and why."""
        kinds = sorted({r.case["kind"] for r in self.results})
        splits: dict[str, Any] = {}
        for split in ("dev", "test"):
            by_lang = {lang: self.passed(split, lang) for lang in ("zh", "en")}
            splits[split] = {
                "passed": self.passed(split)[0],
                "cases": self.passed(split)[1],
                "by_language": {k: {"passed": p, "cases": n} for k, (p, n) in by_lang.items()},
                "by_kind": {
                    k: dict(zip(("passed", "cases"), self.passed(split, kind=k), strict=True)) for k in kinds
                },
            }
        failures = [{"id": r.case["id"], "wrong": list(r.wrong)} for r in self.results if not r.passed]
        return {"cases": splits, "coverage": self.coverage, "failures": failures}


def run_case(mem: Memory, case: dict[str, Any]) -> Result:
    """Say the case's messages as one user and check what memory holds."""
    user = f"case-{case['id']}"
    for n, (text, day) in enumerate(case["said"]):
        mem.add(text, user_id=user, session_id=f"{user}-s{n}", at=T0 + timedelta(days=day))
    wrong: list[str] = []
    if "active" in case:
        held = sorted(m.text for m in mem.list(user, limit=1000))
        if held != sorted(case["active"]):
            wrong.append(f"active {held} != {sorted(case['active'])}")
    if "superseded" in case:
        gone = {m.text for m in mem.list(user, status="superseded", limit=1000)}
        missing = [t for t in case["superseded"] if t not in gone]
        if missing:
            wrong.append(f"not superseded: {missing}")
    profile = mem.profile(user)
    if "profile" in case:
        off = {k: profile.get(k) for k, v in case["profile"].items() if profile.get(k) != v}
        if off:
            wrong.append(f"profile {off} != { ({k: case['profile'][k] for k in off}) }")
    if "profile_exact" in case and profile != case["profile_exact"]:
        wrong.append(f"profile {profile} != {case['profile_exact']}")
    return Result(case, not wrong, tuple(wrong))


def coverage(messages: Iterable[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per language: the share of each message's clauses with exactly one decision (``clauses``), and
    of the corpus's labelled clauses that a decision's text covers (``labelled``)."""
    extractor = RuleExtractor()
    ours: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    theirs: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in messages:
        found = extractor.extract(Message("user", row["text"], T0))
        split = split_clauses(row["text"])
        decided = sum(c.clauses for c in found)
        ours[row["lang"]][0] += min(decided, len(split))
        ours[row["lang"]][1] += len(split)
        for clause in row["clauses"]:
            theirs[row["lang"]][0] += any(_covers(c.text, clause["text"]) for c in found)
            theirs[row["lang"]][1] += 1
    out: dict[str, dict[str, float]] = {}
    for lang in sorted(set(ours) | set(theirs)):
        (a, n), (b, m) = ours[lang], theirs[lang]
        out[lang] = {"clauses": round(a / n, 4) if n else 1.0, "labelled": round(b / m, 4) if m else 1.0}
    return out


def _covers(decided: str, labelled: str) -> bool:
    """A decision covers a labelled clause when they share most of the clause's characters."""
    if labelled in decided or decided in labelled:
        return True
    shared = sum(1 for ch in set(labelled) if ch in decided)
    return shared >= 0.6 * len(set(labelled))


def evaluate(
    cases: list[dict[str, Any]] | None = None,
    corpus: Iterable[dict[str, Any]] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Score every case on a fresh in-memory store, and clause coverage over ``corpus`` (the judge
    corpus, both halves, unless given)."""
    chosen = cases if cases is not None else load_cases()
    report = Report()
    with Memory(":memory:") as mem:
        for n, case in enumerate(chosen, 1):
            report.results.append(run_case(mem, case))
            if progress is not None:
                progress(n, len(chosen))
    rows = corpus if corpus is not None else _corpus()
    report.coverage = coverage(rows)
    return report


def _corpus() -> list[dict[str, Any]]:
    folder = _data("judge")
    return [
        json.loads(line)
        for name in ("train.jsonl", "test.jsonl")
        for line in (folder / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def plot(report: Report, path: Path) -> Path:
    """A PNG of the share of cases passed, by kind, for each half and language."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    kinds = sorted({r.case["kind"] for r in report.results})
    groups = [(split, lang) for split in ("dev", "test") for lang in ("zh", "en")]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / len(groups)
    for i, (split, lang) in enumerate(groups):
        shares = []
        for kind in kinds:
            passed, cases = report.passed(split, lang, kind)
            shares.append(passed / cases if cases else 0.0)
        ax.bar([k + i * width for k in range(len(kinds))], shares, width, label=f"{split} {lang}")
    ax.set_xticks([k + width * (len(groups) - 1) / 2 for k in range(len(kinds))], kinds)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("share of cases passed")
    ax.set_title("memlane eval writes: what memory holds after the messages", pad=24)
    ax.legend(ncols=4, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
