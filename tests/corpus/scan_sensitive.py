#!/usr/bin/env python3
"""Run the judge corpus through the sensitive-data detectors and print what they find.

Usage:  .venv/bin/python tests/corpus/scan_sensitive.py [--split train|test|both]

For each split, read two ways: each clause scanned alone, and each message scanned whole (as the
write path does) with a finding counted for the clauses it overlaps, so a value announced in an
earlier clause ("…的密码是一样的，都是 launch0x9") counts for the clause that holds it. Printed: recall per kind
on the clauses labelled ``sensitive``, the non-sensitive clauses in which a never-store kind is found
(false positives that would keep a clause out of memory) or a maskable one, and the time ``scan``
takes per clause and per message. The test split is held out: read its numbers, never tune patterns
on it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memlane.privacy.sensitive import NEVER_STORE, scan

DATA = Path(__file__).resolve().parents[2] / "src" / "memlane" / "eval" / "data" / "judge"


@dataclass
class Report:
    """What ``scan`` found in one split, read one way (clause by clause, or message by message)."""

    split: str
    found: Counter[str] = field(default_factory=Counter)  # kind -> sensitive clauses where it was found
    labelled: Counter[str] = field(default_factory=Counter)  # kind -> sensitive clauses labelled with it
    negatives: int = 0  # clauses not labelled sensitive
    never_store_hits: list[str] = field(default_factory=list)  # of those, where a never-store kind was found
    masked_hits: list[str] = field(default_factory=list)  # of those, where a phone, email or address was
    units: int = 0  # clauses or messages scanned for the timing
    us_per_unit: float = 0.0

    def recall(self, kind: str) -> float:
        return self.found[kind] / self.labelled[kind] if self.labelled[kind] else 1.0


def messages(split: str) -> list[dict[str, object]]:
    with (DATA / f"{split}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def clauses(split: str) -> list[dict[str, object]]:
    return [c for m in messages(split) for c in m["clauses"]]  # type: ignore[attr-defined]


def _count(report: Report, clause: dict[str, object], kinds: set[str]) -> None:
    text = str(clause["text"])
    if clause["label"] == "sensitive":
        for kind in clause.get("kinds", []):  # type: ignore[attr-defined]
            report.labelled[kind] += 1
            report.found[kind] += kind in kinds
    else:
        report.negatives += 1
        if kinds & NEVER_STORE:
            report.never_store_hits.append(text)
        elif kinds:
            report.masked_hits.append(text)


def _time(report: Report, texts: list[str]) -> None:
    report.units = len(texts)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for text in texts:
            scan(text)
        best = min(best, (time.perf_counter() - start) / len(texts))
    report.us_per_unit = best * 1e6


def measure(split: str) -> Report:
    """Each clause scanned alone."""
    report = Report(split)
    rows = clauses(split)
    for c in rows:
        _count(report, c, {f.kind for f in scan(str(c["text"]))})
    _time(report, [str(c["text"]) for c in rows])
    return report


def measure_messages(split: str) -> Report:
    """Each message scanned whole; a finding counts for every clause its span overlaps."""
    report = Report(split)
    rows = messages(split)
    for m in rows:
        text = str(m["text"])
        findings = scan(text)
        at = 0
        for c in m["clauses"]:  # type: ignore[attr-defined]
            start = text.index(str(c["text"]), at)  # clauses are in-order substrings of the message
            at = start + len(str(c["text"]))
            _count(report, c, {f.kind for f in findings if f.start < at and f.end > start})
    _time(report, [str(m["text"]) for m in rows])
    return report


def _print(r: Report, how: str, unit: str) -> None:
    print(f"{r.split}, {how}:")
    for kind in sorted(r.labelled):
        print(f"  {kind:10} recall {r.found[kind]:3}/{r.labelled[kind]:<3} {r.recall(kind):6.1%}")
    total, hit = sum(r.labelled.values()), sum(r.found.values())
    print(f"  {'all':10} recall {hit:3}/{total:<3} {hit / total:6.1%}")
    print(f"  never-store kind found in {len(r.never_store_hits)} of {r.negatives} non-sensitive clauses")
    print(f"  phone/email/address found in {len(r.masked_hits)} of them")
    print(f"  scan: {r.us_per_unit:.1f} µs per {unit} (best of 5 passes over {r.units} {unit}s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "test", "both"], default="both")
    args = parser.parse_args()
    ways: list[tuple[Callable[[str], Report], str, str]] = [
        (measure, "each clause alone", "clause"),
        (measure_messages, "each message whole", "message"),
    ]
    for split in ("train", "test") if args.split == "both" else (args.split,):
        for run, how, unit in ways:
            _print(run(split), how, unit)


if __name__ == "__main__":
    main()
