"""Training the ending head (:mod:`memlane.write.judge.ending`), deterministically.

It learns from the labelled clauses of ``eval/data/changes/clauses.jsonl`` (statements that say
something of the user's ended, and near ones that do not) and the later messages of the corpus's
``dev`` pairs (``replaces`` ends, ``keeps`` does not); the ``test`` pairs are never read. Each text
is embedded twice, as the write path embeds a fact and an episode (its day after it,
:func:`memlane.store.tokens.indexed`). The penalty is the one with the lowest five-fold log loss;
then the two thresholds (how sure the head must be, how near the memory it retires) are the pair
that retires the most old memories of the ``dev`` pairs said through the write path while leaving
:data:`KEEPS` of those that still hold standing, the stricter one on a tie; each pair is said with a
head fitted without its fold (the dev pairs' messages are training data: a head that learnt a pair
would vouch for thresholds too loose for messages it never saw).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

import numpy as np
import numpy.typing as npt

from memlane.domain import Kind, MemoryItem
from memlane.store.tokens import indexed
from memlane.write.extract.leaving import leaving

from . import train
from .ending import EndingHead
from .features import Features
from .model import int8_columns
from .train_meaning import DAY_ZERO, Dense, embed

Array = npt.NDArray[np.float64]

PENALTIES = (0.1, 0.03, 0.01)
GRAM_DIM = 1 << 12  # hashed n-gram buckets of the words the head reads beside the vector
GRAM_SCALES = (0.0, 12.0)  # how much a statement's words weigh against its vector (0: not read)
THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
NEARS = (0.78, 0.81, 0.84)
# the share of the dev pairs that leave the old memory standing which the rules alone get right (0.97),
# less what the head may cost: a memory retired wrongly is lost to every later context
KEEPS = 0.95
TIE = 0.005


# the labels of the judge corpus whose clauses say what holds or what happened, no change of what the
# user had (its training split only; events include friends' talk: "it was great to unplug")
_LASTING = ("preference", "constraint", "background", "profile", "event")
# …less those whose words may say a change: the corpus does not label changes, so these are left out
_MAY_END = re.compile(
    r"不再|戒|以前|曾经|没再|不.{0,8}了$|卖|退|辞|搬|换|分手|取消|停"
    r"|(?i:no\s+longer|any\s*more|quit|stopped|gave\s+up|used\s+to|sold|moved|switched|cancel|ditched|dropped"
    r"|left|broke\s+up|resigned|retired|over\b|done\s+with|closed|died|passed)"
)


def lasting(messages: Sequence[dict[str, Any]]) -> list[str]:
    """The judge corpus's clauses of what lasts (likes, rules, background, profile facts, many of them
    said with a "not": 我不喝酒, "no calls on saturdays") and of what happened, which end nothing."""
    return [
        clause["text"]
        for message in messages
        for clause in message["clauses"]
        if clause["label"] in _LASTING and not leaving(clause["text"]) and not _MAY_END.search(clause["text"])
    ]


def examples(
    clauses: Sequence[dict[str, Any]], pairs: Sequence[dict[str, Any]], holds: Sequence[str] = ()
) -> tuple[list[str], list[int]]:
    """The texts the head learns from and whether each ends something (1) or not (0): the labelled
    clauses, the later messages of the dev pairs, and ``holds`` (clauses that end nothing)."""
    dev = [p for p in pairs if p["split"] == "dev"]
    texts = [c["text"] for c in clauses] + [p["new"] for p in dev] + list(holds)
    labels = [int(c["label"] == "ends") for c in clauses] + [int(p["label"] == "replaces") for p in dev]
    return texts, labels + [0] * len(holds)


def _dated(texts: Sequence[str]) -> list[str]:
    rng = np.random.default_rng(train.SEED)
    days = rng.integers(0, 4 * 365, size=len(texts))
    return [
        indexed(MemoryItem("u", t, Kind.EPISODIC, valid_from=DAY_ZERO + timedelta(days=int(d))))
        for t, d in zip(texts, days, strict=True)
    ]


def fit(x: Array, y: npt.NDArray[np.int64], penalty: float) -> tuple[Array, float]:
    """Weights and bias of a binary logistic regression (the bias not penalised), by L-BFGS from zero."""
    n, dim = x.shape
    rows = Dense(x)

    def loss(flat: Array) -> tuple[float, Array]:
        w, b = flat[:dim], flat[dim]
        z = rows.times(w) + b
        p = 1.0 / (1.0 + np.exp(-z))
        g = (p - y) / n
        value = float(np.logaddexp(0.0, z).sum() - (y * z).sum()) / n + 0.5 * penalty * float(w @ w)
        return value, np.concatenate([rows.transposed_times(g, dim) + penalty * w, [g.sum()]])

    flat = train._lbfgs(loss, np.zeros(dim + 1), 300)
    return flat[:dim], float(flat[dim])


def grams(texts: Sequence[str]) -> Array:
    """Each text's hashed n-grams as a binary row of unit length (as :meth:`EndingHead.ends` reads them)."""
    features = Features(dim=GRAM_DIM)
    rows = np.zeros((len(texts), GRAM_DIM))
    for i, text in enumerate(texts):
        found = features.indices(text)
        rows[i, found] = 1.0 / max(1.0, float(np.sqrt(found.size)))
    return rows


def _log_loss(x: Array, y: npt.NDArray[np.int64], fold: npt.NDArray[np.int64], penalty: float) -> float:
    total = 0.0
    for k in range(train.FOLDS):
        w, b = fit(x[fold != k], y[fold != k], penalty)
        p = np.clip(1.0 / (1.0 + np.exp(-(x[fold == k] @ w + b))), 1e-6, 1 - 1e-6)
        total -= float((y[fold == k] * np.log(p) + (1 - y[fold == k]) * np.log(1 - p)).sum())
    return total / y.size


def _as_shipped(w: Array) -> npt.NDArray[np.float32]:
    """``w`` as the shipped file holds it: int8 with one step."""
    quantised, step = int8_columns(w.reshape(-1, 1).astype(np.float32))
    shipped: npt.NDArray[np.float32] = (quantised[:, 0].astype(np.float32) * step[0]).astype(np.float32)
    return shipped


Scorer = Callable[[Sequence[tuple[EndingHead, Sequence[dict[str, Any]]]]], tuple[float, float]]
"""Says each group of dev pairs through the write path with its head; gives the shares decided right of
those that replace the old memory and of those that keep it."""


def build(
    clauses: Sequence[dict[str, Any]],
    pairs: Sequence[dict[str, Any]],
    holds: Sequence[str],
    score: Scorer,
    progress: Callable[[str], None] | None = None,
) -> tuple[EndingHead, dict[str, float]]:
    """The head, and what was chosen. The thresholds are chosen out of fold: each dev pair is said
    with a head fitted without its own fold, so a pair the head learnt from does not vouch for it."""
    texts, labels = examples(clauses, pairs, holds)
    vectors = np.concatenate([embed(texts, progress), embed(_dated(texts), progress)]).astype(np.float64)
    y = np.array(labels + labels, dtype=np.int64)
    fold = np.tile(np.arange(len(texts)) % train.FOLDS, 2)  # a text and its dated form in one fold
    mean = vectors.mean(axis=0)
    scale = vectors.std(axis=0) + 1e-6
    x = (vectors - mean) / scale
    words = grams(texts)
    words = np.concatenate([words, words])  # a text and its dated form say the same words
    losses = {
        (penalty, g): _log_loss(np.hstack([x, g * words]) if g else x, y, fold, penalty)
        for penalty in PENALTIES
        for g in GRAM_SCALES
    }
    penalty, gram_scale = min(losses, key=lambda k: (losses[k], -k[0], k[1]))
    rows = np.hstack([x, gram_scale * words]) if gram_scale else x
    dim = x.shape[1]

    def head_of(w: Array, b: float) -> EndingHead:
        grams_w = _as_shipped(w[dim:]) if gram_scale else np.zeros(0, dtype=np.float32)
        return EndingHead(
            mean.astype(np.float32),
            scale.astype(np.float32),
            _as_shipped(w[:dim]),
            b,
            1.01,
            1.0,
            grams_w,
            gram_scale,
        )

    head = head_of(*fit(rows, y, penalty))
    dev = [p for p in pairs if p["split"] == "dev"]
    first = len(clauses)  # where the dev pairs' texts start among the examples (:func:`examples`)
    groups = [
        (
            head_of(*fit(rows[fold != k], y[fold != k], penalty)),
            [p for j, p in enumerate(dev) if (first + j) % train.FOLDS == k],
        )
        for k in range(train.FOLDS)
    ]
    best: tuple[float, float, float] | None = None
    for threshold in sorted(THRESHOLDS, reverse=True):  # the stricter wins a tie
        for near in sorted(NEARS, reverse=True):
            replaces, keeps = score(
                [(replace(h, threshold=threshold, near=near), chosen) for h, chosen in groups]
            )
            if progress is not None:
                progress(f"threshold {threshold} near {near}: replaces {replaces:.3f} keeps {keeps:.3f}")
            if keeps >= KEEPS and (best is None or replaces > best[0] + TIE):
                best = (replaces, threshold, near)
    if best is None:
        raise ValueError(f"no threshold keeps {KEEPS} of the dev pairs' old memories standing")
    chosen = replace(head, threshold=best[1], near=best[2])
    return chosen, {
        "penalty": penalty,
        "gram_scale": gram_scale,
        "log_loss": losses[(penalty, gram_scale)],
        "threshold": best[1],
        "near": best[2],
        "replaces_out_of_fold": best[0],
    }
