"""The embedder port: text in, L2-normalised float32 vectors out.

A backend implements :meth:`Embedder.embed_batch`; the base class derives the rest. Built-in
backends register in :data:`EMBEDDERS` the same way a third-party one would::

    EMBEDDERS["mine"] = lambda settings: MyEmbedder()   # then Settings(embedder="mine")
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from memlane.errors import ConfigurationError
from memlane.settings import Settings

Vector = npt.NDArray[np.float32]


class Embedder(ABC):
    """Turns texts into unit vectors; queries and passages may be embedded differently."""

    dim: int
    name: str

    @abstractmethod
    def embed_batch(self, texts: Sequence[str], *, query: bool) -> Vector:
        """Embed ``texts`` as one ``(len(texts), dim)`` float32 array of unit rows."""

    def embed(self, text: str, *, query: bool = False) -> Vector:
        """Embed one text as a ``(dim,)`` unit vector."""
        row: Vector = self.embed_batch([text], query=query)[0]
        return row

    def embed_query(self, text: str) -> Vector:
        """Embed a search query."""
        return self.embed(text, query=True)

    def for_background(self) -> Embedder:
        """The embedder for work off the request path (vectors of log turns): one that never makes a
        request wait for the model behind it. This one, unless a backend can load a model of its own.
        """
        return self

    def runs_on(self) -> str:
        """What computes the vectors, for start-up messages and ``/readyz``: the backend's name here."""
        return self.name

    def warm_up(self) -> None:
        """Run the model once, so the first real call does not pay for loading it."""
        self.embed_query("warm up")

    def embed_passages(self, texts: Sequence[str]) -> Vector:
        """Embed texts to be stored and searched."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.embed_batch(texts, query=False)


def _e5(settings: Settings) -> Embedder:
    from memlane.embed.e5 import E5Embedder

    return E5Embedder(
        threads=settings.embed_threads, instances=settings.embed_instances, engine=settings.embed_engine
    )


def _hashing(settings: Settings) -> Embedder:
    from memlane.embed.hashing import HashingEmbedder

    return HashingEmbedder()


EMBEDDERS: dict[str, Callable[[Settings], Embedder]] = {"e5": _e5, "hash": _hashing}


def create_embedder(settings: Settings) -> Embedder:
    """The embedder that ``settings.embedder`` names."""
    try:
        factory = EMBEDDERS[settings.embedder]
    except KeyError:
        known = ", ".join(sorted(EMBEDDERS))
        raise ConfigurationError(f"unknown embedder {settings.embedder!r}; known: {known}") from None
    return factory(settings)
