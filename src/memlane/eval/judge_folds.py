"""The learned judge scored on its own training split, out of fold.

The shipped models learnt from every message of the training split, so the judge scored on that split
with them reads clauses it was fitted on, and flatters itself. Here the training messages are dealt into
the folds cross-validation uses (:func:`memlane.write.judge.train.folds`); for each fold, the n-gram
classifier and the meaning head are fitted again on the other folds, with the shipped models' settings,
and the fold's messages are said through the real write path with those models. The rules are the
rules: what they were written against is not held out. This is the split to tune the rules and the
combination on; the test split stays held out::

    run = out_of_fold(corpus("train"))
    run.accuracy("tier")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memlane.write.judge import train
from memlane.write.judge.meaning import MeaningHead
from memlane.write.judge.model import Classifier
from memlane.write.judge.train_meaning import embed, passages
from memlane.write.judge.train_meaning import fit as fit_head

from .judge import Run, run

# the meaning head's penalty, as its cross-validation chose it for the shipped head (docs/judge.md)
HEAD_PENALTY = 0.03


def out_of_fold(messages: Sequence[dict[str, Any]], progress: Callable[[int], None] | None = None) -> Run:
    """Rules with models fitted without each message's fold, on every message of ``messages``."""
    data = train.clauses(messages)
    folds = train.folds(data)
    fold_of_message = dict(zip((c.message for c in data), folds, strict=True))
    plain, dated = passages(data)
    vectors = np.concatenate([embed(plain), embed(dated)])
    fold = np.tile(folds, 2)
    labels = np.tile(np.array([c.label for c in data], dtype=np.int64), 2)
    base, head = Classifier.bundled(), MeaningHead.bundled()
    if head is None:
        raise FileNotFoundError(f"{MeaningHead.path()} is missing: `make judge-model` rebuilds it")
    out, said = Run("model"), 0
    for k in range(train.FOLDS):
        kept = [c for c in data if fold_of_message[c.message] != k]
        classifier = train.train(
            kept, base.features, train.PENALTIES[0], base.temperature, base.threshold, base.keep
        )
        x = vectors[fold != k]
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
        w = fit_head(((x - mean) / scale).astype(np.float64), labels[fold != k], HEAD_PENALTY)
        refit = MeaningHead(
            mean.astype(np.float32),
            scale.astype(np.float32),
            w[:-1].astype(np.float32),
            w[-1].astype(np.float32),
            head.temperature,
            head.alpha,
            head.threshold,
            head.rescue,
            head.floor,
        )
        held = [m for m in messages if fold_of_message.get(m["id"], 0) == k]  # no candidate: any fold
        tick = (lambda n, done=said: progress(done + n)) if progress is not None else None
        out.clauses += run(held, learned=True, progress=tick, models=(classifier, refit)).clauses
        said += len(held)
    return out
