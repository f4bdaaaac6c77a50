#!/usr/bin/env python3
"""Run the judge corpus's clauses through the sensitive-data detectors and print what they find.

Usage:  .venv/bin/python tests/corpus/scan_sensitive.py [--split train|test|both]

For each split: recall per kind on the clauses labelled ``sensitive`` (a clause counts for a kind
when ``scan`` finds that kind in it), the non-sensitive clauses in which ``scan`` finds a never-store
kind (false positives that would keep a clause out of memory) or a maskable one, and the time
``scan`` takes per clause. The test split is held out: read its numbers, never tune patterns on it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from memlane.privacy.sensitive import NEVER_STORE, scan

DATA = Path(__file__).resolve().parents[2] / "src" / "memlane" / "eval" / "data" / "judge"


@dataclass
class Report:
    """What ``scan`` found in one split."""

    split: str
    found: Counter[str] = field(default_factory=Counter)  # kind -> sensitive clauses where it was found
    labelled: Counter[str] = field(default_factory=Counter)  # kind -> sensitive clauses labelled with it
    negatives: int = 0  # clauses not labelled sensitive
    never_store_hits: list[str] = field(default_factory=list)  # of those, where a never-store kind was found
    masked_hits: list[str] = field(default_factory=list)  # of those, where a phone, email or address was
    clauses: int = 0
    us_per_clause: float = 0.0

    def recall(self, kind: str) -> float:
        return self.found[kind] / self.labelled[kind] if self.labelled[kind] else 1.0


def clauses(split: str) -> list[dict[str, object]]:
    with (DATA / f"{split}.jsonl").open(encoding="utf-8") as lines:
        return [c for line in lines for c in json.loads(line)["clauses"]]


def measure(split: str) -> Report:
    report = Report(split)
    rows = clauses(split)
    for c in rows:
        text = str(c["text"])
        kinds = {f.kind for f in scan(text)}
        if c["label"] == "sensitive":
            for kind in c.get("kinds", []):  # type: ignore[attr-defined]
                report.labelled[kind] += 1
                report.found[kind] += kind in kinds
        else:
            report.negatives += 1
            if kinds & NEVER_STORE:
                report.never_store_hits.append(text)
            elif kinds:
                report.masked_hits.append(text)
    texts = [str(c["text"]) for c in rows]
    report.clauses = len(texts)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for text in texts:
            scan(text)
        best = min(best, (time.perf_counter() - start) / len(texts))
    report.us_per_clause = best * 1e6
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "test", "both"], default="both")
    args = parser.parse_args()
    for split in ("train", "test") if args.split == "both" else (args.split,):
        r = measure(split)
        print(f"{split}:")
        for kind in sorted(r.labelled):
            print(f"  {kind:10} recall {r.found[kind]:3}/{r.labelled[kind]:<3} {r.recall(kind):6.1%}")
        total, hit = sum(r.labelled.values()), sum(r.found.values())
        print(f"  {'all':10} recall {hit:3}/{total:<3} {hit / total:6.1%}")
        print(f"  never-store kind found in {len(r.never_store_hits)} of {r.negatives} non-sensitive clauses")
        print(f"  phone/email/address found in {len(r.masked_hits)} of them")
        print(f"  scan: {r.us_per_clause:.1f} µs per clause (best of 5 passes over {r.clauses} clauses)")


if __name__ == "__main__":
    main()
