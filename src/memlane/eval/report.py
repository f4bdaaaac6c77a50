"""What a benchmark run reports: the JSON summary, rich tables, per-question details and a plot.

:func:`summary` gives the documented shape (``overall``, ``categories``, ``questions``,
``latency_ms``, ``context_tokens_p50``, ``full_tokens_p50``) plus the store and throughput numbers,
and, for a run with the LLM stages, ``llm``: the model and its usage by stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from memlane.bench.machine import describe, machine
from memlane.domain import Kind
from memlane.eval.dataset import CATEGORY_ORDER
from memlane.eval.locomo import KS, SEARCH_LIMIT, Run
from memlane.extras import optional


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (linear interpolation), 0.0 when there are none."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


def _rounded(recall: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in recall.items()}


def summary(run: Run, **meta: Any) -> dict[str, Any]:
    """The run's numbers as JSON-ready data; ``meta`` (data file, command...) is added as given."""
    turns = sum(s.turns for s in run.stored)
    answers = run.answers
    return {
        "overall": _rounded(run.recall()),
        "categories": {name: _rounded(run.recall(name)) for name in CATEGORY_ORDER},
        "questions": len(answers),
        "questions_by_category": {
            name: sum(1 for a in answers if a.question.category == name) for name in CATEGORY_ORDER
        },
        "latency_ms": {
            "add_p50": round(percentile(run.add_ms, 50), 2),
            "add_p95": round(percentile(run.add_ms, 95), 2),
            "search_p50": round(percentile(run.search_ms, 50), 2),
            "search_p95": round(percentile(run.search_ms, 95), 2),
            "context_p50": round(percentile(run.context_ms, 50), 2),
            "context_p95": round(percentile(run.context_ms, 95), 2),
        },
        "context_tokens_p50": percentile(run.context_tokens, 50),
        "full_tokens_p50": percentile([s.transcript_tokens for s in run.stored], 50),
        "context_evidence_recall": round(
            sum(a.context_recall for a in answers) / len(answers) if answers else 0.0, 4
        ),
        # of every memory line the blocks held, the share drawn from a session with evidence
        "context_on_topic_lines": round(
            sum(a.on_topic_lines for a in answers) / max(1, sum(a.block_lines for a in answers)), 4
        ),
        "context_lines_mean": round(sum(a.block_lines for a in answers) / max(1, len(answers)), 2),
        "split": run.split,
        "conversations": [
            {"sample_id": s.sample_id, "sessions": s.sessions, "turns": s.turns, "items": s.items}
            | {"transcript_tokens": s.transcript_tokens}
            for s in run.stored
        ],
        "turns": turns,
        "ingest_seconds": round(run.ingest_seconds, 2),
        "ingest_turns_per_s": round(turns / run.ingest_seconds, 2) if run.ingest_seconds else 0.0,
        "db_bytes": run.db_bytes,
        "seconds": round(run.seconds, 2),
        "search_limit": SEARCH_LIMIT,
        "machine": machine(),
        **({"llm": {"model": run.llm_model, "usage": run.llm_usage}} if run.llm_model else {}),
        **meta,
    }


def details(run: Run) -> list[dict[str, Any]]:
    """One record per question: where each evidence turn ranked (None: not in the first 50) and the
    texts of the first hits, to see what was found instead.
    """
    out = []
    for a in run.answers:
        q = a.question
        ranks = {e: (a.ranked.index(e) + 1 if e in a.ranked else None) for e in q.evidence}
        out.append(
            {
                "sample_id": q.sample_id,
                "qa_index": q.index,
                "category": q.category,
                "question": q.text,
                "evidence_ranks": ranks,
                "recall": {f"R@{k}": round(a.recall[k], 4) for k in KS},
                "context_recall": round(a.context_recall, 4),
                "context_lines": a.block_lines,
                "context_on_topic_lines": a.on_topic_lines,
                "top_hits": [
                    {"kind": h.kind, "turns": list(h.turns), "score": h.score, "text": h.text} for h in a.top
                ],
            }
        )
    return out


def recall_table(data: dict[str, Any]) -> Table:
    """Recall at each cut-off, overall and per category."""
    table = Table(title=f"LoCoMo evidence recall (split: {data['split']})")
    table.add_column("category")
    table.add_column("questions", justify="right")
    for k in KS:
        table.add_column(f"R@{k}", justify="right")
    rows = [("overall", data["overall"], data["questions"])]
    rows += [(n, data["categories"][n], data["questions_by_category"][n]) for n in CATEGORY_ORDER]
    for name, recall, n in rows:
        table.add_row(name, str(n), *(f"{recall[f'R@{k}']:.3f}" for k in KS))
    return table


def store_table(data: dict[str, Any]) -> Table:
    """What each conversation left in the store: active records by kind against its turns."""
    kinds = [k.value for k in Kind]
    table = Table(title="Stored items per conversation (active)")
    for column in ("conversation", "sessions", "turns", *kinds, "transcript tokens"):
        table.add_column(column, justify="left" if column == "conversation" else "right")
    for c in data["conversations"]:
        counts = [str(c["items"].get(k, 0)) for k in kinds]
        table.add_row(
            c["sample_id"], str(c["sessions"]), str(c["turns"]), *counts, str(c["transcript_tokens"])
        )
    return table


def cost_table(data: dict[str, Any]) -> Table:
    """Throughput, latencies, database size and the context block's size against the transcript's."""
    lat = data["latency_ms"]
    table = Table("measure", "value", title="Cost")
    table.add_row("ingest", f"{data['turns']} turns in {data['ingest_seconds']:.1f} s")
    table.add_row("ingest throughput", f"{data['ingest_turns_per_s']:.1f} turns/s")
    table.add_row("add p50 / p95", f"{lat['add_p50']:.1f} / {lat['add_p95']:.1f} ms per call")
    table.add_row(
        "search p50 / p95", f"{lat['search_p50']:.1f} / {lat['search_p95']:.1f} ms (limit {SEARCH_LIMIT})"
    )
    table.add_row("context p50 / p95", f"{lat['context_p50']:.1f} / {lat['context_p95']:.1f} ms")
    table.add_row("context tokens p50", f"{data['context_tokens_p50']:.0f}")
    table.add_row("full conversation tokens p50", f"{data['full_tokens_p50']:.0f}")
    table.add_row("evidence in context block", f"{data['context_evidence_recall']:.3f}")
    table.add_row(
        "block lines from evidence sessions",
        f"{data['context_on_topic_lines']:.3f} of {data['context_lines_mean']:.1f} lines per block",
    )
    table.add_row("database size", f"{data['db_bytes'] / 1e6:.1f} MB ({data['db_bytes']:,} bytes)")
    table.add_row("wall time", f"{data['seconds']:.1f} s")
    if "machine" in data:
        table.add_row("machine", describe(data["machine"]))
    return table


def usage_table(data: dict[str, Any]) -> Table | None:
    """What the LLM stages cost, by stage; None for a run of the rules alone."""
    llm = data.get("llm")
    if not llm:
        return None
    columns = ("stage", "calls", "retries", "failures", "tokens in", "tokens out", "wait")
    table = Table(*columns, title=f"LLM stages ({llm['model']})")
    for stage, n in llm["usage"].items():
        table.add_row(
            stage,
            f"{n['calls']:.0f}",
            f"{n['retries']:.0f}",
            f"{n['failures']:.0f}",
            f"{n['prompt_tokens']:,.0f}",
            f"{n['completion_tokens']:,.0f}",
            f"{n['latency']:.1f} s",
        )
    return table


def plot(data: dict[str, Any], path: str | Path) -> Path:
    """Write R@k curves, overall and per category, as a PNG."""
    # the object-oriented API with the Agg canvas: no pyplot global state, no display needed
    with optional("a plot"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    curves = [("overall", data["overall"])] + [(n, data["categories"][n]) for n in CATEGORY_ORDER]
    for name, recall in curves:
        overall = name == "overall"
        ax.plot(
            KS,
            [recall[f"R@{k}"] for k in KS],
            marker="o",
            label=name,
            linewidth=2.5 if overall else 1.2,
            color="black" if overall else None,
        )
    ax.set_xscale("log")
    ax.set_xticks(KS, [str(k) for k in KS])
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_xlabel("k (turns)")
    ax.set_ylabel("evidence recall R@k")
    ax.set_title(f"memlane on LoCoMo ({data['questions']} questions, split {data['split']})")
    ax.grid(True, alpha=0.3)
    out = Path(path)
    fig.savefig(out)
    return out
