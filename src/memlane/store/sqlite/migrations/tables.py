"""The embedded store's tables, as first created: memories with their keyword index, profile
versions and history, sessions, the audit log, per-user consent settings and sealed originals."""

from __future__ import annotations

import sqlite3


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
