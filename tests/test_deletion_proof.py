"""Verifiable deletion: after an item, a tag, a conversation or a whole user is deleted, a distinctive
word it held is nowhere in the database's raw files: not in a table, an index, the SQLite WAL, nor
(after compaction) PostgreSQL's relation files. And what was built from a deleted memory (digests,
trends, session summaries, the user summary) is removed or rebuilt without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from conftest import T0, days
from memlane import Kind, Memory, Status
from memlane.domain import Flag

# one distinctive word per way of deleting, and one that stays (the search must be able to find)
ITEM, TAG, SESSION, USER, KEPT = "Zorblax", "quokkaberries", "Vexhollow", "Plimbleton", "Gruntfield"
SPEAKER = "Wumbleford"  # said by one speaker of a conversation, who is then forgotten
GONE = (ITEM, TAG, SESSION, USER, SPEAKER)


def forms(word: str) -> list[bytes]:
    """The word as text and as it is indexed (lower case, and its stem's first letters)."""
    return [word.encode(), word.lower().encode(), word.lower()[:7].encode()]


def found(raw: bytes, word: str) -> bool:
    return any(form in raw for form in forms(word))


def converse_and_delete(mem: Memory) -> None:
    """Write each word the way a user would, build derived memories, then delete each word's way."""
    item = mem.add(f"I keep a pet iguana called {ITEM}", user_id="u1", session_id="s1", at=T0)
    mem.add(f"I live next to {KEPT} park", user_id="u1", session_id="s1", at=days(0.01))
    mem.remember(f"I grow {TAG} in my garden", user_id="u1", tags=["garden"], at=T0)
    mem.add(f"I once visited {SESSION} castle with my sister", user_id="u1", session_id="s2", at=days(1))
    mem.add(f"I love {USER} cheese", user_id="u2", session_id="s3", at=T0)
    bob = {"role": "user", "content": f"I live in {SPEAKER} and I love sailing", "name": "Bob"}
    mem.add([bob], user_id="u1", session_id="s4", at=days(2))
    mem.maintain(now=days(3))  # session summaries and user summaries now hold the words too
    assert any(ITEM in m.text for m in mem.list("u1", kinds=["summary"]))
    for memory in item.memories:
        mem.delete(memory.id, at=days(4), user_id=memory.user_id)
    mem.forget("u1", tags=["garden"], at=days(4))
    mem.forget_session("u1", "s2", at=days(4))
    mem.forget("u1", tags=["speaker:Bob"], at=days(4))
    mem.forget("u2", all=True)


def sqlite_files(db: Path) -> bytes:
    """The main file, the WAL and the shared-memory index, as they are on disk."""
    return b"".join(p.read_bytes() for p in sorted(db.parent.glob(db.name + "*")))


def test_sqlite_files_keep_no_deleted_word(tmp_path: Path) -> None:
    db = tmp_path / "memlane.db"
    with Memory(db) as mem:
        mem.add(f"I keep a pet iguana called {ITEM}", user_id="u9", at=T0)
        assert found(sqlite_files(db), ITEM)  # the search can see a word that is there
        mem.forget("u9", all=True)
        converse_and_delete(mem)
        assert [m.text for m in mem.list("u1")] == [f"I live next to {KEPT} park"]
        raw = sqlite_files(db)  # while the store is open, as another process would read it
    assert found(raw, KEPT)
    for word in GONE:
        assert not found(raw, word), word
    for word in GONE:
        assert not found(sqlite_files(db), word), word


def postgres_files(url: str) -> bytes:
    """Every relation file of the database, read from the server's data directory."""
    with psycopg.connect(url, autocommit=True) as conn:
        where = "SELECT current_setting('data_directory'), oid FROM pg_database"
        row = conn.execute(f"{where} WHERE datname = current_database()").fetchone()
        assert row is not None
        conn.execute("CHECKPOINT")  # dirty pages reach the files
    base = Path(row[0]) / "base" / str(row[1])
    return b"".join(p.read_bytes() for p in sorted(base.iterdir()) if p.is_file())


def test_postgres_relation_files_keep_no_deleted_word_after_compaction(pg_url: str) -> None:
    with Memory(store=pg_url) as mem:
        converse_and_delete(mem)
        assert [m.text for m in mem.list("u1")] == [f"I live next to {KEPT} park"]
        assert found(postgres_files(pg_url), ITEM)  # dead rows: unreachable, but still on disk
        mem.stores.records.compact()
        raw = postgres_files(pg_url)
    assert found(raw, KEPT)
    for word in GONE:
        assert not found(raw, word), word


# -- derived memories ---------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def mem(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    if request.param == "sqlite":
        memory = Memory(tmp_path / "memlane.db")
    else:
        memory = Memory(store=request.getfixturevalue("pg_url"))
    with memory:
        yield memory


def test_a_digest_built_from_a_deleted_event_is_rebuilt_without_it(mem: Memory) -> None:
    first = mem.add("Quokka快递把我的包裹弄丢了", user_id="u1", at=T0).memories[0]
    mem.add("我昨天去医院体检了", user_id="u1", at=days(1))
    assert mem.maintain(now=days(120)).compressed == 2
    digest = mem.list("u1", kinds=["summary"])[0]
    assert "Quokka" in digest.text
    mem.delete(first.id, at=days(121), user_id=first.user_id)
    assert all("Quokka" not in m.text for m in mem.list("u1", status=None, include_log=True))
    assert all(digest.id != m.id for m in mem.list("u1", status=None))
    assert [h.op for h in mem.history(digest.id, user_id="u1")][-1] == "delete"
    assert all(h.before is None and h.after is None for h in mem.history(digest.id, user_id="u1"))
    survivor = mem.list("u1", kinds=["episodic"])
    assert [m.status for m in survivor] == [Status.ACTIVE]  # back from the archive, to be compressed again
    mem.maintain(now=days(122))
    rebuilt = mem.list("u1", kinds=["summary"])
    assert len(rebuilt) == 1
    assert "体检" in rebuilt[0].text
    assert "Quokka" not in rebuilt[0].text


def test_a_trend_built_from_a_deleted_event_goes_and_its_other_events_return(mem: Memory) -> None:
    texts = ["快递又延迟了，物流太慢", "物流太慢了，快递延迟好几天", "快递延迟，物流慢得离谱"]
    events = [mem.add(t, user_id="u1", at=days(i * 30)).memories[0] for i, t in enumerate(texts)]
    assert mem.maintain(now=days(61)).merged == 3
    trend = next(m for m in mem.list("u1") if Flag.DERIVED in m.flags)
    mem.delete(events[0].id, user_id="u1", at=days(62))
    assert trend.id not in [m.id for m in mem.list("u1", status=None)]
    assert sorted(m.id for m in mem.list("u1", kinds=["episodic"])) == sorted(e.id for e in events[1:])


def test_the_user_summary_is_rebuilt_without_a_deleted_preference(mem: Memory) -> None:
    tea = mem.add("I love Zorblax tea", user_id="u1", at=T0).memories[0]
    mem.add("I prefer email to phone calls", user_id="u1", at=T0)
    mem.maintain(now=days(1))
    mem.add("I like hiking on weekends", user_id="u1", at=days(2))
    mem.maintain(now=days(3))  # a second version, whose history holds the first
    assert "Zorblax" in (mem.user_summary("u1") or tea).text
    mem.delete(tea.id, at=days(4), user_id=tea.user_id)
    portrait = mem.user_summary("u1")
    assert portrait is not None
    assert "Zorblax" not in portrait.text
    assert "hiking" in portrait.text
    everything = mem.export("u1")
    assert "Zorblax" not in str(everything)
    summaries = mem.list("u1", kinds=["summary"], status=None)
    assert [m.kind for m in summaries] == [Kind.SUMMARY]


def test_a_deleted_profile_value_leaves_no_copy_in_the_slots_history(mem: Memory) -> None:
    mem.add("I live in Zorbton", user_id="u1", at=T0)
    moved = mem.add("I moved to Leeds", user_id="u1", at=days(1)).memories[0]
    assert mem.profile("u1")["home_city"] == "Leeds"
    assert "Zorbton" in str(mem.export("u1")["history"])  # the slot's history said where they lived
    mem.delete(moved.id, at=days(2), user_id="u1")
    old = next(m for m in mem.list("u1", status=None) if "Zorbton" in m.text)
    mem.delete(old.id, at=days(3), user_id="u1")
    assert "home_city" not in mem.profile("u1")
    everything = str(mem.export("u1"))
    assert "Zorbton" not in everything
    assert "Leeds" not in everything


def test_forgetting_a_speaker_forgets_what_was_learned_from_their_turns(mem: Memory) -> None:
    said = [("Bob", "I live in Leeds and I love hiking"), ("Ann", "I work at Globex and I hate olives")]
    for name, text in said:
        mem.add([{"role": "user", "content": text, "name": name}], user_id="u1", session_id="s1", at=T0)
    assert mem.profile("u1") == {"home_city": "Leeds", "employer": "Globex"}
    mem.forget("u1", tags=["speaker:Bob"], at=days(1))
    assert mem.profile("u1") == {"employer": "Globex"}
    assert sorted(m.text for m in mem.list("u1")) == ["I hate olives", "I work at Globex"]
    everything = str(mem.export("u1"))
    assert "Leeds" not in everything
    assert "hiking" not in everything
    hits = mem.search("hiking in Leeds", user_id="u1", now=days(1))
    assert not [h.memory.text for h in hits if "Leeds" in h.memory.text or "hiking" in h.memory.text]


def test_what_another_speaker_said_too_stays_without_the_forgotten_name(mem: Memory) -> None:
    for name in ("Bob", "Ann"):
        said = [{"role": "user", "content": "I love hiking in the hills", "name": name}]
        mem.add(said, user_id="u1", session_id="s1", at=T0)
    (both,) = mem.list("u1")
    assert sorted(both.tags) == ["speaker:Ann", "speaker:Bob"]
    mem.forget("u1", tags=["speaker:Bob"], at=days(1))
    (kept,) = mem.list("u1")
    assert (kept.id, kept.tags, len(kept.provenance)) == (both.id, ["speaker:Ann"], 1)
    assert "Bob" not in str(mem.export("u1"))


def test_a_speakers_memory_goes_with_them_after_their_turns_left_the_log(mem: Memory) -> None:
    said = [{"role": "user", "content": "I live in Leeds and I love hiking", "name": "Bob"}]
    mem.add(said, user_id="u1", session_id="s1", at=T0)
    # the log keeps raw turns for log_retention_days: later, nothing links a memory to a turn
    mem.maintain(now=days(mem.settings.log_retention_days + 1))
    assert not mem.list("u1", kinds=["log"])
    assert mem.list("u1")
    mem.forget("u1", tags=["speaker:Bob"], at=days(mem.settings.log_retention_days + 2))
    assert mem.list("u1") == []
    assert "home_city" not in mem.profile("u1")


def test_the_keyword_index_stays_whole_through_deletions_and_session_ends(tmp_path: Path) -> None:
    """Each deletion rebuilds the keyword index from the memories; merging it (FTS5 'optimize') on
    SQLite 3.40 left it malformed after about a thousand writes."""
    path = tmp_path / "memlane.db"
    with Memory(path) as mem:
        for n in range(40):
            user, session = f"u{n % 4}", f"s{n}"
            added = mem.add(
                f"I collect {n} vintage {ITEM} stamps", user_id=user, session_id=session, at=days(n)
            )
            mem.end_session(user, session, at=days(n + 0.5))
            if n % 3 == 0:
                for memory in added.memories:
                    mem.delete(memory.id, at=days(n + 0.6), user_id=user)
        assert mem.search("vintage stamps", user_id="u1")
    import sqlite3

    db = sqlite3.connect(path)
    try:
        db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
        indexed = db.execute("SELECT count(*) FROM memories_fts_docsize").fetchone()[0]
        held = db.execute("SELECT count(*) FROM memories WHERE tokens != ''").fetchone()[0]
    finally:
        db.close()
    assert indexed == held
