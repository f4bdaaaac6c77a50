"""The sensitive-data policy: drop, redact or encrypt per kind; encrypted originals are sealed with
AES-GCM under a data key, never reach the database file or an index in clear, stay out of search and
context unless asked for, and read back after the key is rotated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import T0, days
from memlane import Action, ConfigurationError, InvalidInput, Memory
from memlane.cli import main
from memlane.privacy.crypto import DataKey, context_of
from memlane.vocabulary import SealedText

PHONE = "13812345678"
ID_NUMBER = "440304198808151232"  # valid check digit
KEY = DataKey.generate().encoded()
ENCRYPT = {"phone": "encrypt", "id_card": "encrypt"}

Opener = Callable[..., Memory]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    if request.param == "sqlite":
        return lambda **kw: Memory(tmp_path / "memlane.db", **kw)
    url: str = request.getfixturevalue("pg_url")
    return lambda **kw: Memory(store=url, **kw)


@pytest.fixture
def mem(opener: Opener) -> Iterator[Memory]:
    with opener(sensitive_policy=ENCRYPT, data_key=KEY) as memory:
        yield memory


def file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_an_encrypted_memory_is_indexed_masked_and_read_back_by_its_owner(mem: Memory) -> None:
    result = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0)
    [decision] = result.decisions
    assert decision.action is Action.SEMANTIC
    assert decision.memory is not None
    assert decision.memory.text == "我的手机号是[已隐藏:手机号]"
    assert [m.text for m in mem.list("u1")] == ["我的手机号是[已隐藏:手机号]"]
    assert mem.get(decision.memory.id, user_id=decision.memory.user_id).text == f"我的手机号是{PHONE}"
    assert PHONE not in json.dumps([h.memory.text for h in mem.search("手机号", user_id="u1", now=T0)])
    assert all(h.memory.id != decision.memory.id for h in mem.search("手机号", user_id="u1", now=T0))
    asked = mem.search("手机号", user_id="u1", now=T0, include_sensitive=True)
    assert f"我的手机号是{PHONE}" in [h.memory.text for h in asked]
    assert PHONE not in mem.context("我的手机号", user_id="u1", now=T0).text
    assert PHONE in mem.context("我的手机号", user_id="u1", now=T0, include_sensitive=True).text


def test_a_kind_never_stored_by_default_can_be_kept_encrypted(mem: Memory) -> None:
    result = mem.add(f"我的身份证号是{ID_NUMBER}", user_id="u1", at=T0)
    memory = result.memories[0]
    assert memory.text == "我的身份证号是[已隐藏:身份证号]"
    assert memory.sensitivity == 1.0
    assert mem.get(memory.id, user_id=memory.user_id).text == f"我的身份证号是{ID_NUMBER}"


def test_values_reach_neither_the_file_nor_its_keyword_index(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(db, sensitive_policy=ENCRYPT, data_key=KEY) as mem:
        mem.add(f"我叫阿白，手机{PHONE}，身份证{ID_NUMBER}", user_id="u1", session_id="s1", at=T0)
        mem.remember(f"call me on {PHONE} after six", user_id="u1", at=T0)
        assert any(PHONE in mem.get(m.id, user_id=m.user_id).text for m in mem.list("u1"))
        stored = file_bytes(db)
        tokens = " ".join(r[0] for r in mem.stores.records.db.rows("SELECT tokens FROM memories"))  # type: ignore[attr-defined]
    for value in (PHONE, ID_NUMBER, PHONE[-6:], ID_NUMBER[-8:]):
        assert value.encode() not in stored
        assert value not in tokens


def test_the_default_policy_is_unchanged_and_others_can_be_chosen(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db") as mem:
        dropped = mem.add(f"我的身份证号是{ID_NUMBER}", user_id="u1", at=T0)
        assert dropped.decisions[0].reason == "含有身份证号：这类内容从不保存"
        kept = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
        assert (
            mem.get(kept.id, user_id=kept.user_id).text == "我的手机号是[已隐藏:手机号]"
        )  # redacted: no original kept
    with Memory(tmp_path / "b.db", sensitive_policy={"email": "drop", "id_card": "redact"}) as mem:
        result = mem.add("my email is bo@example.com", user_id="u1", at=T0)
        assert result.memories == []
        assert result.decisions[0].reason == "contains an email address; the privacy policy drops it"
        masked = mem.add(f"我的身份证号是{ID_NUMBER}", user_id="u1", at=T0).memories[0]
        assert mem.get(masked.id, user_id=masked.user_id).text == "我的身份证号是[已隐藏:身份证号]"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        pytest.param({"sensitive_policy": {"phone": "encrypt"}}, "no data key", id="no-key"),
        pytest.param({"sensitive_policy": {"phone": "hide"}}, "drop, redact or encrypt", id="bad-treatment"),
        pytest.param({"sensitive_policy": {"shoe_size": "drop"}}, "unknown kind", id="bad-kind"),
        pytest.param({"data_key": "c2hvcnQ="}, "32 bytes", id="short-key"),
    ],
)
def test_a_policy_that_cannot_work_is_refused_when_memory_opens(
    tmp_path: Path, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigurationError, match=message):
        Memory(tmp_path / "m.db", **overrides)


def test_a_key_provider_hook_supplies_the_key(tmp_path: Path) -> None:
    key = DataKey.generate()
    with Memory(tmp_path / "m.db", sensitive_policy=ENCRYPT, key_provider=lambda: key) as mem:
        item = mem.add(f"my phone number is {PHONE}", user_id="u1", at=T0).memories[0]
        assert mem.get(item.id, user_id=item.user_id).text == f"my phone number is {PHONE}"
        sealed = mem.stores.sealed.get("u1", [item.id])[item.id]
        assert sealed.key_id == key.key_id
        assert key.open(sealed.body, context_of("u1", item.id)) == f"my phone number is {PHONE}"


def test_a_sealed_text_moved_onto_another_row_does_not_open(mem: Memory) -> None:
    item = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
    other = mem.add("我喜欢喝美式", user_id="u1", at=T0).memories[0]
    sealed = mem.stores.sealed.get("u1", [item.id])[item.id]
    mem.stores.sealed.put(SealedText("u1", other.id, sealed.key_id, sealed.body))
    with pytest.raises(ConfigurationError, match="does not open"):
        mem.get(other.id, user_id=other.user_id)


def test_rotation_reseals_everything_and_the_old_key_no_longer_reads(opener: Opener) -> None:
    new = DataKey.generate().encoded()
    with opener(sensitive_policy=ENCRYPT, data_key=KEY) as mem:
        ids = [mem.add(f"我的手机号是{PHONE}", user_id=u, at=T0).memories[0].id for u in ("u1", "u2")]
        assert mem.rotate_data_key(KEY, new) == 2
        assert mem.rotate_data_key(KEY, new) == 0  # again: nothing left under the old key
        with pytest.raises(ConfigurationError, match="rotate the data key"):
            mem.get(ids[0], user_id="u1")
    with opener(sensitive_policy=ENCRYPT, data_key=new) as mem:
        assert [mem.get(i, user_id=u).text for i, u in zip(ids, ("u1", "u2"), strict=True)] == [
            f"我的手机号是{PHONE}"
        ] * 2


def test_the_cli_makes_a_key_and_rotates_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "cli.db"
    with Memory(db, sensitive_policy=ENCRYPT, data_key=KEY) as mem:
        item = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
    runner = CliRunner()
    new = runner.invoke(main, ["data-key", "new"], catch_exceptions=False).stdout.strip()
    assert DataKey.parse(new).key_id != DataKey.parse(KEY).key_id
    monkeypatch.setenv("MEMLANE_DATA_KEY", KEY)
    result = runner.invoke(main, ["--db", str(db), "data-key", "rotate", "--new-key", new])
    assert result.exit_code == 0, result.output
    assert "re-encrypted 1 memories" in result.stdout
    with Memory(db, sensitive_policy=ENCRYPT, data_key=new) as mem:
        assert mem.get(item.id, user_id=item.user_id).text == f"我的手机号是{PHONE}"
    bad = runner.invoke(main, ["--db", str(db), "data-key", "rotate", "--new-key", "nope"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: ")


def test_correcting_an_encrypted_memory_seals_the_new_text(mem: Memory) -> None:
    item = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
    mem.update(item.id, "我的手机号是13900001111", at=days(1), user_id=item.user_id)
    assert mem.get(item.id, user_id=item.user_id).text == "我的手机号是13900001111"
    mem.update(item.id, "我没有手机", at=days(2), user_id=item.user_id)
    assert mem.get(item.id, user_id=item.user_id).text == "我没有手机"
    assert mem.stores.sealed.get("u1", [item.id]) == {}
    with pytest.raises(InvalidInput, match="privacy policy drops it"):
        mem.update(item.id, "我的密码是hunter2secret", at=days(3), user_id=item.user_id)


def test_export_opens_originals_and_restore_seals_them_under_the_new_store_key(
    mem: Memory, tmp_path: Path
) -> None:
    item = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
    document = json.loads(json.dumps(mem.export("u1")))
    assert document["sealed"] == [{"memory_id": item.id, "text": f"我的手机号是{PHONE}"}]
    assert PHONE not in json.dumps(document["memories"])
    other = DataKey.generate().encoded()
    with Memory(tmp_path / "b.db", sensitive_policy=ENCRYPT, data_key=other) as target:
        assert target.restore(document).sealed == 1
        assert target.get(item.id, user_id=item.user_id).text == f"我的手机号是{PHONE}"
        assert target.stores.sealed.get("u1", [item.id])[item.id].key_id == DataKey.parse(other).key_id
    with Memory(tmp_path / "c.db") as keyless, pytest.raises(ConfigurationError, match="data key"):
        keyless.restore(document)


def test_deleting_an_encrypted_memory_removes_its_sealed_original(mem: Memory) -> None:
    item = mem.add(f"我的手机号是{PHONE}", user_id="u1", at=T0).memories[0]
    mem.delete(item.id, at=days(1), user_id=item.user_id)
    assert mem.stores.sealed.get("u1", [item.id]) == {}
    mem.add(f"我的手机号是{PHONE}", user_id="u2", at=T0)
    mem.forget("u2", all=True)
    assert not mem.stores.sealed.any("u2")
