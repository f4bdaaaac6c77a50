"""The learned judge's second look: a regression over the clause's e5 vector, read before it is kept.

The rules and the n-gram model (:mod:`memlane.write.judge.model`) read a clause's words: a mood or a
thanks in words they take for a fact ("I'm so grateful for all of it", "我对你们很满意") is kept like
one. The clause's e5 vector carries its meaning across phrasings and languages, but embedding every
clause would double the cost of ``add``. The write path embeds what it keeps anyway (the memory's
own vector, :mod:`memlane.write.keeper`), so :class:`MeaningHead` reads those vectors: before a
clause is kept long-term, its class scores (mixed with the n-gram model's by the share training
chose) are read, and a clause they put in the session or the bin (a mood, a request, a condition of
this task) is not kept. The other way round, a clause the rules and the n-gram model drop as about
nothing in particular ("running a 4-person startup in sf": no rule knows that phrasing) is embedded
too, and kept when the vector's model is sure it is lasting::

    head = MeaningHead.bundled()
    p = head.mix(vector, lambda: ngram_prediction)  # a Prediction over the corpus's labels
    head.moves(p)  # a Prediction of the session or the bin, or None: keep it
    head.keeps(p)  # for a dropped clause: a Prediction of the long-term tier, or None: drop it

The weights (384 x 16, with the standardisation the regression was fitted on) ship in
``meaning.npz`` beside ``model.npz``; ``memlane eval judge --train`` rebuilds both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .model import IMPORTANCE, LABELS, STABILITY, TIER_OF, Prediction, int8_columns, tier_shares
from .shipped import shipped, shipped_path

Array = npt.NDArray[np.float64]

_IMPORTANCE = np.array([IMPORTANCE[label] for label in LABELS])
_STABILITY = np.array([STABILITY[label] for label in LABELS])


@dataclass(frozen=True)
class MeaningHead:
    """Multinomial logistic regression over a standardised e5 passage vector.

    ``mean`` and ``scale`` standardise the vector (e5's vectors sit close together, so raw ones
    leave the penalty nothing to work with); ``weights`` is (dim, labels). ``alpha`` is the share of
    this model in the mix with the n-gram model's probabilities, ``threshold`` how much of the
    mixed probability the session or the bin must hold for a clause not to be kept, ``rescue`` how
    much the long-term tier must hold for a clause dropped as about nothing to be kept (above 1:
    never), and ``floor`` how much of the n-gram model's probability that tier must hold for such a
    clause to be embedded and read at all (most dropped clauses are chatter: embedding each would
    slow ``add`` for none kept).
    """

    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    weights: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]
    temperature: float
    alpha: float
    threshold: float
    rescue: float
    floor: float

    @staticmethod
    def path() -> Path:
        """Where the shipped weights are."""
        return shipped_path("meaning.npz")

    @classmethod
    def bundled(cls) -> MeaningHead | None:
        """The shipped head, read once per process on first use (None when the file is missing)."""
        return shipped("meaning.npz", cls.load)

    @classmethod
    def load(cls, path: Path) -> MeaningHead:
        """A head saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            if tuple(str(v) for v in data["labels"]) != LABELS:
                raise ValueError(f"{path}: the head's labels are not memlane's")
            weights = data["weights"].astype(np.float32) * data["step"].astype(np.float32)
            t, alpha, threshold, rescue, floor = (
                float(data[k]) for k in ("temperature", "alpha", "threshold", "rescue", "floor")
            )
            return cls(
                data["mean"].astype(np.float32),
                data["scale"].astype(np.float32),
                weights,
                data["bias"].astype(np.float32),
                t,
                alpha,
                threshold,
                rescue,
                floor,
            )

    def save(self, path: Path) -> None:
        """Write the weights as int8 with one step per label (about 10 KB)."""
        weights, step = int8_columns(self.weights)
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                mean=self.mean.astype(np.float32),
                scale=self.scale.astype(np.float32),
                weights=weights,
                step=step,
                bias=self.bias.astype(np.float32),
                temperature=np.float64(self.temperature),
                alpha=np.float64(self.alpha),
                threshold=np.float64(self.threshold),
                rescue=np.float64(self.rescue),
                floor=np.float64(self.floor),
                labels=np.array(LABELS),
            )

    @property
    def dim(self) -> int:
        """The length of the vectors it reads."""
        return int(self.mean.size)

    def probabilities(self, vector: npt.ArrayLike) -> Array:
        """This model's calibrated probabilities for one passage vector."""
        x = (np.asarray(vector, dtype=np.float32) - self.mean) / self.scale
        z = (x @ self.weights + self.bias).astype(np.float64) / self.temperature
        p: Array = np.exp(z - z.max())
        p /= p.sum()
        return p

    def mix(self, vector: npt.ArrayLike, words: Callable[[], Prediction]) -> Prediction:
        """This model's view of a clause mixed with the n-gram model's (``words``, asked only when
        the mix has a share for it)."""
        p = self.probabilities(vector)
        if self.alpha < 1:
            p = self.alpha * p + (1 - self.alpha) * np.asarray(words().probabilities)
        return Prediction.of(p, round(float(p @ _IMPORTANCE), 3), round(float(p @ _STABILITY), 3))

    def moves(self, mixed: Prediction) -> Prediction | None:
        """Where a clause about to be kept long-term belongs instead, as a prediction of that tier
        (its most likely label there, sure by the tier's whole share); None to keep it."""
        shares = tier_shares(np.asarray(mixed.probabilities))
        tier = int(shares[:2].argmax())
        return None if shares[tier] < self.threshold else _within(mixed, tier)

    def keeps(self, mixed: Prediction) -> Prediction | None:
        """For a clause dropped as about nothing in particular: a prediction of the long-term tier
        (its most likely lasting label, sure by the tier's whole share) when that tier holds at least
        ``rescue`` of the mixed probability; None to leave it dropped."""
        shares = tier_shares(np.asarray(mixed.probabilities))
        return None if shares[2] < self.rescue else _within(mixed, 2)


def _within(mixed: Prediction, tier: int) -> Prediction:
    """``mixed`` as a prediction of one tier: its most likely label there, sure by the tier's share."""
    p = np.asarray(mixed.probabilities)
    best = int(np.where(tier == TIER_OF, p, 0.0).argmax())
    share = round(float(tier_shares(p)[tier]), 3)
    return Prediction(LABELS[best], share, mixed.importance, mixed.stability, mixed.probabilities)
