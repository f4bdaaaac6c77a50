"""A real ``memlane serve`` process on a free port with its own data directory, and Debian's Chromium
driven by Playwright: for the memory page's browser tests and ``benchmarks/web_paint.py``.

The browser is the system's (``/usr/bin/chromium``, installed by ``make install`` through
``deploy/browser.sh``); nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
_CLI = [sys.executable, "-c", "from memlane.cli import main; main()"]


def free_port() -> int:
    """A TCP port nothing listens on now (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A running service: its base URL, an API key of tenant ``acme``, and the CLI on its data."""

    def __init__(self, url: str, env: dict[str, str], key: str) -> None:
        self.url, self.env, self.key = url, env, key
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60)

    def cli(self, *args: str) -> str:
        """Run ``memlane ARGS`` on the server's data; its standard output."""
        done = subprocess.run([*_CLI, *args], env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"memlane {' '.join(args)} failed: {done.stderr}")
        return done.stdout.strip()

    def link(self, user: str, hours: float = 2) -> str:
        """A link to ``user``'s page, made through the API (``POST /v1/links``)."""
        response = self.http.post("/v1/links", json={"user_id": user, "hours": hours})
        assert response.status_code == 201, response.text
        url: str = response.json()["url"]
        return url

    def cli_link(self, user: str, hours: float = 2) -> str:
        """A link to ``user``'s page, made with ``memlane link create`` (a process of its own)."""
        return self.cli(
            "link", "create", "--tenant", "acme", "--user", user, "--hours", str(hours), "--url", self.url
        )

    def say(self, user: str, *texts: str, session: str = "s1") -> list[dict[str, Any]]:
        """Write user turns through the API (processed inline); the decisions."""
        messages = [{"role": "user", "content": t} for t in texts]
        body = {"user_id": user, "session_id": session, "messages": messages}
        response = self.http.post("/v1/messages", params={"wait": "true"}, json=body)
        assert response.status_code == 200, response.text
        decisions: list[dict[str, Any]] = response.json()["decisions"]
        return decisions

    def get(self, path: str, **params: Any) -> Any:
        """A GET through the API with the key; the JSON."""
        response = self.http.get(path, params=params)
        assert response.status_code == 200, response.text
        return response.json()


@contextmanager
def serve(folder: Path, **env: str) -> Iterator[Server]:
    """``memlane serve`` on a free port over a fresh database in ``folder``, until the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    environment = {
        **os.environ,
        "MEMLANE_PATH": str(folder / "memlane.db"),
        "MEMLANE_RATE_LIMIT": "1000",
        "MEMLANE_RATE_BURST": "1000",
        "MEMLANE_MAINTAIN_EVERY_MINUTES": "0",
        **env,
    }
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    key = _key(folder / "memlane.db")
    log = (folder / "serve.log").open("w")
    command = [*_CLI, "serve", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"memlane serve did not start: {(folder / 'serve.log').read_text()}")
            time.sleep(0.2)
        server = Server(url, environment, key)
        yield server
        server.http.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _key(database: Path) -> str:
    """A key of tenant ``acme`` in the key database the service will open (what ``memlane keys
    create`` does, without starting a process for it)."""
    from memlane import Settings
    from memlane.clock import utcnow
    from memlane.service.app import keys_location
    from memlane.service.config import ServiceSettings
    from memlane.service.keys import open_keys

    keys = open_keys(keys_location(Settings(path=str(database)), ServiceSettings(keys=None)))
    try:
        return keys.create("acme", name="tests", now=utcnow()).secret
    finally:
        keys.close()


def launch(playwright: Any, **options: Any) -> Any:
    """Debian's Chromium, headless, on a fresh profile (a persistent context over a new directory)."""
    profile = tempfile.mkdtemp(prefix="memlane-chromium-")
    return playwright.chromium.launch_persistent_context(
        profile,
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        **options,
    )


def decoded(token: str) -> dict[str, Any]:
    """The claims of a signed token (for forging tests): base64url JSON before the dot."""
    import base64

    body = token.split(".")[0]
    claims: dict[str, Any] = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    return claims
