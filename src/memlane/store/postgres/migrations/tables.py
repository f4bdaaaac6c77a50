"""The server store's tables: memories (with pgvector), profile versions and history, sessions, the
audit log, per-user consent settings and sealed originals, and how memories' pages are filled."""

from __future__ import annotations

from typing import Any

import psycopg

Connection = psycopg.Connection[Any]


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


def m010_leave_room_for_recalls(db: Connection, dim: int) -> None:
    # A recall rewrites the row (access count, last accessed). With no room on its page, the new
    # version goes to another page and every index gets an entry for it, the HNSW graph included:
    # ~2 ms a row at 100k. Pages filled to 75% keep room for one more version of a row of up to ~2 kB
    # (a 384-d vector and the rest), so the update stays on the page and touches no index (HOT), at
    # the price of a third more pages. Larger vectors would need emptier pages than that is worth.
    # New pages only: compact() rewrites the older ones.
    if dim <= 384:
        db.execute("ALTER TABLE memories SET (fillfactor = 75)")
