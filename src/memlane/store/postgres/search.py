"""The two searches of the PostgreSQL store: keywords through the GIN index on the segmented tokens,
scored with the user's own BM25 statistics, and vectors through pgvector's HNSW index.

Keyword search reads the user's statistics first (document count and length, and each word's document
frequency, which triggers keep in ``keyword_stats`` and ``keyword_terms``), then matches in SQL: the
GIN index returns the user's rows holding each word, and they are pre-ranked by BM25 with every term
frequency taken as one (FTS5 ranks every match by BM25 inside its index; ``ts_rank`` knows neither
IDF nor length, and its best rows held about a third of the BM25 best at 100k memories). The leading
candidates are then scored with the exact BM25 in Python (:mod:`memlane.store.bm25`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memlane.store import Vector
from memlane.store.bm25 import K1, B, KeywordStats, idf, score_keywords
from memlane.store.codec import scope_token
from memlane.store.postgres import PostgresDatabase
from memlane.store.sql import POSTGRES, SQLRole, rarest_within, where
from memlane.store.sql_records import put_vectors
from memlane.vocabulary import MemoryQuery, ScoredId

# rows pre-ranked in SQL that BM25 then re-scores: enough that the BM25 top ``limit`` is among them
_PRE_RANK = 4
_MIN_PRE_RANK = 200

_ESTIMATES_TTL = 60.0  # seconds: the estimates change only with ANALYZE

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

# one user's statistics, and how many of the user's documents hold each of the terms bound first
STATS_SQL = """
    SELECT s.docs, s.tokens,
           ARRAY(SELECT coalesce(k.docs, 0)
                 FROM unnest(%s::text[]) WITH ORDINALITY AS w(term, n)
                 LEFT JOIN keyword_terms k ON k.user_id = s.user_id AND k.term = w.term
                 ORDER BY w.n) AS df
    FROM keyword_stats s WHERE s.user_id = %s
"""


def _lexeme(term: str) -> str:
    # query tokens hold letters and digits only; anything else would be tsquery syntax
    return "'" + _SAFE_TERM.sub("", term) + "'"


def stats_sql(user_id: str, terms: Sequence[str]) -> tuple[str, list[Any]]:
    """The statement reading the user's :class:`KeywordStats` for ``terms`` (no row: no documents)."""
    return STATS_SQL, [[_SAFE_TERM.sub("", t) for t in terms], user_id]


def keyword_sql(
    user_id: str, terms: Sequence[str], stats: KeywordStats, q: MemoryQuery, limit: int
) -> tuple[str, list[Any]]:
    """The best candidates for ``terms`` (each held by some document of the user), pre-ranked by BM25
    with every term frequency taken as one: the sum of the IDFs of the terms a row holds, over its
    length norm. Which terms a row holds comes from the index, so ranking reads only the row's length
    (``ts_rank`` read its tsvector, which a row with a vector keeps out of line: a second page per row).

    Each term's GIN entry is intersected with the user's scope token, so only this user's rows are
    read; the filters apply to those rows afterwards: the ``OFFSET 0`` fence keeps the planner from
    ANDing a btree scan of the user's rows into the bitmap, which for a large user reads every one of
    its index entries to save a few row visits.
    """
    cond, filters = where(POSTGRES, user_id, q)
    scope = _lexeme(scope_token(user_id))
    match = (
        "SELECT id, tokens, ntokens, %s::float8 AS weight FROM ("
        "SELECT * FROM memories WHERE tsv @@ to_tsquery('simple', %s) OFFSET 0"
        f") AS memories WHERE {cond}"
    )
    params: list[Any] = []
    for term, df in zip(terms, stats.df, strict=True):
        params += [idf(df, stats.docs), f"{scope} & {_lexeme(term)}", *filters]
    # a row holding several terms comes once per term; with one term there is nothing to add up
    group, weight = ("GROUP BY id, tokens, ntokens", "sum(weight)") if len(terms) > 1 else ("", "weight")
    sql = f"""
        SELECT id, tokens FROM ({" UNION ALL ".join([match] * len(terms))}) AS matches {group}
        ORDER BY {weight} / (1 + {K1} * (1 - {B} + {B} * ntokens::float8 / %s)) DESC
        LIMIT %s
    """
    return sql, [*params, stats.avgdl, max(limit * _PRE_RANK, _MIN_PRE_RANK)]


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


@dataclass
class PostgresSearch(SQLRole):
    """The search role on a :class:`~memlane.store.postgres.PostgresDatabase`."""

    db: PostgresDatabase

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Give the user's records stored without a vector their vector; returns how many took one."""
        return put_vectors(self.db, self.scope.inward(user_id), vectors)

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """GIN-indexed match within the user's scope, BM25-scored like FTS5 (see :mod:`.search`).

        A word none of the user's memories holds adds nothing to any score, so it is not matched;
        when no word is left, no match runs at all.
        """
        uid = self.scope.inward(user_id)
        terms = list(dict.fromkeys(t for t in tokens if t.strip()))
        if not terms:
            return []
        wanted = rarest_within(terms, self._documents(terms))
        found = self.db.rows(*stats_sql(uid, wanted))
        if not found:
            return []
        held = [(t, int(df)) for t, df in zip(wanted, found[0]["df"], strict=True) if df]
        if not held:
            return []
        stats = KeywordStats(
            docs=int(found[0]["docs"]), tokens=int(found[0]["tokens"]), df=[df for _, df in held]
        )
        matched = [t for t, _ in held]
        rows = self.db.rows(*keyword_sql(uid, matched, stats, q, limit))
        return score_keywords(matched, terms, stats, rows, limit)

    def _documents(self, terms: list[str]) -> dict[str, float]:
        """How many rows hold each common term, as the planner's statistics estimate it (none before
        the first ANALYZE, while the table is small): counting would cost what the budget saves. The
        estimates change only with ANALYZE, so they are read at most once a minute.
        """
        cached = self.db.estimates
        if cached is not None and time.monotonic() - cached[0] <= _ESTIMATES_TTL:
            return cached[1]
        estimates = {r["term"]: float(r["docs"]) for r in self.db.rows(ESTIMATE_SQL)}
        self.db.estimates = (time.monotonic(), estimates)
        return estimates

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """HNSW (cosine) search with the filters applied inside the index scan."""
        sql, params = vector_sql(self.scope.inward(user_id), np.asarray(vector, dtype=np.float32), q, limit)
        rows = self.db.rows(sql, params)
        found = sorted(((float(1.0 - r["distance"]), str(r["id"])) for r in rows), reverse=True)
        return [ScoredId(i, score) for score, i in found]
