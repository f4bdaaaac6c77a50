"""The two searches of the embedded store: FTS5 with BM25 on each user's own statistics, and cosine
over an in-process matrix of vectors kept fresh from the change feed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memlane.domain import Status
from memlane.store import Vector
from memlane.store.bm25 import KeywordStats, score_keywords
from memlane.store.codec import scope_token
from memlane.store.sql import SQLRole, filters_beyond_kind, rarest_within, where
from memlane.store.sql_records import put_vectors
from memlane.store.sqlite import SQLiteDatabase
from memlane.store.vectors import Change
from memlane.vocabulary import MemoryQuery, ScoredId

# how many more vector candidates to take when filters the in-process index cannot apply are set
_OVERFETCH = 4
# keyword search: rows BM25-ranked inside the index before the filters are applied
_PRE_RANK = 4
_MIN_PRE_RANK = 200


@dataclass
class SQLiteSearch(SQLRole):
    """The search role on a :class:`~memlane.store.sqlite.SQLiteDatabase`."""

    db: SQLiteDatabase

    def put_vectors(self, user_id: str, vectors: Mapping[str, Vector]) -> int:
        """Give the user's records stored without a vector their vector; returns how many took one."""
        return put_vectors(self.db, self.scope.inward(user_id), vectors)

    def keyword_search(
        self, user_id: str, tokens: Sequence[str], q: MemoryQuery, limit: int
    ) -> list[ScoredId]:
        """FTS5 match within the user's scope, scored with BM25 on the user's own statistics.

        The rarest words are matched, within a budget of index postings (:func:`rarest_within`,
        counted over the whole index by ``fts5vocab``, since that is what a match reads); every query
        word still counts towards ``matched_terms``. FTS5 ranks the matches inside the index (with its
        statistics of every user's documents), and the best few hundred are read and scored again with
        the user's own (:mod:`memlane.store.bm25`, kept by triggers), so that no other user's memories
        weigh in a score.
        """
        uid = self.scope.inward(user_id)
        terms = [t.replace('"', "") for t in tokens if t.replace('"', "")]
        if not terms:
            return []
        wanted = self._affordable(terms)
        any_term = " OR ".join(f'"{t}"' for t in wanted)
        match = f'scope:"{scope_token(uid)}" AND tokens:({any_term})'
        cap = max(limit * _PRE_RANK, _MIN_PRE_RANK)
        best = self.db.rows(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? "
            "ORDER BY bm25(memories_fts, 0.0, 1.0) LIMIT ?",
            (match, cap),
        )
        if not best:
            return []
        cond, params = where(self.db.dialect, uid, q)
        marks = self.db.dialect.marks(len(best))
        rows = self.db.rows(
            f"SELECT id, tokens FROM memories WHERE rowid IN ({marks}) AND {cond}",
            [*(r["rowid"] for r in best), *params],
        )
        if len(best) == cap and len(rows) < limit:
            # the filters removed most of the best rows: pre-rank the matches that pass them instead
            rows = self.db.rows(
                f"""
                SELECT memories.id, memories.tokens
                FROM memories_fts JOIN memories ON memories.rowid = memories_fts.rowid
                WHERE memories_fts MATCH ? AND {cond} ORDER BY bm25(memories_fts, 0.0, 1.0) LIMIT ?
                """,
                [match, *params, cap],
            )
        return score_keywords(wanted, terms, self._keyword_stats(uid, wanted), rows, limit)

    def _keyword_stats(self, user_id: str, terms: list[str]) -> KeywordStats:
        """The user's document count and length, and how many of the user's documents hold each term."""
        rows = self.db.rows(
            "SELECT s.docs, s.tokens, k.term, k.docs AS df FROM keyword_stats s LEFT JOIN keyword_terms k "
            f"ON k.user_id = s.user_id AND k.term IN ({self.db.dialect.marks(len(terms))}) "
            "WHERE s.user_id = ?",
            [*terms, user_id],
        )
        if not rows:
            return KeywordStats(docs=0, tokens=0, df=[0] * len(terms))
        df = {r["term"]: int(r["df"]) for r in rows if r["term"] is not None}
        return KeywordStats(
            docs=int(rows[0]["docs"]), tokens=int(rows[0]["tokens"]), df=[df.get(t, 0) for t in terms]
        )

    def _affordable(self, terms: list[str]) -> list[str]:
        if len(terms) == 1:
            return terms
        marks = self.db.dialect.marks(len(terms))
        sql = f"SELECT term, doc FROM memories_vocab WHERE col = 'tokens' AND term IN ({marks})"
        return rarest_within(terms, {r["term"]: float(r["doc"]) for r in self.db.rows(sql, terms)})

    def vector_search(self, user_id: str, vector: Vector, q: MemoryQuery, limit: int) -> list[ScoredId]:
        """Cosine over the in-process matrix of the user's active vectors, refreshed from the change feed.

        Filters other than kind apply in SQL to the nearest few times ``limit``; when too few of those
        pass, every record that passes is ranked instead, so the result is exact either way.
        """
        uid = self.scope.inward(user_id)
        scope = scope_token(uid)

        def changes(since: int) -> list[Change]:
            rows = self.db.rows(
                "SELECT id, kind, status, embedding, seq FROM memories WHERE user_id = ? AND seq > ? "
                "UNION ALL SELECT memory_id, '', 'deleted', NULL, seq FROM memory_deletions "
                "WHERE scope = ? AND seq > ?",
                (uid, since, scope, since),
            )
            active = Status.ACTIVE.value
            return [(r["id"], r["kind"], r["status"] == active, r["embedding"], r["seq"]) for r in rows]

        kinds = [k.value for k in q.kinds]
        if not filters_beyond_kind(q):
            return [ScoredId(i, s) for i, s in self.db.vectors.search(uid, vector, kinds, limit, changes)]
        # the index knows kinds only: take more candidates, then apply the other filters in SQL
        found = self.db.vectors.search(uid, vector, kinds, limit * _OVERFETCH, changes)
        if not found:
            return []
        cond, params = where(self.db.dialect, uid, q)
        marks = self.db.dialect.marks(len(found))
        sql = f"SELECT id FROM memories WHERE {cond} AND id IN ({marks})"
        ok = {r["id"] for r in self.db.rows(sql, [*params, *(i for i, _ in found)])}
        passed = [(i, s) for i, s in found if i in ok]
        if len(passed) >= limit or len(found) < limit * _OVERFETCH:
            return [ScoredId(i, s) for i, s in passed[:limit]]
        # too few of the nearest pass (a narrow period, a rare tag): rank every record that does
        among = [r["id"] for r in self.db.rows(f"SELECT id FROM memories WHERE {cond}", params)]
        return [ScoredId(i, s) for i, s in self.db.vectors.search(uid, vector, kinds, limit, changes, among)]
