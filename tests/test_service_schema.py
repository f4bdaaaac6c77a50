"""Property tests over the OpenAPI schema (schemathesis) against the live service: uvicorn on a free
port, the real embedded store, the real embedder, requests over TCP. Whatever a client sends within
or around the schema (positive and negative cases), the service answers without a 5xx, with a
status the route documents, and every error has the documented shape. About a minute in all.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import status_code_conformance

from memlane import Settings
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings

pytestmark = pytest.mark.slow

# The same examples on every run, so that a change never fails on an input the fuzzer happened to
# find that day; MEMLANE_FUZZ_EXAMPLES=N explores N fresh random examples per route and mode instead.
_EXPLORE = int(os.environ.get("MEMLANE_FUZZ_EXAMPLES", "0"))
_EXAMPLES = {GenerationMode.POSITIVE: 40, GenerationMode.NEGATIVE: 40}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The base URL of the running service and a key of tenant ``fuzz``."""
    folder: Path = tmp_path_factory.mktemp("schema")
    config = ServiceSettings(
        rate_limit=10_000,
        rate_burst=10_000,
        auth_failure_rate=10_000,  # negative cases send bad keys: they must not lock the good one out
        auth_failure_burst=10_000,
        maintain_every_minutes=0,
    )
    app = create_app(Settings(path=str(folder / "schema.db")), config)
    key = app.state.memlane.keys.create("fuzz", now=utcnow()).secret
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive(), "the service did not start"
        assert time.monotonic() < deadline, "the service did not start in a minute"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", key
    finally:
        server.should_exit = True
        thread.join(30)


def operations(base_url: str) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{base_url}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def test_the_schema_covers_every_route(live: tuple[str, str]) -> None:
    labels = {op.label for op in operations(live[0])}
    assert len(labels) >= 20
    assert "POST /v1/messages" in labels


def test_no_request_gets_a_server_error_or_an_undocumented_status(live: tuple[str, str]) -> None:
    base_url, key = live
    failures: list[str] = []
    with requests.Session() as session:
        for operation in operations(base_url):
            for mode, examples in _EXAMPLES.items():
                check = _checker(operation, mode, examples, base_url, key, session, failures)
                try:
                    check()
                except Unsatisfiable:  # nothing to make invalid (a route without parameters)
                    assert mode is GenerationMode.NEGATIVE, operation.label
    assert not failures, "\n".join(dict.fromkeys(failures))


def _checker(
    operation: Any,
    mode: GenerationMode,
    examples: int,
    base_url: str,
    key: str,
    session: requests.Session,
    failures: list[str],
) -> Any:
    """A hypothesis test sending ``operation``'s cases of ``mode`` and collecting what fails."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=_EXPLORE or examples,
        derandomize=not _EXPLORE,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def check(case: Any) -> None:
        headers = {"Authorization": f"Bearer {key}"}
        response = case.call(base_url=base_url, session=session, headers=headers, timeout=60)
        where = f"{case.method} {case.formatted_path} ({mode.value})"
        try:
            case.validate_response(response, checks=[not_a_server_error, status_code_conformance])
        except FailureGroup as group:  # collected: one run reports every route that fails
            failures.extend(f"{where}: {f.title}: {str(f)[:300]}" for f in group.exceptions)
            return
        except Failure as failure:
            failures.append(f"{where}: {failure.title}: {str(failure)[:300]}")
            return
        if response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
            error = response.json().get("error")
            if not (isinstance(error, dict) and error.get("code") and "request_id" in error):
                failures.append(f"{where}: not the error shape: {response.text[:200]}")

    return check
