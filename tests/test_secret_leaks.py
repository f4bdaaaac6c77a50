"""A secret is never stored, logged or echoed: every sensitive phrasing the tests know is added,
remembered explicitly and echoed back by an assistant, and then every place memlane writes to is read
for the values: each table and column of the store (its keyword index included), the raw database
files, the session turns, the decisions' text and reasons, search, context, export and the log.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest
import redis

from conftest import T0
from memlane import InvalidInput, Memory
from memlane.privacy.sensitive import KINDS
from sensitive_cases import POSITIVES

SECRETS = [(str(p.id), str(p.values[2])) for p in POSITIVES]
_ZH_DIGITS = str.maketrans("零〇一二三四五六七八九", "00123456789")
# what varies from run to run and could hold any short run of digits: hex ids, clock times and
# scores (a hit scored 0.6619 does not hold the PIN 6 6 1 9, nor a keyword score of 3.3456 the "3456"
# of a card number); a score has one or two digits before its point and one point
_NOISE = re.compile(
    r"(?=[0-9a-f]*[a-f])[0-9a-f]{16,}|\b[0-9]{9,10}\.[0-9]+\b|(?<![0-9.])[0-9]{1,2}\.[0-9]+\b(?!\.[0-9])"
    r"|datetime\.datetime\([^)]*\)|\d{4}-\d\d-\d\d[T ][0-9:.+]+"
)


# the words the masks write ("[redacted: ID number]"): a finding that runs from the announcing words to
# the value ("pin? it's 4471") may hold them, and a mask saying them is no leak
_MASK_WORDS = {w.lower() for k in KINDS.values() for w in re.findall(r"[A-Za-z0-9]+", k.placeholder("en"))}


def forms(secret: str) -> tuple[set[str], set[str]]:
    """The ways a stored copy of ``secret`` could read: as given, without its separators, in ASCII
    digits; and, as whole words, each long run of letters and digits (what a keyword index keeps),
    each run of four digits or more (a PIN after the words that announce it) and the short ones (a
    PIN of four digits is a word of its own, not part of a longer number)."""
    compact = re.sub(r"[\s.\-]", "", secret)
    inside = {f.lower() for f in {secret, compact, compact.translate(_ZH_DIGITS)}}
    words = {f for f in inside if len(f) < 6 and f.isascii()}
    runs = {
        r.lower() for r in re.findall(r"[A-Za-z0-9]+", secret) if len(r) >= 6 or (len(r) >= 4 and r.isdigit())
    }
    return inside - words, (runs - _MASK_WORDS) | words


_FORMS = [(case, *forms(secret)) for case, secret in SECRETS]  # read once: every cell is checked against all


def leaks(where: str, text: str) -> list[str]:
    """``where: id`` for each secret found in ``text``."""
    seen = _NOISE.sub(" ", text.lower())
    words = set(re.findall(r"[a-z0-9]+", seen))
    return [
        f"{where}: {case}"
        for case, inside, whole in _FORMS
        if any(f in seen for f in inside) or whole & words
    ]


def converse(mem: Memory) -> list[str]:
    """Feed every positive in the three ways text reaches memlane, and read the live sessions;
    returns what the calls gave back."""
    shown: list[str] = []
    for i, p in enumerate(POSITIVES):
        text, at = str(p.values[0]), T0 + timedelta(minutes=i)
        added = mem.add(text, user_id="u1", session_id="s1", at=at)
        shown += [f"{d.text}\n{d.reason}" for d in added.decisions]
        kept = mem.remember(text, user_id="u1", session_id="s2", at=at)
        shown.append(f"{kept.text}\n{kept.reason}")
        echoed = [{"role": "user", "content": text}, {"role": "assistant", "content": f"Noted: {text}"}]
        shown += [
            f"{d.text}\n{d.reason}" for d in mem.add(echoed, user_id="u2", session_id="s3", at=at).decisions
        ]
    mem.flush()
    for user, session in (("u1", "s1"), ("u2", "s3")):
        live = mem.session(user, session, now=T0 + timedelta(hours=2))
        assert live is not None
        assert live.turns
        shown.append(repr(live))
    return shown


def correct_and_maintain(mem: Memory) -> list[str]:
    """Try every positive as a correction, end the sessions in summaries, and read everything back."""
    shown: list[str] = []
    target = mem.list("u1")[0]  # a memory kept masked (a phone, an email, an address)
    for p in POSITIVES:
        try:
            shown.append(
                repr(mem.update(target.id, str(p.values[0]), user_id="u1", at=T0 + timedelta(hours=1)))
            )
        except InvalidInput as refused:
            shown.append(str(refused))
    mem.maintain(now=T0 + timedelta(days=2))  # sessions end in summaries, the user summary is rebuilt
    assert mem.list("u1", kinds=["summary"])
    for user in ("u1", "u2"):
        shown += [repr(m) for m in mem.list(user, include_log=True, status=None)]
        shown += [repr(h) for m in mem.list(user, status=None) for h in mem.history(m.id, user_id=user)]
        shown += [repr(hit) for hit in mem.search("password card number 密码 银行卡", user_id=user, limit=50)]
        block = mem.context("我的密码和卡号 password card", user_id=user, session_id="s1", max_tokens=4000)
        shown.append(block.text)
        shown.append(json.dumps(mem.export(user), ensure_ascii=False, default=str))
    return shown


def check(shown: list[str], tables: dict[str, list[str]], log: str) -> None:
    found = [leak for text in shown for leak in leaks("returned", text)]
    found += [leak for name, cells in tables.items() for cell in cells for leak in leaks(name, cell)]
    found += leaks("log", log)
    assert found == []


def test_the_leak_check_finds_a_secret() -> None:
    """The check itself: a value in any of its stored forms is found, a masked one is not."""
    assert leaks("t", "… Summer2024! …") == ["t: pw-for-my-bank"]
    assert leaks("t", "tokens: summer2024 bank") == ["t: pw-for-my-bank"]
    assert leaks("t", "4392260187654321") == ["t: zh-credit-card"]
    assert leaks("t", "a PIN 6619, order 166190") == ["t: pin-spaced"]
    assert leaks("t", "'bm25': 3.3456, 'relevance': 0.6619") == []  # scores, not a card's digits
    assert "t: card-dots" in leaks("t", "card 4111.1111.1111.1111")  # not taken for a score
    assert leaks("t", "it's 5502") == ["t: pin-question-typo"]  # the value of "pin? its 5502" alone
    assert leaks("t", "[redacted: ID number] [redacted: password]") == []  # the masks' own words
    assert "t: zh-phone-chinese-digits" in leaks("t", "call 13812345678")
    assert leaks("t", "[redacted: password] 7f3a9c0d1e2b4f6a8c0d1e2f3a4b5c6d") == []


# -- SQLite: every table of the file, and the file's bytes ------------------------------------------------


def sqlite_tables(db: Path) -> dict[str, list[str]]:
    """Every text or blob cell of every table (FTS shadow tables included), by table name."""
    con = sqlite3.connect(db)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        out: dict[str, list[str]] = {}
        for name in names:
            cells: list[str] = []
            for row in con.execute(f'SELECT * FROM "{name}"'):
                for value in row:
                    if isinstance(value, bytes):
                        cells.append(value.decode("utf-8", "replace"))
                    elif isinstance(value, str):
                        cells.append(value)
            out[name] = cells
        return out
    finally:
        con.close()


def test_no_secret_reaches_any_sqlite_table_the_files_or_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "memlane.db"
    caplog.set_level(logging.DEBUG)
    with Memory(db) as mem:
        shown = converse(mem)
        live = sqlite_tables(db)  # before maintain ends the sessions
        shown += correct_and_maintain(mem)
        raw = b"".join(p.read_bytes() for p in sorted(tmp_path.glob("memlane*")))  # open: WAL included
    assert live["sessions"]
    tables = {**{f"{name} (live)": cells for name, cells in live.items()}, **sqlite_tables(db)}
    # the tables that matter are all there and were written to
    for name in ("memories", "memories_fts", "history", "audit"):  # sessions: read live, above
        assert tables.get(name), name
    tables["raw files"] = [raw.decode("utf-8", "replace")]
    check(shown, tables, caplog.text)


# -- PostgreSQL (and Redis for sessions): every table of the schema, every key -----------------------


def postgres_tables(url: str) -> dict[str, list[str]]:
    """Every text, JSON, array or bytea cell of every table outside the catalogues, by table name
    (vector columns hold numbers only)."""
    out: dict[str, list[str]] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        columns = conn.execute(
            "SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c"
            " JOIN information_schema.tables t USING (table_schema, table_name)"
            " WHERE t.table_type = 'BASE TABLE'"
            " AND c.table_schema NOT IN ('pg_catalog', 'information_schema')"
            " AND c.data_type IN ('text', 'character varying', 'character',"
            " 'json', 'jsonb', 'bytea', 'ARRAY')"
        ).fetchall()
        for schema, table, column in columns:
            rows = conn.execute(f'SELECT "{column}" FROM "{schema}"."{table}"').fetchall()
            out.setdefault(f"{schema}.{table}", []).extend(_text(v) for (v,) in rows if v is not None)
    return out


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def redis_keys(url: str) -> dict[str, list[str]]:
    """Every value under this test's key prefix, whatever the key's type."""
    prefix = parse_qs(urlparse(url).query)["key_prefix"][0]
    client = redis.Redis.from_url(url.split("?")[0])
    out: dict[str, list[str]] = {}
    try:
        for key in client.scan_iter(match=f"{prefix}*", count=500):
            kind = client.type(key).decode()
            dump: Iterator[Any] = iter(())
            if kind == "string":
                dump = iter([client.get(key)])
            elif kind == "hash":
                dump = iter([*client.hgetall(key).items()])
            elif kind == "list":
                dump = iter(client.lrange(key, 0, -1))
            elif kind in ("set", "zset"):
                dump = iter(client.smembers(key) if kind == "set" else client.zrange(key, 0, -1))
            out[f"redis {key.decode()}"] = [
                repr(v) if not isinstance(v, bytes) else v.decode("utf-8", "replace") for v in dump
            ]
    finally:
        client.close()
    return out


@pytest.mark.parametrize("sessions", [False, True], ids=["postgres", "postgres-redis"])
def test_no_secret_reaches_any_postgres_table_redis_key_or_the_log(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture, sessions: bool
) -> None:
    pg: str = request.getfixturevalue("pg_url")
    rd: str | None = request.getfixturevalue("redis_url") if sessions else None
    caplog.set_level(logging.DEBUG)
    opened: Callable[[], Memory] = lambda: Memory(store=pg, sessions=rd)  # noqa: E731
    with opened() as mem:
        shown = converse(mem)
        tables = {f"{name} (live)": cells for name, cells in postgres_tables(pg).items()}
        if rd is not None:
            keys = redis_keys(rd)  # the live sessions, before maintain ends them
            assert keys
            tables.update(keys)
        shown += correct_and_maintain(mem)
        tables.update(postgres_tables(pg))
    assert sum(len(cells) for cells in tables.values()) > len(POSITIVES)
    check(shown, tables, caplog.text)
