"""Whether a statement says that something of the user's has ended, read from its e5 vector.

The rules retire what a change of mind names in words they know ("不喝美式了", "switched from
duolingo", :mod:`memlane.write.changes`); people say it in many more ("let the membership lapse",
"尤克里里吃灰好久了", "卡罗拉出掉了"). :class:`EndingHead` reads the vector the write path already
computed for a memory it keeps (:mod:`memlane.write.keeper`) and gives the probability that the
statement says something the user had, did or liked no longer holds: a habit stopped, a thing sold,
a membership not renewed, a plan dropped, a problem gone. A statement it is sure of retires the
nearest current memory of the user's that could change, when the two are close enough in meaning to
be about the same thing (:func:`memlane.write.ended.ended_by_meaning`)::

    head = EndingHead.bundled()
    head.ends(vector)  # the probability that the statement ends something
    head.threshold, head.near  # how sure it must be, and how close the memory it retires

The weights (384 floats as int8, with the standardisation the regression was fitted on) ship in
``ending.npz``; ``memlane eval changes --train`` rebuilds it from the corpus in
``memlane/eval/data/changes`` (docs/judge.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .features import Features
from .model import int8_columns
from .shipped import shipped, shipped_path


@dataclass(frozen=True)
class EndingHead:
    """Binary logistic regression over a standardised e5 passage vector.

    Beside the vector it reads the statement's words: hashed n-grams (:class:`Features` with
    ``gram_dim`` buckets), a binary row of unit length times ``gram_scale``, with weights ``grams``
    (empty when training chose the vector alone). ``threshold`` is how sure the head must be that a
    statement ends something before it retires a memory, and ``near`` the cosine similarity that
    memory must have with the statement.
    """

    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    weights: npt.NDArray[np.float32]
    bias: float
    threshold: float
    near: float
    grams: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    gram_scale: float = 0.0

    @staticmethod
    def path() -> Path:
        """Where the shipped weights are."""
        return shipped_path("ending.npz")

    @classmethod
    def bundled(cls) -> EndingHead | None:
        """The shipped head, read once per process on first use (None when the file is missing)."""
        return shipped("ending.npz", cls.load)

    @classmethod
    def load(cls, path: Path) -> EndingHead:
        """A head saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            weights = data["weights"].astype(np.float32) * data["step"].astype(np.float32)
            grams = (  # a head of the vector alone has no words' weights
                data["grams"].astype(np.float32) * data["gram_step"].astype(np.float32)
                if "grams" in data.files
                else np.zeros((0, 1), dtype=np.float32)
            )
            return cls(
                data["mean"].astype(np.float32),
                data["scale"].astype(np.float32),
                weights[:, 0],
                float(data["bias"]),
                float(data["threshold"]),
                float(data["near"]),
                grams[:, 0],
                float(data["gram_scale"]) if "gram_scale" in data.files else 0.0,
            )

    def save(self, path: Path) -> None:
        """Write the weights as int8 with one step each for the vector's and the words' (a few KB)."""
        weights, step = int8_columns(self.weights.reshape(-1, 1).astype(np.float32))
        grams, gram_step = (
            int8_columns(self.grams.reshape(-1, 1).astype(np.float32))
            if self.grams.size
            else (np.zeros((0, 1), dtype=np.int8), np.ones(1, dtype=np.float32))
        )
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                mean=self.mean.astype(np.float32),
                scale=self.scale.astype(np.float32),
                weights=weights,
                step=step,
                bias=np.float64(self.bias),
                threshold=np.float64(self.threshold),
                near=np.float64(self.near),
                grams=grams,
                gram_step=gram_step,
                gram_scale=np.float64(self.gram_scale),
            )

    def ends(self, vector: npt.ArrayLike, text: str) -> float:
        """The probability that ``text``, whose e5 vector is ``vector``, says something of the user's
        has ended."""
        x = (np.asarray(vector, dtype=np.float32) - self.mean) / self.scale
        z = float(x @ self.weights) + self.bias
        if self.grams.size:
            found = Features(dim=self.grams.size).indices(text)
            z += self.gram_scale * float(self.grams[found].sum()) / max(1.0, float(np.sqrt(found.size)))
        return float(1.0 / (1.0 + np.exp(-z)))
