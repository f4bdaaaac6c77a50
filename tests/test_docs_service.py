"""The service steps of README.md and the requests of docs/service.md, run as written: in a fresh
home (HOME and the XDG directories in a temporary directory, no data directory yet), with a real
``memlane serve`` process on a free port, through bash and curl.

Each shell line runs as written, with two liberties: the documented port (8000) becomes a free one,
and the server line's ``&`` is this test's ``Popen`` (so that the test can wait for the server and
stop it). Variables a line sets (``KEY=$(memlane keys create ...)``) are there for the lines after
it. A ``# 202 {"job_id": ...}`` comment after a request says what it answers: the test checks that
the answer is JSON with that first field (or, for a bare status such as ``# 204``, that the line
printed it).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
_EXPECT = re.compile(r"^# (\d{3})(?: (\{.*))?$")


@dataclass
class Step:
    """One shell line, and what the comment after it says it answers."""

    line: str
    status: str | None = None
    first_field: str | None = None


def steps(block: str) -> list[Step]:
    """The lines of a ``bash`` block (continuations joined, comments after ``#`` on their own line
    read as expectations of the line before)."""
    out: list[Step] = []
    pending = ""
    for raw in block.splitlines():
        stripped = raw.strip()
        expected = _EXPECT.match(stripped)
        if expected and out:
            out[-1].status = expected.group(1)
            if expected.group(2):
                found = re.match(r'\{"(\w+)"', expected.group(2))
                out[-1].first_field = found.group(1) if found else None
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if uncommented(stripped).endswith("\\"):
            pending += uncommented(stripped)[:-1] + " "
            continue
        out.append(Step(uncommented(pending + stripped)))
        pending = ""
    return out


def uncommented(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` after a blank, outside quotes)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line


def bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class Shell:
    """Runs lines one after another in bash, carrying variables from one line to the next."""

    def __init__(self, home: Path) -> None:
        self.home = home
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMLANE_", "XDG_"))}
        bin_dir = str(Path(sys.executable).parent)  # where `memlane` is installed
        env.update(
            HOME=str(home),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            XDG_STATE_HOME=str(home / ".local" / "state"),
            PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            MEMLANE_EMBED_THREADS="1",
        )
        self.env = env
        self.servers: list[subprocess.Popen[bytes]] = []

    def run(self, line: str) -> str:
        """Run ``line``; return what it printed, keep what it exported or assigned."""
        dump = self.home / ".env-after"
        script = f"set -a\n{line}\nstatus=$?\nenv -0 > {shlex.quote(str(dump))}\nexit $status\n"
        done = subprocess.run(
            ["bash", "-c", script], env=self.env, capture_output=True, timeout=300, check=False
        )
        assert done.returncode == 0, f"{line}\n{done.stderr.decode(errors='replace')}"
        pairs = (item.split("=", 1) for item in dump.read_bytes().decode().split("\0") if "=" in item)
        self.env = {
            k: v for k, v in pairs if not k.startswith("BASH_FUNC_") and k not in ("_", "SHLVL", "PWD")
        }
        return done.stdout.decode()

    def serve(self, line: str, port: int) -> None:
        """Start the ``... &`` line as a process of its own, and wait until it answers."""
        command = line.rstrip("&").strip()
        log = self.home / "serve.log"
        with log.open("ab") as err:  # a file, not a pipe: the server's log lines must never block it
            proc = subprocess.Popen(["bash", "-c", f"exec {command}"], env=self.env, stdout=err, stderr=err)
        self.servers.append(proc)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    pass
                ready = subprocess.run(
                    ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"localhost:{port}/healthz"],
                    capture_output=True,
                    check=False,
                )
                if ready.stdout == b"200":
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{command} did not answer within two minutes")

    def close(self) -> None:
        for proc in self.servers:
            proc.terminate()
            proc.wait(timeout=60)


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    home = tmp_path / "home"
    home.mkdir()
    opened = Shell(home)
    yield opened
    opened.close()


def run_as_written(shell: Shell, blocks: list[str]) -> list[tuple[Step, str]]:
    port = free_port()
    answers = []
    for block in blocks:
        for step in steps(block):
            line = step.line.replace("8000", str(port))
            if line.endswith("&"):
                shell.serve(line, port)
                continue
            out = shell.run(line)
            answers.append((step, out))
            if step.status is None:
                continue
            if step.first_field is None:
                assert out.strip() == step.status, (line, out)
                continue
            body = json.loads(out)
            assert step.first_field in body, (line, out[:300])
    return answers


def wait_for_job(shell: Shell, job_id: str, port_line: str) -> None:
    """Poll the job the README queued until it is done (the README's reader waits a moment too)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        out = shell.run(port_line.replace("JOB", job_id))
        if json.loads(out)["status"] == "done":
            return
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish")


def test_the_readme_service_steps_run_as_written_in_a_fresh_home(shell: Shell) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = bash_blocks(readme.split("## As a service", 1)[1])[0]
    lines = steps(block)
    assert [s.line.split()[0] for s in lines][:2] == ["KEY=$(memlane", "memlane"]
    assert not (shell.home / ".local" / "share").exists()  # no data directory yet
    port = free_port()
    shell.run(lines[0].line)
    assert shell.env["KEY"].startswith("mlk_")
    shell.serve(lines[1].line.replace("8000", str(port)), port)
    queued = json.loads(shell.run(lines[2].line.replace("8000", str(port))))
    assert queued["status"] == "queued", queued
    auth = f'curl -s localhost:{port}/v1/jobs/JOB -H "Authorization: Bearer $KEY"'
    wait_for_job(shell, queued["job_id"], auth)
    found = json.loads(shell.run(lines[3].line.replace("8000", str(port))))
    assert any("美式" in hit["memory"]["text"] for hit in found["results"]), found
    files = sorted(p.name for p in (shell.home / ".local" / "share" / "memlane").iterdir())
    assert {"memlane.db", "memlane.jobs.db", "memlane.keys.db"} <= set(files)


def test_the_requests_of_docs_service_run_as_written(shell: Shell) -> None:
    text = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    blocks = [b for b in bash_blocks(text.split("## Routes", 1)[0]) if "memlane" in b or "curl" in b]
    answers = run_as_written(shell, blocks)
    checked = [step for step, _ in answers if step.status is not None]
    assert len(checked) >= 12  # every documented request says what it answers, and was checked
    exported = next(json.loads(out) for step, out in answers if "/v1/export" in step.line)
    assert exported["user_id"] == "u1"
    assert "客户偏好电话联系" not in json.dumps(exported)  # deleted by the DELETE above
