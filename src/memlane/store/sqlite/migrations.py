"""Schema migrations for the embedded store: named, ordered functions, each in its own transaction.

A migration is never edited once released; a change to the schema is a new function appended to
:data:`MIGRATIONS`. ``schema_migrations`` records which ones have run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable


def m001_create_memories(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            agent_id TEXT,
            session_id TEXT,
            kind TEXT NOT NULL,
            category TEXT NOT NULL,
            text TEXT NOT NULL,
            norm TEXT NOT NULL,
            tokens TEXT NOT NULL DEFAULT '',
            scope TEXT NOT NULL,
            tags TEXT NOT NULL DEFAULT '[]',
            entities TEXT NOT NULL DEFAULT '[]',
            importance REAL NOT NULL,
            confidence REAL NOT NULL,
            stability REAL NOT NULL,
            sensitivity REAL NOT NULL,
            source TEXT NOT NULL,
            status TEXT NOT NULL,
            slot TEXT,
            value TEXT,
            polarity INTEGER NOT NULL DEFAULT 1,
            event_status TEXT,
            created_at REAL,
            updated_at REAL,
            last_accessed_at REAL,
            last_verified_at REAL,
            access_count INTEGER NOT NULL DEFAULT 0,
            expires_at REAL,
            valid_from REAL,
            valid_to REAL,
            supersedes TEXT,
            superseded_by TEXT,
            provenance TEXT NOT NULL DEFAULT '[]',
            reason TEXT NOT NULL DEFAULT '',
            embedding BLOB,
            seq INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX memories_user_status ON memories(user_id, status, kind)")
    db.execute("CREATE INDEX memories_user_norm ON memories(user_id, norm)")
    db.execute("CREATE INDEX memories_user_slot ON memories(user_id, slot)")
    db.execute("CREATE INDEX memories_user_seq ON memories(user_id, seq)")
    db.execute("CREATE INDEX memories_expiry ON memories(expires_at) WHERE expires_at IS NOT NULL")
    # keyword index over pre-segmented tokens; the scope column holds a token for the user so that a
    # MATCH is restricted to one user inside the index itself
    db.execute(
        """
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            scope, tokens, content='memories', content_rowid='rowid',
            tokenize='unicode61 remove_diacritics 2'
        )
        """
    )
    db.execute(
        """
        CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts(rowid, scope, tokens) VALUES (new.rowid, new.scope, new.tokens);
        END
        """
    )
    db.execute(
        """
        CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, scope, tokens)
            VALUES ('delete', old.rowid, old.scope, old.tokens);
        END
        """
    )
    db.execute(
        """
        CREATE TRIGGER memories_au AFTER UPDATE OF tokens, scope ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, scope, tokens)
            VALUES ('delete', old.rowid, old.scope, old.tokens);
            INSERT INTO memories_fts(rowid, scope, tokens) VALUES (new.rowid, new.scope, new.tokens);
        END
        """
    )
    db.execute("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    db.execute("INSERT INTO counters VALUES ('seq', 0)")


def m002_create_profile_and_history(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE profile_slots (
            user_id TEXT NOT NULL,
            slot TEXT NOT NULL,
            version INTEGER NOT NULL,
            value TEXT NOT NULL,
            created_at REAL NOT NULL,
            memory_id TEXT,
            message_ids TEXT NOT NULL DEFAULT '[]',
            current INTEGER NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (user_id, slot, version)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE history (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            target_id TEXT NOT NULL,
            op TEXT NOT NULL,
            at REAL NOT NULL,
            actor TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            before TEXT,
            after TEXT,
            seq INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX history_target ON history(user_id, target_id, seq)")


def m003_create_sessions(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE sessions (
            user_id TEXT NOT NULL,
            id TEXT NOT NULL,
            body TEXT NOT NULL,
            updated_at REAL NOT NULL,
            expires_at REAL,
            PRIMARY KEY (user_id, id)
        )
        """
    )


def m004_log_deletions(db: sqlite3.Connection) -> None:
    # The change feed that keeps each process's vector cache fresh must report deletions too, or a
    # cache only learns of them by recounting the user's rows on every search (slow at 100k rows).
    # Keyed by the scope token rather than the user id, so a forgotten user's id is not kept here.
    db.execute(
        """
        CREATE TABLE memory_deletions (
            scope TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            seq INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX memory_deletions_scope_seq ON memory_deletions(scope, seq)")
    db.execute(
        """
        CREATE TRIGGER memories_deleted AFTER DELETE ON memories BEGIN
            UPDATE counters SET value = value + 1 WHERE name = 'seq';
            INSERT INTO memory_deletions
            VALUES (old.scope, old.id, (SELECT value FROM counters WHERE name = 'seq'));
        END
        """
    )


def m005_count_keyword_documents(db: sqlite3.Connection) -> None:
    # how many documents hold each token, read before a keyword search to leave out the words so
    # common that scoring them would touch tens of thousands of rows (see SQLiteSearch.keyword_search)
    db.execute("CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'col')")


def m006_create_audit(db: sqlite3.Connection) -> None:
    # append-only: the store has no statement that updates a row here, and deletes them only with the user
    db.execute(
        """
        CREATE TABLE audit (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            at REAL NOT NULL,
            op TEXT NOT NULL,
            actor TEXT NOT NULL,
            caller TEXT,
            memory_ids TEXT NOT NULL DEFAULT '[]',
            detail TEXT NOT NULL DEFAULT '',
            seq INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX audit_user_seq ON audit(user_id, seq)")


def m007_create_user_settings(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE user_settings (
            user_id TEXT PRIMARY KEY,
            enabled INTEGER NOT NULL,
            categories TEXT,
            updated_at REAL
        )
        """
    )


def m008_create_sealed(db: sqlite3.Connection) -> None:
    # the encrypted originals of memories kept under the "encrypt" policy: ciphertext only
    db.execute(
        """
        CREATE TABLE sealed (
            memory_id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            key_id TEXT NOT NULL,
            body TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX sealed_user ON sealed(user_id)")
    db.execute("CREATE INDEX sealed_key ON sealed(key_id, memory_id)")


def m009_index_records_without_vectors(db: sqlite3.Connection) -> None:
    # log turns wait for their vectors (memlane.write.backlog); maintain() finds the ones a stopped
    # process left without one, and this keeps that from reading every row and its vector
    db.execute("CREATE INDEX memories_unembedded ON memories(user_id, status) WHERE embedding IS NULL")


# a row's keyword tokens (space-separated letters and digits) as a JSON array, for json_each
def _words(tokens: str) -> str:
    return f"""'["' || replace(trim({tokens}), ' ', '","') || '"]'"""


def _distinct_words(row: str) -> str:
    return f"SELECT DISTINCT value FROM json_each({_words(row + '.tokens')}) WHERE value != ''"


def _length(row: str) -> str:
    return f"(SELECT count(*) FROM json_each({_words(row + '.tokens')}) WHERE value != '')"


def _count(row: str, sign: str) -> list[str]:
    """Statements adding (``+``) or removing (``-``) one row's tokens to or from its user's counts."""
    counts = [
        "INSERT INTO keyword_stats (user_id, docs, tokens) "
        f"VALUES ({row}.user_id, {sign}1, {sign}{_length(row)}) "
        "ON CONFLICT (user_id) DO UPDATE SET docs = docs + excluded.docs, tokens = tokens + excluded.tokens",
        f"INSERT INTO keyword_terms (user_id, term, docs) SELECT {row}.user_id, value, {sign}1 "
        f"FROM ({_distinct_words(row)}) WHERE true "
        "ON CONFLICT (user_id, term) DO UPDATE SET docs = docs + excluded.docs",
    ]
    if sign == "+":
        return counts
    # a word leaves with its user's last document holding it, and the totals with the last document:
    # what a user deleted must not stay behind here
    return [
        *counts,
        f"DELETE FROM keyword_terms WHERE user_id = {row}.user_id AND term IN ({_distinct_words(row)}) "
        "AND docs <= 0",
        f"DELETE FROM keyword_stats WHERE user_id = {row}.user_id AND docs <= 0",
    ]


def m010_count_keywords_per_user(db: sqlite3.Connection) -> None:
    # BM25 with FTS5's own statistics counts every user's documents: a word common in other scopes
    # weighed less in this one, and another user's writes moved this user's scores (which a caller could
    # watch). Triggers keep each user's document count, total length and per-word document counts, as
    # the PostgreSQL store does, and keyword search scores with those (memlane.store.bm25).
    db.execute(
        "CREATE TABLE keyword_stats "
        "(user_id TEXT PRIMARY KEY, docs INTEGER NOT NULL, tokens INTEGER NOT NULL)"
    )
    db.execute(
        """
        CREATE TABLE keyword_terms (
            user_id TEXT NOT NULL,
            term TEXT NOT NULL,
            docs INTEGER NOT NULL,
            PRIMARY KEY (user_id, term)
        ) WITHOUT ROWID
        """
    )
    came, went = ";\n".join(_count("new", "+")), ";\n".join(_count("old", "-"))
    db.execute(f"CREATE TRIGGER memories_terms_ai AFTER INSERT ON memories BEGIN {came}; END")
    db.execute(f"CREATE TRIGGER memories_terms_ad AFTER DELETE ON memories BEGIN {went}; END")
    # only a changed text moves the counts: a recall (access count) writes nothing here
    db.execute(
        "CREATE TRIGGER memories_terms_au AFTER UPDATE OF tokens ON memories "
        f"WHEN old.tokens IS NOT new.tokens BEGIN {went}; {came}; END"
    )
    db.execute(
        f"INSERT INTO keyword_stats (user_id, docs, tokens) SELECT user_id, count(*), sum({_length('m')}) "
        "FROM memories m GROUP BY user_id"
    )
    db.execute(
        "INSERT INTO keyword_terms (user_id, term, docs) SELECT user_id, value, count(*) FROM "
        f"(SELECT DISTINCT m.rowid, m.user_id, w.value FROM memories m, json_each({_words('m.tokens')}) w "
        "WHERE w.value != '') GROUP BY user_id, value"
    )


def m011_index_record_times(db: sqlite3.Connection) -> None:
    # a query naming a period ("in July 2023") searches the records of that period (memlane.read.search),
    # and listing is ordered by the same time; the expression is the one memlane.store.sql.where writes
    # (the PostgreSQL store has had this index from its first migration)
    db.execute("CREATE INDEX memories_user_time ON memories(user_id, COALESCE(valid_from, created_at), seq)")


def _speakers(row: str, sign: str) -> list[str]:
    """Statements counting (``+``) or uncounting (``-``) the speaker a log turn's tags name."""
    named = (
        f"SELECT {row}.user_id AS user_id, substr(value, 9) AS name FROM json_each({row}.tags) "
        f"WHERE {row}.kind = 'log' AND substr(value, 1, 8) = 'speaker:'"
    )
    counts = [
        f"INSERT INTO speakers (user_id, name, turns) SELECT user_id, name, {sign}1 FROM ({named}) "
        "WHERE true ON CONFLICT (user_id, name) DO UPDATE SET turns = turns + excluded.turns"
    ]
    if sign == "+":
        return counts
    # a name leaves with the last turn that named it
    return [*counts, f"DELETE FROM speakers WHERE user_id = {row}.user_id AND turns <= 0"]


def m012_count_speakers(db: sqlite3.Connection) -> None:
    # who speaks in a user's conversations (the names messages came with, tagged "speaker:<name>" on
    # log turns): a query's words that only name a speaker say whose turns, not what about, and search
    # embeds the query without them (memlane.read.search); derived from the turns, so deleting them
    # deletes the names
    db.execute(
        """
        CREATE TABLE speakers (
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            turns INTEGER NOT NULL,
            PRIMARY KEY (user_id, name)
        ) WITHOUT ROWID
        """
    )
    came, went = ";\n".join(_speakers("new", "+")), ";\n".join(_speakers("old", "-"))
    db.execute(f"CREATE TRIGGER memories_speakers_ai AFTER INSERT ON memories BEGIN {came}; END")
    db.execute(f"CREATE TRIGGER memories_speakers_ad AFTER DELETE ON memories BEGIN {went}; END")
    db.execute(
        "CREATE TRIGGER memories_speakers_au AFTER UPDATE OF tags, kind ON memories "
        f"WHEN old.tags IS NOT new.tags OR old.kind IS NOT new.kind BEGIN {went}; {came}; END"
    )
    db.execute(
        "INSERT INTO speakers (user_id, name, turns) SELECT m.user_id, substr(t.value, 9), count(*) "
        "FROM memories m, json_each(m.tags) t WHERE m.kind = 'log' AND substr(t.value, 1, 8) = 'speaker:' "
        "GROUP BY m.user_id, substr(t.value, 9)"
    )


def m013_typed_flags(db: sqlite3.Connection) -> None:
    # memlane's own marks leave the user's tag namespace: who said a log turn ("role:user") becomes
    # the role column, and "outdated", "chatter", "flag:injection" and a trend's "trend" become flags
    db.execute("ALTER TABLE memories ADD COLUMN role TEXT")
    db.execute("ALTER TABLE memories ADD COLUMN flags TEXT NOT NULL DEFAULT '[]'")
    rows = db.execute(
        "SELECT id, kind, tags FROM memories WHERE tags != '[]' AND EXISTS (SELECT 1 FROM json_each(tags) "
        "WHERE value LIKE 'role:%' OR value IN ('outdated', 'chatter', 'flag:injection', 'trend'))"
    ).fetchall()
    for memory_id, kind, tags in rows:
        role, flags, kept = _typed(json.loads(tags), kind)
        db.execute(
            "UPDATE memories SET role = ?, flags = ?, tags = ? WHERE id = ?",
            (role, json.dumps(flags), json.dumps(kept, ensure_ascii=False), memory_id),
        )


def _typed(tags: list[str], kind: str) -> tuple[str | None, list[str], list[str]]:
    """(role, flags, the user's tags) from the tags a record held before m013."""
    names = {"outdated": "outdated", "chatter": "chatter", "flag:injection": "instruction"}
    if kind != "log":
        names = {"flag:injection": "instruction", "trend": "derived"}
    role = next((t.removeprefix("role:") for t in tags if kind == "log" and t.startswith("role:")), None)
    flags = sorted({names[t] for t in tags if t in names})
    kept = [t for t in tags if t not in names and not (kind == "log" and t.startswith("role:"))]
    return role, flags, kept


Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = [
    m001_create_memories,
    m002_create_profile_and_history,
    m003_create_sessions,
    m004_log_deletions,
    m005_count_keyword_documents,
    m006_create_audit,
    m007_create_user_settings,
    m008_create_sealed,
    m009_index_records_without_vectors,
    m010_count_keywords_per_user,
    m011_index_record_times,
    m012_count_speakers,
    m013_typed_flags,
]


def migrate(db: sqlite3.Connection) -> list[str]:
    """Run the migrations that have not run yet, in order; returns their names."""
    db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    done = {row[0] for row in db.execute("SELECT name FROM schema_migrations")}
    applied: list[str] = []
    for migration in MIGRATIONS:
        name = migration.__name__
        if name in done:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            # another process may have run it while we waited for the write lock
            if db.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone():
                db.execute("COMMIT")
                continue
            migration(db)
            db.execute("INSERT INTO schema_migrations VALUES (?, datetime('now'))", (name,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied
