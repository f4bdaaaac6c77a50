"""Real memlane processes for the agent-surface tests: ``memlane serve`` or ``memlane proxy`` on a
free port, in a temporary data directory and a temporary home, with API keys made by the CLI."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from memlane.clock import utcnow
from memlane.service.keys import open_keys

MEMLANE = str(Path(sys.executable).with_name("memlane"))


def free_port() -> int:
    """A port nothing listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(home: Path, **extra: str) -> dict[str, str]:
    """The process environment: a home and data directory of the test's own, no inherited MEMLANE_*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), MEMLANE_PATH=str(home / "memlane.db"))
    env.update(MEMLANE_EMBED_INSTANCES="1")  # one model to load: the tests send one request at a time
    env.update(extra)
    return env


def create_key(env: dict[str, str], tenant: str, user: str | None = None) -> str:
    """A new API key of ``tenant`` (of its one ``user`` if given) in the key file ``memlane keys
    create`` would use for ``env``."""
    keys = open_keys(str(Path(env["MEMLANE_PATH"]).with_name("memlane.keys.db")))
    try:
        return keys.create(tenant, user=user, now=utcnow()).secret
    finally:
        keys.close()


@dataclass
class Running:
    """A started memlane process and where it answers."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        """What it printed so far (for a failing assertion's message)."""
        return self.log.read_text(errors="replace")


@contextmanager
def memlane_process(
    args: list[str], env: dict[str, str], log: Path, timeout: float = 60.0
) -> Iterator[Running]:
    """``memlane <args> --port <free>`` until it answers ``/healthz``; stopped (SIGTERM) afterwards."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen([MEMLANE, *args, "--port", str(port)], env=env, stdout=out, stderr=out)
    running = Running(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"memlane {args[0]} exited: {running.output()}")
            try:
                if httpx.get(f"{running.url}/healthz", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"memlane {args[0]} did not start: {running.output()}")
            time.sleep(0.1)
        yield running
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
