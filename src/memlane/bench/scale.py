"""``memlane bench scale``: how a store behaves from 1k to 100k memories in one user's scope.

For each size, in increasing order, the store is filled up to that many memories for one user (plus
other users' memories as noise), then measured through the public API:

- ``search`` p50/p95 and ``context`` p95: bilingual questions about the corpus, query embedding
  included, after a few warm-up searches (the embedded store loads its vector cache on the first);
- ``add`` throughput and p95: a sample of real ``Memory.add`` calls through the whole write path
  (redact, extract, judge, embed, reconcile, store, session);
- resident memory of the process.

The bulk fill is not timed and does not go through ``add``: embedding 100,000 sentences one call at a
time takes hours, so the fill writes through the store port with embeddings computed in batches and
cached; both the items and the cache are :mod:`memlane.bench.synthetic`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memlane.bench import synthetic
from memlane.domain import Kind, MemoryItem, Source
from memlane.extras import optional
from memlane.memory import Memory
from memlane.store import Analyzable
from memlane.text.keywords import index_text

# a progress reporter: (task, advance by, total or None) — the CLI draws it with rich
Progress = Callable[[str, int, int | None], None]

_WRITE_BATCH = 500
_WARMUP = 5
_MAIN_SEED, _NOISE_SEED, _MESSAGE_SEED, _QUESTION_SEED = 1, 2, 3, 4
_NOW = synthetic.EPOCH + timedelta(days=1000)  # after every synthetic event


@dataclass(frozen=True)
class ScaleOptions:
    """What to measure: store URLs (None: a temporary embedded file), sizes and sample counts."""

    store: str | None = None
    sessions: str | None = None
    sizes: tuple[int, ...] = (1_000, 10_000, 100_000)
    searches: int = 200
    contexts: int = 50
    adds: int = 50
    noise_share: float = 0.1  # other users' memories, as a share of the size
    noise_users: int = 10


def store_label(options: ScaleOptions) -> str:
    """A short name for the store under test (no host names or passwords)."""
    scheme = "sqlite" if options.store is None else options.store.split(":", 1)[0].lower()
    name = "postgresql" if scheme in ("postgres", "postgresql") else scheme
    return f"{name}+redis" if options.sessions and options.sessions.startswith(("redis", "unix")) else name


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile in milliseconds, rounded for reports."""
    return round(float(np.percentile(np.asarray(values) * 1000.0, q)), 2)


def rss_mb() -> float:
    """Resident memory of this process, in MB (peak resident memory where /proc is missing)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


@contextmanager
def _memory(options: ScaleOptions) -> Iterator[Memory]:
    if options.store is not None:
        with Memory(store=options.store, sessions=options.sessions) as mem:
            yield mem
        return
    folder = Path(tempfile.mkdtemp(prefix="memlane-bench-"))
    try:
        with Memory(folder / "bench.db", sessions=options.sessions) as mem:
            yield mem
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class ScaleBench:
    """One run over every size, on one store."""

    def __init__(self, mem: Memory, options: ScaleOptions, progress: Progress) -> None:
        self.mem = mem
        self.options = options
        self.progress = progress
        run = uuid.uuid4().hex[:8]
        self.user = f"bench-{run}"
        self.noise = [f"bench-{run}-other-{k}" for k in range(options.noise_users)]
        self.filled = 0
        self.noise_filled = 0

    def fill(self, size: int) -> None:
        """Write memories until the user holds ``size`` (and the other users their share)."""
        noise = int(size * self.options.noise_share)
        self._write(self.user, _MAIN_SEED, self.filled, size - self.filled, spread=1)
        self._write("", _NOISE_SEED, self.noise_filled, noise - self.noise_filled, spread=len(self.noise))
        self.filled, self.noise_filled = size, noise
        if isinstance(self.mem.stores.records, Analyzable):
            self.mem.stores.records.analyze()  # fresh planner statistics, as after any bulk load

    def _write(self, user: str, seed: int, start: int, count: int, spread: int) -> None:
        if count <= 0:
            return
        total = count

        def embedded(n: int) -> None:
            self.progress(f"embed (cached after the first run) {count:,}", n, total)

        vectors = synthetic.embeddings(self.mem.embedder, seed, start, count, embedded)
        items = synthetic.memories(seed, start, count)
        stores = self.mem.stores
        for first in range(0, count, _WRITE_BATCH):
            batch = [
                self._item(user or self.noise[(start + i) % spread], items[i], vectors[i])
                for i in range(first, min(first + _WRITE_BATCH, count))
            ]
            for owner in sorted({b.user_id for b in batch}):
                with stores.records.transaction(owner):
                    for item in (b for b in batch if b.user_id == owner):
                        stores.records.put(item, index_text(item.text))
            self.progress(f"write {count:,} memories", len(batch), total)

    @staticmethod
    def _item(user: str, m: synthetic.SyntheticMemory, vector: Any) -> MemoryItem:
        return MemoryItem(
            user_id=user,
            text=m.text,
            kind=m.kind,
            category=m.category,
            importance=0.6,
            confidence=0.9,
            source=Source.EXPLICIT,
            created_at=m.at,
            updated_at=m.at,
            last_verified_at=m.at,
            valid_from=m.at if m.kind is Kind.EPISODIC else None,
            reason="synthetic benchmark memory",
            embedding=np.asarray(vector, dtype=np.float32).tolist(),
        )

    def measure(self, size: int) -> dict[str, float]:
        """Latencies and throughput at the current size."""
        questions = synthetic.questions(_QUESTION_SEED + size, self.options.searches + _WARMUP)
        for q in questions[:_WARMUP]:
            self.mem.search(q, user_id=self.user, now=_NOW)
        search = self._timed(
            "search", questions[_WARMUP:], lambda q: self.mem.search(q, user_id=self.user, now=_NOW)
        )
        context = self._timed(
            "context",
            questions[_WARMUP : _WARMUP + self.options.contexts],
            lambda q: self.mem.context(q, user_id=self.user, session_id="bench", now=_NOW),
        )
        messages = synthetic.messages(_MESSAGE_SEED * 1_000_003 + size, self.options.adds)
        add = self._timed(
            "add", messages, lambda m: self.mem.add(m, user_id=self.user, session_id="bench", at=_NOW)
        )
        return {
            "add_per_s": round(len(add) / sum(add), 2),
            "add_p95_ms": percentile(add, 95),
            "search_p50_ms": percentile(search, 50),
            "search_p95_ms": percentile(search, 95),
            "context_p95_ms": percentile(context, 95),
            "rss_mb": rss_mb(),
        }

    def _timed(self, what: str, inputs: list[str], call: Callable[[str], object]) -> list[float]:
        times = []
        for text in inputs:
            start = time.perf_counter()
            call(text)
            times.append(time.perf_counter() - start)
            self.progress(what, 1, len(inputs))
        return times

    def clean_up(self) -> None:
        """Forget every benchmark user (a server store is left as it was found)."""
        for user in [self.user, *self.noise]:
            self.mem.forget(user)


def run_scale(options: ScaleOptions, progress: Progress) -> dict[str, Any]:
    """Fill and measure at every size; returns ``{"store": ..., "sizes": {"1000": {...}, ...}}``."""
    results: dict[str, Any] = {"store": store_label(options), "sizes": {}}
    with _memory(options) as mem:
        bench = ScaleBench(mem, options, progress)
        try:
            for size in sorted(options.sizes):
                bench.fill(size)
                results["sizes"][str(size)] = bench.measure(size)
        finally:
            if options.store is not None:
                bench.clean_up()
    return results


def plot(results: dict[str, Any], path: Path) -> None:
    """Latency by size (log-log) as a PNG."""
    with optional("a plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    sizes = sorted(results["sizes"], key=int)
    xs = [int(s) for s in sizes]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (
        ("search_p50_ms", "search p50"),
        ("search_p95_ms", "search p95"),
        ("context_p95_ms", "context p95"),
        ("add_p95_ms", "add p95"),
    ):
        ax.plot(xs, [results["sizes"][s][key] for s in sizes], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memories in the user's scope")
    ax.set_ylabel("latency (ms)")
    ax.set_title(f"memlane bench scale — {results['store']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
