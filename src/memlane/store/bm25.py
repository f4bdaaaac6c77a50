"""BM25 over one user's documents, as SQLite's FTS5 computes it, with the statistics of that user alone.

Both stores keep, per user, the number of documents, their total length in tokens and, for each word,
how many of the user's documents hold it (triggers maintain them: ``keyword_stats`` and
``keyword_terms``). Scores computed from them depend on the user's own memories only: another user's
writes can neither move them nor be detected through them, and a word common in other scopes does not
lose its weight in this one. The read path's ranking is tuned to this scale (:mod:`memlane.read.search`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from memlane.store.codec import Row
from memlane.vocabulary import ScoredId

# FTS5's BM25 constants, and its floor for the IDF of a term in more than half the documents
K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6


@dataclass(frozen=True)
class KeywordStats:
    """One user's keyword-index statistics."""

    docs: int  # documents in the user's scope
    tokens: int  # tokens over all of them
    df: Sequence[int]  # documents containing each query term

    @property
    def avgdl(self) -> float:
        """The mean document length (1 for an empty index)."""
        return self.tokens / max(self.docs, 1) if self.tokens else 1.0


def idf(df: int, docs: int) -> float:
    """FTS5's IDF of a term held by ``df`` of ``docs`` documents."""
    n_docs = max(docs, 1)
    return max(math.log((n_docs - df + 0.5) / (df + 0.5)), _MIN_IDF)


def score_keywords(
    terms: Sequence[str], words: Sequence[str], stats: KeywordStats, rows: Sequence[Row], limit: int
) -> list[ScoredId]:
    """BM25-score candidate rows (``id`` and ``tokens``) for the matched ``terms``, best first, as FTS5
    would score them with these statistics; ``words`` (every query word) are reported as matched
    terms wherever a row holds them.

    >>> stats = KeywordStats(docs=10, tokens=40, df=[1])
    >>> [(s.id, round(s.score, 3), s.terms) for s in score_keywords(["tea"], ["tea"], stats,
    ...     [{"id": "a", "tokens": "green tea"}, {"id": "b", "tokens": "coffee"}], 10)]
    [('a', 2.32, ['tea']), ('b', 0.0, [])]
    """
    # per query, not per row: each term's IDF (with BM25's k1 + 1) and the length norm's two parts
    weights = [(t, idf(df, stats.docs) * (K1 + 1)) for t, df in zip(terms, stats.df, strict=True)]
    fixed, per_token = K1 * (1 - B), K1 * B / stats.avgdl
    scored = []
    for row in rows:
        tokens = row["tokens"].split()
        have = set(tokens)
        norm = fixed + per_token * len(tokens)
        score = 0.0
        for term, weight in weights:
            if term in have:
                tf = tokens.count(term)
                score += weight * tf / (tf + norm)
        scored.append(ScoredId(row["id"], score, [t for t in words if t in have]))
    scored.sort(key=lambda s: s.score, reverse=True)
    return scored[:limit]
