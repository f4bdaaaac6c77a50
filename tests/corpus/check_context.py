#!/usr/bin/env python3
"""Validate scenarios.jsonl (the memlane context benchmark) and print its counts.

Standard library only.  Usage:

    python3 check.py [path/to/scenarios.jsonl] [--strict]

Errors (schema, ids, times, grounding) make the exit status 1.  Warnings point at
questions a reviewer should look at by hand; with --strict they are errors too.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

LANGS = ("zh", "en")
SPLITS = ("dev", "test")
CATEGORIES = (
    "stable_preference",
    "constraint",
    "background",
    "event_status",
    "change_of_mind",
    "mood",
    "one_off_context",
    "session_condition",
    "guess",
    "sensitive",
    "small_talk",
    "irrelevant",
)
# Categories whose point is that something must stay out of the block.
NEEDS_MUST_NOT = {
    "change_of_mind",
    "mood",
    "one_off_context",
    "guess",
    "sensitive",
    "small_talk",
    "irrelevant",
}
# Values a block may carry that are not the user's own words: profile slot values and
# event statuses.  A must alternative is grounded if it occurs in a user turn or is one of these.
PROFILE_VALUES = {
    "email",
    "phone",
    "sms",
    "wechat",
    "qq",
    "whatsapp",
    "telegram",
    "concise",
    "detailed",
    "formal",
    "casual",
    "remote",
    "office",
    "hybrid",
    "vegetarian",
    "vegan",
    "resolved",
    "unresolved",
    "cancelled",
    "canceled",
    "已解决",
    "未解决",
    "已取消",
}
MIN_SCENARIOS_PER_LANG = 22
MIN_QUESTIONS = 170
MIN_PER_CATEGORY_PER_LANG = 6
LIVE_QUESTION_MAX_GAP = timedelta(hours=12)
SENTENCE = re.compile(r"[。！？!?；;\n]+|(?<=\.)\s+")
CJK = re.compile(r"[\u4e00-\u9fff]")


def parse_time(value: object, where: str, errors: list[str]) -> datetime | None:
    if not isinstance(value, str):
        errors.append(f"{where}: 'at' must be a string")
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        errors.append(f"{where}: 'at' is not ISO 8601: {value!r}")
        return None
    if moment.tzinfo is None:
        errors.append(f"{where}: 'at' has no UTC offset: {value!r}")
        return None
    return moment


def squash(text: str) -> str:
    """Lower case without spaces or dashes, so a card number matches however it is grouped."""
    return re.sub(r"[\s\-]", "", text.lower())


def sentences(text: str) -> list[str]:
    return [s.strip().lower() for s in SENTENCE.split(text) if s.strip()]


def check_scenario(sc: dict, line_no: int, errors: list[str], warnings: list[str]) -> None:
    where = f"line {line_no} ({sc.get('id', '?')})"
    for key in ("id", "lang", "split", "sessions", "questions"):
        if key not in sc:
            errors.append(f"{where}: missing key {key!r}")
            return
    extra = set(sc) - {"id", "lang", "split", "sessions", "questions"}
    if extra:
        errors.append(f"{where}: unexpected keys {sorted(extra)}")
    if sc["lang"] not in LANGS:
        errors.append(f"{where}: lang must be one of {LANGS}")
    if sc["split"] not in SPLITS:
        errors.append(f"{where}: split must be one of {SPLITS}")
    if not str(sc["id"]).startswith(f"{sc['lang']}-"):
        errors.append(f"{where}: id should start with '{sc['lang']}-'")

    sessions = sc["sessions"]
    if not isinstance(sessions, list) or not 2 <= len(sessions) <= 5:
        errors.append(f"{where}: needs 2-5 sessions")
        return
    session_ids: set[str] = set()
    live: dict[str, datetime] = {}
    live_text: dict[str, str] = {}
    user_text: list[str] = []
    last_end: datetime | None = None
    for s in sessions:
        swhere = f"{where} session {s.get('id', '?')}"
        if set(s) != {"id", "at", "turns", "ended"}:
            errors.append(f"{swhere}: keys must be id, at, turns, ended")
            continue
        if s["id"] in session_ids:
            errors.append(f"{swhere}: duplicate session id")
        session_ids.add(s["id"])
        if not isinstance(s["ended"], bool):
            errors.append(f"{swhere}: ended must be true or false")
        start = parse_time(s["at"], swhere, errors)
        turns = s["turns"]
        if not isinstance(turns, list) or not 2 <= len(turns) <= 8:
            errors.append(f"{swhere}: needs 2-8 turns")
            continue
        for i, turn in enumerate(turns):
            if set(turn) != {"role", "content"} or turn["role"] not in ("user", "assistant"):
                errors.append(f"{swhere} turn {i}: needs role user|assistant and content")
                continue
            if not isinstance(turn["content"], str) or not turn["content"].strip():
                errors.append(f"{swhere} turn {i}: empty content")
                continue
            if turn["role"] == "user":
                user_text.append(turn["content"])
        if not any(t.get("role") == "user" for t in turns):
            errors.append(f"{swhere}: no user turn")
        if start is None:
            continue
        end = start + timedelta(minutes=len(turns) - 1)  # turns are one minute apart
        if last_end is not None and start <= last_end:
            errors.append(f"{swhere}: starts before the previous session's last turn")
        last_end = end
        if s["ended"] is False:
            live[s["id"]] = end
            live_text[s["id"]] = " ".join(t["content"] for t in turns).lower()

    if sc["lang"] == "zh" and not any(CJK.search(t) for t in user_text):
        errors.append(f"{where}: a zh scenario with no Chinese characters")
    lowered_user = [t.lower() for t in user_text]
    user_sentences = [s for t in user_text for s in sentences(t)]

    questions = sc["questions"]
    if not isinstance(questions, list) or not questions:
        errors.append(f"{where}: needs questions")
        return
    qids: set[str] = set()
    for q in questions:
        qwhere = f"{where} {q.get('id', '?')}"
        keys = {"id", "session", "at", "query", "category", "must", "must_not", "note"}
        if set(q) != keys:
            errors.append(f"{qwhere}: keys must be {sorted(keys)}")
            continue
        if q["id"] in qids:
            errors.append(f"{qwhere}: duplicate question id")
        qids.add(q["id"])
        if q["category"] not in CATEGORIES:
            errors.append(f"{qwhere}: unknown category {q['category']!r}")
        if not isinstance(q["query"], str) or not q["query"].strip():
            errors.append(f"{qwhere}: empty query")
        asked = parse_time(q["at"], qwhere, errors)
        if asked is not None and last_end is not None and asked <= last_end:
            errors.append(f"{qwhere}: asked before the last session's last turn")
        sid = q["session"]
        if sid in session_ids and sid not in live:
            errors.append(f"{qwhere}: session {sid!r} has ended; use a live session or a new id")
        if sid in live and asked is not None and asked - live[sid] > LIVE_QUESTION_MAX_GAP:
            errors.append(f"{qwhere}: asked more than {LIVE_QUESTION_MAX_GAP} after live session {sid!r}")

        must, must_not = q["must"], q["must_not"]
        if (
            not isinstance(must, list)
            or len(must) > 3
            or not all(
                isinstance(m, list) and m and all(isinstance(a, str) and a.strip() for a in m) for m in must
            )
        ):
            errors.append(f"{qwhere}: must is a list of 0-3 non-empty lists of strings")
            continue
        if not isinstance(must_not, list) or not all(isinstance(a, str) and a.strip() for a in must_not):
            errors.append(f"{qwhere}: must_not is a list of non-empty strings")
            continue
        cat = q["category"]
        if cat == "irrelevant" and must:
            errors.append(f"{qwhere}: an irrelevant question has no must items")
        if cat in NEEDS_MUST_NOT and not must_not:
            errors.append(f"{qwhere}: a {cat} question needs must_not")
        if cat in ("event_status", "stable_preference", "constraint", "background") and not must:
            errors.append(f"{qwhere}: a {cat} question needs must")
        if cat == "session_condition":
            if sid in live and not must:
                errors.append(f"{qwhere}: session_condition inside a live session needs must")
            if sid not in live and not must_not:
                errors.append(f"{qwhere}: session_condition in another session needs must_not")

        # Grounding: what the block must carry comes from the user's words (or is a profile value).
        for item in must:
            if not any(
                a.lower() in PROFILE_VALUES or any(a.lower() in t for t in lowered_user) for a in item
            ):
                errors.append(f"{qwhere}: no alternative of {item} occurs in a user turn")
        for bad in must_not:
            if not any(squash(bad) in squash(t) for t in user_text):
                errors.append(f"{qwhere}: must_not {bad!r} occurs in no user turn")
            for item in must:
                for a in item:
                    if bad.lower() in a.lower():
                        errors.append(f"{qwhere}: must_not {bad!r} is inside must {a!r}")
            if sid in live and bad.lower() in live_text[sid]:
                errors.append(f"{qwhere}: must_not {bad!r} was said in the live session itself")
        # A must item should be satisfiable by a user sentence that carries no forbidden phrase.
        for item in must:
            if not any(
                a.lower() in PROFILE_VALUES or any(a.lower() in t for t in lowered_user) for a in item
            ):
                continue  # already an error above
            clean = [
                a
                for a in item
                if a.lower() in PROFILE_VALUES
                or any(a.lower() in s and not any(b.lower() in s for b in must_not) for s in user_sentences)
            ]
            if not clean:
                warnings.append(f"{qwhere}: every user sentence holding {item} also holds a must_not phrase")


STOP = set(
    """that this with from have just your what about they will there their been were when
which would could should into only like also then than them some here need want pls please""".split()
)


def grams(text: str) -> set[str]:
    """Chinese: character bigrams; English: content words of four letters or more."""
    text = text.lower()
    out = {run[i : i + 2] for run in re.findall(r"[\u4e00-\u9fff]+", text) for i in range(len(run) - 1)}
    out |= {w for w in re.findall(r"[a-z']+", text) if len(w) >= 4 and w not in STOP}
    return out


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    strict = "--strict" in sys.argv
    path = (
        Path(args[0]) if args else Path(__file__).parents[2] / "src/memlane/eval/data/context/scenarios.jsonl"
    )
    errors: list[str] = []
    warnings: list[str] = []
    scenarios: list[dict] = []
    raw = path.read_text(encoding="utf-8")
    if "\\u" in raw:
        errors.append("the file holds \\u escapes; write real characters (ensure_ascii=False)")
    for n, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            errors.append(f"line {n}: blank line")
            continue
        try:
            sc = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"line {n}: not JSON: {exc}")
            continue
        if not isinstance(sc, dict):
            errors.append(f"line {n}: not an object")
            continue
        scenarios.append(sc)
        check_scenario(sc, n, errors, warnings)

    ids = Counter(sc.get("id") for sc in scenarios)
    errors += [f"duplicate scenario id {i!r}" for i, c in ids.items() if c > 1]

    # Counts.
    by_cell: Counter[tuple[str, str, str]] = Counter()
    sc_cell: Counter[tuple[str, str]] = Counter()
    for sc in scenarios:
        sc_cell[(sc.get("split"), sc.get("lang"))] += 1
        for q in sc.get("questions", []):
            by_cell[(sc.get("split"), sc.get("lang"), q.get("category"))] += 1
    cols = [(s, l) for s in SPLITS for l in LANGS]
    head = (
        f"{'category':<18}" + "".join(f"{s + '/' + l:>9}" for s, l in cols) + f"{'zh':>6}{'en':>6}{'all':>6}"
    )
    print(f"scenarios: {len(scenarios)}  questions: {sum(by_cell.values())}")
    print(
        f"{'scenarios':<18}"
        + "".join(f"{sc_cell[c]:>9}" for c in cols)
        + f"{sum(sc_cell[(s, 'zh')] for s in SPLITS):>6}{sum(sc_cell[(s, 'en')] for s in SPLITS):>6}"
        + f"{len(scenarios):>6}"
    )
    print(head)
    for cat in CATEGORIES:
        row = [by_cell[(s, l, cat)] for s, l in cols]
        zh = sum(by_cell[(s, "zh", cat)] for s in SPLITS)
        en = sum(by_cell[(s, "en", cat)] for s in SPLITS)
        print(f"{cat:<18}" + "".join(f"{n:>9}" for n in row) + f"{zh:>6}{en:>6}{zh + en:>6}")
        for lang, n in (("zh", zh), ("en", en)):
            if n < MIN_PER_CATEGORY_PER_LANG:
                errors.append(f"{cat}: {n} {lang} questions, fewer than {MIN_PER_CATEGORY_PER_LANG}")
        if min(row) == 0:
            warnings.append(f"{cat}: missing from some split x language cell")
    totals = [sum(by_cell[(s, l, c)] for c in CATEGORIES) for s, l in cols]
    print(
        f"{'questions':<18}"
        + "".join(f"{n:>9}" for n in totals)
        + f"{totals[0] + totals[2]:>6}{totals[1] + totals[3]:>6}{sum(totals):>6}"
    )
    for lang in LANGS:
        n = sum(sc_cell[(s, lang)] for s in SPLITS)
        if n < MIN_SCENARIOS_PER_LANG:
            errors.append(f"{lang}: {n} scenarios, fewer than {MIN_SCENARIOS_PER_LANG}")
        if sc_cell[("dev", lang)] != sc_cell[("test", lang)]:
            warnings.append(f"{lang}: dev and test scenario counts differ")
    if sum(totals) < MIN_QUESTIONS:
        errors.append(f"{sum(totals)} questions, fewer than {MIN_QUESTIONS}")

    # How close is each test scenario to its nearest dev scenario (Jaccard of Chinese character bigrams / English content words of the user turns)?
    text = {
        sc["id"]: " ".join(t["content"] for s in sc["sessions"] for t in s["turns"] if t["role"] == "user")
        for sc in scenarios
        if "sessions" in sc
    }
    print(
        "nearest dev scenario per test scenario (Jaccard of zh character bigrams / en content words, user turns):"
    )
    for lang in LANGS:
        dev = [sc["id"] for sc in scenarios if sc.get("lang") == lang and sc.get("split") == "dev"]
        test = [sc["id"] for sc in scenarios if sc.get("lang") == lang and sc.get("split") == "test"]
        within = [
            max(
                (len(grams(text[a]) & grams(text[b])) / len(grams(text[a]) | grams(text[b])))
                for b in dev
                if b != a
            )
            for a in dev
            if len(dev) > 1
        ]
        pairs = []
        for a in test:
            best = max(
                dev, key=lambda b: len(grams(text[a]) & grams(text[b])) / len(grams(text[a]) | grams(text[b]))
            )
            score = len(grams(text[a]) & grams(text[b := best])) / len(grams(text[a]) | grams(text[b]))
            pairs.append((score, a, best))
        if pairs:
            top = max(pairs)
            print(
                f"  {lang}: max test-dev {top[0]:.3f} ({top[1]} ~ {top[2]}), "
                f"mean {sum(p[0] for p in pairs) / len(pairs):.3f}; "
                f"max dev-dev {max(within) if within else 0:.3f}"
            )

    for w in warnings:
        print("WARNING:", w)
    if strict:
        errors += warnings
    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
