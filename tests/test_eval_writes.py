"""memlane eval writes: the write path's scored cases and clause coverage, on both halves."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlane.cli import main
from memlane.eval import writes
from memlane.memory import Memory


def test_every_case_names_its_half_language_kind_and_what_must_hold() -> None:
    cases = writes.load_cases()
    assert {c["split"] for c in cases} == {"dev", "test"}
    for case in cases:
        assert case["lang"] in ("zh", "en")
        assert case["said"]
        assert {"active", "superseded", "profile", "profile_exact"} & set(case)
    for half in ("dev", "test"):
        for lang in ("zh", "en"):
            assert sum(c["split"] == half and c["lang"] == lang for c in cases) >= 10


def test_a_case_fails_when_memory_holds_something_else() -> None:
    case = {
        "id": "x",
        "lang": "en",
        "split": "dev",
        "kind": "supersede",
        "said": [["I live in Paris", 0], ["I moved to Berlin", 3]],
        "active": ["I live in Paris"],
        "profile": {"home_city": "Paris"},
    }
    with Memory(":memory:") as mem:
        result = writes.run_case(mem, case)
    assert not result.passed
    assert any("active" in w for w in result.wrong)
    assert any("profile" in w for w in result.wrong)


def test_coverage_counts_every_clause_of_a_message() -> None:
    rows = [
        {
            "lang": "zh",
            "text": "我比较看重拍照，尤其是长焦",
            "clauses": [{"text": "我比较看重拍照，尤其是长焦"}],
        },
        {
            "lang": "en",
            "text": "hmm ok. I use a Kindle",
            "clauses": [{"text": "hmm ok"}, {"text": "I use a Kindle"}],
        },
    ]
    assert writes.coverage(rows) == {
        "en": {"clauses": 1.0, "labelled": 1.0},
        "zh": {"clauses": 1.0, "labelled": 1.0},
    }


def test_the_command_prints_both_halves_and_writes_json_and_a_plot(tmp_path: Path) -> None:
    out = tmp_path / "writes.json"
    done = CliRunner().invoke(main, ["eval", "writes", "--split", "dev", "--json", str(out)])
    assert done.exit_code == 0, done.output
    assert "Cases passed" in done.output
    assert "Clauses with a decision" in done.output
    body = json.loads(out.read_text())
    assert body["cases"]["dev"]["cases"] >= 20
    assert body["cases"]["test"]["cases"] == 0
    assert set(body["coverage"]) == {"zh", "en", "mixed"}
    assert out.with_suffix(".png").stat().st_size > 0
