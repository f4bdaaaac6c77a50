"""Schema migrations for PostgreSQL: named, ordered functions, each in its own transaction.

The same rules as the embedded store's: a released migration is never edited, a change is a new
function appended to :data:`MIGRATIONS`, and ``schema_migrations`` records which have run. Every
process that opens a store calls :func:`migrate`; a session-level advisory lock makes the others wait
while one migrates, so any number of processes can start at once against a live database. A migration
that indexes an existing large table should build with ``CREATE INDEX CONCURRENTLY`` (outside a
transaction) so that writers are not blocked.

Times are stored as epoch seconds (``double precision``) as in SQLite, so that the two stores share
their row codec and every filter. The keyword index is ``to_tsvector('simple', ...)`` over the tokens
the write path has already segmented (jieba for Chinese), so no Chinese parser extension is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

# pg_advisory_lock key for migrating (the single-bigint key space; user locks use the two-int space)
MIGRATION_LOCK = 0x6D656D6C616E65  # "memlane"

Connection = psycopg.Connection[Any]


def _on_every_statement(db: Connection, name: str, function: str) -> None:
    """Run ``function`` after each INSERT, UPDATE and DELETE statement on memories, with the statement's
    rows as transition tables (``old_rows``, ``new_rows``)."""
    for event, tables in (
        ("INSERT", "NEW TABLE AS new_rows"),
        ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
        ("DELETE", "OLD TABLE AS old_rows"),
    ):
        db.execute(
            f"CREATE TRIGGER {name}_{event.lower()} AFTER {event} ON memories "
            f"REFERENCING {tables} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
        )


def m001_create_memories(db: Connection, dim: int) -> None:
    db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    db.execute("CREATE SEQUENCE memlane_seq")
    db.execute(
        f"""
        CREATE TABLE memories (
            id text PRIMARY KEY,
            user_id text NOT NULL,
            agent_id text,
            session_id text,
            kind text NOT NULL,
            category text NOT NULL,
            text text NOT NULL,
            norm text NOT NULL,
            tokens text NOT NULL DEFAULT '',
            scope text NOT NULL,
            tags jsonb NOT NULL DEFAULT '[]',
            entities jsonb NOT NULL DEFAULT '[]',
            importance double precision NOT NULL,
            confidence double precision NOT NULL,
            stability double precision NOT NULL,
            sensitivity double precision NOT NULL,
            source text NOT NULL,
            status text NOT NULL,
            slot text,
            value text,
            polarity integer NOT NULL DEFAULT 1,
            event_status text,
            created_at double precision,
            updated_at double precision,
            last_accessed_at double precision,
            last_verified_at double precision,
            access_count integer NOT NULL DEFAULT 0,
            expires_at double precision,
            valid_from double precision,
            valid_to double precision,
            supersedes text,
            superseded_by text,
            provenance jsonb NOT NULL DEFAULT '[]',
            reason text NOT NULL DEFAULT '',
            embedding vector({int(dim)}),
            seq bigint NOT NULL DEFAULT nextval('memlane_seq'),
            -- the user's scope token leads the document, so that a keyword query ANDs it in and the
            -- GIN index itself confines the match to one user (as the scope column does in SQLite)
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', scope || ' ' || tokens)) STORED,
            ntokens integer GENERATED ALWAYS AS
                (coalesce(array_length(string_to_array(tokens, ' '), 1), 0)) STORED
        )
        """
    )
    # keep vectors inline: a 384-d vector (1.5 kB) in a wide row would otherwise go to TOAST, and every
    # exact (sequential) vector scan would pay a TOAST fetch per row
    db.execute("ALTER TABLE memories ALTER COLUMN embedding SET STORAGE PLAIN")
    db.execute("CREATE INDEX memories_user_status ON memories (user_id, status, kind)")
    db.execute("CREATE INDEX memories_user_norm ON memories (user_id, norm)")
    db.execute("CREATE INDEX memories_user_slot ON memories (user_id, slot)")
    db.execute(
        "CREATE INDEX memories_user_time ON memories (user_id, (COALESCE(valid_from, created_at)), seq)"
    )
    db.execute("CREATE INDEX memories_expiry ON memories (expires_at) WHERE expires_at IS NOT NULL")


def m002_create_profile_and_history(db: Connection, dim: int) -> None:
    db.execute(
        """
        CREATE TABLE profile_slots (
            user_id text NOT NULL,
            slot text NOT NULL,
            version integer NOT NULL,
            value text NOT NULL,
            created_at double precision NOT NULL,
            memory_id text,
            message_ids text NOT NULL DEFAULT '[]',
            current boolean NOT NULL,
            reason text NOT NULL DEFAULT '',
            PRIMARY KEY (user_id, slot, version)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE history (
            id text PRIMARY KEY,
            user_id text NOT NULL,
            target_id text NOT NULL,
            op text NOT NULL,
            at double precision NOT NULL,
            actor text NOT NULL,
            reason text NOT NULL DEFAULT '',
            before text,
            after text,
            seq bigint NOT NULL DEFAULT nextval('memlane_seq')
        )
        """
    )
    db.execute("CREATE INDEX history_target ON history (user_id, target_id, seq)")
    db.execute("CREATE INDEX history_target_only ON history (target_id)")


def m003_create_sessions(db: Connection, dim: int) -> None:
    db.execute(
        """
        CREATE TABLE sessions (
            user_id text NOT NULL,
            id text NOT NULL,
            body text NOT NULL,
            updated_at double precision NOT NULL,
            expires_at double precision,
            PRIMARY KEY (user_id, id)
        )
        """
    )
    db.execute("CREATE INDEX sessions_expiry ON sessions (expires_at) WHERE expires_at IS NOT NULL")


def m004_create_search_indexes(db: Connection, dim: int) -> None:
    # fastupdate off: GIN's pending list would be scanned by every search until a vacuum merged it
    db.execute("CREATE INDEX memories_keywords ON memories USING gin (tsv) WITH (fastupdate = off)")
    db.execute("CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)")


def m005_count_keyword_statistics(db: Connection, dim: int) -> None:
    # BM25 needs each user's document count and average length; counting them per query would scan
    # all the user's rows, so statement-level triggers keep the totals as rows come and go.
    db.execute(
        """
        CREATE TABLE keyword_stats (
            user_id text PRIMARY KEY,
            docs bigint NOT NULL,
            tokens bigint NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE FUNCTION memlane_count_keywords() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                UPDATE keyword_stats s SET docs = s.docs - g.docs, tokens = s.tokens - g.tokens
                FROM (SELECT user_id, count(*) AS docs, sum(ntokens) AS tokens
                      FROM old_rows GROUP BY user_id) g
                WHERE s.user_id = g.user_id;
            ELSIF TG_OP = 'INSERT' THEN
                INSERT INTO keyword_stats (user_id, docs, tokens)
                SELECT user_id, count(*), sum(ntokens) FROM new_rows GROUP BY user_id
                ON CONFLICT (user_id) DO UPDATE SET docs = keyword_stats.docs + excluded.docs,
                                                    tokens = keyword_stats.tokens + excluded.tokens;
            ELSE
                -- only a changed text moves the totals: a recall (access count) must not lock them
                UPDATE keyword_stats s SET tokens = s.tokens + g.delta
                FROM (SELECT n.user_id, sum(n.ntokens - o.ntokens) AS delta
                      FROM new_rows n JOIN old_rows o ON o.id = n.id
                      GROUP BY n.user_id HAVING sum(n.ntokens - o.ntokens) <> 0) g
                WHERE s.user_id = g.user_id;
            END IF;
            RETURN NULL;
        END
        $$
        """
    )
    _on_every_statement(db, "memories_keyword_stats", "memlane_count_keywords")


def m006_create_audit(db: Connection, dim: int) -> None:
    # append-only: the store has no statement that updates a row here, and deletes them only with the user
    db.execute(
        """
        CREATE TABLE audit (
            id text PRIMARY KEY,
            user_id text NOT NULL,
            at double precision NOT NULL,
            op text NOT NULL,
            actor text NOT NULL,
            caller text,
            memory_ids text NOT NULL DEFAULT '[]',
            detail text NOT NULL DEFAULT '',
            seq bigint NOT NULL DEFAULT nextval('memlane_seq')
        )
        """
    )
    db.execute("CREATE INDEX audit_user_seq ON audit (user_id, seq)")


def m007_create_user_settings(db: Connection, dim: int) -> None:
    db.execute(
        """
        CREATE TABLE user_settings (
            user_id text PRIMARY KEY,
            enabled boolean NOT NULL,
            categories text,
            updated_at double precision
        )
        """
    )


def m008_create_sealed(db: Connection, dim: int) -> None:
    # the encrypted originals of memories kept under the "encrypt" policy: ciphertext only
    db.execute(
        """
        CREATE TABLE sealed (
            memory_id text PRIMARY KEY,
            user_id text NOT NULL,
            key_id text NOT NULL,
            body text NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX sealed_user ON sealed (user_id)")
    db.execute("CREATE INDEX sealed_key ON sealed (key_id, memory_id)")


def m009_count_keyword_documents(db: Connection, dim: int) -> None:
    # BM25 needs how many of the user's documents hold each query word; counting that per query cost a
    # GIN scan and a row visit per match, so statement-level triggers keep a count per word instead.
    # The words are the lexemes of tsv, which is what the GIN index matches. A word leaves the table
    # with its last memory: what a user deleted must not stay behind here.
    db.execute(
        """
        CREATE TABLE keyword_terms (
            user_id text NOT NULL,
            term text NOT NULL,
            docs bigint NOT NULL,
            PRIMARY KEY (user_id, term)
        )
        """
    )
    # the words of each row in a transition table, counted +1 or -1
    words = "SELECT r.user_id, w.term, {sign} AS n FROM {rows} r, unnest(tsvector_to_array(r.tsv)) w(term)"
    # an update moves the counts only where the text changed: a recall (access count) writes nothing
    changed = "(SELECT {a}.* FROM {a} JOIN {b} ON {b}.id = {a}.id WHERE {b}.tsv IS DISTINCT FROM {a}.tsv)"
    came = words.format(sign=1, rows=changed.format(a="new_rows", b="old_rows"))
    went = words.format(sign=-1, rows=changed.format(a="old_rows", b="new_rows"))
    deltas = {
        "INSERT": words.format(sign=1, rows="new_rows"),
        "DELETE": words.format(sign=-1, rows="old_rows"),
        "UPDATE": f"{came} UNION ALL {went}",
    }
    collect = {
        op: "SELECT array_agg(user_id), array_agg(term), array_agg(n) INTO users, terms, counts FROM "
        f"(SELECT user_id, term, sum(n) AS n FROM ({sql}) d GROUP BY user_id, term HAVING sum(n) <> 0) g;"
        for op, sql in deltas.items()
    }
    db.execute(
        f"""
        CREATE FUNCTION memlane_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            users text[];
            terms text[];
            counts bigint[];
        BEGIN
            IF TG_OP = 'INSERT' THEN
                {collect["INSERT"]}
            ELSIF TG_OP = 'DELETE' THEN
                {collect["DELETE"]}
            ELSE
                {collect["UPDATE"]}
            END IF;
            IF users IS NULL THEN
                RETURN NULL;
            END IF;
            -- in key order, so that two statements never wait on each other's words in turn
            INSERT INTO keyword_terms (user_id, term, docs)
            SELECT * FROM unnest(users, terms, counts) ORDER BY 1, 2
            ON CONFLICT (user_id, term) DO UPDATE SET docs = keyword_terms.docs + excluded.docs;
            DELETE FROM keyword_terms k USING unnest(users, terms, counts) AS g(user_id, term, n)
            WHERE g.n < 0 AND k.user_id = g.user_id AND k.term = g.term AND k.docs <= 0;
            RETURN NULL;
        END
        $$
        """
    )
    _on_every_statement(db, "memories_keyword_terms", "memlane_count_terms")
    # then the rows already there: creating the triggers locked the table against writes until this
    # migration commits, so no write falls between this count and the triggers
    db.execute(
        "INSERT INTO keyword_terms (user_id, term, docs) "
        "SELECT user_id, term, count(*) FROM memories, unnest(tsvector_to_array(tsv)) w(term) "
        "GROUP BY user_id, term"
    )


def m010_leave_room_for_recalls(db: Connection, dim: int) -> None:
    # A recall rewrites the row (access count, last accessed). With no room on its page, the new
    # version goes to another page and every index gets an entry for it, the HNSW graph included:
    # ~2 ms a row at 100k. Pages filled to 75% keep room for one more version of a row of up to ~2 kB
    # (a 384-d vector and the rest), so the update stays on the page and touches no index (HOT), at
    # the price of a third more pages. Larger vectors would need emptier pages than that is worth.
    # New pages only: compact() rewrites the older ones.
    if dim <= 384:
        db.execute("ALTER TABLE memories SET (fillfactor = 75)")


Migration = Callable[[Connection, int], None]


def m011_index_records_without_vectors(db: Connection, dim: int) -> None:
    # log turns wait for their vectors (memlane.write.backlog); maintain() finds the ones a stopped
    # process left without one, and this keeps that from reading every row and its vector
    db.execute("CREATE INDEX memories_unembedded ON memories (user_id, status) WHERE embedding IS NULL")


def m012_count_speakers(db: Connection, dim: int) -> None:
    # who speaks in a user's conversations (the names messages came with, tagged "speaker:<name>" on
    # log turns): a query's words that only name a speaker say whose turns, not what about, and search
    # embeds the query without them (memlane.read.search); derived from the turns, so deleting them
    # deletes the names
    db.execute(
        """
        CREATE TABLE speakers (
            user_id text NOT NULL,
            name text NOT NULL,
            turns bigint NOT NULL,
            PRIMARY KEY (user_id, name)
        )
        """
    )
    named = (
        "SELECT substr(v, 9) AS name FROM jsonb_array_elements_text({row}.tags) v "
        "WHERE left(v, 8) = 'speaker:'"
    )
    db.execute(
        f"""
        CREATE FUNCTION memlane_count_speakers() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.kind = 'log' THEN
                UPDATE speakers s SET turns = s.turns - 1 FROM ({named.format(row="OLD")}) n
                WHERE s.user_id = OLD.user_id AND s.name = n.name;
                -- a name leaves with the last turn that named it
                DELETE FROM speakers WHERE user_id = OLD.user_id AND turns <= 0;
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind = 'log' THEN
                INSERT INTO speakers (user_id, name, turns) SELECT NEW.user_id, name, 1
                FROM ({named.format(row="NEW")}) n
                ON CONFLICT (user_id, name) DO UPDATE SET turns = speakers.turns + 1;
            END IF;
            RETURN NULL;
        END
        $$
        """
    )
    db.execute(
        "CREATE TRIGGER memories_speakers AFTER INSERT OR DELETE ON memories "
        "FOR EACH ROW EXECUTE FUNCTION memlane_count_speakers()"
    )
    db.execute(
        "CREATE TRIGGER memories_speakers_changed AFTER UPDATE OF tags, kind ON memories FOR EACH ROW "
        "WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.kind IS DISTINCT FROM NEW.kind) "
        "EXECUTE FUNCTION memlane_count_speakers()"
    )
    db.execute(
        "INSERT INTO speakers (user_id, name, turns) SELECT m.user_id, substr(v, 9), count(*) "
        "FROM memories m, jsonb_array_elements_text(m.tags) v "
        "WHERE m.kind = 'log' AND left(v, 8) = 'speaker:' GROUP BY 1, 2"
    )


def m013_typed_flags(db: Connection, dim: int) -> None:
    # memlane's own marks leave the user's tag namespace (as in the embedded store's m013): who said a
    # log turn becomes the role column, and "outdated", "chatter", "flag:injection" and "trend" flags
    db.execute("ALTER TABLE memories ADD COLUMN role text")
    db.execute("ALTER TABLE memories ADD COLUMN flags jsonb NOT NULL DEFAULT '[]'")
    db.execute(
        """
        UPDATE memories SET
            role = (SELECT substr(t, 6) FROM jsonb_array_elements_text(tags) t
                    WHERE kind = 'log' AND left(t, 5) = 'role:' LIMIT 1),
            flags = COALESCE((SELECT jsonb_agg(DISTINCT CASE t WHEN 'flag:injection' THEN 'instruction'
                                                          WHEN 'trend' THEN 'derived' ELSE t END)
                              FROM jsonb_array_elements_text(tags) t
                              WHERE t IN ('flag:injection', 'trend') AND kind != 'log'
                                 OR t IN ('flag:injection', 'outdated', 'chatter') AND kind = 'log'), '[]'),
            tags = COALESCE((SELECT jsonb_agg(t) FROM jsonb_array_elements_text(tags) t
                             WHERE NOT (kind = 'log' AND (left(t, 5) = 'role:'
                                        OR t IN ('flag:injection', 'outdated', 'chatter')))
                               AND NOT (kind != 'log' AND t IN ('flag:injection', 'trend'))), '[]')
        WHERE tags ?| ARRAY['outdated', 'chatter', 'flag:injection', 'trend']
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(tags) t WHERE left(t, 5) = 'role:')
        """
    )


MIGRATIONS: list[Migration] = [
    m001_create_memories,
    m002_create_profile_and_history,
    m003_create_sessions,
    m004_create_search_indexes,
    m005_count_keyword_statistics,
    m006_create_audit,
    m007_create_user_settings,
    m008_create_sealed,
    m009_count_keyword_documents,
    m010_leave_room_for_recalls,
    m011_index_records_without_vectors,
    m012_count_speakers,
    m013_typed_flags,
]


def migrate(db: Connection, dim: int) -> list[str]:
    """Run the migrations that have not run yet, in order; returns their names.

    ``db`` must be in autocommit mode: each migration runs in a transaction of its own.
    """
    db.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz)"
        )
        done = {row[0] for row in db.execute("SELECT name FROM schema_migrations").fetchall()}
        applied: list[str] = []
        for migration in MIGRATIONS:
            name = migration.__name__
            if name in done:
                continue
            with db.transaction():
                migration(db, dim)
                db.execute("INSERT INTO schema_migrations VALUES (%s, now())", (name,))
            applied.append(name)
        return applied
    finally:
        db.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
