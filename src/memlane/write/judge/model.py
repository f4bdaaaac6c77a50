"""The learned judge: a multinomial logistic regression over hashed n-grams, shipped in the package.

:class:`Classifier` predicts one of the corpus's labels (``eval/data/judge``) for a clause, with
calibrated class probabilities (a temperature chosen by cross-validation), and derives the scores
the judge writes. A lasting fact about the user spreads its probability over several lasting labels
("my office is in Dallas" is 0.37 background, 0.63 long-term), so where the long-term tier holds most
of the probability the prediction is that tier's most likely label; otherwise it is the most likely
label (a reason to drop a clause is one label: a mood, a request). Confidence is the label's
probability, :attr:`Prediction.share` its tier's; importance and stability are the expected value of
each label's policy under the distribution. The weights (``model.npz``, int8 with one scale per
class) are read on first use and shared by every judge of the process::

    >>> p = Classifier.bundled().predict("If I won the lottery I'd buy a castle in Scotland")
    >>> p.label, p.tier
    ('hypothetical', 'discard')

``memlane eval judge --train`` (``make judge-model``) rebuilds the file from the training split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .features import Features
from .shipped import shipped, shipped_path

LABELS = (
    "mood",
    "smalltalk",
    "request",
    "hypothetical",
    "guess",
    "other",
    "forget",
    "sensitive",
    "context",
    "condition",
    "profile",
    "preference",
    "constraint",
    "background",
    "event",
    "plan",
)
"""The corpus's labels, in a fixed order (the model's columns)."""

TIERS = dict.fromkeys(LABELS[:8], "discard") | {"context": "session", "condition": "session"}
TIERS |= dict.fromkeys(LABELS[10:], "long-term")

# what a clause of each label is worth keeping, and how long it holds (the rule policies' values)
IMPORTANCE = {
    "mood": 0.2,
    "smalltalk": 0.05,
    "request": 0.1,
    "hypothetical": 0.1,
    "guess": 0.3,
    "other": 0.1,
    "forget": 0.0,
    "sensitive": 0.0,
    "context": 0.3,
    "condition": 0.5,
    "profile": 0.85,
    "preference": 0.7,
    "constraint": 0.8,
    "background": 0.7,
    "event": 0.7,
    "plan": 0.7,
}
STABILITY = dict.fromkeys(LABELS[:8], 0.0) | {"mood": 0.1, "guess": 0.2, "context": 0.1}
STABILITY |= {"condition": 0.2, "profile": 0.85, "preference": 0.7, "constraint": 0.8, "background": 0.7}
STABILITY |= {"event": 0.5, "plan": 0.3}
TIER_OF = np.array([("discard", "session", "long-term").index(TIERS[label]) for label in LABELS])
"""The tier of each label as 0 (discard), 1 (session) or 2 (long-term), in the order of :data:`LABELS`."""
_LONG_TERM = 2


def tier_shares(p: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The probability of each tier (discard, session, long-term) under label probabilities ``p``."""
    return np.bincount(TIER_OF, weights=np.asarray(p), minlength=3).astype(np.float64, copy=False)


@dataclass(frozen=True)
class Prediction:
    """The model's view of one clause: its label, how sure it is, and the scores that follow."""

    label: str
    confidence: float  # the calibrated probability of ``label``
    importance: float
    stability: float
    probabilities: tuple[float, ...]  # one per :data:`LABELS`

    @property
    def tier(self) -> str:
        """``discard``, ``session`` or ``long-term``."""
        return TIERS[self.label]

    @property
    def share(self) -> float:
        """The probability of :attr:`tier`: the sum over its labels."""
        return round(float(tier_shares(self.probabilities)[TIER_OF[LABELS.index(self.label)]]), 3)

    @classmethod
    def of(cls, p: npt.NDArray[np.float64], importance: float = 0.0, stability: float = 0.0) -> Prediction:
        """The prediction of probabilities ``p`` (one per :data:`LABELS`): the most probable lasting
        label when the long-term tier holds most of the probability, else the most probable label."""
        lasting = tier_shares(p).argmax() == _LONG_TERM
        best = int(np.where(TIER_OF == _LONG_TERM, p, -1.0).argmax() if lasting else p.argmax())
        return cls(LABELS[best], round(float(p[best]), 3), importance, stability, tuple(float(v) for v in p))


def int8_columns(weights: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """``weights`` as int8 with one step per column (per label), as the shipped files hold them."""
    top = np.abs(weights).max(axis=0)
    step = np.where(top > 0, top / 127.0, 1.0).astype(np.float32)
    return np.round(weights / step).astype(np.int8), step


class Classifier:
    """Hashed-n-gram logistic regression: ``weights`` is (dim, labels), ``bias`` (labels)."""

    def __init__(
        self,
        features: Features,
        weights: npt.NDArray[np.float32],
        bias: npt.NDArray[np.float32],
        temperature: float,
        threshold: float,
        keep: float,
    ) -> None:
        self.features = features
        self.weights = weights
        self.bias = bias
        self.temperature = temperature
        self.threshold = threshold
        """How sure the model must be to overrule the rules."""
        self.keep = keep
        """How sure it must be to keep long-term what the rules would not keep."""
        self._importance = np.array([IMPORTANCE[label] for label in LABELS])
        self._stability = np.array([STABILITY[label] for label in LABELS])

    @staticmethod
    def path() -> Path:
        """Where the shipped weights are."""
        return shipped_path("model.npz")

    @classmethod
    def bundled(cls) -> Classifier:
        """The shipped model, read once per process on first use."""
        model = shipped("model.npz", cls.load)
        if model is None:
            raise FileNotFoundError(f"{cls.path()} is missing: `make judge-model` rebuilds it")
        return model

    @classmethod
    def load(cls, path: Path) -> Classifier:
        """A model saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            dim, zh_max, word_max, char_min, char_max = (int(v) for v in data["config"])
            if tuple(str(v) for v in data["labels"]) != LABELS:
                raise ValueError(f"{path}: the model's labels are not memlane's")
            weights = data["weights"].astype(np.float32) * data["scale"].astype(np.float32)
            features = Features(dim, zh_max, word_max, char_min, char_max)
            bias = data["bias"].astype(np.float32)
            t, threshold, keep = (float(data[k]) for k in ("temperature", "threshold", "keep"))
            return cls(features, weights, bias, t, threshold, keep)

    def save(self, path: Path) -> None:
        """Write the weights as int8 with one scale per label (a few hundred KB)."""
        weights, scale = int8_columns(self.weights)
        f = self.features
        with path.open("wb") as out:
            np.savez_compressed(
                out,
                weights=weights,
                scale=scale,
                bias=self.bias.astype(np.float32),
                temperature=np.float64(self.temperature),
                threshold=np.float64(self.threshold),
                keep=np.float64(self.keep),
                config=np.array([f.dim, f.zh_max, f.word_max, f.char_min, f.char_max], dtype=np.int64),
                labels=np.array(LABELS),
            )

    def scores(self, text: str, cues: Sequence[str] = ()) -> npt.NDArray[np.float64]:
        """The raw class scores of one clause (before the temperature)."""
        idx = self.features.indices(text, cues)
        row: npt.NDArray[np.float64] = self.weights[idx].sum(axis=0, dtype=np.float64)
        row /= np.sqrt(max(1, idx.size))
        row += self.bias
        return row

    def predict(self, text: str, cues: Sequence[str] = ()) -> Prediction:
        """The label of one clause, with its calibrated probability and scores; ``cues`` are what
        the rules saw in it (:func:`~memlane.write.judge.features.rule_cues`)."""
        z = self.scores(text, cues) / self.temperature
        p = np.exp(z - z.max())
        p /= p.sum()
        return Prediction.of(p, round(float(p @ self._importance), 3), round(float(p @ self._stability), 3))
