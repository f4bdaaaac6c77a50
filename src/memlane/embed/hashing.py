"""A deterministic embedder for tests and benchmarks of the plumbing: hashed character n-grams.

It is a real :class:`~memlane.embed.Embedder` (not a mock): texts that share n-grams are close, so
search and deduplication behave sensibly, only without any understanding of meaning.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from memlane.embed import Embedder, Vector
from memlane.text.lang import normalize


class HashingEmbedder(Embedder):
    """Character 1- to 3-grams hashed into ``dim`` buckets, L2-normalised."""

    name = "hash"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _one(self, text: str) -> Vector:
        vec = np.zeros(self.dim, dtype=np.float32)
        norm = normalize(text) or "-"
        for n in (1, 2, 3):
            for i in range(max(1, len(norm) - n + 1)):
                gram = norm[i : i + n].encode()
                bucket = int.from_bytes(hashlib.blake2b(gram, digest_size=4).digest(), "little")
                vec[bucket % self.dim] += 1.0 if n > 1 else 0.3
        length = float(np.linalg.norm(vec))
        return vec / length if length else vec

    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._one(t) for t in texts])
