"""A shortened simulation runs end to end: what is true is recalled, what became false is gone."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from memlane.cli import main
from memlane.simulate.generator import generate, outdated_keys
from memlane.simulate.run import simulate


def test_the_generator_is_deterministic_and_bilingual() -> None:
    first, second = generate(150, seed=3), generate(150, seed=3)
    assert [m.text for m in first.messages] == [m.text for m in second.messages]
    texts = " ".join(m.text for m in first.messages)
    assert "喜欢" in texts
    assert "I " in texts
    assert outdated_keys(first) == {"drink:americano", "complaint:earphones"}


def test_two_months_keep_true_facts_and_drop_outdated_ones() -> None:
    result = simulate(days=60, seed=7)
    final = result["final"]
    assert [m["month"] for m in result["months"]] == [1, 2]
    assert final["stable_recalled"] == 1.0, final["recalled"]
    assert final["outdated_active"] == 0.0, final["outdated"]
    assert final["outdated"] == {"complaint:earphones": False}
    assert 0 < final["items_per_1000_messages"] < 400


def test_the_cli_writes_json_and_a_plot(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    result = CliRunner().invoke(
        main, ["simulate", "--days", "30", "--json", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"month", "messages", "active"} <= data["months"][0].keys()
    assert {"stable_recalled", "outdated_active", "items_per_1000_messages"} <= data["final"].keys()
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")
