"""The contract every store adapter meets, as a pytest class to subclass.

An adapter's tests provide ``make_stores``: a fixture returning a factory of new, empty
:class:`~memlane.store.Stores` bundles for 384-dimensional vectors (each test closes what it
opened). Every test here then runs on the adapter::

    import pytest
    from memlane.testing.contract import StoreContract

    class TestMyStore(StoreContract):
        @pytest.fixture
        def make_stores(self, tmp_path):
            return lambda: open_my_store(tmp_path / "db")

memlane runs it on SQLite, PostgreSQL (with its own sessions and with Redis's) and on
:func:`memlane.testing.memory_stores` (``tests/test_store_contract.py``). The behaviour of the
whole library on a store is :class:`memlane.Memory`'s own contract, run on the same backends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest

from memlane.domain import HistoryRecord, Kind, MemoryItem, Session, SlotVersion, Status
from memlane.store import Scopable, SealedUnderKey, Stores
from memlane.store.scope import Scope
from memlane.vocabulary import AuditEntry, ConsentSettings, MemoryQuery, SealedText

T0 = datetime(2025, 3, 3, 8, 30, tzinfo=timezone.utc)
DIM = 384


def unit(axis: int) -> list[float]:
    """A unit vector along one axis (exact in float32, so it reads back unchanged)."""
    v = [0.0] * DIM
    v[axis] = 1.0
    return v


def item(user_id: str, text: str, *, at: int = 0, **fields: Any) -> MemoryItem:
    """A semantic memory written ``at`` minutes after T0."""
    created = T0 + timedelta(minutes=at)
    return MemoryItem(user_id=user_id, text=text, kind=Kind.SEMANTIC, created_at=created, **fields)


class StoreContract:
    """What any :class:`~memlane.store.Stores` must do; subclass it and give ``make_stores``."""

    @pytest.fixture
    def stores(self, make_stores: Callable[[], Stores]) -> Iterator[Stores]:
        """One new bundle, closed after the test."""
        opened = make_stores()
        yield opened
        opened.close()

    def test_a_record_reads_back_as_it_was_put(self, stores: Stores) -> None:
        put = item("u1", "I like green tea", tags=["drink"], entities=["green tea"], embedding=unit(0))
        stores.records.put(put, "like green tea")
        got = stores.records.get("u1", put.id)
        assert got == put
        assert got is not None
        assert got.embedding == unit(0)
        assert stores.records.get_many("u1", [put.id, "missing"]) == [put]
        assert stores.records.owner(put.id) == "u1"
        assert list(stores.records.users()) == ["u1"]

    def test_another_users_records_are_out_of_reach(self, stores: Stores) -> None:
        mine = item("u1", "mine", embedding=unit(1))
        stores.records.put(mine, "mine")
        stores.records.put(item("u2", "theirs", id=mine.id), "theirs")  # a foreign id takes nothing over
        assert stores.records.get("u2", mine.id) is None
        assert stores.records.query("u2", MemoryQuery()) == []
        assert stores.records.count("u2", MemoryQuery()) == 0
        assert stores.search.keyword_search("u2", ["mine"], MemoryQuery(), 5) == []
        assert stores.search.vector_search("u2", np.asarray(unit(1), np.float32), MemoryQuery(), 5) == []
        assert stores.records.delete("u2", [mine.id]) == 0
        assert stores.records.get("u1", mine.id) == mine

    def test_query_filters_and_pages_newest_first(self, stores: Stores) -> None:
        old = item("u1", "old tea", at=0, tags=["drink"])
        new = item("u1", "new tea", at=5, tags=["drink"])
        other = item("u1", "a meeting", at=3, tags=["work"])
        gone = item("u1", "old coffee", at=4, status=Status.SUPERSEDED)
        for m in (old, new, other, gone):
            stores.records.put(m, m.text)
        assert [m.id for m in stores.records.query("u1", MemoryQuery())] == [new.id, other.id, old.id]
        assert [m.id for m in stores.records.query("u1", MemoryQuery(tags=("drink",)))] == [new.id, old.id]
        paged = MemoryQuery(limit=1, offset=1, newest_first=False)
        assert [m.id for m in stores.records.query("u1", paged)] == [other.id]
        assert stores.records.count("u1", MemoryQuery(statuses=())) == 4
        since = MemoryQuery(since=T0 + timedelta(minutes=3), until=T0 + timedelta(minutes=5))
        assert [m.id for m in stores.records.query("u1", since)] == [other.id]

    def test_keyword_and_vector_search_rank_what_matches(self, stores: Stores) -> None:
        tea = item("u1", "green tea every morning", embedding=unit(2))
        coffee = item("u1", "coffee after lunch", embedding=unit(3))
        stores.records.put(tea, "green tea every morning")
        stores.records.put(coffee, "coffee after lunch")
        found = stores.search.keyword_search("u1", ["tea", "morning"], MemoryQuery(), 5)
        assert [f.id for f in found][:1] == [tea.id]
        assert sorted(found[0].terms) == ["morning", "tea"]
        near = stores.search.vector_search("u1", np.asarray(unit(3), np.float32), MemoryQuery(), 5)
        assert [f.id for f in near][:1] == [coffee.id]
        assert near[0].score == pytest.approx(1.0, abs=1e-5)

    def test_a_deleted_record_leaves_every_index(self, stores: Stores) -> None:
        gone = item("u1", "a secret plan", embedding=unit(4))
        stores.records.put(gone, "secret plan")
        stores.sealed.put(SealedText(user_id="u1", memory_id=gone.id, key_id="k1", body="Y2lwaGVy"))
        assert stores.records.delete("u1", [gone.id]) == 1
        assert stores.records.get("u1", gone.id) is None
        assert stores.search.keyword_search("u1", ["secret"], MemoryQuery(), 5) == []
        assert stores.search.vector_search("u1", np.asarray(unit(4), np.float32), MemoryQuery(), 5) == []
        assert stores.sealed.get("u1", [gone.id]) == {}

    def test_put_vectors_fills_only_records_without_one(self, stores: Stores) -> None:
        bare = item("u1", "no vector yet")
        stores.records.put(bare, "no vector yet")
        vector = np.asarray(unit(5), np.float32)
        assert stores.search.put_vectors("u2", {bare.id: vector}) == 0
        assert stores.search.put_vectors("u1", {bare.id: vector, "missing": vector}) == 1
        assert stores.search.put_vectors("u1", {bare.id: -vector}) == 0
        assert [f.id for f in stores.search.vector_search("u1", vector, MemoryQuery(), 5)] == [bare.id]

    def test_a_failed_transaction_writes_nothing(self, stores: Stores) -> None:
        kept = item("u1", "kept")
        stores.records.put(kept, "kept")

        def fail_midway() -> None:
            with stores.records.transaction("u1"):
                stores.records.put(item("u1", "lost"), "lost")
                stores.history.add(HistoryRecord(user_id="u1", target_id=kept.id, op="update", at=T0))
                stores.records.delete("u1", [kept.id])
                raise RuntimeError("the write fails midway")

        with pytest.raises(RuntimeError):
            fail_midway()
        assert [m.id for m in stores.records.query("u1", MemoryQuery())] == [kept.id]
        assert stores.history.of("u1") == []

    def test_history_reads_in_write_order_and_scrubs(self, stores: Stores) -> None:
        first = HistoryRecord(user_id="u1", target_id="m1", op="add", at=T0, after="tea")
        second = HistoryRecord(user_id="u1", target_id="m1", op="update", at=T0, before="tea", after="coffee")
        for record in (first, second):
            stores.history.add(record)
        assert [h.id for h in stores.history.of("u1", "m1")] == [first.id, second.id]
        assert stores.history.owner("m1") == "u1"
        assert stores.history.of("u2") == []
        stores.history.scrub("u1", ["m1"])
        assert [(h.before, h.after) for h in stores.history.of("u1")] == [(None, None), (None, None)]

    def test_a_slot_keeps_every_version_with_one_current(self, stores: Stores) -> None:
        for version, city in enumerate(["上海", "杭州"], start=1):
            stores.profile.put(
                SlotVersion(user_id="u1", slot="city", value=city, version=version, created_at=T0)
            )
        assert [v.value for v in stores.profile.slots("u1")] == ["杭州"]
        assert [v.current for v in stores.profile.slots("u1", "city", current_only=False)] == [False, True]
        assert stores.profile.delete("u1", "city") == 2
        assert stores.profile.slots("u1") == []

    def test_audit_consent_and_sealed_originals_belong_to_their_user(self, stores: Stores) -> None:
        first = AuditEntry(user_id="u1", at=T0, op="write", memory_ids=["m1"])
        second = AuditEntry(user_id="u1", at=T0 + timedelta(minutes=1), op="read")
        for entry in (first, second):
            stores.audit.add(entry)
        assert [e.id for e in stores.audit.entries("u1")] == [second.id, first.id]
        assert [e.id for e in stores.audit.entries("u1", since=T0 + timedelta(seconds=30))] == [second.id]
        assert stores.audit.entries("u2") == []
        consent = ConsentSettings(user_id="u1", enabled=True, categories=("name",), updated_at=T0)
        stores.consent.put(consent)
        assert stores.consent.get("u1") == consent
        assert stores.consent.get("u2") is None
        sealed = SealedText(user_id="u1", memory_id="m1", key_id="k1", body="Y2lwaGVy")
        stores.sealed.put(sealed)
        stores.sealed.put(SealedText(user_id="u2", memory_id="m1", key_id="k1", body="b3RoZXI="))  # refused
        assert stores.sealed.get("u1", ["m1", "m2"]) == {"m1": sealed}
        assert stores.sealed.any("u1")
        assert not stores.sealed.any("u2")
        if isinstance(stores.sealed, SealedUnderKey):
            assert stores.sealed.sealed_under("k1") == [sealed]
        stores.sealed.delete("u1", ["m1"])
        assert not stores.sealed.any("u1")

    def test_sessions_expire_by_the_callers_clock(self, stores: Stores) -> None:
        s = Session(id="s1", user_id="u1", created_at=T0, updated_at=T0, expires_at=T0 + timedelta(hours=1))
        assert stores.sessions.save_session(s)
        assert stores.sessions.get_session("u1", "s1", T0) == s
        assert stores.sessions.get_session("u2", "s1", T0) is None
        assert stores.sessions.get_session("u1", "s1", T0 + timedelta(hours=2)) is None
        assert [x.id for x in stores.sessions.list_sessions("u1", None)] == ["s1"]
        assert stores.sessions.purge_sessions(T0 + timedelta(hours=2)) == 1
        assert stores.sessions.list_sessions("u1", None) == []

    def test_forgetting_a_user_removes_everything_held_about_them(self, stores: Stores) -> None:
        stores.records.put(item("u1", "mine"), "mine")
        stores.records.put(item("u2", "theirs"), "theirs")
        stores.history.add(HistoryRecord(user_id="u1", target_id="m1", op="add", at=T0))
        stores.profile.put(SlotVersion(user_id="u1", slot="city", value="上海", version=1, created_at=T0))
        stores.audit.add(AuditEntry(user_id="u1", at=T0, op="write"))
        stores.consent.put(ConsentSettings(user_id="u1"))
        stores.sessions.save_session(Session(id="s1", user_id="u1", created_at=T0, updated_at=T0))
        assert stores.records.delete_user("u1") == 1
        stores.sessions.delete_sessions("u1")  # a session store of its own (Redis) forgets on its own
        assert stores.records.query("u1", MemoryQuery(statuses=())) == []
        assert stores.history.of("u1") == []
        assert stores.profile.slots("u1", current_only=False) == []
        assert stores.audit.entries("u1") == []
        assert stores.consent.get("u1") is None
        assert stores.sessions.list_sessions("u1", None) == []
        assert list(stores.records.users()) == ["u2"]

    def test_a_tenants_scope_sees_only_its_own_users(self, stores: Stores) -> None:
        roles = [stores.records, stores.search, stores.history, stores.sealed, stores.sessions]
        if not all(isinstance(r, Scopable) for r in roles):
            pytest.fail("every role must offer within(scope) to serve tenants")  # say why, not skip
        acme, globex = stores.within(Scope("acme")), stores.within(Scope("globex"))
        put = item("u1", "acme's tea", embedding=unit(6))
        acme.records.put(put, "tea")
        assert acme.records.get("u1", put.id) == put  # the id comes back without the prefix
        assert globex.records.get("u1", put.id) is None
        assert globex.records.owner(put.id) is None
        assert globex.search.keyword_search("u1", ["tea"], MemoryQuery(), 5) == []
        assert list(acme.records.users()) == ["u1"]
        assert list(globex.records.users()) == []
        assert list(stores.records.users()) == ["acme/u1"]
