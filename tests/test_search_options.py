"""One set of search options for the Python API, the CLI and the REST API: the same cases give the
same hits through all three, and the same bad values fail the same way (one line, or a 422)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from memlane import InvalidInput, Memory, SearchOptions, Settings
from memlane.cli import main
from memlane.clock import utcnow
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.routes.deps import ServiceState

QUERY = "what does the user drink and how to contact them"
CONVERSATIONS = [
    (
        "s1",
        [
            {"role": "user", "content": "我喜欢喝美式咖啡", "at": "2025-01-10T09:00:00+00:00", "id": "m1"},
            {
                "role": "user",
                "content": "I prefer email over phone calls",
                "at": "2025-01-10T09:01:00+00:00",
                "id": "m2",
            },
        ],
    ),
    (
        "s2",
        [
            {
                "role": "user",
                "content": "My favourite drink is green tea",
                "at": "2025-03-05T10:00:00+00:00",
                "id": "m3",
            },
            {
                "role": "user",
                "content": "I just adopted a dog named Rex",
                "at": "2025-03-05T10:01:00+00:00",
                "id": "m4",
            },
        ],
    ),
]
REMEMBERED = {
    "text": "客户偏好邮件联系",
    "kind": "semantic",
    "tags": ["contact"],
    "at": "2025-02-01T08:00:00+00:00",
}

Hit = dict[str, Any]  # a hit as JSON: {"memory": {...}, "score": ...}


def _when(hit: Hit) -> str:
    memory = hit["memory"]
    return str(memory["valid_from"] or memory["created_at"])


# each case, and what every hit it returns must show
CASES: list[Any] = [
    pytest.param({}, lambda h: True, id="defaults"),
    pytest.param({"limit": 2}, lambda h: True, id="limit"),
    pytest.param(
        {"kinds": ["semantic", "profile"]},
        lambda h: h["memory"]["kind"] in ("semantic", "profile"),
        id="kinds",
    ),
    pytest.param({"kinds": ["log"]}, lambda h: h["memory"]["kind"] == "log", id="log-only"),
    pytest.param({"include_log": False}, lambda h: h["memory"]["kind"] != "log", id="no-log"),
    pytest.param({"tags": ["contact"]}, lambda h: "contact" in h["memory"]["tags"], id="tags"),
    pytest.param({"from_session": "s2"}, lambda h: h["memory"]["session_id"] == "s2", id="session"),
    pytest.param({"since": "2025-03-01T00:00:00+00:00"}, lambda h: _when(h) >= "2025-03-01", id="since"),
    pytest.param({"until": "2025-02-15T00:00:00+00:00"}, lambda h: _when(h) < "2025-02-15", id="until"),
    pytest.param({"min_score": 0.5}, lambda h: h["score"] >= 0.5, id="min-score"),
]
BAD: list[Any] = [
    pytest.param({"limit": 0}, "limit=0 is not valid: expected greater than or equal to 1", id="limit-0"),
    pytest.param(
        {"kinds": ["nonsense"]}, "kinds=['nonsense'] is not valid: expected 'semantic', ", id="kind"
    ),
    pytest.param(
        {"min_score": 2.0}, "min_score=2.0 is not valid: expected less than or equal to 1", id="min-score"
    ),
    pytest.param(
        {"since": "yesterday"}, "since='yesterday' is not valid: expected a valid datetime", id="since"
    ),
]


def _flags(options: dict[str, Any]) -> list[str]:
    """The CLI's flags for ``options``: one per value (a list repeats its flag), a bool as --x/--no-x."""
    flags = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else flag.replace("--", "--no-", 1))
        elif isinstance(value, list):
            flags += [part for v in value for part in (flag.removesuffix("s").replace("ie", "y"), str(v))]
        else:
            flags += [flag, str(value)]
    return flags


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("options") / "api.db")
    with Memory(path) as mem:
        for session_id, messages in CONVERSATIONS:
            dated = [{**m, "at": datetime.fromisoformat(m["at"])} for m in messages]
            mem.add(dated, user_id="u1", session_id=session_id)
        at = REMEMBERED["at"]
        mem.remember(
            REMEMBERED["text"],
            user_id="u1",
            kind="semantic",
            tags=REMEMBERED["tags"],
            at=datetime.fromisoformat(at),
        )
    return path


@pytest.fixture(scope="module")
def rest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[dict[str, Any]], Any]]:
    path = str(tmp_path_factory.mktemp("options-rest") / "svc.db")
    app = create_app(Settings(path=path), ServiceSettings(rate_limit=1000, rate_burst=1000))
    with TestClient(app) as client:
        state: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
        headers = {"Authorization": f"Bearer {state.keys.create('acme', now=utcnow()).secret}"}
        for session_id, messages in CONVERSATIONS:
            body = {"user_id": "u1", "session_id": session_id, "messages": messages}
            assert (
                client.post("/v1/messages", json=body, params={"wait": "true"}, headers=headers).status_code
                == 200
            )
        assert (
            client.post("/v1/memories", json={"user_id": "u1", **REMEMBERED}, headers=headers).status_code
            == 201
        )

        def search(options: dict[str, Any]) -> Any:
            return client.post(
                "/v1/search", json={"user_id": "u1", "query": QUERY, **options}, headers=headers
            )

        yield search


def _python(db: str, options: dict[str, Any]) -> list[Hit]:
    with Memory(db) as mem:
        given = mem.search(QUERY, user_id="u1", options=SearchOptions(**options))
        assert mem.search(QUERY, user_id="u1", **options) == given  # the keywords are the same options
    return [{"memory": h.memory.to_dict(), "score": h.score} for h in given]


def _cli(db: str, options: dict[str, Any]) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main,
        ["--db", db, "search", QUERY, "--user", "u1", "--json", *_flags(options)],
        catch_exceptions=False,
    )
    return result.exit_code, result.stdout, result.stderr


def _texts(hits: list[Hit]) -> list[str]:
    return [h["memory"]["text"] for h in hits]


@pytest.mark.parametrize(("options", "holds"), CASES)
def test_the_api_the_cli_and_rest_give_the_same_hits(
    db: str, rest: Callable[[dict[str, Any]], Any], options: dict[str, Any], holds: Callable[[Hit], bool]
) -> None:
    python = _python(db, options)
    code, out, err = _cli(db, options)
    assert code == 0, err
    cli = json.loads(out)
    response = rest(options)
    assert response.status_code == 200, response.text
    served = response.json()["results"]
    assert python, "the case finds something"
    assert all(holds(h) for h in python)
    assert _texts(cli) == _texts(python)
    assert _texts(served) == _texts(python)
    assert len(python) <= options.get("limit", 10)


def test_the_filters_have_something_to_leave_out(db: str) -> None:
    everything = _python(db, {"limit": 100})
    assert {h["memory"]["kind"] for h in everything} >= {"semantic", "episodic"}
    assert {h["memory"]["session_id"] for h in everything} >= {"s1", "s2"}
    # each turn here holds a memory, which stands for it among all the hits; the log alone still has them
    assert {h["memory"]["kind"] for h in _python(db, {"kinds": ["log"], "limit": 100})} == {"log"}


@pytest.mark.parametrize(("options", "message"), BAD)
def test_a_bad_option_fails_the_same_way_everywhere(
    db: str, rest: Callable[[dict[str, Any]], Any], options: dict[str, Any], message: str
) -> None:
    with Memory(db) as mem, pytest.raises(InvalidInput) as raised:
        mem.search(QUERY, user_id="u1", **options)
    assert str(raised.value).startswith(message)
    code, _, err = _cli(db, options)
    assert code == 2
    assert err == f"error: {raised.value}\n"
    response = rest(options)
    assert response.status_code == 422
    assert next(iter(options)) in response.text


def test_a_context_block_takes_the_same_options(db: str) -> None:
    with Memory(db) as mem:
        narrow = mem.context(QUERY, user_id="u1", options=SearchOptions(from_session="s1"))
        everything = mem.context(QUERY, user_id="u1")
    elsewhere = {
        "My favourite drink is green tea"
    }  # said in s2 (the dog, said there too, is not asked about)
    assert elsewhere <= {m.text for m in everything.memories}
    assert not elsewhere & {m.text for m in narrow.memories}
