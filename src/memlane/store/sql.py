"""SQL shared by the relational stores' roles: each statement is built once, and what differs between SQLite
and PostgreSQL is a field of :class:`Dialect`, not a second copy of the query.

::

    where_sql, params = where(POSTGRES, "u1", MemoryQuery(tags=("coffee",)))
    # "user_id = %s AND status IN (%s) AND tags ?| ARRAY[%s]::text[]", ["u1", "active", "coffee"]
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any, Protocol, Self

from memlane.clock import to_epoch
from memlane.store.codec import COLUMNS, READ_COLUMNS, Row
from memlane.store.scope import UNSCOPED, Scope
from memlane.vocabulary import MemoryQuery


@dataclass(frozen=True)
class Dialect:
    """The differences between two SQL databases that memlane's statements care about."""

    name: str
    mark: str  # the parameter placeholder
    # "the JSON array in {column} holds any of the values bound to {marks}"
    json_any: str
    # the change-feed number of a row being written, and the statement (if any) that advances it first
    next_seq: str
    bump_seq: str | None = None
    # an UPDATE's FROM clause that lets its commit return before the write reaches the disk, for
    # writes a crash may lose (recall counters); empty where the database has no such switch
    relaxed_commit: str = ""
    # what listings sort by: a record's event time, else its creation time
    time_order: str = "COALESCE(valid_from, created_at)"
    # the owner check of a lookup by primary key: written so that the key, not the owner's index, is read
    owner_of_ids: str = "user_id = {mark}"

    def marks(self, n: int) -> str:
        """``n`` placeholders separated by commas."""
        return ", ".join([self.mark] * n)


SQLITE = Dialect(
    name="sqlite",
    mark="?",
    json_any="EXISTS (SELECT 1 FROM json_each({column}) WHERE json_each.value IN ({marks}))",
    # SQLite has no sequences: a one-row counter table, bumped inside the writing transaction
    next_seq="(SELECT value FROM counters WHERE name = 'seq')",
    bump_seq="UPDATE counters SET value = value + 1 WHERE name = 'seq'",
    # the unary + keeps SQLite from reading the time index in order to skip the sort: it would walk
    # every row of a large user to find one profile slot or summary (13 ms at 10k memories). The time
    # index is for time ranges (a period a query names); listings sort the rows their filters find.
    time_order="+COALESCE(valid_from, created_at)",
    # without the +, SQLite reads every row of the user through its time index to find a few ids
    owner_of_ids="+user_id = ?",
)

POSTGRES = Dialect(
    name="postgresql",
    mark="%s",
    # jsonb's "any of these strings" operator, which a GIN index on the column can serve
    json_any="{column} ?| ARRAY[{marks}]::text[]",
    next_seq="nextval('memlane_seq')",
    # set_config(..., true) lasts for the statement's own transaction, so it governs that commit only
    relaxed_commit="FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed",
)


class Database(Protocol):
    """One SQL database as the roles share it: statements, transactions, and what each engine does
    its own way. :mod:`memlane.store.sqlite` and :mod:`memlane.store.postgres` implement it."""

    dialect: Dialect

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query and return its rows."""

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement and return how many rows it changed."""

    def transaction(self, user_id: str) -> AbstractContextManager[None]:
        """A read-modify-write for one (stored) user id, serialised with that user's other writers."""

    def erasing(self, user_id: str, *, memories: bool = True) -> AbstractContextManager[None]:
        """A transaction that deletes: it leaves no readable copy of what it removed (``memories``:
        it may delete or change memories, whose keyword index then drops their words)."""

    def write_later(self, sql: str, params: Sequence[Any]) -> None:
        """A write a crash may lose (recall counts): it need not wait for another writer."""

    def vector_param(self, vector: Any) -> Any:
        """A vector as the embedding column's parameter."""

    def forget(self, user_id: str) -> None:
        """Drop what this process caches of a (stored) user id that has been deleted."""

    def compact(self) -> None:
        """Make deleted rows unrecoverable from the database files; each engine has its own way."""

    def close(self) -> None:
        """Release connections."""


@dataclass
class SQLRole:
    """A role implemented on a shared :class:`Database`, seeing the user ids of ``scope``."""

    db: Database
    scope: Scope = UNSCOPED

    def within(self, scope: Scope) -> Self:
        """The same role on the same database, limited to ``scope``'s users."""
        return replace(self, scope=scope)


def bump_seq(db: Database) -> None:
    """Advance the change feed where the dialect needs a statement for it (inside a transaction)."""
    if db.dialect.bump_seq:
        db.write(db.dialect.bump_seq)


SELECT_MEMORIES = "SELECT " + ", ".join(READ_COLUMNS) + " FROM memories"
# the same rows without their vectors, for readers that only show or rank them (decoding 384 floats
# per row is a fifth of a search's time outside the query embedding)
SELECT_MEMORIES_TEXT = (
    "SELECT "
    + ", ".join(c if c != "embedding" else "NULL AS embedding" for c in READ_COLUMNS)
    + " FROM memories"
)

HISTORY_COLUMNS = ("id", "user_id", "target_id", "op", "at", "actor", "reason", "before", "after")
SLOT_COLUMNS = (
    "user_id",
    "slot",
    "version",
    "value",
    "created_at",
    "memory_id",
    "message_ids",
    "current",
    "reason",
)
SESSION_COLUMNS = ("user_id", "id", "body", "updated_at", "expires_at")
AUDIT_COLUMNS = ("id", "user_id", "at", "op", "actor", "caller", "memory_ids", "detail")
CONSENT_COLUMNS = ("user_id", "enabled", "categories", "updated_at")
SEALED_COLUMNS = ("memory_id", "user_id", "key_id", "body")


def upsert(d: Dialect, table: str, columns: Sequence[str], key: Sequence[str], *, tail: str = "") -> str:
    """``INSERT`` a row or update the row with the same ``key``; ``tail`` may add a guard (``WHERE ...``).

    Both dialects spell this ``INSERT ... ON CONFLICT (key) DO UPDATE SET c = excluded.c``.
    """
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({d.marks(len(columns))}) "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates} {tail}"
    ).rstrip()


def upsert_memory(d: Dialect) -> str:
    """Insert or replace a memory by id with a fresh change-feed number; never take over another
    user's row (the guard makes a foreign id a no-op).
    """
    names = [*COLUMNS, "seq"]
    updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != "id")
    return (
        f"INSERT INTO memories ({', '.join(names)}) VALUES ({d.marks(len(COLUMNS))}, {d.next_seq}) "
        f"ON CONFLICT (id) DO UPDATE SET {updates} WHERE memories.user_id = excluded.user_id"
    )


def insert_history(d: Dialect) -> str:
    """Append a history record, numbered by the change feed so that history reads in write order."""
    cols = ", ".join(HISTORY_COLUMNS)
    return f"INSERT INTO history ({cols}, seq) VALUES ({d.marks(len(HISTORY_COLUMNS))}, {d.next_seq})"


def insert_audit(d: Dialect) -> str:
    """Append an audit entry, numbered by the change feed so that entries at one instant keep their order."""
    cols = ", ".join(AUDIT_COLUMNS)
    return f"INSERT INTO audit ({cols}, seq) VALUES ({d.marks(len(AUDIT_COLUMNS))}, {d.next_seq})"


def where(d: Dialect, user_id: str, q: MemoryQuery) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (without the keyword) for one user's records matching ``q``."""
    clauses = [f"user_id = {d.mark}"]
    params: list[Any] = [user_id]

    def any_of(column: str, values: Sequence[Any]) -> None:
        clauses.append(f"{column} IN ({d.marks(len(values))})")
        params.extend(values)

    if q.kinds:
        any_of("kind", [k.value for k in q.kinds])
    if q.statuses:
        any_of("status", [s.value for s in q.statuses])
    if q.categories:
        any_of("category", list(q.categories))
    for column, values in (("memories.tags", q.tags), ("memories.entities", q.entities)):
        if values:
            clauses.append(d.json_any.format(column=column, marks=d.marks(len(values))))
            params.extend(values)
    for column, value in (("slot", q.slot), ("norm", q.norm), ("session_id", q.session_id)):
        if value is not None:
            clauses.append(f"{column} = {d.mark}")
            params.append(value)
    if q.since is not None:
        clauses.append(f"COALESCE(valid_from, created_at) >= {d.mark}")
        params.append(to_epoch(q.since))
    if q.until is not None:
        clauses.append(f"COALESCE(valid_from, created_at) < {d.mark}")
        params.append(to_epoch(q.until))
    if q.expires_before is not None:
        clauses.append(f"expires_at IS NOT NULL AND expires_at <= {d.mark}")
        params.append(to_epoch(q.expires_before))
    if q.provenance is not None:
        clauses.append(d.json_any.format(column="memories.provenance", marks=d.mark))
        params.append(q.provenance)
    if q.provenances:
        clauses.append(d.json_any.format(column="memories.provenance", marks=d.marks(len(q.provenances))))
        params.extend(q.provenances)
    if q.sealed is not None:
        exists = "EXISTS (SELECT 1 FROM sealed WHERE sealed.memory_id = memories.id)"
        clauses.append(exists if q.sealed else f"NOT {exists}")
    if q.embedded is not None:
        clauses.append("embedding IS NOT NULL" if q.embedded else "embedding IS NULL")
    return " AND ".join(clauses), params


def order_and_page(d: Dialect, q: MemoryQuery) -> tuple[str, list[Any]]:
    """``ORDER BY`` event (or creation) time, then write order; ``LIMIT``/``OFFSET`` when asked."""
    direction = "DESC" if q.newest_first else "ASC"
    sql = f" ORDER BY {d.time_order} {direction}, seq {direction}"
    if q.limit is None:
        return sql, []
    return sql + f" LIMIT {d.mark} OFFSET {d.mark}", [q.limit, q.offset]


def filters_beyond_kind(q: MemoryQuery) -> bool:
    """Whether ``q`` filters on more than kind and status (an index of vectors knows only those)."""
    return bool(
        q.categories
        or q.tags
        or q.entities
        or q.since
        or q.until
        or q.session_id
        or q.slot
        or q.norm
        or q.provenance
        or q.provenances
        or q.sealed is not None
        or q.embedded is not None
    )


# Keyword search walks every index posting of the words it matches, and FTS5 and PostgreSQL both score
# every matching row before they can sort; a word found in tens of thousands of memories would make
# each search slow while adding little to the ranking (its IDF is low). So both stores match the
# rarest words first, up to this many postings (at least one word is always matched).
POSTINGS_BUDGET = 4_000


def rarest_within(
    terms: Sequence[str], documents: dict[str, float], budget: int = POSTINGS_BUDGET
) -> list[str]:
    """The ``terms`` to match, in their order: the rarest ones (by ``documents`` holding each, unknown
    meaning rare) until the next would exceed ``budget`` postings.
    """
    chosen: set[str] = set()
    spent = 0.0
    for term in sorted(terms, key=lambda t: documents.get(t, 0.0)):
        if chosen and spent + documents.get(term, 0.0) > budget:
            break
        chosen.add(term)
        spent += documents.get(term, 0.0)
    return [t for t in terms if t in chosen]
