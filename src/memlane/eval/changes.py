"""Changes of mind: after a later message, is what the user said before still held as current?

Each pair of the corpus (``eval/data/changes/pairs.jsonl``) is two messages of one user twelve days
apart, each said through :meth:`Memory.add` in a session of its own. ``replaces`` pairs say the first
no longer holds ("我办了楼下健身房的年卡", then "健身卡到期没续 太贵了"): every memory the first
message left must then be retired (superseded, or its plan or problem settled). ``keeps`` pairs say
something near it that leaves it standing (a one-off exception, someone else's change, a thought of
changing, a complaint): every memory must stay current. A pair whose first message left no memory
is counted apart (``vacuous``). Reported per half (``dev`` may be tuned on, ``test`` never is) and
language::

    report = evaluate()
    report.share("test", "zh", "replaces")  # the share of changes that retired the old memory
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from importlib import resources
from pathlib import Path
from typing import Any

from memlane.domain import EventStatus, Kind
from memlane.extras import optional
from memlane.memory import Memory
from memlane.write.judge.ending import EndingHead

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=timezone.utc)
LANGS = ("zh", "en", "mixed")
LABELS = ("replaces", "keeps")
_HELD = (Kind.SEMANTIC.value, Kind.EPISODIC.value, Kind.PROFILE.value)
_SETTLED = (EventStatus.RESOLVED, EventStatus.CANCELLED, EventStatus.DONE)


def data_dir() -> Path:
    """Where the corpus is: the pairs and the labelled clauses the ending head learns from."""
    return Path(str(resources.files("memlane.eval").joinpath("data", "changes")))


def load(name: str = "pairs.jsonl") -> list[dict[str, Any]]:
    """The rows of one corpus file, in file order."""
    text = (data_dir() / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class Outcome:
    """One pair: what its first message left, and what of it is still current after the second."""

    pair: dict[str, Any]
    left: tuple[str, ...]
    current: tuple[str, ...]

    @property
    def verdict(self) -> str:
        """``right``, ``wrong`` or ``vacuous`` (the first message left no memory)."""
        if not self.left:
            return "vacuous"
        if self.pair["label"] == "replaces":
            return "right" if not self.current else "wrong"
        return "right" if len(self.current) == len(self.left) else "wrong"


@dataclass
class Report:
    """Every pair's outcome, and the shares by half, language and label."""

    outcomes: list[Outcome] = field(default_factory=list)

    def _chosen(self, split: str, lang: str | None, label: str) -> list[Outcome]:
        return [
            o
            for o in self.outcomes
            if o.pair["split"] == split
            and (lang is None or o.pair["lang"] == lang)
            and o.pair["label"] == label
            and o.verdict != "vacuous"
        ]

    def share(self, split: str, lang: str | None, label: str) -> float:
        """The share of pairs decided right (vacuous ones aside)."""
        chosen = self._chosen(split, lang, label)
        return sum(o.verdict == "right" for o in chosen) / max(1, len(chosen))

    def balanced(self, split: str, lang: str | None = None) -> float:
        """The mean of the two labels' shares."""
        return sum(self.share(split, lang, label) for label in LABELS) / len(LABELS)

    def to_dict(self) -> dict[str, Any]:
        """The numbers, and every dev pair decided wrong (the test half's are not shown)."""
        halves: dict[str, Any] = {}
        for split in ("dev", "test"):
            halves[split] = {
                lang or "all": {
                    **{label: round(self.share(split, lang, label), 3) for label in LABELS},
                    "balanced": round(self.balanced(split, lang), 3),
                    "pairs": sum(len(self._chosen(split, lang, label)) for label in LABELS),
                }
                for lang in (None, *LANGS)
            }
        wrong = [
            {"id": o.pair["id"], "label": o.pair["label"], "new": o.pair["new"], "current": list(o.current)}
            for o in self.outcomes
            if o.pair["split"] == "dev" and o.verdict == "wrong"
        ]
        vacuous = sum(o.verdict == "vacuous" for o in self.outcomes)
        return {"halves": halves, "vacuous": vacuous, "dev_wrong": wrong}


def _current(mem: Memory, user: str) -> dict[str, str]:
    return {m.id: m.text for m in mem.list(user, kinds=_HELD, limit=1000) if m.event_status not in _SETTLED}


def _replay(mem: Memory, pair: dict[str, Any]) -> Outcome:
    user = f"change-{pair['id']}"
    left: dict[str, str] = {}
    for day, (session, text) in enumerate((("s1", pair["old"]), ("s2", pair["new"]))):
        at = T0 + timedelta(days=12 * day)
        mem.add(text, user_id=user, session_id=session, at=at)
        mem.flush(user)
        mem.end_session(user, session, at=at + timedelta(minutes=2))
        if day == 0:
            left = _current(mem, user)
    now = _current(mem, user)
    return Outcome(pair, tuple(left.values()), tuple(t for i, t in now.items() if i in left))


def evaluate(
    pairs: Iterable[dict[str, Any]] | None = None,
    *,
    ending: EndingHead | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Say every pair through the real write path (rules and learned judge) and score it; ``ending``
    stands in for the shipped ending head (training chooses its thresholds this way)."""
    chosen = list(pairs if pairs is not None else load())
    report = Report()
    with Memory(":memory:") as mem:
        if ending is not None:
            mem._write.reconciler.ending = ending  # the write path's own reconciler reads it
        for pair in chosen:
            report.outcomes.append(_replay(mem, pair))
            if progress is not None:
                progress(len(report.outcomes), len(chosen))
    return report


def plot(report: Report, path: Path) -> Path:
    """A PNG of the share decided right for each half, language and label."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    groups = [(split, lang) for split in ("dev", "test") for lang in LANGS]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    for ax, label, color in zip(axes, LABELS, ("#3b7dd8", "#4a9d5b"), strict=True):
        ax.bar(
            [f"{s} {lang}" for s, lang in groups],
            [report.share(s, lang, label) for s, lang in groups],
            color=color,
        )
        ax.set_ylim(0, 1.05)
        ax.tick_params(axis="x", labelrotation=30)
        what = "the old memory retired" if label == "replaces" else "the old memory still held"
        ax.set_title(f"{label}: {what}")
    fig.suptitle("memlane eval changes")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
