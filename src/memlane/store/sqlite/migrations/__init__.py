"""Schema migrations for the embedded store: named, ordered functions, each in its own transaction.

A migration is never edited once released; a change to the schema is a new function appended to
:data:`MIGRATIONS`. ``schema_migrations`` records which ones have run.

They live by what they build: :mod:`.tables` (the tables as first created), :mod:`.indexes` (what
the searches read beside the rows) and :mod:`.flags` (typed marks); this module holds their order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from memlane.store.sqlite.migrations.flags import m013_typed_flags
from memlane.store.sqlite.migrations.indexes import (
    m004_log_deletions,
    m005_count_keyword_documents,
    m009_index_records_without_vectors,
    m010_count_keywords_per_user,
    m011_index_record_times,
    m012_count_speakers,
)
from memlane.store.sqlite.migrations.tables import (
    m001_create_memories,
    m002_create_profile_and_history,
    m003_create_sessions,
    m006_create_audit,
    m007_create_user_settings,
    m008_create_sealed,
)

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


__all__ = ["MIGRATIONS", "Migration", "migrate"]
