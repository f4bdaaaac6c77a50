"""The queue's side of two hard edges, on both adapters: a store outage consumes no attempts, and
forgetting a user takes every job of theirs, even one a worker holds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import T0
from memlane.clock import utcnow
from memlane.errors import NotFound, StoreUnavailable
from memlane.service.queue import Job, JobQueue, open_queue
from memlane.service.worker import Worker


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture(params=["sqlite", "redis"])
def queue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[JobQueue]:
    url = str(tmp_path / "q.jobs.db") if request.param == "sqlite" else request.getfixturevalue("redis_url")
    opened = open_queue(url, url, max_attempts=3)
    yield opened
    opened.close()


def claimed(queue: JobQueue, now: datetime) -> Job:
    job = queue.claim("w1", now)
    assert job is not None
    return job


def test_a_store_outage_of_any_length_consumes_no_attempt(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0), user_id="u1")

    def down(job: Job) -> dict[str, Any]:
        raise StoreUnavailable("PostgreSQL is down")

    worker = Worker(queue, down, "w1")
    for n in range(10):  # ten deliveries, with max_attempts=3
        with pytest.raises(StoreUnavailable):
            worker.run_once(at(1 + n))
    state = queue.get("t1", submitted.id)
    assert state is not None
    assert (state.status, state.attempts) == ("queued", 0)
    assert queue.failed("t1") == []
    assert Worker(queue, lambda job: {"ok": True}, "w1").run_once(at(20))  # the store is back
    done = queue.get("t1", submitted.id)
    assert done is not None
    assert (done.status, done.attempts, done.result) == ("done", 1, {"ok": True})


def test_a_release_from_a_superseded_delivery_changes_nothing(queue: JobQueue) -> None:
    queue.submit("t1", {"n": 1}, at(0))
    job = claimed(queue, at(1))
    queue.fail(job, "RuntimeError: x", at(2))
    again = claimed(queue, at(3))
    after = queue.release(job, "StoreUnavailable: late", at(4))  # the first delivery, long gone
    assert (after.status, after.attempts) == ("running", again.attempts)


def test_forget_removes_every_job_of_the_user_and_nobody_elses(queue: JobQueue) -> None:
    queued, _ = queue.submit("t1", {"n": 1}, at(0), "k1", user_id="u1")
    running, _ = queue.submit("t1", {"n": 2}, at(1), user_id="u1")
    parked, _ = queue.submit("t1", {"n": 3}, at(2), user_id="u1")
    done, _ = queue.submit("t1", {"n": 4}, at(3), user_id="u1")
    theirs, _ = queue.submit("t1", {"n": 5}, at(4), user_id="u2")
    namesake, _ = queue.submit("t2", {"n": 6}, at(5), user_id="u1")  # another tenant's u1
    jobs = {claimed(queue, at(10 + n)).id: n for n in range(4)}
    by_id = {v: k for k, v in jobs.items()}
    assert queue.complete(Job(by_id[3], "t1", {}, 1, at(0)), {"ok": True}, at(20))  # "done" finished
    queue.fail(Job(by_id[2], "t1", {}, 1, at(0)), "E: x", at(20), permanent=True)  # "parked" parked
    queue.release(Job(by_id[0], "t1", {}, 1, at(0)), "StoreUnavailable: x", at(20))  # "queued" back

    assert queue.forget("t1", "u1") == 4
    for gone in (queued, running, parked, done):
        assert queue.get("t1", gone.id) is None
    assert queue.failed("t1") == []
    assert queue.get("t1", theirs.id) is not None
    assert queue.get("t2", namesake.id) is not None
    assert queue.stats(at(30)).depth == 2  # theirs and the namesake's
    assert queue.submit("t1", {"n": 7}, at(31), "k1", user_id="u1")[1]  # its key went with it
    assert queue.forget("t1", "nobody") == 0


def test_a_worker_finds_a_forgotten_job_gone_and_withdraws_it(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"user_id": "u1", "messages": []}, at(0), user_id="u1")
    withdrawn: list[tuple[str, dict[str, Any] | None]] = []

    def handle(job: Job) -> dict[str, Any]:
        assert queue.forget("t1", "u1") == 1  # forgotten while it runs
        return {"written": True}

    worker = Worker(queue, handle, "w1", withdraw=lambda job, result: withdrawn.append((job.id, result)))
    assert worker.run_once(at(1))
    assert withdrawn == [(submitted.id, {"written": True})]
    assert queue.get("t1", submitted.id) is None


@pytest.mark.parametrize("outcome", ["fail", "release"])
def test_recording_the_failure_of_a_forgotten_job_says_it_is_gone(queue: JobQueue, outcome: str) -> None:
    queue.submit("t1", {"n": 1}, at(0), user_id="u1")
    job = claimed(queue, at(1))
    queue.forget("t1", "u1")
    assert not queue.complete(job, {}, at(2))
    with pytest.raises(NotFound):
        getattr(queue, outcome)(job, "E: x", at(2))


@pytest.fixture(params=["sqlite", "redis"])
def short_lease(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[JobQueue]:
    """A queue whose leases last 0.3 s (Redis measures them on its own clock: the test waits)."""
    url = str(tmp_path / "q.jobs.db") if request.param == "sqlite" else request.getfixturevalue("redis_url")
    opened = open_queue(url, url, lease_seconds=0.3)
    yield opened
    opened.close()


def test_a_worker_keeps_the_lease_of_a_job_slower_than_it(short_lease: JobQueue) -> None:
    queue = short_lease
    submitted, _ = queue.submit("t1", {"n": 1}, utcnow(), user_id="u1")
    taken_meanwhile: list[Job | None] = []

    def slow(job: Job) -> dict[str, Any]:
        for _ in range(4):  # four leases long, waiting out an outage say
            time.sleep(0.3)
            taken_meanwhile.append(queue.claim("w2", utcnow()))
        return {"ok": True}

    assert Worker(queue, slow, "w1").run_once(utcnow())
    assert taken_meanwhile == [None] * 4  # never delivered to a second worker
    done = queue.get("t1", submitted.id)
    assert done is not None
    assert (done.status, done.attempts) == ("done", 1)


def test_a_lease_that_is_not_renewed_runs_out(short_lease: JobQueue) -> None:
    queue = short_lease
    queue.submit("t1", {"n": 1}, utcnow())
    first = queue.claim("dead", utcnow())
    assert first is not None
    time.sleep(0.5)
    again = queue.claim("w2", utcnow())
    assert again is not None
    assert not queue.renew(first, utcnow())  # the dead worker's delivery is not the current one
    assert queue.renew(again, utcnow())
