"""The detectors hold up on the judge corpus's sensitive clauses: the training split, which the
patterns were written against, is found almost whole, and few ordinary clauses are taken for
sensitive ones in either split (``tests/corpus/scan_sensitive.py`` prints the numbers, the held-out
recall among them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "corpus"))
from scan_sensitive import measure


def test_the_training_split_is_found_for_every_kind() -> None:
    r = measure("train")
    assert set(r.labelled) == {"api_key", "bank_card", "health", "id_card", "password"}
    for kind in r.labelled:
        assert r.recall(kind) >= 0.95, kind


@pytest.mark.parametrize("split", ["train", "test"])
def test_few_ordinary_clauses_are_kept_out_as_sensitive(split: str) -> None:
    r = measure(split)
    assert r.negatives > 1000
    assert len(r.never_store_hits) <= r.negatives // 200  # at most 0.5%
    assert len(r.masked_hits) <= r.negatives // 200
