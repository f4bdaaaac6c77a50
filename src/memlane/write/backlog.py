"""Vectors of log turns, computed off the caller's path.

Embedding a log turn (with the turn it answers) is most of what ``add`` costs: 40-60 ms of the bundled
model for a LoCoMo turn, against about 5 ms for extraction, judging and storing. So ``add`` stores the
turn at once, keyword-searchable and in its session, and hands the text to embed to a
:class:`VectorBacklog`. A thread of the backlog embeds it on a model of its own (a request never waits
for the model behind it) and writes the vector; in a chat that is done long before the reply has been
generated. Reads settle first: ``search`` and ``context`` embed whatever of their user's turns is
still waiting before they look, so a turn is never missed because its vector is late.

The backlog also embeds the clauses a write dropped that the judge may still keep by their meaning
(a :class:`Reread` each, :mod:`memlane.write.keeper`): with the vector, the write path reads the
clause again and keeps what the second look keeps, in a write of its own. A user's clauses are read
before their turns are embedded, so in a chat one is kept long before the next turn; in a
back-to-back import whether it is kept before or after the next write depends on timing (making
the next write wait for it, :meth:`VectorBacklog.settle_rereads`, cost add p50 ×1.39 on LoCoMo).

``flush`` and ``close`` wait for the backlog to drain. Anything that forgets what was said (a
withdrawal, a deleted session or user) or sums it up (a session's end, ``maintain``) first settles
the user's clauses still waiting, so that nothing read again later brings back what it forgot. If
the process dies first, the turns it held keep their text and keywords, and ``maintain`` gives them
vectors (of their own text: the turn before is not kept for them); the clauses it held stay dropped.

::

    backlog = VectorBacklog(stores, embedder)
    backlog.submit("u1", [(turn.id, "Where did you go?\\nTo Paris, twice!")])
    backlog.settle("u1")      # the turn has its vector now
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memlane.embed import Embedder, Vector
from memlane.store import Stores
from memlane.vocabulary import MemoryQuery

log = logging.getLogger(__name__)

Record = tuple[str, str]  # (memory id, text to embed)


@dataclass(frozen=True)
class Reread:
    """A clause to embed and hand to ``then`` with its vector (the judge's second look at it)."""

    text: str
    then: Callable[[Vector], None]


Job = Record | Reread

_REPAIR_BATCH = 64
_SETTLE_BATCH = 4  # records a settling reader takes at a time, leaving the rest to share


class VectorBacklog:
    """Per-user queues of records waiting for their vectors, worked off by one background thread.

    At most ``max_queued`` records wait (the default is about 50 s of the bundled model): beyond that
    a writer embeds its own, on its own thread, so a bulk import runs at the model's pace instead of
    piling up work that ``close`` would then wait for; with 0 every writer does. The thread runs only
    while there is work, so an idle memory holds no thread.
    """

    def __init__(self, stores: Stores, embedder: Embedder, *, max_queued: int = 1000) -> None:
        self._stores = stores
        self._embedder = embedder  # for readers settling their user: they are on it next anyway
        self._background_embedder = embedder.for_background() if max_queued else embedder
        self._max_queued = max_queued
        self._pending: dict[str, list[Job]] = {}  # user → jobs; a user taken from goes to the back
        self._queued = 0  # jobs in _pending
        self._busy: dict[str, int] = {}  # user → batches of theirs being embedded now
        self._rereading: dict[str, int] = {}  # user → clauses of theirs being read again now
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._failed = 0  # records the background thread could not give a vector, since the last success

    def submit(self, user_id: str, jobs: Sequence[Job]) -> None:
        """Queue these records of ``user_id`` for their vectors (or embed them now, without a thread
        or when the queue is full).
        """
        if not jobs:
            return
        with self._cond:
            queue = self._queued + len(jobs) <= self._max_queued
            if queue:
                pending = self._pending.setdefault(user_id, [])
                ahead = _leading_rereads(pending)
                pending[ahead:ahead] = [j for j in jobs if isinstance(j, Reread)]  # read before turns
                pending.extend(j for j in jobs if not isinstance(j, Reread))
                self._queued += len(jobs)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._work, name="memlane-vectors", daemon=True)
                    self._thread.start()
        if not queue:
            self._embed(user_id, list(jobs), self._embedder)

    @property
    def queued(self) -> int:
        """Records waiting for the background thread (not counting those being embedded now)."""
        return self._queued

    def settle(self, user_id: str) -> None:
        """Return once every record submitted for ``user_id`` has its vector. What is still queued is
        embedded on this thread (beside the background one, so a long backlog drains on two cores).
        """
        self._settle(user_id, len, self._busy)

    def settle_rereads(self, user_id: str) -> None:
        """Return once no clause of ``user_id`` waits to be read again (those queued are read on this
        thread), so that what forgets or sums up what the user said comes after what it may keep."""
        self._settle(user_id, _leading_rereads, self._rereading)

    def _settle(self, user_id: str, takeable: Callable[[list[Job]], int], running: dict[str, int]) -> None:
        """Do on this thread the ``takeable`` part of the user's queue, a few at a time, and wait for
        what is ``running`` for the user elsewhere."""
        while True:
            with self._cond:
                n = takeable(self._pending.get(user_id, []))
                if n:
                    jobs = self._take(user_id, min(n, _SETTLE_BATCH))
                elif running.get(user_id):
                    self._cond.wait()
                    continue
                else:
                    return
            self._embed_and_release(user_id, jobs, self._embedder)

    def wait(self, user_id: str | None = None) -> None:
        """Return once the background thread has given every record submitted so far (for one user,
        or for all) its vector. Unlike :meth:`settle` this takes no model from requests: it is for
        callers that only need to know the work is done.
        """
        with self._cond:
            while self._has_work(user_id):
                self._cond.wait()

    def _has_work(self, user_id: str | None) -> bool:
        if user_id is None:
            return bool(self._pending or self._busy)
        return user_id in self._pending or user_id in self._busy

    def repair(self, users: Iterable[str]) -> int:
        """Give a vector to every active record of these users that has none and is not waiting here
        (left behind by a process that stopped before its backlog drained); returns how many.
        """
        repaired = 0
        for user_id in users:
            self.wait(user_id)
            while True:
                q = MemoryQuery(embedded=False, limit=_REPAIR_BATCH)
                missing = self._stores.records.query(user_id, q)
                if not missing:
                    break
                self._embed(user_id, [(m.id, m.text) for m in missing], self._background_embedder)
                repaired += len(missing)
                if len(missing) < _REPAIR_BATCH:
                    break
        return repaired

    def close(self) -> None:
        """Wait for the backlog to drain (the thread ends by itself once it has nothing to do)."""
        self.wait()

    # -- work ---------------------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._cond:
                user_id = next(iter(self._pending), None)
                if user_id is None:
                    self._thread = None
                    return
                # one record at a time: a reader that settles waits for one embedding at most
                jobs = self._take(user_id, 1)
            try:
                self._embed(user_id, jobs, self._background_embedder)
            except Exception:
                # the records keep their text and keywords; maintain() gives them vectors later (a
                # clause read again stays dropped). While the store is down every record fails: say
                # so once, and how many when it is back
                if not self._failed:
                    log.exception(
                        "could not write a vector or a clause read again; the records keep their text "
                        "until maintain()"
                    )
                self._failed += len(jobs)
            else:
                if self._failed:
                    log.warning(
                        "%d records or clauses were left without a vector; maintain() gives the records one",
                        self._failed,
                    )
                    self._failed = 0
            finally:
                # released after the outcome is logged, so that one who waited for it finds it said
                self._release(user_id, jobs)

    def _take(self, user_id: str, n: int) -> list[Job]:
        """Up to ``n`` of the user's queued jobs, counted as being embedded; the lock is held."""
        queue = self._pending.pop(user_id)
        jobs, rest = queue[:n], queue[n:]
        if rest:
            self._pending[user_id] = rest
        self._queued -= len(jobs)
        self._busy[user_id] = self._busy.get(user_id, 0) + 1
        if _rereads(jobs):
            self._rereading[user_id] = self._rereading.get(user_id, 0) + _rereads(jobs)
        return jobs

    def _embed_and_release(self, user_id: str, jobs: list[Job], embedder: Embedder) -> None:
        try:
            self._embed(user_id, jobs, embedder)
        finally:
            self._release(user_id, jobs)

    def _release(self, user_id: str, jobs: list[Job]) -> None:
        """One batch of the user's is done (embedded or failed): wake whoever waits for it."""
        with self._cond:
            if _rereads(jobs):
                self._rereading[user_id] -= _rereads(jobs)
                if not self._rereading[user_id]:
                    del self._rereading[user_id]
            self._busy[user_id] -= 1
            if not self._busy[user_id]:
                del self._busy[user_id]
            self._cond.notify_all()

    def _embed(self, user_id: str, jobs: list[Job], embedder: Embedder) -> None:
        vectors = embedder.embed_passages([j.text if isinstance(j, Reread) else j[1] for j in jobs])
        done = list(zip(jobs, vectors, strict=True))
        records = {j[0]: v for j, v in done if not isinstance(j, Reread)}
        if records:
            self._stores.search.put_vectors(user_id, records)
        for job, vector in done:
            if isinstance(job, Reread):
                job.then(vector)


def _rereads(jobs: Sequence[Job]) -> int:
    return sum(isinstance(j, Reread) for j in jobs)


def _leading_rereads(queue: Sequence[Job]) -> int:
    """How many clauses to read again stand at the front of a user's queue (ahead of the records)."""
    return next((i for i, j in enumerate(queue) if not isinstance(j, Reread)), len(queue))
