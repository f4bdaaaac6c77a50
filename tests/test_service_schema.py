"""Property tests over the OpenAPI schema (schemathesis): whatever a client sends within or around
the schema, the service answers without a 5xx, and every error has the documented shape."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from memlane import Settings
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("schema")
    config = ServiceSettings(rate_limit=10_000, rate_burst=10_000)
    with TestClient(create_app(Settings(path=str(folder / "schema.db")), config)) as c:
        yield c


@pytest.fixture(scope="module")
def key(client: TestClient) -> str:
    secret: str = client.app.state.memlane.keys.create("fuzz", now=utcnow()).secret  # type: ignore[attr-defined]
    return secret


# The same examples on every run, so that a change never fails on an input the fuzzer happened to
# find that day; MEMLANE_FUZZ_EXAMPLES=N explores N fresh random examples per route instead.
_EXPLORE = int(os.environ.get("MEMLANE_FUZZ_EXAMPLES", "0"))


def operations(client: TestClient) -> list[Any]:
    # requests go through our one client (one app lifespan), not a new ASGI client per call
    schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    return [result.ok() for result in schema.get_all_operations()]


def test_the_schema_covers_every_route(client: TestClient) -> None:
    labels = {op.label for op in operations(client)}
    assert len(labels) >= 20
    assert "POST /v1/messages" in labels


def test_no_request_gets_a_server_error(client: TestClient, key: str) -> None:
    for operation in operations(client):

        @given(case=operation.as_strategy())
        @settings(
            max_examples=_EXPLORE or 25,
            derandomize=not _EXPLORE,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def check(case: Any) -> None:
            request = case.as_transport_kwargs(base_url="http://testserver")
            request["headers"]["Authorization"] = f"Bearer {key}"
            request.pop("cookies", None)  # the API reads none
            response = client.request(**request)
            where = f"{case.method} {case.formatted_path}"
            assert response.status_code < 500, f"{where}: {response.text[:300]}"
            if response.status_code >= 400 and response.headers.get("content-type") == "application/json":
                assert response.json()["error"]["code"], where

        check()
