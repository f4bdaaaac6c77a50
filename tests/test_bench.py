"""``memlane bench scale`` end to end on small sizes, and the synthetic corpus it draws from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.bench import synthetic
from memlane.cli import main
from memlane.domain import Kind
from memlane.text.lang import detect


def test_the_corpus_is_reproducible_bilingual_and_rarely_repeats() -> None:
    items = synthetic.memories(seed=1, start=0, count=3000)
    assert items[1500:1510] == synthetic.memories(seed=1, start=1500, count=10)
    assert len({m.text for m in items}) > 0.9 * len(items)
    zh = sum(detect(m.text) == "zh" for m in items) / len(items)
    assert 0.5 < zh < 0.7
    assert {m.kind for m in items} == {Kind.SEMANTIC, Kind.EPISODIC}
    episodic = next(m for m in items if m.kind is Kind.EPISODIC and m.lang == "zh")
    assert f"{episodic.at.year}年{episodic.at.month}月{episodic.at.day}日" in episodic.text
    assert all(q.strip() for q in synthetic.questions(seed=1, count=50))


def test_bench_scale_reports_every_size_as_json_and_a_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the hashing embedder keeps this quick; the corpus cache goes to a temporary directory
    monkeypatch.setenv("MEMLANE_EMBEDDER", "hash")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = tmp_path / "scale.json"
    args = ["bench", "scale", "--sizes", "300,600", "--searches", "5", "--contexts", "2", "--adds", "2"]
    result = CliRunner().invoke(main, [*args, "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["store"] == "sqlite"
    assert list(doc["sizes"]) == ["300", "600"]
    keys = {"add_per_s", "add_p95_ms", "search_p50_ms", "search_p95_ms", "context_p95_ms", "rss_mb"}
    for row in doc["sizes"].values():
        assert set(row) == keys
        assert all(isinstance(v, float) and v > 0 for v in row.values())
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")


def test_bench_scale_refuses_bad_sizes() -> None:
    result = CliRunner().invoke(main, ["bench", "scale", "--sizes", "10,ten"])
    assert result.exit_code == 2
    assert "sizes" in result.output or "ten" in result.output
