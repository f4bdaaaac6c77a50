"""``benchmarks/events_recall.py`` and its set: the data is consistent and as large as reported, the
scores are computed right, and the core runs remember-then-search on a real in-memory store.

Only ranks are checked, never timings.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_scripts import load_script
from memlane import Memory


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("events_recall")


def _tiny(bench: ModuleType) -> object:
    """Two users, one per split, three events and two queries each."""
    e, q = bench.Event, bench.Query
    return bench.Dataset(
        events=[
            e("a-m1", "a", date(2024, 5, 12), "2024年5月和大学室友去爬黄山，下山时扭伤了左脚踝"),
            e("a-m2", "a", date(2024, 12, 18), "外婆因为胸闷住院，做了心脏支架手术，我请假在医院陪了一周"),
            e("a-m3", "a", date(2024, 10, 3), "国庆和大学室友又去了一次黄山，这次坐缆车上山"),
            e("b-m1", "b", date(2024, 7, 20), "养了三年的橘猫豆豆因为肾衰竭去世了"),
            e("b-m2", "b", date(2025, 3, 30), "开车在小区地下车库剐蹭了别人的车，赔了800块"),
            e("b-m3", "b", date(2024, 11, 9), "第一次跑完半程马拉松，成绩2小时05分"),
        ],
        queries=[
            q(
                "a-q1",
                "a",
                "dev",
                "indirect",
                date(2025, 6, 20),
                "外婆下周要去复查，我心里一直七上八下的",
                ("a-m2",),
            ),
            q(
                "a-q2",
                "a",
                "dev",
                "indirect",
                date(2025, 6, 20),
                "最近脚又开始疼了，上次爬山落下的毛病",
                ("a-m1",),
            ),
            q(
                "b-q1",
                "b",
                "test",
                "mixed",
                date(2025, 6, 20),
                "停车场那次scratch了人家的车，我现在倒车都有阴影",
                ("b-m2",),
            ),
            q(
                "b-q2",
                "b",
                "test",
                "paraphrase",
                date(2025, 6, 20),
                "上次那个半马我跑了多久？",
                ("b-m3", "b-m1"),
            ),
        ],
    )


def test_the_shipped_set_is_consistent_and_as_large_as_reported(bench: ModuleType) -> None:
    data = bench.load()
    assert bench.problems(data) == []
    assert bench.shortfalls(data) == []
    ids = [e.id for e in data.events] + [q.id for q in data.queries]
    assert len(ids) == len(set(ids))
    events = {e.id: e.user for e in data.events}
    assert all(events[t] == q.user for q in data.queries for t in q.targets)
    assert len(data.users()) >= 6
    assert len(data.queries) >= 60
    splits = Counter(q.split for q in data.queries)
    assert set(splits) == {"dev", "test"}
    assert abs(splits["dev"] - splits["test"]) <= len(data.queries) / 5
    # whole users are held out: no user has queries in both halves
    held = {(q.user, q.split) for q in data.queries}
    assert len(held) == len({user for user, _ in held})
    assert set(Counter(q.style for q in data.queries)) == set(bench.STYLES)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(lambda d: d.events.append(d.events[0]), "id a-m1 is used 2 times", id="duplicate-id"),
        pytest.param(
            lambda d: d.queries.__setitem__(0, replace(d.queries[0], targets=("a-m9",))),
            "target a-m9 is not a memory",
            id="unknown-target",
        ),
        pytest.param(
            lambda d: d.queries.__setitem__(0, replace(d.queries[0], targets=("b-m1",))),
            "target b-m1 is another user's memory",
            id="another-users-target",
        ),
        pytest.param(
            lambda d: d.queries.__setitem__(1, replace(d.queries[1], split="test")),
            "user a has queries in both splits",
            id="user-in-both-splits",
        ),
        pytest.param(
            lambda d: d.queries.__setitem__(0, replace(d.queries[0], asked_at=date(2024, 6, 1))),
            "query a-q1 is asked before its user's memories a-m2, a-m3 happened",
            id="asked-before-the-event",
        ),
        pytest.param(
            lambda d: d.queries.__setitem__(0, replace(d.queries[0], style="riddle")),
            "style must be one of",
            id="unknown-style",
        ),
        pytest.param(
            lambda d: d.queries.__setitem__(0, replace(d.queries[0], targets=())),
            "query a-q1 names no memory",
            id="no-target",
        ),
    ],
)
def test_an_inconsistent_set_is_refused_with_what_is_wrong(
    bench: ModuleType, change: object, message: str
) -> None:
    data = _tiny(bench)
    assert bench.problems(data) == []
    change(data)  # type: ignore[operator]
    found = bench.problems(data)
    assert any(message in p for p in found), found


def test_a_small_set_is_named_short_of_what_is_reported(bench: ModuleType) -> None:
    data = _tiny(bench)
    short = bench.shortfalls(data)
    assert "2 users, fewer than 6" in short
    assert "4 queries, fewer than 60" in short
    assert "user a has 3 memories, not 12-20" in short
    data.queries[:] = [q for q in data.queries if q.split == "dev"]
    assert "no test queries" in bench.shortfalls(data)


def test_a_bad_line_is_named(bench: ModuleType) -> None:
    good = json.dumps({"type": "memory", "user": "a", "id": "a-m1", "at": "2024-05-12", "text": "爬黄山"})
    with pytest.raises(ValueError, match="line 2: not JSON"):
        bench.parse([good, "{oops"])
    with pytest.raises(ValueError, match="line 1: '2024-13-01' is not a YYYY-MM-DD date"):
        bench.parse([good.replace("2024-05-12", "2024-13-01")])
    with pytest.raises(ValueError, match="line 1: a record needs"):
        bench.parse([json.dumps({"type": "query", "id": "a-q1"})])


def test_scores_on_a_hand_made_case(bench: ModuleType) -> None:
    # first relevant ranks 1, 3, none within ten, 7
    assert bench.score([1, 3, None, 7]) == {
        "queries": 4,
        "R@1": 0.25,
        "R@5": 0.5,
        "R@10": 0.75,
        "MRR": round((1 + 1 / 3 + 0 + 1 / 7) / 4, 3),
    }
    assert bench.score([None, None]) == {"queries": 2, "R@1": 0.0, "R@5": 0.0, "R@10": 0.0, "MRR": 0.0}
    # a memlane id stands for every event merged into it; the first that is a target counts
    same = {"x": {"e1"}, "y": {"e2", "e3"}, "z": {"e4"}}
    assert bench.first_rank(["x", "y", "z"], ["e3"], same) == 2
    assert bench.first_rank(["x", "y", "z"], ["e4", "e1"], same) == 1
    assert bench.first_rank(["x", "unknown"], ["e4"], same) is None
    # a random order of 4 memories puts the one target first a quarter of the time
    floor = bench.chance(4, 1)
    assert floor["R@1"] == pytest.approx(0.25)
    assert floor["MRR"] == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4)
    assert bench.chance(19, 2)["R@10"] == pytest.approx(1 - (9 * 8) / (19 * 18))


def test_the_core_remembers_then_ranks_each_users_own_events(bench: ModuleType) -> None:
    data = _tiny(bench)
    steps: list[None] = []
    results = []
    with Memory(":memory:") as memory:
        for user in data.users():
            events = [e for e in data.events if e.user == user]
            queries = [q for q in data.queries if q.user == user]
            rs, outcomes = bench.run_user(memory, user, events, queries, lambda: steps.append(None))
            assert outcomes == {e.id: "new" for e in events}
            results += rs
    assert len(steps) == 4
    by_id = {r.query: r for r in results}
    # the grandmother's surgery is the one memory about her: an easy first
    assert by_id["a-q1"].rank == 1
    assert by_id["a-q1"].top[0] == "a-m2"
    for r in results:
        assert r.rank is not None
        assert 1 <= r.rank <= 3
        assert r.pool == 3
        assert all(t.startswith(r.query.split("-")[0] + "-m") for t in r.top)  # only the user's own
    summary = bench.summarize(results)
    assert summary["splits"]["dev"]["queries"] == summary["splits"]["test"]["queries"] == 2
    assert summary["splits"]["all"]["R@10"] == 1.0
    assert summary["styles"]["time"]["queries"] == 0


def test_a_run_writes_its_numbers_and_a_plot(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tiny(bench)
    lines = [
        {"type": "memory", "user": e.user, "id": e.id, "at": e.at.isoformat(), "text": e.text}
        for e in data.events
    ] + [
        {
            "type": "query",
            "user": q.user,
            "id": q.id,
            "split": q.split,
            "style": q.style,
            "asked_at": q.asked_at.isoformat(),
            "text": q.text,
            "targets": list(q.targets),
        }
        for q in data.queries
    ]
    path = tmp_path / "tiny.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    out = tmp_path / "out" / "events.json"

    assert bench.main(["--data", str(path), "--json", str(out), "--misses"]) == 0

    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["users"] == 2
    assert result["events"] == 6
    assert result["remember"] == {"new": 6}
    assert set(result["splits"]) == {"dev", "test", "all"}
    assert [q["query"] for q in result["queries"]] == ["a-q1", "a-q2", "b-q1", "b-q2"]
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    printed = capsys.readouterr().out
    assert "Chinese event recall" in printed
    assert "2 users, fewer than 6" in printed  # a small set is run, and said to be small


def test_an_inconsistent_file_is_refused(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    rec = {"type": "query", "user": "a", "id": "a-q1", "split": "dev", "style": "time"}
    path.write_text(json.dumps({**rec, "asked_at": "2025-01-01", "text": "那次", "targets": ["a-m1"]}) + "\n")
    assert bench.main(["--data", str(path)]) == 2
    assert "target a-m1 is not a memory" in capsys.readouterr().out
