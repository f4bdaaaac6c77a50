"""An in-process vector index: one user's active vectors as a float32 matrix, searched with numpy.

Stores that cannot search vectors themselves (SQLite without extensions) keep one of these per user.
It stays fresh across threads and processes by asking the store for the rows changed (written or
deleted) since the last sequence number it saw: a search costs one indexed query for the changes and
one matrix-vector product, never a reload.

The matrix grows geometrically, so adding a row is amortised O(1) rather than a copy of every vector;
a row leaving the index (superseded, expired, deleted) is replaced by the last row.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]

# (id, kind, active?, embedding bytes or None, seq); a deleted row comes as inactive with no embedding
Change = tuple[str, str, bool, bytes | None, int]

_FIRST_CAPACITY = 64


@dataclass
class _UserVectors:
    matrix: Vector
    kinds: npt.NDArray[np.int16]
    ids: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    seq: int = -1

    @property
    def size(self) -> int:
        return len(self.ids)


class VectorIndex:
    """Per-user matrices of unit vectors, refreshed incrementally from a change feed."""

    def __init__(self, dim: int) -> None:
        self._dim = dim
        self._users: dict[str, _UserVectors] = {}
        self._kind_codes: dict[str, int] = {}
        # held only for in-memory work, never while the change feed is read: a store may call search()
        # while holding its own lock, and the feed takes that lock too
        self._lock = threading.Lock()

    def search(
        self,
        user_id: str,
        vector: Vector,
        kinds: Iterable[str],
        limit: int,
        changes: Callable[[int], list[Change]],
        among: Collection[str] | None = None,
    ) -> list[tuple[str, float]]:
        """The ``limit`` nearest active vectors of ``kinds`` (all kinds when empty), best first; only
        among the ids ``among`` when given."""
        with self._lock:
            state = self._users.get(user_id)
            since = state.seq if state is not None else -1
        updates = changes(since)
        with self._lock:
            state = self._users.get(user_id)
            if state is None:
                state = self._users[user_id] = self._empty()
            self._apply(state, updates)
            rows: npt.NDArray[np.intp] | None = None
            if among is None:
                matrix, kinds_of = state.matrix[: state.size], state.kinds[: state.size]
            else:
                rows = np.fromiter((state.rows[i] for i in among if i in state.rows), dtype=np.intp)
                matrix, kinds_of = state.matrix[rows], state.kinds[rows]
            if not len(matrix) or limit < 1:
                return []
            scores = matrix @ vector.astype(np.float32)
            wanted = list(kinds)
            if wanted:
                codes = [self._kind_codes[k] for k in wanted if k in self._kind_codes]
                scores[~np.isin(kinds_of, codes)] = -np.inf
            top = min(limit, len(matrix))
            best = np.argpartition(-scores, top - 1)[:top]
            best = best[np.argsort(-scores[best])]
            where = best if rows is None else rows[best]
            return [
                (state.ids[row], float(scores[i]))
                for row, i in zip(where.tolist(), best.tolist(), strict=True)
                if np.isfinite(scores[i])
            ]

    def forget(self, user_id: str) -> None:
        """Drop the cached vectors of one user (they reload on the next search)."""
        with self._lock:
            self._users.pop(user_id, None)

    def _empty(self) -> _UserVectors:
        return _UserVectors(
            matrix=np.zeros((_FIRST_CAPACITY, self._dim), dtype=np.float32),
            kinds=np.zeros(_FIRST_CAPACITY, dtype=np.int16),
        )

    def _code(self, kind: str) -> int:
        return self._kind_codes.setdefault(kind, len(self._kind_codes))

    def _apply(self, state: _UserVectors, updates: list[Change]) -> None:
        # Two searches may read the feed concurrently and apply in either order; the later read is a
        # superset of the earlier one, so anything at or below the seq already applied is stale.
        fresh = [u for u in updates if u[4] > state.seq]
        for memory_id, kind, active, blob, seq in sorted(fresh, key=lambda u: u[4]):
            if active and blob:
                self._put(state, memory_id, kind, np.frombuffer(blob, dtype=np.float32))
            else:
                self._drop(state, memory_id)
            state.seq = seq

    def _put(self, state: _UserVectors, memory_id: str, kind: str, vector: Vector) -> None:
        row = state.rows.get(memory_id)
        if row is None:
            row = state.size
            if row == len(state.matrix):
                self._grow(state)
            state.ids.append(memory_id)
            state.rows[memory_id] = row
        state.matrix[row] = vector
        state.kinds[row] = self._code(kind)

    @staticmethod
    def _drop(state: _UserVectors, memory_id: str) -> None:
        row = state.rows.pop(memory_id, None)
        if row is None:
            return
        last = state.size - 1
        if row != last:
            moved = state.ids[last]
            state.ids[row] = moved
            state.rows[moved] = row
            state.matrix[row] = state.matrix[last]
            state.kinds[row] = state.kinds[last]
        state.ids.pop()

    @staticmethod
    def _grow(state: _UserVectors) -> None:
        capacity = 2 * len(state.matrix)
        matrix = np.zeros((capacity, state.matrix.shape[1]), dtype=np.float32)
        matrix[: state.size] = state.matrix[: state.size]
        kinds = np.zeros(capacity, dtype=np.int16)
        kinds[: state.size] = state.kinds[: state.size]
        state.matrix, state.kinds = matrix, kinds
