"""The labelled corpora shipped for the judge and context benchmarks are well formed: every clause is an
exact, in-order substring of its message, every label and slot is known, the held-out split shares no
near-duplicate with the split tuned on, and every scenario question refers to a session it can be
asked in (the validators live in tests/corpus/)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent / "corpus"


def test_the_judge_corpus_is_well_formed_and_its_splits_do_not_leak() -> None:
    done = subprocess.run(
        [sys.executable, str(HERE / "check_judge.py")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "train" in done.stdout
    assert "test" in done.stdout


def test_the_context_scenarios_are_well_formed() -> None:
    done = subprocess.run(
        [sys.executable, str(HERE / "check_context.py"), "--strict"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
