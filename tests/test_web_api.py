"""The memory page's side of the REST service, in-process (FastAPI's TestClient) on the real embedded
store: page sessions from links and keys, what a session may reach, CSRF, the page's headers and
languages, and the routes the page added (links, users, summary, stale, sources, restore, Markdown
export, audit filters)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memlane import Settings
from memlane.clock import utcnow
from memlane.privacy.crypto import DataKey
from memlane.service.app import create_app
from memlane.service.config import ServiceSettings
from memlane.service.routes.deps import ServiceState
from memlane.service.web.access import COOKIE


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        path=str(tmp_path / "svc.db"),
        sensitive_policy={"phone": "encrypt"},
        data_key=DataKey.generate().encoded(),
    )
    app = create_app(settings, ServiceSettings(rate_limit=1000, rate_burst=1000))
    with TestClient(app) as c:
        yield c


def state(client: TestClient) -> ServiceState:
    found: ServiceState = client.app.state.memlane  # type: ignore[attr-defined]
    return found


def key(client: TestClient, tenant: str = "acme") -> dict[str, str]:
    return {"Authorization": f"Bearer {state(client).keys.create(tenant, now=utcnow()).secret}"}


def say(client: TestClient, headers: dict[str, str], user: str, text: str, session: str = "s1") -> None:
    body = {"user_id": user, "session_id": session, "messages": [{"role": "user", "content": text}]}
    assert client.post("/v1/messages", params={"wait": "true"}, json=body, headers=headers).status_code == 200


def link_session(client: TestClient, headers: dict[str, str], user: str) -> str:
    """Sign the client in through a new link to ``user``; the session's CSRF token."""
    made = client.post("/v1/links", json={"user_id": user, "hours": 1}, headers=headers)
    assert made.status_code == 201, made.text
    signed = client.post("/v1/web/session", json={"link": made.json()["token"]})
    assert signed.status_code == 200, signed.text
    token: str = signed.json()["csrf_token"]
    return token


@pytest.fixture
def acme(client: TestClient) -> dict[str, str]:
    headers = key(client)
    say(client, headers, "u1", "我叫阿白，平时喜欢喝美式，优先邮件联系。")
    say(client, headers, "u1", "我的手机号是13812345678。", session="s2")
    say(client, headers, "u2", "我叫小林，我喜欢喝绿茶。")
    return headers


def memories(client: TestClient, headers: dict[str, str], user: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/v1/memories", params={"user_id": user, **params}, headers=headers)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["memories"]
    return found


# -- what a user's link reaches ----------------------------------------------------------------------


def v1_routes(client: TestClient) -> list[tuple[str, str]]:
    paths = client.get("/openapi.json").json()["paths"]
    return sorted(
        (method.upper(), path)
        for path, operations in paths.items()
        if path.startswith("/v1/") and path != "/v1/web/session"
        for method in operations
    )


def test_a_users_session_is_refused_every_route_for_another_user_or_no_user(
    client: TestClient, acme: dict[str, str]
) -> None:
    mine = memories(client, acme, "u1")[0]["id"]
    csrf = link_session(client, acme, "u1")
    routes = v1_routes(client)
    assert len(routes) >= 30
    for method, template in routes:
        path = re.sub(r"\{[^}]+\}", mine, template)
        for params, body in (
            ({"user_id": "u2"}, None),
            ({}, {"user_id": "u2"}),
            ({}, {}),
            ({"user_id": "u1"}, {"user_id": "u2"}),
        ):
            response = client.request(method, path, params=params, json=body, headers={"X-CSRF-Token": csrf})
            assert response.status_code == 403, f"{method} {path} {params} {body}: {response.text}"
            assert response.json()["error"]["code"] == "forbidden"


def test_a_users_session_reads_and_changes_only_that_user(client: TestClient, acme: dict[str, str]) -> None:
    theirs = memories(client, acme, "u2")[0]["id"]
    csrf = link_session(client, acme, "u1")
    assert {m["user_id"] for m in memories(client, {}, "u1")} == {"u1"}  # the cookie, no key
    # u2's memory id under u1's name is just an id u1 does not have
    assert (
        client.delete(
            f"/v1/memories/{theirs}", params={"user_id": "u1"}, headers={"X-CSRF-Token": csrf}
        ).status_code
        == 404
    )
    assert client.get(f"/v1/memories/{theirs}/sources", params={"user_id": "u1"}).status_code == 404
    assert len(memories(client, acme, "u2")) == 2
    # a user's own encrypted original opens for them
    phone = next(m for m in memories(client, {}, "u1") if "手机" in m["text"])
    assert "13812345678" in client.get(f"/v1/memories/{phone['id']}", params={"user_id": "u1"}).json()["text"]
    found = client.post(
        "/v1/search",
        json={"user_id": "u1", "query": "手机号", "include_sensitive": True},
        headers={"X-CSRF-Token": csrf},
    )
    assert any("13812345678" in h["memory"]["text"] for h in found.json()["results"])


def test_every_change_needs_the_sessions_csrf_token(client: TestClient, acme: dict[str, str]) -> None:
    other = TestClient(client.app)
    other_csrf = link_session(other, acme, "u1")  # a second session of the same user
    csrf = link_session(client, acme, "u1")
    target = memories(client, {}, "u1")[0]["id"]
    for token in (None, "", "x" * 43, other_csrf):
        headers = {"X-CSRF-Token": token} if token is not None else {}
        response = client.delete(f"/v1/memories/{target}", params={"user_id": "u1"}, headers=headers)
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "csrf_failed"
    assert (
        client.delete(
            f"/v1/memories/{target}", params={"user_id": "u1"}, headers={"X-CSRF-Token": csrf}
        ).status_code
        == 204
    )
    assert target not in {m["id"] for m in memories(client, acme, "u1")}


def test_the_session_cookie_is_httponly_strict_and_secure_over_https(
    client: TestClient, acme: dict[str, str]
) -> None:
    made = client.post("/v1/links", json={"user_id": "u1"}, headers=acme).json()
    plain = client.post("/v1/web/session", json={"link": made["token"]})
    cookie = plain.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie
    assert "path=/" in cookie
    assert "secure" not in cookie
    secure = TestClient(client.app, base_url="https://testserver")
    assert (
        "secure" in secure.post("/v1/web/session", json={"link": made["token"]}).headers["set-cookie"].lower()
    )


def test_behind_a_tls_proxy_the_public_url_makes_the_cookie_secure(tmp_path: Path) -> None:
    config = ServiceSettings(public_url="https://memory.example.com")
    with TestClient(create_app(Settings(path=str(tmp_path / "p.db")), config)) as c:
        made = c.post("/v1/links", json={"user_id": "u1"}, headers=key(c)).json()
        assert made["url"].startswith("https://memory.example.com/#link=")
        assert (
            "secure" in c.post("/v1/web/session", json={"link": made["token"]}).headers["set-cookie"].lower()
        )


def test_a_session_ends_when_its_link_is_revoked_or_its_key_is(
    client: TestClient, acme: dict[str, str]
) -> None:
    made = client.post("/v1/links", json={"user_id": "u1"}, headers=acme).json()
    assert client.post("/v1/web/session", json={"link": made["token"]}).status_code == 200
    assert client.get("/v1/web/session").status_code == 200
    assert client.delete(f"/v1/links/{made['id']}", headers=acme).json()["revoked_at"]
    assert client.get("/v1/memories", params={"user_id": "u1"}).status_code == 401
    assert client.post("/v1/web/session", json={"link": made["token"]}).status_code == 401
    staff_key = state(client).keys.create("acme", now=utcnow())
    assert client.post("/v1/web/session", json={"key": staff_key.secret}).json()["role"] == "staff"
    assert len(memories(client, {}, "u2")) == 2
    state(client).keys.revoke(staff_key.key.id, now=utcnow())
    assert client.get("/v1/memories", params={"user_id": "u2"}).status_code == 401


def test_signing_in_needs_exactly_one_valid_credential(client: TestClient, acme: dict[str, str]) -> None:
    assert client.post("/v1/web/session", json={}).status_code == 422
    both = {"link": "x", "key": acme["Authorization"].split()[1]}
    assert client.post("/v1/web/session", json=both).status_code == 422
    assert client.post("/v1/web/session", json={"key": "mlk_nope_nope"}).status_code == 401
    assert client.post("/v1/web/session", json={"link": "not.a-token"}).status_code == 401
    assert client.get("/v1/web/session").status_code == 401
    client.cookies.set(COOKIE, "forged.cookie")
    assert client.get("/v1/memories", params={"user_id": "u1"}).status_code == 401


# -- staff --------------------------------------------------------------------------------------------


def test_staff_see_any_user_of_their_tenant_masked_and_no_other_tenant(
    client: TestClient, acme: dict[str, str]
) -> None:
    globex = key(client, "globex")
    say(client, globex, "u1", "我叫阿黄。")
    signed = client.post("/v1/web/session", json={"key": acme["Authorization"].split()[1]}).json()
    assert (signed["role"], signed["user_id"], signed["reveals_sensitive"]) == ("staff", None, False)
    csrf = {"X-CSRF-Token": signed["csrf_token"]}
    assert client.get("/v1/users").json()["users"] == ["u1", "u2"]
    texts = [m["text"] for m in memories(client, {}, "u1")]
    assert "我叫阿黄" not in texts
    assert not any("13812345678" in t for t in texts)
    phone = next(m for m in memories(client, {}, "u1") if "手机" in m["text"])
    assert client.get(f"/v1/memories/{phone['id']}", params={"user_id": "u1"}).status_code == 403
    sensitive = {"user_id": "u1", "query": "手机号", "include_sensitive": True}
    assert client.post("/v1/search", json=sensitive, headers=csrf).status_code == 403
    assert client.post("/v1/context", json=sensitive, headers=csrf).status_code == 403
    exported = client.get("/v1/export", params={"user_id": "u1"}).json()
    assert exported["sealed"] == []
    assert "13812345678" not in str(exported)
    assert "13812345678" in str(client.get("/v1/export", params={"user_id": "u1"}, headers=acme).json())
    made = client.post("/v1/links", json={"user_id": "u2", "hours": 2}, headers=csrf)
    assert made.status_code == 201
    assert made.json()["created_by"] == "web:staff"


def test_the_audit_log_names_the_page_and_staff(client: TestClient, acme: dict[str, str]) -> None:
    before = client.get("/v1/audit", params={"user_id": "u1", "op": "read"}, headers=acme).json()["entries"]
    assert before == []  # an API key's own reads are not recorded
    link_session(client, acme, "u1")
    memories(client, {}, "u1")
    staff = TestClient(client.app)
    staff.post("/v1/web/session", json={"key": acme["Authorization"].split()[1]})
    memories(staff, {}, "u1")
    reads = client.get("/v1/audit", params={"user_id": "u1", "op": ["read"]}, headers=acme).json()["entries"]
    assert [e["caller"] for e in reads] == ["web:staff", "web"]
    assert {
        e["op"]
        for e in client.get("/v1/audit", params={"user_id": "u1", "op": "write"}, headers=acme).json()[
            "entries"
        ]
    } == {"write"}
    assert (
        client.get("/v1/audit", params={"user_id": "u1", "op": "nonsense"}, headers=acme).status_code == 422
    )


def test_page_sessions_share_the_apis_rate_limit(tmp_path: Path) -> None:
    app = create_app(Settings(path=str(tmp_path / "r.db")), ServiceSettings(rate_limit=0.01, rate_burst=4))
    with TestClient(app) as c:
        headers = key(c)
        c.post("/v1/web/session", json={"key": headers["Authorization"].split()[1]})
        codes = [c.get("/v1/profile", params={"user_id": "u1"}).status_code for _ in range(2)]
        codes += [
            c.get("/v1/profile", params={"user_id": "u1"}, headers=headers).status_code for _ in range(3)
        ]
        assert codes == [200, 200, 200, 200, 429]


# -- links ---------------------------------------------------------------------------------------------


def test_links_are_made_listed_and_revoked_per_tenant(client: TestClient, acme: dict[str, str]) -> None:
    globex = key(client, "globex")
    made = client.post("/v1/links", json={"user_id": "u1", "hours": 24}, headers=acme).json()
    assert made["url"] == f"http://testserver/#link={made['token']}"
    assert [k["id"] for k in client.get("/v1/links", headers=acme).json()["links"]] == [made["id"]]
    assert client.get("/v1/links", headers=globex).json()["links"] == []
    assert client.delete(f"/v1/links/{made['id']}", headers=globex).status_code == 404
    assert client.post("/v1/links", json={"user_id": "u1", "hours": 0}, headers=acme).status_code == 422
    assert client.post("/v1/links", json={"user_id": "u1", "hours": 24 * 31}, headers=acme).status_code == 422
    assert client.post("/v1/links", json={"user_id": " ", "hours": 1}, headers=acme).status_code == 422
    assert client.delete("/v1/links/nope", headers=acme).status_code == 404


# -- the page itself --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "lang", "title"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh", "memlane 记得你的什么"),
        ("en-US,en;q=0.9,zh;q=0.8", "en", "What memlane remembers about you"),
        ("fr-FR, de;q=0.5", "en", "What memlane remembers about you"),
        ("fr;q=0.9, zh-TW;q=0.3", "zh", "memlane 记得你的什么"),
        ("", "en", "What memlane remembers about you"),
    ],
    ids=["chinese", "english", "neither", "chinese-low-q", "none"],
)
def test_the_page_is_labelled_in_the_browsers_language(
    client: TestClient, accept: str, lang: str, title: str
) -> None:
    page = client.get("/", headers={"Accept-Language": accept})
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    assert f'<title data-i18n="title">{title}</title>' in page.text
    assert "{{" not in page.text


def test_the_page_and_its_files_carry_a_strict_policy(client: TestClient) -> None:
    for path in (
        "/",
        "/assets/app.js",
        "/assets/core.js",
        "/assets/views.js",
        "/assets/app.css",
        "/assets/messages.json",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp
        assert "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    html = client.get("/").text
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == [
        '<script type="module" src="/assets/app.js">',
        '<script type="application/json" id="messages">',
    ]
    assert (
        "</script" not in html.split('id="messages">')[1].split("</script>")[0]
    )  # the data cannot end its block
    assert "style=" not in html  # no inline style
    assert "http" not in html.replace("http-equiv", "")  # nothing from elsewhere
    etag = client.get("/assets/app.js").headers["etag"]
    assert client.get("/assets/app.js", headers={"If-None-Match": etag}).status_code == 304
    assert client.get("/assets/../keys.py").status_code == 404
    assert client.get("/assets/nothing.js").status_code == 404


def test_both_languages_have_every_string_and_the_page_uses_no_unknown_one(client: TestClient) -> None:
    strings = client.get("/assets/messages.json").json()
    assert set(strings["en"]) == set(strings["zh"])
    scripts = "".join(client.get(f"/assets/{n}").text for n in ("app.js", "views.js", "core.js"))
    used = set(re.findall(r'\bt\("([a-z_.]+)"', scripts)) | set(
        re.findall(r'data-i18n="([a-z_.]+)"', client.get("/").text)
    )
    assert used <= set(strings["en"]), used - set(strings["en"])


# -- the routes the page added, with an API key -----------------------------------------------------------


def test_summary_stale_users_sources_and_sessions(client: TestClient, acme: dict[str, str]) -> None:
    assert client.get("/v1/summary", params={"user_id": "u1"}, headers=acme).json() == {"summary": None}
    assert client.get("/v1/stale", params={"user_id": "u1"}, headers=acme).json() == {"memories": []}
    assert client.get("/v1/users", headers=acme).json() == {"users": ["u1", "u2"]}
    coffee = next(m for m in memories(client, acme, "u1") if "美式" in m["text"])
    turns = client.get(f"/v1/memories/{coffee['id']}/sources", params={"user_id": "u1"}, headers=acme).json()
    assert [t["text"] for t in turns["memories"]] == ["我叫阿白，平时喜欢喝美式，优先邮件联系。"]
    live = client.get("/v1/sessions", params={"user_id": "u1"}, headers=acme).json()["sessions"]
    assert {s["id"] for s in live} == {"s1", "s2"}


def test_export_as_markdown_and_restore_the_json(client: TestClient, acme: dict[str, str]) -> None:
    client.post(
        "/v1/memories",
        json={"user_id": "u3", "text": "<script>x()</script> [点我](http://evil.example)"},
        headers=acme,
    )
    say(client, acme, "u3", "我叫阿青。")
    readable = client.get(
        "/v1/export", params={"user_id": "u3", "format": "markdown", "lang": "zh"}, headers=acme
    )
    assert readable.headers["content-type"].startswith("text/markdown")
    assert 'filename="memlane-u3.md"' in readable.headers["content-disposition"]
    assert readable.text.startswith("# memlane 记得的关于 u3 的内容")
    assert r"\<script\>x\(\)\</script\> \[点我\]\(http\:" in readable.text
    document = client.get("/v1/export", params={"user_id": "u3"}, headers=acme).json()
    refused = client.post("/v1/restore", json={"user_id": "u3", "document": document}, headers=acme)
    assert refused.status_code == 422
    assert "already has memories" in refused.json()["error"]["message"]
    assert client.post("/v1/forget", json={"user_id": "u3", "all": True}, headers=acme).status_code == 200
    restored = client.post("/v1/restore", json={"user_id": "u3", "document": document}, headers=acme)
    assert restored.status_code == 201
    assert restored.json()["memories"] == len(document["memories"])
    assert (
        client.get("/v1/profile", params={"user_id": "u3"}, headers=acme).json()["profile"]["name"] == "阿青"
    )
    bad = client.post("/v1/restore", json={"user_id": "u4", "document": {"format": "x"}}, headers=acme)
    assert bad.status_code == 422


def test_a_correction_over_http_is_confirmed_and_the_profile_follows(
    client: TestClient, acme: dict[str, str]
) -> None:
    name = next(m for m in memories(client, acme, "u1", kind="profile") if m["slot"] == "name")
    fixed = client.patch(
        f"/v1/memories/{name['id']}", json={"user_id": "u1", "text": "我叫小白"}, headers=acme
    ).json()
    assert (fixed["text"], fixed["source"], fixed["confidence"], fixed["value"]) == (
        "我叫小白",
        "explicit",
        1.0,
        "小白",
    )
    assert (
        client.get("/v1/profile", params={"user_id": "u1"}, headers=acme).json()["profile"]["name"] == "小白"
    )
