"""What a benchmark ran on: the numbers of one machine say little without it. The embedder's kernel
matters most: an int8 query embedding takes about twice as long with AVX2 as with AVX-512 VNNI.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from memlane.embed.e5 import E5Embedder, engine
from memlane.embed.engine import kernel


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), or what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The machine and build a benchmark measured."""
    return {
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "embedder": engine(),
        "kernel": kernel(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "memlane": importlib.metadata.version("memlane"),
    }


# a short question of the kind a chat app searches with, in both languages
YARDSTICK = "What did I tell you about my sister's wedding in Hangzhou? 她是哪天结婚的？"


def query_ms(repeats: int = 50) -> float:
    """How long this machine takes now to embed one short query on one thread: the median of
    ``repeats``, in ms.

    A yardstick to print beside a benchmark's numbers, not a benchmark: on a shared host the speed
    of the same build moves, so two runs' latencies compare only next to their yardsticks. Before
    72d4113 it timed two OpenMP threads, not one (:func:`machine` loaded the engine first, see
    ``memlane.embed.engine.thread_setter``), which moved with whatever else ran: 4.5 to 17 ms across
    sessions. On one thread the Zen 4 machine gave 9.5 to 10.3 ms all session.
    """
    embedder = E5Embedder(threads=1)
    embedder.embed_query(YARDSTICK)  # the first call loads the model
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        embedder.embed_query(YARDSTICK)
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2)


def describe(info: dict[str, Any]) -> str:
    """One line for a terminal: "AMD EPYC, 2 CPUs, e5 on memlane's engine (avx2 kernel)"."""
    kernel_name = f" ({info['kernel']} kernel)" if info.get("kernel") else ""
    return f"{info['cpu']}, {info['cpu_count']} CPUs, e5 on {info['embedder']}'s engine{kernel_name}"
