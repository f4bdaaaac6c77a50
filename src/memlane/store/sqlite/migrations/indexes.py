"""What the searches read beside the rows, added after the tables: the deletion feed of the vector
caches, FTS5's vocabulary, each user's keyword statistics and speakers (kept by triggers), and the
indexes of records without a vector and of record times."""

from __future__ import annotations

import sqlite3


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
