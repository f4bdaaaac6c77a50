"""The job queue: one contract run against the SQLite and the Redis Streams adapters, and the worker,
in-process and as real processes, one of them killed mid-job.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis

import stores
from conftest import T0
from memlane.clock import utcnow
from memlane.errors import InvalidInput, StoreUnavailable
from memlane.service.queue import Job, JobQueue, JobState, key_digest, open_queue
from memlane.service.queue.redis import RedisJobQueue
from memlane.service.queue.sqlite import SQLiteJobQueue
from memlane.service.traffic import Beacon, HostTraffic, Traffic
from memlane.service.worker import Worker, start_thread
from memlane.store.codec import scope_token

MakeQueue = Callable[..., JobQueue]


def at(seconds: float) -> datetime:
    """The caller's clock: ``seconds`` after T0."""
    return T0 + timedelta(seconds=seconds)


@pytest.fixture(params=["sqlite", "redis"])
def queue_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a queue lives: a SQLite file of the test's own, or Redis under a key prefix of its own."""
    if request.param == "sqlite":
        return str(tmp_path / "memlane.db.jobs.db")
    url: str = request.getfixturevalue("redis_url")
    return url


@pytest.fixture
def make_queue(queue_url: str) -> Iterator[MakeQueue]:
    """Open the test's queue with the given knobs (several instances share it, as processes do)."""
    opened: list[JobQueue] = []

    def make(**knobs: Any) -> JobQueue:
        queue = open_queue(queue_url, queue_url, **knobs)
        opened.append(queue)
        return queue

    yield make
    for queue in opened:
        queue.close()


@pytest.fixture
def queue(make_queue: MakeQueue) -> JobQueue:
    return make_queue(max_attempts=3)


def claimed(queue: JobQueue, now: datetime, consumer: str = "w1") -> Job:
    job = queue.claim(consumer, now)
    assert job is not None
    return job


def state(queue: JobQueue, job_id: str, tenant: str = "t1") -> JobState:
    found = queue.get(tenant, job_id)
    assert found is not None
    return found


# -- the contract ----------------------------------------------------------------------------------


def test_a_submitted_job_is_queued_then_running_then_done(queue: JobQueue) -> None:
    payload = {"user_id": "u1", "messages": [{"content": "我最近开始喝冷萃了", "at": "2025-03-03"}]}
    submitted, created = queue.submit("t1", payload, at(0))
    assert created
    assert (submitted.status, submitted.attempts, submitted.created_at) == ("queued", 0, at(0))

    job = claimed(queue, at(1))
    assert (job.id, job.tenant, job.payload, job.attempts, job.created_at) == (
        submitted.id, "t1", payload, 1, at(0)
    )  # fmt: skip
    assert state(queue, job.id).status == "running"

    queue.complete(job, {"decisions": ["remember"]}, at(2))
    done = state(queue, job.id)
    assert (done.status, done.result, done.error, done.updated_at) == (
        "done",
        {"decisions": ["remember"]},
        None,
        at(2),
    )
    assert queue.claim("w1", at(3)) is None


def test_jobs_come_in_order_and_a_leased_job_is_not_delivered_twice(queue: JobQueue) -> None:
    ids = [queue.submit("t1", {"n": n}, at(n))[0].id for n in range(3)]
    assert [claimed(queue, at(10), f"w{n}").id for n in range(3)] == ids
    assert queue.claim("w9", at(11)) is None


def test_a_failed_job_is_queued_again_with_its_error_behind_the_others(queue: JobQueue) -> None:
    first, _ = queue.submit("t1", {"n": 1}, at(0))
    second, _ = queue.submit("t1", {"n": 2}, at(1))
    requeued = queue.fail(claimed(queue, at(2)), "RuntimeError: store hiccup", at(3))
    assert (requeued.status, requeued.attempts, requeued.error) == ("queued", 1, "RuntimeError: store hiccup")

    assert claimed(queue, at(4)).id == second.id
    again = claimed(queue, at(5))
    assert (again.id, again.attempts) == (first.id, 2)


def test_a_poisoned_job_is_parked_after_max_attempts_with_its_error(queue: JobQueue) -> None:
    queue.submit("t1", {"n": 1}, at(0))
    for attempt in range(1, 4):
        job = claimed(queue, at(attempt))
        assert job.attempts == attempt
        after = queue.fail(job, f"ValueError: bad row {attempt}", at(attempt))
    assert (after.status, after.attempts, after.error) == ("failed", 3, "ValueError: bad row 3")
    assert queue.claim("w1", at(10)) is None
    assert queue.failed("t1") == [after]
    assert queue.stats(at(10)).failed == 1


def test_a_permanent_failure_parks_at_once(queue: JobQueue) -> None:
    queue.submit("t1", {"n": 1}, at(0))
    parked = queue.fail(claimed(queue, at(1)), "InvalidInput: no user_id", at(2), permanent=True)
    assert (parked.status, parked.attempts, parked.error) == ("failed", 1, "InvalidInput: no user_id")
    assert queue.claim("w1", at(3)) is None


def test_a_job_whose_lease_ran_out_is_delivered_again(make_queue: MakeQueue) -> None:
    # Redis measures leases on its own clock, so the test waits out a short one for real
    queue = make_queue(lease_seconds=0.3)
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    claimed(queue, at(1), "dead-worker")
    time.sleep(0.5)
    again = claimed(queue, at(2), "w2")
    assert (again.id, again.attempts) == (submitted.id, 2)


def test_a_job_that_keeps_killing_its_worker_is_parked(make_queue: MakeQueue) -> None:
    queue = make_queue(lease_seconds=0.3, max_attempts=2)
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    for n in range(2):
        claimed(queue, at(1 + n), f"dead-{n}")
        time.sleep(0.5)
    assert queue.claim("w3", at(3)) is None
    parked = state(queue, submitted.id)
    assert parked.status == "failed"
    assert parked.error is not None
    assert "lease expired 2 times" in parked.error


def test_a_late_outcome_of_a_superseded_delivery_changes_nothing(make_queue: MakeQueue) -> None:
    queue = make_queue(lease_seconds=0.3)
    queue.submit("t1", {"n": 1}, at(0))
    slow = claimed(queue, at(1), "slow")
    time.sleep(0.5)
    current = claimed(queue, at(2), "w2")

    assert queue.fail(slow, "TimeoutError: too slow", at(3)).status == "running"  # w2 still has it
    queue.complete(current, {"ok": True}, at(4))
    after = queue.fail(current, "RuntimeError: late", at(5))
    assert (after.status, after.result, after.attempts) == ("done", {"ok": True}, 2)
    assert queue.claim("w1", at(6)) is None


def test_an_idempotency_key_gives_the_same_job_and_one_queue_entry(queue: JobQueue) -> None:
    first, created = queue.submit("t1", {"n": 1}, at(0), idempotency_key="req-1")
    again, created_again = queue.submit("t1", {"n": 2}, at(1), idempotency_key="req-1")
    assert created
    assert not created_again
    assert again == first
    assert queue.stats(at(1)).depth == 1
    assert claimed(queue, at(2)).payload == {"n": 1}
    assert queue.claim("w2", at(2)) is None

    other, created_other = queue.submit("t2", {"n": 3}, at(3), idempotency_key="req-1")
    assert created_other
    assert other.id != first.id


def test_another_tenant_cannot_see_list_or_retry_a_job(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    queue.fail(claimed(queue, at(1)), "InvalidInput: no", at(2), permanent=True)
    assert queue.get("t2", submitted.id) is None
    assert queue.get("t2", "no-such-job") is None
    assert queue.failed("t2") == []
    assert queue.retry("t2", submitted.id, at(3)) is None
    assert state(queue, submitted.id).status == "failed"


def test_retry_puts_a_parked_job_back_with_fresh_attempts(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    queue.fail(claimed(queue, at(1)), "InvalidInput: no", at(2), permanent=True)
    retried = queue.retry("t1", submitted.id, at(3))
    assert retried is not None
    assert (retried.status, retried.attempts) == ("queued", 0)
    assert queue.failed("t1") == []
    job = claimed(queue, at(4))
    assert (job.id, job.attempts) == (submitted.id, 1)
    assert queue.retry("t1", submitted.id, at(5)) is None  # not parked (running): nothing to retry
    assert state(queue, submitted.id).status == "running"
    assert queue.retry("t1", "no-such-job", at(5)) is None


def test_parked_jobs_are_listed_newest_first(queue: JobQueue) -> None:
    for n in range(3):
        queue.submit("t1", {"n": n}, at(n))
    for n in range(3):
        queue.fail(claimed(queue, at(10 + n)), f"E: {n}", at(10 + n), permanent=True)
    assert [s.error for s in queue.failed("t1")] == ["E: 2", "E: 1", "E: 0"]
    assert [s.error for s in queue.failed("t1", limit=2)] == ["E: 2", "E: 1"]


def test_stats_count_the_depth_the_parked_and_the_lag(queue: JobQueue) -> None:
    empty = queue.stats(at(0))
    assert (empty.depth, empty.failed, empty.oldest_age_seconds) == (0, 0, 0.0)
    for n in range(3):
        queue.submit("t1", {"n": n}, at(n))
    claimed(queue, at(5))  # running still counts
    queue.fail(claimed(queue, at(5)), "E: x", at(5), permanent=True)
    stats = queue.stats(at(30))
    assert (stats.depth, stats.failed) == (2, 1)
    assert stats.oldest_age_seconds == pytest.approx(30.0)


def test_a_submitted_job_survives_a_new_connection(make_queue: MakeQueue) -> None:
    before = make_queue()
    submitted, _ = before.submit("t1", {"n": 1}, at(0))
    before.close()
    assert claimed(make_queue(), at(1)).id == submitted.id


def test_a_payload_that_is_not_json_is_refused(queue: JobQueue) -> None:
    with pytest.raises(InvalidInput):
        queue.submit("t1", {"when": T0}, at(0))
    assert queue.stats(at(0)).depth == 0


# -- adapters --------------------------------------------------------------------------------------


def test_open_queue_picks_the_adapter_from_the_url(tmp_path: Path, redis_url: str) -> None:
    default = open_queue(None, str(tmp_path / "a.jobs.db"))
    plain = open_queue(str(tmp_path / "b.jobs.db"), "unused")
    on_redis = open_queue(redis_url, "unused")
    by_url = open_queue(f"sqlite:///{tmp_path}/c.jobs.db", "unused")  # four slashes: an absolute path
    assert isinstance(default, SQLiteJobQueue)
    assert default.path == str(tmp_path / "a.jobs.db")
    assert isinstance(plain, SQLiteJobQueue)
    assert plain.path == str(tmp_path / "b.jobs.db")
    assert isinstance(by_url, SQLiteJobQueue)
    assert by_url.path == str(tmp_path / "c.jobs.db")
    assert isinstance(on_redis, RedisJobQueue)
    for queue in (default, plain, by_url, on_redis):
        queue.ping()
        queue.close()
    with pytest.raises(InvalidInput):
        open_queue(":memory:", "unused")  # a worker in another process could never see it
    with pytest.raises(InvalidInput):
        open_queue("amqp://broker/", "unused")


def test_an_unreachable_redis_is_store_unavailable() -> None:
    queue = RedisJobQueue(f"redis://127.0.0.1:{stores.closed_port()}/0", timeout=0.5)
    with pytest.raises(StoreUnavailable):
        queue.ping()
    with pytest.raises(StoreUnavailable):
        queue.submit("t1", {"n": 1}, at(0))
    with pytest.raises(StoreUnavailable):
        queue.claim("w1", at(0))
    queue.close()


@pytest.fixture
def raw(redis_server: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server, decode_responses=True)
    yield client
    client.close()


def test_the_redis_stream_holds_only_due_work_and_finished_jobs_expire(
    redis_url: str, raw: redis.Redis
) -> None:
    queue = RedisJobQueue(redis_url, max_attempts=2, keep_seconds=3600)
    ns = f"{queue.prefix}{{jobs}}:"
    done, _ = queue.submit("t1", {"n": 1}, at(0), idempotency_key="k")
    parked, _ = queue.submit("t1", {"n": 2}, at(0))
    queue.complete(claimed(queue, at(1)), {}, at(1))
    queue.fail(claimed(queue, at(1)), "E: x", at(1))  # requeued: a new entry, the old one gone
    assert raw.xlen(ns + "stream") == 1
    queue.fail(claimed(queue, at(2)), "E: x", at(2))
    assert raw.xlen(ns + "stream") == 0
    assert 0 < int(raw.pttl(ns + "job:" + done.id)) <= 3_600_000
    assert 0 < int(raw.pttl(f"{ns}idem:{scope_token('t1')}:{key_digest('k')}")) <= 3_600_000
    assert int(raw.pttl(ns + "job:" + parked.id)) == -1  # parked jobs wait for people
    queue.close()


def test_sqlite_drops_done_jobs_and_their_keys_after_the_keep_window(tmp_path: Path) -> None:
    queue = SQLiteJobQueue(tmp_path / "q.jobs.db", keep_seconds=60)
    old, _ = queue.submit("t1", {"n": 1}, at(0), idempotency_key="k")
    queue.complete(claimed(queue, at(1)), {}, at(1))
    queue.submit("t1", {"n": 2}, at(100))
    queue.complete(claimed(queue, at(100)), {}, at(100))
    assert queue.get("t1", old.id) is None
    assert queue.submit("t1", {"n": 3}, at(101), idempotency_key="k")[1]  # the key is free again
    queue.close()


# -- the worker, in-process ------------------------------------------------------------------------


def handled(result: dict[str, Any] | None = None, error: Exception | None = None) -> Callable[[Job], Any]:
    def handle(job: Job) -> Any:
        if error is not None:
            raise error
        return result if result is not None else {"n": job.payload["n"]}

    return handle


def test_the_worker_records_the_handlers_result(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"n": 7}, at(0))
    worker = Worker(queue, handled(), "w1")
    assert worker.run_once(at(1))
    assert not worker.run_once(at(2))
    assert (state(queue, submitted.id).status, state(queue, submitted.id).result) == ("done", {"n": 7})


def test_the_worker_parks_a_poisoned_job_after_max_attempts(
    queue: JobQueue, caplog: pytest.LogCaptureFixture
) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    worker = Worker(queue, handled(error=RuntimeError("boom")), "w1")
    with caplog.at_level(logging.WARNING, logger="memlane.worker"):
        while worker.run_once(at(1)):
            pass
    parked = state(queue, submitted.id)
    assert (parked.status, parked.attempts, parked.error) == ("failed", 3, "RuntimeError: boom")
    assert queue.failed("t1") == [parked]
    assert any("parked after 3 attempts" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    "handler",
    [handled(error=InvalidInput("user_id is empty")), handled(result={"when": T0})],
    ids=["invalid-input", "result-not-json"],
)
def test_a_job_that_can_never_succeed_is_parked_at_once(
    queue: JobQueue, handler: Callable[[Job], Any]
) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    assert Worker(queue, handler, "w1").run_once(at(1))
    parked = state(queue, submitted.id)
    assert (parked.status, parked.attempts) == ("failed", 1)
    assert parked.error is not None
    assert parked.error.startswith("InvalidInput: ")


def test_a_store_outage_requeues_the_job_and_the_loop_backs_off(queue: JobQueue) -> None:
    submitted, _ = queue.submit("t1", {"n": 1}, at(0))
    worker = Worker(queue, handled(error=StoreUnavailable("PostgreSQL is down")), "w1")
    with pytest.raises(StoreUnavailable):  # run() treats this like an unreachable queue: it waits
        worker.run_once(at(1))
    again = state(queue, submitted.id)
    assert (again.status, again.error) == ("queued", "StoreUnavailable: PostgreSQL is down")


def test_a_worker_thread_handles_jobs_until_stopped(queue: JobQueue) -> None:
    ids = [queue.submit("t1", {"n": n}, at(n))[0].id for n in range(5)]
    thread, stop = start_thread(Worker(queue, handled(), "w1", poll_seconds=0.02))
    try:
        wait_for(lambda: all(state(queue, i).status == "done" for i in ids))
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_traffic_reports_a_lull_only_when_no_request_is_in_flight() -> None:
    traffic = Traffic()
    assert traffic.wait_for_lull(0)
    traffic.begin()
    traffic.begin()
    traffic.end()
    assert (traffic.in_flight, traffic.wait_for_lull(0.01)) == (1, False)
    traffic.end()
    assert (traffic.in_flight, traffic.wait_for_lull(0)) == (0, True)


def test_a_worker_lets_requests_in_flight_go_first(queue: JobQueue) -> None:
    traffic = Traffic()
    traffic.begin()  # a request is being answered
    submitted, _ = queue.submit("t1", {"n": 1}, utcnow())  # the run loop reads the clock
    worker = Worker(queue, handled(), "w1", poll_seconds=0.02, traffic=traffic, max_defer=60)
    thread, stop = start_thread(worker)
    try:
        time.sleep(0.3)
        assert state(queue, submitted.id).status == "queued"
        traffic.end()
        wait_for(lambda: state(queue, submitted.id).status == "done")
    finally:
        stop.set()
        thread.join(10)


def test_a_job_queued_long_enough_ago_does_not_wait_for_a_lull(queue: JobQueue) -> None:
    traffic = Traffic()
    traffic.begin()  # requests that never pause
    young, _ = queue.submit("t1", {"n": 1}, utcnow())
    old, _ = queue.submit("t1", {"n": 2}, utcnow() - timedelta(seconds=61))
    worker = Worker(queue, handled(), "w1", poll_seconds=0.02, traffic=traffic, max_defer=60, max_lag=60)
    thread, stop = start_thread(worker)
    try:
        # the queue is a minute behind: both go at once, though requests never pause
        wait_for(lambda: state(queue, old.id).status == state(queue, young.id).status == "done")
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()


def test_under_sustained_requests_the_queue_still_moves(queue: JobQueue) -> None:
    traffic = Traffic()
    traffic.begin()  # never ends
    ids = [queue.submit("t1", {"n": n}, at(n))[0].id for n in range(3)]
    worker = Worker(queue, handled(), "w1", poll_seconds=0.02, traffic=traffic, max_defer=0.05)
    thread, stop = start_thread(worker)
    try:
        wait_for(lambda: all(state(queue, i).status == "done" for i in ids))
    finally:
        stop.set()
        thread.join(10)


def test_a_beacon_tells_the_workers_of_its_host_while_requests_are_served(redis_url: str) -> None:
    queue = RedisJobQueue(redis_url)
    traffic = Traffic()
    beacon = Beacon(queue, traffic, "api-host", every=0.02)
    here, elsewhere = HostTraffic(queue, "api-host", poll=0.01), HostTraffic(queue, "other-host")
    stop = threading.Event()
    thread = threading.Thread(target=beacon.run, args=(stop,), daemon=True)
    thread.start()
    try:
        assert here.wait_for_lull(0)  # no request yet
        traffic.begin()
        wait_for(lambda: queue.serving("api-host"))
        started = time.monotonic()
        assert not here.wait_for_lull(0.2)  # a request in flight: the worker waits out max_wait
        assert time.monotonic() - started >= 0.2
        assert elsewhere.wait_for_lull(0)  # another host's worker never waits for this one
        traffic.end()
        assert here.wait_for_lull(5)  # the mark runs out soon after the last request
        traffic.begin()
        traffic.end()  # a request that began and ended between two beats still counts
        wait_for(lambda: queue.serving("api-host"))
    finally:
        stop.set()
        thread.join(10)
        queue.close()
    assert not thread.is_alive()


def test_a_worker_waits_for_its_hosts_requests_but_not_when_told_never_to(redis_url: str) -> None:
    queue = RedisJobQueue(redis_url)
    queue.mark_serving("api-host", 60)  # the API on this host is busy for the whole test
    submitted, _ = queue.submit("t1", {"n": 1}, utcnow())
    traffic = HostTraffic(queue, "api-host", poll=0.01)
    waiting = Worker(queue, handled(), "w1", poll_seconds=0.02, traffic=traffic, max_defer=60)
    thread, stop = start_thread(waiting)
    time.sleep(0.3)
    stop.set()
    thread.join(1)  # a worker told to stop does not sit out the rest of its wait
    assert not thread.is_alive()
    assert state(queue, submitted.id).status == "queued"
    eager = Worker(queue, handled(), "w2", poll_seconds=0.02, traffic=traffic, max_defer=0)
    thread, stop = start_thread(eager)
    try:
        wait_for(lambda: state(queue, submitted.id).status == "done")
    finally:
        stop.set()
        thread.join(10)
        queue.close()


def test_a_host_whose_queue_is_unreachable_does_not_hold_its_worker() -> None:
    queue = RedisJobQueue(f"redis://127.0.0.1:{stores.closed_port()}/0", timeout=0.5)
    assert HostTraffic(queue, "api-host").wait_for_lull(60)  # at once: claiming will report it
    queue.close()


def test_the_worker_loop_waits_out_an_unreachable_queue(caplog: pytest.LogCaptureFixture) -> None:
    queue = RedisJobQueue(f"redis://127.0.0.1:{stores.closed_port()}/0", timeout=0.5)
    worker = Worker(queue, handled(), "w1", poll_seconds=0.01, max_backoff=0.02)
    with caplog.at_level(logging.WARNING, logger="memlane.worker"):
        thread, stop = start_thread(worker)
        wait_for(lambda: any("unreachable" in r.getMessage() for r in caplog.records))
        time.sleep(0.2)  # many more failed claims: still one warning, still running
        assert thread.is_alive()
        stop.set()
        thread.join(10)
    assert not thread.is_alive()
    assert sum("unreachable" in r.getMessage() for r in caplog.records) == 1
    queue.close()


# -- workers as processes --------------------------------------------------------------------------

# A worker process. Its handler logs each start and end, and hangs on the first delivery of a job
# marked "hang", so the test can kill the worker while it is certainly mid-job.
WORKER = """
import sys, threading, time
from memlane.service.queue import open_queue
from memlane.service.worker import Worker

url, log_path, consumer, lease = sys.argv[1:5]
queue = open_queue(url, url, lease_seconds=float(lease))

def note(line):
    with open(log_path, "a") as log:
        log.write(line + "\\n")

def handle(job):
    note(f"start {job.payload['n']} {job.attempts}")
    if job.payload.get("hang") and job.attempts == 1:
        time.sleep(3600)
    time.sleep(0.01)
    note(f"end {job.payload['n']} {job.attempts}")
    return {"n": job.payload["n"], "by": consumer}

Worker(queue, handle, consumer, poll_seconds=0.05).run(threading.Event())
"""


def spawn(url: str, log: Path, consumer: str, lease: float) -> subprocess.Popen[bytes]:
    errors = log.with_name(f"{consumer}.stderr")
    with errors.open("wb") as sink:
        return subprocess.Popen(
            [sys.executable, "-c", WORKER, url, str(log), consumer, str(lease)], stderr=sink
        )


def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(10)


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting after {timeout} s")
        time.sleep(0.05)


def lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_a_worker_killed_mid_job_loses_nothing(queue_url: str, make_queue: MakeQueue, tmp_path: Path) -> None:
    queue = make_queue()
    ids = [queue.submit("t1", {"n": n, "hang": n == 5}, at(n))[0].id for n in range(12)]
    log = tmp_path / "handled.log"
    first = spawn(queue_url, log, "w1", lease=1.0)
    try:
        wait_for(lambda: "start 5 1" in lines(log))
        assert state(queue, ids[5]).status == "running"
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        second = spawn(queue_url, log, "w2", lease=1.0)
        try:
            wait_for(lambda: all(state(queue, i).status == "done" for i in ids))
        finally:
            stop_process(second)
    finally:
        stop_process(first)
    ended = {int(line.split()[1]) for line in lines(log) if line.startswith("end")}
    assert ended == set(range(12))  # at least once: every job, none lost
    rescued = state(queue, ids[5])
    assert (rescued.attempts, rescued.result) == (2, {"n": 5, "by": "w2"})


def test_two_workers_never_take_the_same_job(queue_url: str, make_queue: MakeQueue, tmp_path: Path) -> None:
    queue = make_queue()
    ids = [queue.submit("t1", {"n": n}, at(n))[0].id for n in range(30)]
    log = tmp_path / "handled.log"
    workers = [spawn(queue_url, log, f"w{n}", lease=60.0) for n in range(2)]
    try:
        wait_for(lambda: all(state(queue, i).status == "done" for i in ids))
    finally:
        for worker in workers:
            stop_process(worker)
    started = sorted(int(line.split()[1]) for line in lines(log) if line.startswith("start"))
    assert started == list(range(30))  # each exactly once: no lease ran out, no double claim
