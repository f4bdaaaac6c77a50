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

The migrations live by what they build: :mod:`.tables` (the tables and their storage), :mod:`.indexes`
(what the searches read beside the rows) and :mod:`.flags` (typed marks); this module holds their
order and the lock.
"""

from __future__ import annotations

from collections.abc import Callable

from memlane.store.postgres.migrations.flags import m013_typed_flags
from memlane.store.postgres.migrations.indexes import (
    m004_create_search_indexes,
    m005_count_keyword_statistics,
    m009_count_keyword_documents,
    m011_index_records_without_vectors,
    m012_count_speakers,
)
from memlane.store.postgres.migrations.tables import (
    Connection,
    m001_create_memories,
    m002_create_profile_and_history,
    m003_create_sessions,
    m006_create_audit,
    m007_create_user_settings,
    m008_create_sealed,
    m010_leave_room_for_recalls,
)

# pg_advisory_lock key for migrating (the single-bigint key space; user locks use the two-int space)
MIGRATION_LOCK = 0x6D656D6C616E65  # "memlane"


Migration = Callable[[Connection, int], None]

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


__all__ = ["MIGRATIONS", "MIGRATION_LOCK", "Connection", "Migration", "migrate"]
