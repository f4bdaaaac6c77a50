"""The two searches of the PostgreSQL store: keywords through the GIN index on the segmented tokens,
scored with BM25 as SQLite's FTS5 scores them, and vectors through pgvector's HNSW index.

Keyword search first narrows in SQL (the user's scope token ANDed with any query term, so the GIN
index returns only this user's matches, filtered and pre-ranked by ``ts_rank``), then scores the
leading candidates with BM25 over the user's own statistics. FTS5's BM25 is the scale the read path's
ranking is tuned to (:mod:`memlane.read.search`); ``ts_rank`` values are an order of magnitude smaller.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memlane.store import MemoryQuery, ScoredId, Vector
from memlane.store.codec import Row, scope_token
from memlane.store.sql import POSTGRES, where

# FTS5's BM25 constants, and its floor for the IDF of a term in more than half the documents
K1 = 1.2
B = 0.75
_MIN_IDF = 1e-6
# rows pre-ranked by ts_rank that BM25 then re-scores: enough that the BM25 top ``limit`` is among them
_PRE_RANK = 4
_MIN_PRE_RANK = 200

_SAFE_TERM = re.compile(r"[^\w]+")

# the planner's estimate of how many rows hold each of the most common keyword-index terms
ESTIMATE_SQL = """
    SELECT e.term, e.freq * c.reltuples AS docs
    FROM pg_stats s
    CROSS JOIN unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e(term, freq)
    JOIN pg_class c ON c.oid = 'memories'::regclass
    WHERE s.schemaname = current_schema() AND s.tablename = 'memories' AND s.attname = 'tsv'
      AND e.term IS NOT NULL
"""


@dataclass(frozen=True)
class KeywordStats:
    """One user's keyword-index statistics."""

    docs: int  # documents in the user's scope
    tokens: int  # tokens over all of them
    df: Sequence[int]  # documents containing each query term


def bm25(terms: Sequence[str], tokens: Sequence[str], stats: KeywordStats) -> float:
    """The BM25 score of a document (its ``tokens``) for the query ``terms``, as FTS5 computes it."""
    n_docs = max(stats.docs, 1)
    avgdl = stats.tokens / n_docs if stats.tokens else 1.0
    length = len(tokens)
    score = 0.0
    for term, df in zip(terms, stats.df, strict=True):
        tf = tokens.count(term)
        if not tf:
            continue
        idf = max(math.log((n_docs - df + 0.5) / (df + 0.5)), _MIN_IDF)
        score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avgdl))
    return score


def _lexeme(term: str) -> str:
    # query tokens hold letters and digits only; anything else would be tsquery syntax
    return "'" + _SAFE_TERM.sub("", term) + "'"


def keyword_sql(
    user_id: str, terms: Sequence[str], q: MemoryQuery, limit: int, scoped: bool = False
) -> tuple[str, list[Any]]:
    """One statement: the pre-ranked candidates, each row carrying the user's statistics.

    The words' GIN entries find the matches and the user's rows are kept by a recheck, which the
    postings budget bounds. When even the rarest word is over the budget (``scoped``), the user's
    scope token is ANDed into the match, so that GIN intersects it with the user's own entry.
    """
    scope = _lexeme(scope_token(user_id))
    any_term = " | ".join(_lexeme(t) for t in terms)
    cond, params = where(POSTGRES, user_id, q)

    def match(query: str) -> str:
        return f"{scope} & ({query})" if scoped else query

    count = "(SELECT count(*) FROM memories WHERE user_id = %s AND tsv @@ to_tsquery('simple', %s))"
    sql = f"""
        WITH candidates AS (
            SELECT id, tokens FROM memories
            WHERE {cond} AND tsv @@ to_tsquery('simple', %s)
            ORDER BY ts_rank(tsv, to_tsquery('simple', %s)) DESC
            LIMIT %s
        ), stats AS (
            SELECT coalesce(max(docs), 0) AS docs, coalesce(max(tokens), 0) AS total,
                   ARRAY[{", ".join([count] * len(terms))}] AS df
            FROM keyword_stats WHERE user_id = %s
        )
        SELECT c.id, c.tokens, s.docs, s.total, s.df FROM candidates c CROSS JOIN stats s
    """
    params += [match(any_term), any_term, max(limit * _PRE_RANK, _MIN_PRE_RANK)]
    for t in terms:
        params += [user_id, match(_lexeme(t))]
    params.append(user_id)
    return sql, params


def score_keywords(
    terms: Sequence[str], words: Sequence[str], rows: Sequence[Row], limit: int
) -> list[ScoredId]:
    """BM25-score the candidate rows of :func:`keyword_sql` for the matched ``terms``, best first;
    ``words`` (every query word) are reported as matched terms wherever a row holds them.
    """
    if not rows:
        return []
    stats = KeywordStats(docs=int(rows[0]["docs"]), tokens=int(rows[0]["total"]), df=list(rows[0]["df"]))
    scored = []
    for row in rows:
        tokens = row["tokens"].split()
        have = set(tokens)
        scored.append(ScoredId(row["id"], bm25(terms, tokens, stats), [t for t in words if t in have]))
    scored.sort(key=lambda s: s.score, reverse=True)
    return scored[:limit]


def vector_sql(user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> tuple[str, list[Any]]:
    """Nearest rows by cosine distance with every filter in SQL, so that the HNSW scan applies them as
    it goes (with ``hnsw.iterative_scan`` it keeps scanning until ``limit`` rows pass them).
    """
    cond, params = where(POSTGRES, user_id, q)
    sql = (
        f"SELECT id, embedding <=> %s AS distance FROM memories "
        f"WHERE {cond} AND embedding IS NOT NULL ORDER BY embedding <=> %s LIMIT %s"
    )
    return sql, [vector, *params, vector, limit]
