"""The learned judge: the phrasings of issue 22 decided right through ``Memory.add`` on real SQLite,
a reason that names the rule or the learned class, the shipped model, its rebuild and its eval."""

from __future__ import annotations

import json
import zlib
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import T0
from memlane import Memory
from memlane.cli import main
from memlane.domain import Action, Candidate, Category, Decision, Kind
from memlane.eval.judge import run, secret_kept
from memlane.eval.judge_folds import out_of_fold
from memlane.settings import Settings
from memlane.write.judge import LABELS, Classifier, Judge, RuleJudge, cover
from memlane.write.judge import train as training
from memlane.write.judge.features import Features
from memlane.write.judge.meaning import MeaningHead
from memlane.write.judge.model import Prediction

LONG_TERM = (Action.SEMANTIC, Action.EPISODIC, Action.PROFILE)


def said(mem: Memory, text: str, user: str = "u1") -> list[Action]:
    return [d.action for d in mem.add(text, user_id=user, session_id="s1", at=T0).decisions]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("If I won the lottery I'd buy a castle in Scotland", id="en-lottery"),
        pytest.param("要是能坐上飞船，我就飞去火星", id="zh-mars"),
    ],
)
def test_a_hypothetical_is_not_remembered(mem: Memory, text: str) -> None:
    assert said(mem, text) == [Action.DISCARD]
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("刚被老板骂了一顿", id="zh-scolded"),
        pytest.param("今天下雨了", id="zh-rain"),
    ],
)
def test_a_passing_mood_is_not_an_event(mem: Memory, text: str) -> None:
    assert not set(said(mem, text)) & set(LONG_TERM)
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("For this search, only show me hotels under 150 euros a night", id="en-hotels"),
        pytest.param("预算 6000 以内", id="zh-budget"),
        pytest.param("帮我买个耳机，预算300", id="zh-headphones"),
        # the task's deadline
        pytest.param("这份方案下周一之前必须交", id="zh-deadline"),
        pytest.param("周四前我得把PPT做完", id="zh-deadline-first"),
        pytest.param("the slides have to be done by thursday", id="en-done-by"),
        pytest.param("the grant report is due friday", id="en-due"),
    ],
)
def test_a_condition_of_the_task_stays_in_the_session(mem: Memory, text: str) -> None:
    actions = said(mem, text)
    assert Action.SESSION in actions
    assert not set(actions) & set(LONG_TERM)
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("any lounges here", id="en-lounges"),
        pytest.param("whats the weather doing today", id="en-weather"),
        pytest.param("附近哪有24小时的宠物医院", id="zh-vet"),
    ],
)
def test_a_question_to_the_assistant_is_not_kept_even_for_the_session(mem: Memory, text: str) -> None:
    # the model reads such questions as this conversation's context (0.76 for the lounges)
    assert said(mem, text) == [Action.DISCARD]


def test_a_task_budget_does_not_supersede_a_lasting_one(mem: Memory) -> None:
    mem.add("我每个月房租预算三千", user_id="u1", session_id="s0", at=T0)
    before = [m.text for m in mem.list("u1")]
    said(mem, "帮我买个耳机，预算300")
    assert before
    assert [m.text for m in mem.list("u1")] == before
    assert mem.list("u1", status="superseded") == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("we budget 600 a month for food", id="en-month"),
        pytest.param("my monthly budget for eating out is 200", id="en-monthly"),
        pytest.param("每周买菜预算五百左右", id="zh-week"),
    ],
)
def test_a_budget_that_recurs_is_a_lasting_fact(mem: Memory, text: str) -> None:
    assert set(said(mem, text)) & set(LONG_TERM)
    assert [m.text for m in mem.list("u1")] == [text]


def test_the_model_never_keeps_a_slot_the_rules_keep_for_the_session(mem: Memory) -> None:
    # a gift's "budget £50" reads as 0.71 long-term to the model; kept, it would replace a lasting budget
    actions = said(mem, "what's a good gift for my sister's 30th? she loves plants. budget £50")
    assert Action.SESSION in actions
    assert [m.text for m in mem.list("u1")] == ["she loves plants"]


def _spread(**shares: float) -> Prediction:
    return Prediction.of(np.array([shares.get(label, 0.0) for label in LABELS]))


def test_a_keep_counts_every_lasting_label_a_drop_names_one() -> None:
    # a fact about the user spreads over the lasting labels: kept when the long-term tier is sure
    lasting = _spread(background=0.37, profile=0.2, preference=0.1, context=0.33)
    assert (lasting.label, lasting.confidence, lasting.share) == ("background", 0.37, 0.67)
    office = Candidate(text="my office is in Dallas", category=Category.OTHER)
    dropped = RuleJudge(Settings()).decide(office, T0)
    assert dropped.action is Action.DISCARD
    assert Judge.overrules(lasting, dropped, 0.3, 0.6)
    assert not Judge.overrules(lasting, dropped, 0.3, 0.7)
    # a drop needs one reason the model is sure of, not a bin of several unsure ones
    scattered = _spread(other=0.25, mood=0.2, smalltalk=0.15, event=0.4)
    assert (scattered.label, scattered.tier) == ("event", "long-term")
    unsure = _spread(other=0.25, mood=0.2, smalltalk=0.15, event=0.2, background=0.2)
    assert (unsure.label, unsure.share) == ("other", 0.6)
    kept = RuleJudge(Settings()).decide(Candidate(text="我在你们这买的空气炸锅", category=Category.EVENT), T0)
    assert kept.action is Action.EPISODIC
    assert not Judge.overrules(unsure, kept, 0.3, 0.7)
    assert Judge.overrules(_spread(mood=0.6, event=0.4), kept, 0.3, 0.7)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        pytest.param("my office is in Denver", "en", id="en-office"),
        pytest.param("home has been Lisbon for a few years now", "en", id="en-home"),
        pytest.param("小名叫团子", "zh", id="zh-nickname"),
    ],
)
def test_a_lasting_fact_the_labels_share_is_kept(mem: Memory, text: str, lang: str) -> None:
    assert set(said(mem, text)) & set(LONG_TERM)
    assert [m.text for m in mem.list("u1")] == [text]


def test_skimming_is_a_lasting_preference(mem: Memory) -> None:
    assert said(mem, "I skim a lot", "u1") == [Action.SEMANTIC]
    (memory,) = mem.list("u1")
    assert memory.expires_at is None


def test_bullet_points_are_a_preference_not_an_episode(mem: Memory) -> None:
    actions = said(mem, "列要点就行")
    assert actions
    assert Action.EPISODIC not in actions
    assert [m.kind for m in mem.list("u1")] in ([Kind.SEMANTIC], [Kind.PROFILE])


@pytest.mark.parametrize("text", ["please always answer in bullet points", "回答用要点列出来"])
def test_the_shape_of_an_answer_is_kept_as_how_to_answer(mem: Memory, text: str) -> None:
    assert said(mem, text) == [Action.SEMANTIC]
    assert [m.category for m in mem.list("u1")] == [Category.STYLE]


@pytest.mark.parametrize(
    "text",
    [
        "以后遇到这种你就直接给表格",
        "你解释的时候一步一步来",
        "以后回复我都先列提纲",
        "pls always add a summary at the end",
        "could you always number the steps",
        "send me the short version first from now on",
    ],
)
def test_an_instruction_for_every_later_answer_is_kept(mem: Memory, text: str) -> None:
    # however much it reads as a request of this conversation, it says how to answer from now on
    assert said(mem, text) == [Action.SEMANTIC]
    assert [m.category for m in mem.list("u1")] == [Category.STYLE]


def test_a_tool_given_up_from_now_on_is_no_way_to_answer(mem: Memory) -> None:
    # 不用 of a thing is "not use", not "no need to" (以后不用写这么长 is how to answer)
    said(mem, "以后不用Premiere了")
    assert Category.STYLE not in [m.category for m in mem.list("u1")]


@pytest.mark.parametrize(
    "text", ["我在地铁上，以后都简短点回复", "please keep it short, i read these on my commute"]
)
def test_a_way_to_answer_that_lasts_is_kept_beside_this_moment(mem: Memory, text: str) -> None:
    said(mem, text)
    assert Category.STYLE in [m.category for m in mem.list("u1")]


@pytest.mark.parametrize(
    "text",
    [
        "mostly i just take the bus",
        "通勤路上我听播客",
        "我出门基本坐公交",
        # the plain present
        "I take the bus to work",
        "i only read these on my 15 min break or on the jeep home",
    ],
)
def test_a_habit_is_kept_however_much_it_reads_as_this_moment(mem: Memory, text: str) -> None:
    # the n-gram model reads each as one-off context (0.63 to 0.88)
    assert said(mem, text) == [Action.SEMANTIC]


@pytest.mark.parametrize("text", ["i take the bus today", "I'm taking the bus to work this week"])
def test_a_habit_of_today_is_this_moments(mem: Memory, text: str) -> None:
    assert said(mem, text) == [Action.SESSION]


def test_how_to_answer_said_with_a_habit_of_reading_lasts(mem: Memory) -> None:
    # the reading habit kept, the way to answer is not taken for this moment's
    said(
        mem,
        "pls keep answers short like 3 lines max, i only read these on my 15 min break or on the jeep home",
    )
    assert mem.profile("u1").get("response_style") == "concise"


@pytest.mark.parametrize(
    "text", ["学校说11月8号开家长会 我得提前请假", "学校说11月8号开家长会 我得提前请假 记一下"]
)
def test_a_plan_on_a_named_day_stays_a_plan(mem: Memory, text: str) -> None:
    # the n-gram model reads it as a lasting fact (background, 0.76): kept so, it has no day to pass
    # and a later "家长会改到11月12号" would find no plan to move
    assert said(mem, text) == [Action.EPISODIC]
    assert [m.category for m in mem.list("u1")] == [Category.PLAN]


@pytest.mark.parametrize(
    "text",
    [
        "以后再说吧",
        "I'm driving, keep it short",
        "我在高铁上，回复简短点",
        "现在在开会，回我短一点",
        # the moment is the model's to name (one-off context, 0.85 and 0.61), and the way to answer
        # said with it is part of it
        "坐在Uber后座，reply简短点",
        "戴着耳机在跑步机上，你说话短一点",
        # what the user types on now is no way to reach them
        "我用手机打字，简短点",
        # nor is what the words hold to this once, however sure the model is ("background", 0.70)
        "just this once, skip the small talk and give me the answer",
    ],
)
def test_what_holds_only_now_is_no_standing_instruction(mem: Memory, text: str) -> None:
    actions = said(mem, text)
    assert actions
    assert not set(actions) & set(LONG_TERM)
    mem.flush("u1")  # and a clause read again by its meaning after the write keeps nothing either
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    "text",
    [
        "stuck at the airport right now, flight delayed",
        "我这会儿在排队取号",
        "at the dentist atm",
        # the model may not keep long-term what the words say is now ("background", 0.90)
        "I only have ten minutes",
        "hands are covered in flour rn",
        # a passing ache or bug (a fact, an event over 90 days before)
        "我嗓子疼",
        "I've got a cold",
    ],
)
def test_what_holds_this_very_moment_is_kept_for_the_conversation(mem: Memory, text: str) -> None:
    assert said(mem, text) == [Action.SESSION]
    assert mem.list("u1") == []


@pytest.mark.parametrize(
    ("text", "slot"), [("I live in Denver right now", "home_city"), ("I'm a teacher at the moment", "job")]
)
def test_a_profile_fact_said_of_the_moment_still_fills_its_slot(mem: Memory, text: str, slot: str) -> None:
    assert said(mem, text) == [Action.PROFILE]
    assert [m.slot for m in mem.list("u1")] == [slot]


def test_a_weekend_habit_is_a_routine_not_a_dated_plan(mem: Memory) -> None:
    assert said(mem, "周末一般去爬山") == [Action.SEMANTIC]
    (memory,) = mem.list("u1")
    assert memory.expires_at is None
    assert memory.valid_from is None


def test_a_birthday_is_the_birthday_slot(mem: Memory) -> None:
    assert said(mem, "我的生日是5月3日") == [Action.PROFILE]
    assert mem.profile("u1") == {"birthday": "05-03"}


def test_a_move_the_words_tell_like_an_event_still_sets_the_city(mem: Memory) -> None:
    # the n-gram model reads "we just moved to Austin" as an event (0.76); the slot is structure
    mem.add("I live in Boston", user_id="u1", at=T0)
    mem.add("we just moved to Austin", user_id="u1", at=T0 + timedelta(days=30))
    assert mem.profile("u1") == {"home_city": "Austin"}


def test_a_wish_to_learn_is_a_lasting_interest(mem: Memory) -> None:
    assert said(mem, "我最近想学日语") == [Action.SEMANTIC]
    (memory,) = mem.list("u1")
    assert memory.expires_at is None


def test_a_learned_decision_says_so_in_the_users_language(mem: Memory) -> None:
    (zh,) = mem.add("这次只看直飞的航班", user_id="u1", session_id="s1", at=T0).decisions
    (en,) = mem.add("I want to learn Japanese", user_id="u2", at=T0).decisions
    assert zh.reason.startswith("学习判断：本次任务的条件（")
    assert zh.reason.endswith("仅在本次对话中保留")
    assert en.reason.startswith("learned: preference (")
    assert en.reason.endswith("kept")


@pytest.mark.parametrize("text", ["thx coach haha", "嗯嗯谢谢啦"])
def test_small_talk_the_rules_only_dropped_stays_out_of_later_blocks(mem: Memory, text: str) -> None:
    (decision,) = mem.add(text, user_id="u1", session_id="s1", at=T0).decisions
    assert decision.action is Action.DISCARD
    assert decision.category is Category.SMALLTALK
    assert decision.reason.startswith(("learned: smalltalk (", "学习判断：闲聊（"))
    mem.add("I live in Lisbon", user_id="u1", session_id="s1", at=T0)
    block = mem.context("what does the user say", user_id="u1", session_id="s2", now=T0 + timedelta(days=1))
    assert "Lisbon" in block.text
    assert text not in block.text


def test_the_rules_alone_still_decide_when_the_model_is_off(tmp_path: Path) -> None:
    with Memory(tmp_path / "rules.db", learned_judge=False) as mem:
        (decision,) = mem.add("预算 6000 以内", user_id="u1", session_id="s1", at=T0).decisions
    assert decision.reason == "用户当前任务的条件：仅在本次对话中保留"


def test_a_request_to_remember_is_the_rules_word() -> None:
    judge = Judge(Settings())
    candidate = Candidate(text="记住：我今天心情不好", category=Category.MOOD, remember_request=True)
    assert judge.prediction(candidate) is None
    assert judge.decide(candidate, T0).action is not Action.DISCARD


def test_the_shipped_model_is_small_and_loads() -> None:
    assert Classifier.path().stat().st_size <= 400 * 1024
    model = Classifier.bundled()
    assert model is Classifier.bundled()
    prediction = model.predict("If I won the lottery I'd buy a castle in Scotland")
    assert prediction.label in LABELS
    assert sum(prediction.probabilities) == pytest.approx(1.0)
    assert 0.0 <= prediction.importance <= 1.0
    assert 0.0 <= prediction.stability <= 1.0


@pytest.mark.parametrize(
    "text",
    ["If I won the lottery I'd buy a castle", "周末一般去爬山，2 次", "我用的是iPhone 15 Pro吗？"],
)
def test_a_clauses_buckets_are_those_of_its_grams(text: str) -> None:
    # indices() remembers each word's buckets; it must still be exactly grams() hashed
    features = Features(1 << 10, zh_max=2)
    cues = ["~rule:fact", "~slot"]
    grams = [*features.grams(text), *cues]
    expected = sorted({zlib.crc32(g.encode("utf-8")) % features.dim for g in grams})
    assert features.indices(text, cues).tolist() == expected


@pytest.mark.parametrize(
    ("text", "mandarin"),
    [
        pytest.param("我現在在公司等車", "我现在在公司等车", id="traditional"),
        pytest.param("今日好攰啊，琴日揸車返工", "今天好累啊，昨天开车上班", id="cantonese"),
        pytest.param("ＯＫ，唔該晒", "ok,谢谢晒", id="full-width"),
    ],
)
def test_the_models_read_chinese_written_another_way_as_mandarin(text: str, mandarin: str) -> None:
    # the n-gram model and the ending head learnt from simplified Mandarin: they read what the rules read
    features, cues = Features(), ["~rule:fact"]
    assert features.indices(text, cues).tolist() == features.indices(mandarin, cues).tolist()


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        pytest.param("佢今日又嬲我", False, id="zh-yue-angry-at-me"),  # 他今天又气我: no fact about the user
        pytest.param("我哋公司喺灣仔", True, id="zh-yue-office"),  # 我们公司在湾仔: where the user works
    ],
)
def test_cantonese_is_judged_as_its_mandarin_reading(mem: Memory, text: str, kept: bool) -> None:
    assert bool(set(said(mem, text)) & set(LONG_TERM)) is kept


def test_training_twice_gives_the_same_model(tmp_path: Path) -> None:
    data = training.clauses(training.corpus("train")[:120])
    features = Features(1 << 10)
    paths = []
    for n in range(2):
        path = tmp_path / f"model{n}.npz"
        training.train(data, features, 1e-4, 1.0, 0.5, 0.7).save(path)
        paths.append(path)
    with np.load(paths[0]) as a, np.load(paths[1]) as b:
        assert sorted(a.files) == sorted(b.files)
        for name in a.files:
            assert np.array_equal(a[name], b[name]), name
    first, second = (Classifier.load(p) for p in paths)
    for clause in data[:40]:
        assert first.predict(clause.text, clause.cues) == second.predict(clause.text, clause.cues)


@pytest.mark.parametrize(
    ("found", "labelled", "learns"),
    [
        # news after a greeting is kept for the news
        (
            "ok long story so my landlord finally fixed the heating",
            [("ok long story so", "smalltalk"), ("my landlord finally fixed the heating", "event")],
            "event",
        ),
        # what bars keeping wins over lasting news
        (
            "I doubt I'll use up my leave this year, too many projects",
            [("I doubt I'll use up my leave this year", "guess"), ("too many projects", "background")],
            "guess",
        ),
        # this conversation's context over a mood
        (
            "in the waiting room rn, bored af",
            [("in the waiting room rn", "context"), ("bored af", "mood")],
            "context",
        ),
        # a candidate inside one clause learns that clause's label
        (
            "my landlord finally fixed",
            [("ok long story so", "smalltalk"), ("my landlord finally fixed it", "event")],
            "event",
        ),
    ],
)
def test_a_candidate_covering_several_clauses_learns_where_it_goes(
    found: str, labelled: list[tuple[str, str]], learns: str
) -> None:
    assert cover.covered(found, labelled) == learns


def test_eval_judge_runs_on_a_slice(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    result = CliRunner().invoke(main, ["eval", "judge", "--limit", "8", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["split"] == "test"
    assert report["model"]["clauses"] == report["rules"]["clauses"]
    assert report["model"]["clauses"] >= 8
    assert set(report["us_per_clause"]) == {"rules", "model", "judge"}
    assert out.with_suffix(".png").stat().st_size > 0
    assert "rules+model" in result.output


def test_a_clause_is_scored_on_the_decision_that_holds_its_words() -> None:
    # every character of "ugh" is in the clause before it, none of its words
    assert cover.overlap("got absolutely soaked on the ride in", "ugh") == 0.0
    assert cover.overlap("ugh", "ugh") == 1.0
    assert cover.overlap("离了谱", "离谱") == 0.0
    assert cover.overlap("我在医院排队拿号", "在医院排队拿号呢") > 0.8


def test_a_clause_the_write_path_split_is_scored_on_the_part_that_holds_most_of_it() -> None:
    # "ugh I'm so annoyed" and "the contractor bailed on our deck" both lie inside the labelled
    # clause; the second holds more of it, and decides how it is scored
    text = "ugh I'm so annoyed the contractor bailed on our deck"
    scored = run(
        [{"id": "t", "lang": "en", "text": text, "clauses": [{"text": text, "label": "event"}]}],
        learned=False,
    )
    assert [s.label for s in scored.clauses] != ["mood"]
    assert cover.share("ugh", text) < cover.share("the contractor bailed on our deck", text)


def test_the_model_never_keeps_a_long_number_the_rules_dropped() -> None:
    # the model learnt from masked values only: a number no detector named is not its to keep
    sure = Prediction("background", 0.9, 0.7, 0.7, tuple(0.9 if x == "background" else 0.0 for x in LABELS))
    for text, kept in (("the long one on my card reads 4916 3382 0945", False), ("I have two kids", True)):
        rules = RuleJudge(Settings()).decide(Candidate(text=text, category=Category.OTHER), T0)
        assert rules.action is Action.DISCARD
        assert Judge.overrules(sure, rules, 0.2, 0.3) is kept


def test_a_secret_counts_as_kept_only_where_a_kept_memory_holds_it() -> None:
    def decided(action: Action, text: str) -> Decision:
        return Decision(action=action, text=text, reason="", category=Category.FACT)

    clause = training.masked("家里wifi名字是home，密码是 qwerty1234")
    assert "qwerty1234" not in clause
    name = decided(Action.SEMANTIC, "家里wifi名字是home")
    password = decided(Action.DISCARD, clause.split("，")[1])
    assert not secret_kept(clause, name, [name, password])  # the wifi's name is kept, the password is not
    leaked = decided(Action.SEMANTIC, clause.split("，")[1])
    assert secret_kept(clause, name, [name, leaked])
    # a value no detector named: the clause's own decision, kept, keeps it
    missed = decided(Action.SEMANTIC, "the code on the back is 1 2 3")
    assert secret_kept("the code on the back is 1 2 3", missed, [missed])
    assert not secret_kept("the code on the back is 1 2 3", None, [])


def test_the_judge_reads_the_models_it_is_given() -> None:
    shipped = Classifier.bundled()
    moods = np.zeros(len(LABELS), dtype=np.float32)
    moods[LABELS.index("mood")] = 50.0  # sure of a mood whatever it reads
    always_a_mood = Classifier(
        shipped.features,
        np.zeros_like(shipped.weights),
        moods,
        shipped.temperature,
        shipped.threshold,
        shipped.keep,
    )
    text = "we rent a flat in fremantle"  # a fact no rule fills a slot with: the model may overrule it
    message = {"id": "x-1", "lang": "en", "text": text, "clauses": [{"text": text, "label": "background"}]}
    (kept,) = run([message], learned=True).clauses
    assert kept.tier == "long-term"
    head = MeaningHead.bundled()
    assert head is not None
    (dropped,) = run([message], learned=True, models=(always_a_mood, head)).clauses
    assert (dropped.label, dropped.tier) == ("mood", "discard")


def test_the_training_split_is_scored_out_of_fold_once_per_clause() -> None:
    messages = training.corpus("train")[:40]
    scored = out_of_fold(messages)
    assert sorted((s.id, s.text) for s in scored.clauses) == sorted(
        (m["id"], c["text"]) for m in messages for c in m["clauses"]
    )
    assert scored.accuracy("tier") > 0.5
