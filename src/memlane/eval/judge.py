"""How well the write path's judge decides, on the labelled judge corpus (``eval/data/judge``).

Every message of a split is said through :meth:`Memory.add` (real SQLite in memory, the bundled
embedder), once with the rules alone and once with rules and the learned model, each message by a
user of its own. Each labelled clause is matched to the decision whose text covers most of its words, and
scored on its label and on its tier (discard / session / long-term), per language. The numbers
that matter most are counted apart: moods and secrets kept long-term (must be 0), session
conditions kept long-term, and stable facts lost (long-term clauses discarded)::

    report = evaluate("test")
    report.runs["model"].accuracy("tier"), report.runs["model"].counts()["moods kept long-term"]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memlane.domain import Action, AddResult, Candidate, Category, Decision, Message
from memlane.extras import optional
from memlane.memory import Memory
from memlane.privacy.sensitive import PLACEHOLDER
from memlane.profile import spec
from memlane.settings import Settings
from memlane.write.extract import RuleExtractor
from memlane.write.judge import LABELS, TIERS, Judge, RuleJudge
from memlane.write.judge.cover import overlap, share
from memlane.write.judge.features import rule_cues
from memlane.write.judge.guards import tier
from memlane.write.judge.meaning import MeaningHead
from memlane.write.judge.model import Classifier
from memlane.write.judge.train import corpus, masked
from memlane.write.pipeline import READ_AGAIN

if TYPE_CHECKING:
    from rich.table import Table

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=timezone(timedelta(hours=8)))
LANGS = ("zh", "en", "mixed")
SECRETS = ("password", "api_key", "id_card", "bank_card")

_LABEL_OF = {
    Category.MOOD: "mood",
    Category.SMALLTALK: "smalltalk",
    Category.REQUEST: "request",
    Category.HYPOTHETICAL: "hypothetical",
    Category.OTHER: "other",
    Category.FORGET: "forget",
    Category.SENSITIVE: "sensitive",
    Category.CONTEXT: "context",
    Category.CONDITION: "condition",
    Category.BUDGET: "condition",
    Category.PREFERENCE: "preference",
    Category.DISLIKE: "preference",
    Category.ROUTINE: "preference",
    Category.CONSTRAINT: "constraint",
    Category.FACT: "background",
    Category.FAMILY: "background",
    Category.EVENT: "event",
    Category.COMPLAINT: "event",
    Category.PLAN: "plan",
}


def label_of(decision: Decision | None) -> str:
    """The corpus label a decision amounts to (no decision: ``other``)."""
    if decision is None:
        return "other"
    c: Candidate | None = decision.candidate
    if decision.category is Category.SENSITIVE or (c is not None and c.sensitive):
        return "sensitive"
    if c is not None and c.hedged and decision.action in (Action.DISCARD, Action.SESSION):
        return "guess"
    if decision.action is Action.PROFILE or (c is not None and c.slot and spec(c.slot).profile):
        return "profile"
    return _LABEL_OF.get(decision.category, "profile")


@dataclass(frozen=True)
class Scored:
    """One labelled clause and what the judge made of it."""

    id: str
    lang: str
    text: str
    gold: str
    label: str  # the label the decision amounts to
    tier: str  # the tier of the decision's action
    kinds: tuple[str, ...]  # sensitive kinds the corpus names
    reason: str
    secret_kept: bool = False  # a secret the clause holds is in a memory kept long-term


@dataclass
class Run:
    """One judge's decisions on every clause of a split."""

    name: str
    clauses: list[Scored] = field(default_factory=list)

    def accuracy(self, on: str = "label", lang: str | None = None, gold: str | None = None) -> float:
        """The share right, on the ``label`` or the ``tier``, optionally of one language or gold label."""
        chosen = [
            s for s in self.clauses if (lang is None or s.lang == lang) and (gold is None or s.gold == gold)
        ]
        right = sum((s.label == s.gold) if on == "label" else (s.tier == TIERS[s.gold]) for s in chosen)
        return round(right / len(chosen), 4) if chosen else 0.0

    def tier_accuracy(self, gold_tier: str) -> float:
        """The share of the clauses of one gold tier whose decision has that tier."""
        chosen = [s for s in self.clauses if TIERS[s.gold] == gold_tier]
        return round(sum(s.tier == gold_tier for s in chosen) / len(chosen), 4) if chosen else 0.0

    def confusion(self) -> dict[str, dict[str, int]]:
        """Gold label → decided label → clauses."""
        table = {gold: dict.fromkeys(LABELS, 0) for gold in LABELS}
        for s in self.clauses:
            table[s.gold][s.label] += 1
        return table

    def counts(self) -> dict[str, int]:
        """The mistakes that matter most."""
        kept = [s for s in self.clauses if s.tier == "long-term"]
        return {
            "moods kept long-term": sum(s.gold == "mood" for s in kept),
            "secrets kept long-term": sum(s.secret_kept for s in self.clauses),
            "sensitive kept long-term": sum(s.gold == "sensitive" for s in kept),
            "session conditions kept long-term": sum(TIERS[s.gold] == "session" for s in kept),
            "stable facts lost": sum(
                TIERS[s.gold] == "long-term" and s.tier == "discard" for s in self.clauses
            ),
        }

    def to_dict(self) -> dict[str, Any]:
        """The numbers as JSON-ready data, with every wrong tier."""
        return {
            "clauses": len(self.clauses),
            "label_accuracy": self.accuracy("label"),
            "tier_accuracy": self.accuracy("tier"),
            "by_language": {
                lang: {"label": self.accuracy("label", lang), "tier": self.accuracy("tier", lang)}
                for lang in LANGS
            },
            "by_label": {label: self.accuracy("label", gold=label) for label in LABELS},
            "by_tier": {t: self.tier_accuracy(t) for t in ("discard", "session", "long-term")},
            "counts": self.counts(),
            "confusion": self.confusion(),
            "wrong_tier": [
                {"id": s.id, "text": s.text, "gold": s.gold, "decided": s.label, "reason": s.reason}
                for s in self.clauses
                if s.tier != TIERS[s.gold]
            ],
        }


@dataclass
class Report:
    """The rules alone and rules with the model, on one split, and what a clause costs each."""

    split: str
    runs: dict[str, Run] = field(default_factory=dict)
    micros: dict[str, float] = field(default_factory=dict)  # µs per clause: rules, model, judge

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the split, µs per clause and each run's numbers."""
        return {"split": self.split, "us_per_clause": self.micros} | {
            name: run.to_dict() for name, run in self.runs.items()
        }


def run(
    messages: Sequence[dict[str, Any]],
    *,
    learned: bool,
    progress: Callable[[int], None] | None = None,
    models: tuple[Classifier, MeaningHead] | None = None,
) -> Run:
    """Say every message through the real write path and score each labelled clause (with
    ``models`` in place of the shipped classifier and meaning head, when given)."""
    out = Run("model" if learned else "rules")
    with Memory(":memory:", learned_judge=learned) as mem:
        if models is not None:
            assert isinstance(mem.judge, Judge)
            mem.judge.use(*models)
        for n, row in enumerate(messages, 1):
            user = f"judge-{row['id']}"
            decisions = settled(mem, user, mem.add(row["text"], user_id=user, session_id=f"{user}-s", at=T0))
            for clause in row["clauses"]:
                text = masked(clause["text"])
                best = max(
                    decisions, key=lambda d: (share(d.text, text), overlap(d.text, text)), default=None
                )
                secret = any(k in SECRETS for k in clause.get("kinds", ()))
                out.clauses.append(
                    Scored(
                        id=row["id"],
                        lang=row["lang"],
                        text=clause["text"],
                        gold=clause["label"],
                        label=label_of(best),
                        tier=tier(best.action) if best is not None else "discard",
                        kinds=tuple(clause.get("kinds", ())),
                        reason=best.reason if best is not None else "no decision",
                        secret_kept=secret and secret_kept(text, best, decisions),
                    )
                )
            if progress is not None:
                progress(n)
    return out


def settled(mem: Memory, user: str, added: AddResult) -> list[Decision]:
    """The decisions of one ``add`` as the write path finally carried them out: a clause it returned
    dropped and then kept, read again off the caller's path, counts as kept as it was kept."""
    if not any(d.note == READ_AGAIN for d in added.decisions):
        return added.decisions
    mem.flush(user)
    later = {
        (m.provenance[0], m.text): m
        for m in mem.list(user_id=user, kinds=["semantic", "episodic", "profile"])
        if m.provenance
    }
    out = []
    for d in added.decisions:
        kept = later.get((d.candidate.message_id or "", d.text)) if d.candidate is not None else None
        if d.note == READ_AGAIN and kept is not None:
            d = replace(d, action=Action(kept.kind.value), category=kept.category, reason=kept.reason)
        out.append(d)
    return out


def secret_kept(masked_clause: str, best: Decision | None, decisions: Sequence[Decision]) -> bool:
    """Whether a clause's secret is in a memory kept long-term. Where the detectors masked it, that
    is a kept decision holding its placeholder, whichever part of the clause it kept ("家里wifi名字是
    home" of "…，密码是 [已隐藏:密码]" keeps no secret); where they missed it, the clause's own
    decision kept long-term."""
    placeholders = PLACEHOLDER.findall(masked_clause)
    if not placeholders:
        return best is not None and tier(best.action) == "long-term"
    kept = (d for d in decisions if tier(d.action) == "long-term")
    return any(p in d.text for d in kept for p in placeholders)


def micros(messages: Sequence[dict[str, Any]]) -> dict[str, float]:
    """µs per clause of the rule judge, of the model alone and of the whole judge, over the
    candidates the extractor finds in ``messages`` (the best of three passes)."""
    found = [c for row in messages for c in RuleExtractor().extract(Message("user", masked(row["text"]), T0))]
    settings = Settings()
    rules, judge = RuleJudge(settings), Judge(settings)
    model = judge.classifier
    assert model is not None
    cues = [rule_cues(c) for c in found]
    timed: dict[str, Callable[[], object]] = {
        "rules": lambda: [rules.decide(c, T0) for c in found],
        "model": lambda: [model.predict(c.text, q) for c, q in zip(found, cues, strict=True)],
        "judge": lambda: [judge.decide(c, T0) for c in found],
    }
    out: dict[str, float] = {}
    for name, work in timed.items():
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
        out[name] = round(best / max(1, len(found)) * 1e6, 1)
    return out


def evaluate(
    split: str = "test", limit: int | None = None, progress: Callable[[str, int, int], None] | None = None
) -> Report:
    """Both judges on ``split`` (the first ``limit`` messages when given)."""
    from .judge_folds import out_of_fold

    messages = corpus(split)[:limit]
    report = Report(split)
    for learned in (False, True):
        name = "model" if learned else "rules"
        tick = (lambda n, name=name: progress(name, n, len(messages))) if progress else None
        if learned and split == "train":  # the shipped models learnt from it: fitted without each fold
            report.runs[name] = out_of_fold(messages, progress=tick)
        else:
            report.runs[name] = run(messages, learned=learned, progress=tick)
    report.micros = micros(messages)
    return report


def plot(report: Report, path: Path) -> Path:
    """A PNG of the confusion table of rules with the model (rows: the corpus's label)."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    table = report.runs["model"].confusion()
    grid = [[table[g][p] for p in LABELS] for g in LABELS]
    fig, ax = plt.subplots(figsize=(9, 8))
    ax.imshow([[v / max(1, sum(row)) for v in row] for row in grid], cmap="Blues", vmin=0, vmax=1)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v:
                ax.text(j, i, str(v), ha="center", va="center", fontsize=7, color="black")
    ax.set_xticks(range(len(LABELS)), LABELS, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(LABELS)), LABELS, fontsize=8)
    ax.set_xlabel("decided")
    ax.set_ylabel("labelled")
    model = report.runs["model"]
    ax.set_title(
        f"memlane eval judge ({report.split}): label {model.accuracy('label'):.3f}, "
        f"tier {model.accuracy('tier'):.3f}"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def tables(report: Report) -> list[Table]:
    """The report as ``rich`` tables: rules and model side by side, the counts, the confusion table."""
    from rich.table import Table

    rules, model = report.runs["rules"], report.runs["model"]
    overall = Table(title=f"memlane eval judge: {report.split} split, {len(model.clauses)} clauses")
    for name in ("", "rules label", "rules tier", "rules+model label", "rules+model tier"):
        overall.add_column(name, justify="left" if not name else "right")

    def row(name: str, lang: str | None = None, gold: str | None = None) -> None:
        cells = (f"{r.accuracy(on, lang, gold):.3f}" for r in (rules, model) for on in ("label", "tier"))
        overall.add_row(name, *cells)

    row("all")
    for lang in LANGS:
        row(lang, lang=lang)
    for t in ("discard", "session", "long-term"):
        overall.add_row(f"tier {t}", "", f"{rules.tier_accuracy(t):.3f}", "", f"{model.tier_accuracy(t):.3f}")
    for label in LABELS:
        row(f"label {label}", gold=label)
    counts = Table(title="what matters most (clauses)")
    for name in ("", "rules", "rules+model"):
        counts.add_column(name, justify="left" if not name else "right")
    for key, value in model.counts().items():
        counts.add_row(key, str(rules.counts()[key]), str(value))
    for name, us in report.micros.items():
        counts.add_row(f"µs per clause: {name}", "", f"{us:.1f}")
    confusion = Table(title="confusion, rules+model (rows: labelled, columns: decided)")
    confusion.add_column("", no_wrap=True)
    for label in LABELS:
        confusion.add_column(label[:5], justify="right", no_wrap=True)
    table = model.confusion()
    for gold in LABELS:
        confusion.add_row(gold, *(str(table[gold][p] or "·") for p in LABELS))
    return [overall, counts, confusion]
