"""An in-process vector index: one user's active vectors as a float32 matrix, searched with numpy.

Stores that cannot search vectors themselves (SQLite without extensions) keep one of these per user.
It stays fresh across threads and processes by asking the store for rows changed since the last
sequence number it saw, and reloads fully when rows disappeared (hard deletes).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]

# (id, kind, active?, embedding bytes or None, seq)
Change = tuple[str, str, bool, bytes | None, int]


@dataclass
class _UserVectors:
    ids: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    matrix: Vector = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    seq: int = -1


class VectorIndex:
    """Per-user matrices of unit vectors, refreshed incrementally from a change feed."""

    def __init__(self, dim: int) -> None:
        self._dim = dim
        self._users: dict[str, _UserVectors] = {}
        self._lock = threading.Lock()

    def search(
        self,
        user_id: str,
        vector: Vector,
        kinds: Iterable[str],
        limit: int,
        changes: Callable[[int], list[Change]],
        active_count: Callable[[], int],
    ) -> list[tuple[str, float]]:
        """The ``limit`` nearest active vectors of ``kinds`` (all kinds when empty), best first."""
        with self._lock:
            state = self._refresh(user_id, changes, active_count)
            if not state.ids:
                return []
            scores = state.matrix @ vector.astype(np.float32)
            wanted = set(kinds)
            if wanted:
                mask = np.fromiter((k in wanted for k in state.kinds), dtype=bool, count=len(state.kinds))
                scores = np.where(mask, scores, -np.inf)
            top = min(limit, len(state.ids))
            best = np.argpartition(-scores, top - 1)[:top]
            best = best[np.argsort(-scores[best])]
            return [(state.ids[i], float(scores[i])) for i in best if np.isfinite(scores[i])]

    def forget(self, user_id: str) -> None:
        """Drop the cached vectors of one user (they reload on the next search)."""
        with self._lock:
            self._users.pop(user_id, None)

    def _refresh(
        self, user_id: str, changes: Callable[[int], list[Change]], active_count: Callable[[], int]
    ) -> _UserVectors:
        state = self._users.get(user_id)
        if state is None:
            state = self._users[user_id] = _UserVectors(matrix=np.zeros((0, self._dim), dtype=np.float32))
        updates = changes(state.seq)
        if updates:
            self._apply(state, updates)
        if len(state.ids) != active_count():
            # rows vanished without a change record (hard deletes): rebuild from scratch
            state = self._users[user_id] = _UserVectors(matrix=np.zeros((0, self._dim), dtype=np.float32))
            self._apply(state, changes(-1))
        return state

    def _apply(self, state: _UserVectors, updates: list[Change]) -> None:
        drop: set[str] = set()
        add: dict[str, tuple[str, Vector]] = {}
        for memory_id, kind, active, blob, seq in updates:
            state.seq = max(state.seq, seq)
            if active and blob:
                add[memory_id] = (kind, np.frombuffer(blob, dtype=np.float32))
                drop.discard(memory_id)
            else:
                add.pop(memory_id, None)
                drop.add(memory_id)
        replaced = drop | (add.keys() & state.rows.keys())
        if replaced:
            keep = [i for i, mid in enumerate(state.ids) if mid not in replaced]
            state.ids = [state.ids[i] for i in keep]
            state.kinds = [state.kinds[i] for i in keep]
            state.matrix = state.matrix[keep]
        if add:
            state.ids.extend(add)
            state.kinds.extend(kind for kind, _ in add.values())
            state.matrix = np.vstack([state.matrix, np.stack([vec for _, vec in add.values()])])
        state.rows = {mid: i for i, mid in enumerate(state.ids)}
