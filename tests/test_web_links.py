"""Signed links and page sessions below the routes: the signer, the link store in the key database
(SQLite and PostgreSQL), page sessions from links and keys, and ``memlane link``."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.cli import main
from memlane.clock import utcnow
from memlane.errors import InvalidInput, NotFound
from memlane.service.keys import KeyStore, open_keys
from memlane.service.web.access import PageAccess
from memlane.service.web.links import LinkStore
from memlane.service.web.signing import Signer

SECRET = b"s" * 32


def changed(token: str, **claims: object) -> str:
    body, mac = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    data.update(claims)
    raw = base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":"), sort_keys=True).encode())
    return f"{raw.rstrip(b'=').decode()}.{mac}"


def test_a_token_verifies_only_unchanged_for_its_own_purpose_and_secret() -> None:
    signer = Signer(SECRET)
    token = signer.sign("link", {"t": "acme", "u": "u1"})
    assert signer.verify("link", token) == {"t": "acme", "u": "u1"}
    assert signer.verify("session", token) is None
    assert Signer(b"t" * 32).verify("link", token) is None
    assert signer.verify("link", changed(token, u="u2")) is None
    for junk in ("", ".", "a.b.c", "é.é", token + "x", None, 42, "x" * 5000, f"{token.split('.')[0]}.!!!!"):
        assert signer.verify("link", junk) is None
    assert signer.verify("link", signer.sign("link", ["not", "a", "dict"])) is None  # type: ignore[arg-type]
    assert signer.matches("csrf", "s1", signer.digest("csrf", "s1"))
    assert not signer.matches("csrf", "s2", signer.digest("csrf", "s1"))
    with pytest.raises(ValueError, match="32 bytes"):
        Signer(b"short")


@pytest.fixture
def keys(tmp_path: Path) -> KeyStore:
    return open_keys(str(tmp_path / "keys.db"))


def test_links_open_until_they_expire_or_are_revoked(keys: KeyStore) -> None:
    links = LinkStore(keys)
    now = utcnow()
    made = links.create("acme", "u1", hours=24, now=now, created_by="test")
    assert made.url("https://memory.example.com/") == f"https://memory.example.com/#link={made.token}"
    assert links.open(made.token, now) == made.link
    assert links.open(made.token, now + timedelta(hours=23, minutes=59)) is not None
    assert links.open(made.token, now + timedelta(hours=24)) is None
    assert links.open(changed(made.token, e=2**40), now) is None
    assert links.open(changed(made.token, u="u2"), now) is None
    with pytest.raises(NotFound):
        links.revoke("globex", made.link.id, now=now)  # another tenant's link is no link
    assert links.open(made.token, now) is not None
    assert links.revoke("acme", made.link.id, now=now).revoked_at == now
    assert links.open(made.token, now) is None
    assert [k.id for k in links.links("acme")] == [made.link.id]
    assert links.links("acme", "u2") == []
    for hours in (0, -1, 24 * 30 + 1, float("nan"), "24"):
        with pytest.raises(InvalidInput, match="hours"):
            links.create("acme", "u1", hours=hours, now=now, created_by="test")  # type: ignore[arg-type]


def test_every_process_on_one_key_database_signs_with_the_same_secret(keys: KeyStore, tmp_path: Path) -> None:
    made = LinkStore(keys).create("acme", "u1", hours=1, now=utcnow(), created_by="test")
    elsewhere = LinkStore(open_keys(str(tmp_path / "keys.db")))
    assert elsewhere.open(made.token, utcnow()) == made.link
    assert LinkStore(open_keys(str(tmp_path / "other.db"))).open(made.token, utcnow()) is None


def test_page_sessions_stand_on_a_live_link_or_key(keys: KeyStore) -> None:
    access = PageAccess(LinkStore(keys), keys)
    now = utcnow()
    made = access.links.create("acme", "u1", hours=24, now=now, created_by="test")
    user = access.for_link(made.token, now)
    assert user is not None
    assert (user.role, user.tenant, user.user_id, user.caller) == ("user", "acme", "u1", "web")
    assert user.expires_at == now + timedelta(hours=12)  # at most 12 h, then open the link again
    cookie = access.cookie(user)
    assert access.session_of(cookie, now) == user
    assert access.session_of(cookie, now + timedelta(hours=12)) is None
    for forged in (changed(cookie, u="u2"), changed(cookie, r="staff", u=None), changed(cookie, t="globex")):
        assert access.session_of(forged, now) is None
    assert access.session_of(made.token, now) is None  # a link is not a cookie
    key = keys.create("acme", now=now)
    staff = access.for_key(key.secret, now)
    assert staff is not None
    assert (staff.role, staff.user_id, staff.caller, staff.via) == ("staff", None, "web:staff", key.key.id)
    assert access.session_of(access.cookie(staff), now) == staff
    assert access.for_key("mlk_nope_nope", now) is None
    assert access.csrf_ok(user, access.csrf(user))
    assert not access.csrf_ok(user, access.csrf(staff))
    keys.revoke(key.key.id, now=now)
    assert access.session_of(access.cookie(staff), now) is None
    access.links.revoke("acme", made.link.id, now=now)
    assert access.session_of(cookie, now) is None


def test_links_live_in_a_postgresql_key_database_too(pg_url: str) -> None:
    keys = open_keys(pg_url)
    try:
        links = LinkStore(keys)
        made = links.create("acme", "u1", hours=2, now=utcnow(), created_by="test")
        assert LinkStore(keys).open(made.token, utcnow()) == made.link  # the same secret, read back
        links.revoke("acme", made.link.id, now=utcnow())
        assert links.open(made.token, utcnow()) is None
    finally:
        keys.close()


def test_memlane_link_creates_lists_and_revokes(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.db")

    def run(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(main, ["--db", db, "link", *args], catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    code, url, said = run(
        "create", "--tenant", "acme", "--user", "u1", "--hours", "24", "--url", "https://m.example"
    )
    assert code == 0
    assert url.startswith("https://m.example/#link=")
    assert "until" in said
    link_id = said.split()[1]
    code, listed, _ = run("list", "--tenant", "acme")
    assert link_id in listed
    assert run("revoke", link_id) == (0, f"revoked {link_id}\n", "")
    assert run("revoke", "nope")[0] == 2
    assert run("create", "--tenant", "Bad Tenant", "--user", "u1")[0] == 2
    assert run("create", "--tenant", "acme", "--user", "u1", "--hours", "0")[0] == 2
    store = LinkStore(open_keys(str(tmp_path / "cli.keys.db")))
    assert store.get(link_id) is not None
    assert store.open(url.strip().split("#link=")[1], utcnow()) is None  # revoked
