"""Prometheus metrics: request latency by route, queue depth and lag, judge decisions, memories by kind,
log turns waiting for their vectors, and the LLM stages' calls, tokens, fallbacks and time.

Each app has its own registry (several apps in one process, as in tests, never share counters).
Queue and store figures are read when Prometheus scrapes, not kept up to date on every write.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from memlane.errors import MemlaneError
from memlane.service.queue import QueueStats

log = logging.getLogger("memlane.service")

_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _Snapshot(Collector):
    """Gauges computed at scrape time; a backend that is down yields no sample, not an error."""

    def __init__(
        self,
        queue_stats: Callable[[], QueueStats],
        memory_counts: Callable[[], dict[str, int]],
        llm_usage: Callable[[], dict[str, dict[str, float]]],
        vectors_queued: Callable[[], int],
    ) -> None:
        self._queue_stats = queue_stats
        self._vectors_queued = vectors_queued
        self._memory_counts = memory_counts
        self._llm_usage = llm_usage
        self._counts: tuple[float, dict[str, int]] = (0.0, {})

    def collect(self) -> Iterator[Metric]:
        yield from self._llm()
        try:
            stats = self._queue_stats()
        except MemlaneError as exc:
            log.warning("queue stats unavailable: %s", exc)
        else:
            yield GaugeMetricFamily("memlane_queue_depth", "jobs queued or running", value=stats.depth)
            yield GaugeMetricFamily("memlane_queue_failed", "jobs parked after failing", value=stats.failed)
            yield GaugeMetricFamily(
                "memlane_queue_lag_seconds",
                "age of the oldest unfinished job",
                value=stats.oldest_age_seconds,
            )
        yield GaugeMetricFamily(
            "memlane_vectors_queued",
            "log turns this process has stored but not yet embedded",
            value=self._vectors_queued(),
        )
        kinds = GaugeMetricFamily("memlane_memories", "active memories by kind", labels=["kind"])
        for kind, n in sorted(self._cached_counts().items()):
            kinds.add_metric([kind], n)
        yield kinds

    def _llm(self) -> Iterator[Metric]:
        usage = self._llm_usage()
        families = {
            "calls": CounterMetricFamily("memlane_llm_calls", "LLM requests by stage", labels=["stage"]),
            "failures": CounterMetricFamily(
                "memlane_llm_failures", "LLM results that fell back to the rules", labels=["stage"]
            ),
            "prompt_tokens": CounterMetricFamily(
                "memlane_llm_prompt_tokens", "prompt tokens", labels=["stage"]
            ),
            "completion_tokens": CounterMetricFamily(
                "memlane_llm_completion_tokens", "completion tokens", labels=["stage"]
            ),
            "latency": CounterMetricFamily(
                "memlane_llm_seconds", "time waiting on the LLM", labels=["stage"]
            ),
        }
        for stage, counters in usage.items():
            for key, family in families.items():
                family.add_metric([stage], counters.get(key, 0.0))
        yield from families.values()

    def _cached_counts(self) -> dict[str, int]:
        # counting every memory is a table scan: once a minute is plenty for a dashboard
        at, counts = self._counts
        if time.monotonic() - at > 60 or not counts:
            try:
                self._counts = (time.monotonic(), self._memory_counts())
            except MemlaneError as exc:
                log.warning("memory counts unavailable: %s", exc)
        return self._counts[1]


class Metrics:
    """The app's registry and the instruments its routes and workers update."""

    def __init__(
        self,
        queue_stats: Callable[[], QueueStats],
        memory_counts: Callable[[], dict[str, int]],
        llm_usage: Callable[[], dict[str, dict[str, float]]] = dict,
        vectors_queued: Callable[[], int] = int,
    ) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "memlane_request_seconds",
            "request latency by route",
            ["method", "route", "status"],
            registry=self.registry,
            buckets=_BUCKETS,
        )
        self.decisions = Counter(
            "memlane_judge_decisions", "judge decisions by action", ["action"], registry=self.registry
        )
        self.jobs = Counter("memlane_jobs", "jobs finished by outcome", ["outcome"], registry=self.registry)
        self.registry.register(_Snapshot(queue_stats, memory_counts, llm_usage, vectors_queued))

    def count_decisions(self, actions: list[str]) -> None:
        """Count the judge's decisions of one write."""
        for action in actions:
            self.decisions.labels(action=action).inc()
