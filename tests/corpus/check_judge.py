#!/usr/bin/env python3
"""Validate the memlane memory-judge corpus (train.jsonl / test.jsonl) and print counts.

Usage:  python3 check.py [--dir DIR] [--no-leak] [--leak-threshold 0.5]
Standard library only. Exit status 1 if any error is found.
"""

import argparse
import itertools
import json
import os
import re
import sys
import unicodedata
from collections import Counter, defaultdict

LABELS = [
    "mood",
    "smalltalk",
    "request",
    "hypothetical",
    "guess",
    "other",
    "forget",
    "sensitive",
    "context",
    "condition",
    "profile",
    "preference",
    "constraint",
    "background",
    "event",
    "plan",
]
TIER = {
    "mood": "discard",
    "smalltalk": "discard",
    "request": "discard",
    "hypothetical": "discard",
    "guess": "discard",
    "other": "discard",
    "forget": "discard",
    "sensitive": "discard",
    "context": "session",
    "condition": "session",
    "profile": "long",
    "preference": "long",
    "constraint": "long",
    "background": "long",
    "event": "long",
    "plan": "long",
}
SLOTS = [
    "name",
    "nickname",
    "birthday",
    "home_city",
    "hometown",
    "work_city",
    "employer",
    "job",
    "preferred_channel",
    "avoid_channel",
    "no_call_on_weekends",
    "no_call_at_night",
    "language",
    "response_style",
    "tone",
    "diet",
    "marital_status",
]
KINDS = {"id_card", "bank_card", "password", "api_key", "health"}
CHANNELS = {
    "email",
    "phone",
    "sms",
    "wechat",
    "whatsapp",
    "telegram",
    "slack",
    "line",
    "qq",
    "dingtalk",
    "feishu",
    "discord",
    "messenger",
    "teams",
    "signal",
    "voice_message",
    "in_app",
    "imessage",
}
VALUE_SETS = {
    "no_call_on_weekends": {"true"},
    "no_call_at_night": {"true"},
    "response_style": {"concise", "detailed"},
    "tone": {"formal", "casual"},
    "diet": {"vegetarian", "vegan", "omnivore", "pescatarian", "halal", "kosher", "keto", "low_carb"},
    "marital_status": {"married", "single", "divorced", "widowed", "engaged"},
    "preferred_channel": CHANNELS,
    "avoid_channel": CHANNELS,
    "language": {"zh", "en", "ja", "ko", "fr", "de", "es", "it", "pt", "ru", "yue", "ar", "th", "vi"},
}
LANGS = {"zh": "zh", "en": "en", "mixed": "mx"}
ID_RE = re.compile(r"^(zh|en|mx)-(\d{4})$")
BIRTHDAY_RE = re.compile(r"^(\d{4}-)?(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")
CJK_RE = re.compile(r"[\u3400-\u9fff]")
LATIN_WORD_RE = re.compile(r"[A-Za-z]{2,}")
# words that may stay outside every clause (connectives, interjections, fillers)
FILLER = {
    "嗯",
    "嗯嗯",
    "哦",
    "唉",
    "啧",
    "呀",
    "哇",
    "噢",
    "喔",
    "啊",
    "呃",
    "额",
    "唔",
    "诶",
    "欸",
    "哎",
    "哎呀",
    "然后",
    "但是",
    "不过",
    "而且",
    "还有",
    "另外",
    "对了",
    "所以",
    "因为",
    "就是",
    "那个",
    "这个",
    "话说",
    "还",
    "和",
    "跟",
    "并且",
    "可是",
    "但",
    "oh",
    "um",
    "uh",
    "umm",
    "uhh",
    "hmm",
    "well",
    "so",
    "and",
    "but",
    "also",
    "btw",
    "anyway",
    "anyways",
    "plus",
    "oh and",
    "then",
    "like",
    "ok so",
    "erm",
    "er",
    "ah",
    "也",
    "而",
    "或者",
    "or",
    "because",
    "cause",
    "cuz",
    "bc",
    "too",
    "oh btw",
    "and also",
    "though",
    "other than that",
}


def strip_residue(s):
    """Remove punctuation, whitespace, symbols/emoji from an uncovered span."""
    return "".join(ch for ch in s if unicodedata.category(ch)[0] not in "PZSC")


def residue_ok(s):
    core = s.strip()
    if not strip_residue(core):
        return True
    # split on punctuation/space and check each token is filler
    toks = [t for t in re.split(r"[\s\W_]+", core) if t]
    low = core.lower()
    if low.strip(" ,.;:!?，。；：！？、…~-—").strip() in FILLER:
        return True
    return all(t.lower() in FILLER for t in toks)


def validate(obj, where="", seen_ids=None):
    errs = []
    e = errs.append
    if not isinstance(obj, dict):
        return [f"{where}: not an object"]
    allowed = {"id", "lang", "text", "clauses", "note"}
    for k in obj:
        if k not in allowed:
            e(f"{where}: unknown key {k!r}")
    for k in ("id", "lang", "text", "clauses"):
        if k not in obj:
            e(f"{where}: missing key {k!r}")
    if errs:
        return errs
    oid, lang, text, clauses = obj["id"], obj["lang"], obj["text"], obj["clauses"]
    where = f"{where} {oid}"
    m = ID_RE.match(str(oid))
    if not m:
        e(f"{where}: bad id format")
    if lang not in LANGS:
        e(f"{where}: bad lang {lang!r}")
    elif m and m.group(1) != LANGS[lang]:
        e(f"{where}: id prefix does not match lang {lang}")
    if seen_ids is not None:
        if oid in seen_ids:
            e(f"{where}: duplicate id (also in {seen_ids[oid]})")
        seen_ids[oid] = where
    if not isinstance(text, str) or not text.strip():
        e(f"{where}: empty text")
        return errs
    if text != text.strip():
        e(f"{where}: text has leading/trailing whitespace")
    has_cjk = bool(CJK_RE.search(text))
    has_latin = bool(LATIN_WORD_RE.search(text))
    if lang == "en" and has_cjk:
        e(f"{where}: lang en but text has CJK characters")
    if lang == "zh" and not has_cjk:
        e(f"{where}: lang zh but text has no CJK characters")
    if lang == "mixed" and not (has_cjk and has_latin):
        e(f"{where}: lang mixed but text lacks CJK or Latin words")
    if "note" in obj and (not isinstance(obj["note"], str) or not obj["note"].strip()):
        e(f"{where}: empty note")
    if not isinstance(clauses, list) or not clauses:
        e(f"{where}: clauses must be a non-empty list")
        return errs
    pos = 0
    for i, c in enumerate(clauses):
        cw = f"{where} clause {i}"
        if not isinstance(c, dict):
            e(f"{cw}: not an object")
            continue
        for k in c:
            if k not in {"text", "label", "slot", "value", "kinds"}:
                e(f"{cw}: unknown key {k!r}")
        ct, lab = c.get("text"), c.get("label")
        if not isinstance(ct, str) or not ct.strip():
            e(f"{cw}: empty clause text")
            continue
        if ct != ct.strip():
            e(f"{cw}: clause text has leading/trailing whitespace")
        if lab not in TIER:
            e(f"{cw}: bad label {lab!r}")
        idx = text.find(ct, pos)
        if idx < 0:
            if ct in text:
                e(f"{cw}: clause out of order or overlapping: {ct!r}")
            else:
                e(f"{cw}: clause is not a substring: {ct!r}")
            continue
        gap = text[pos:idx]
        if not residue_ok(gap):
            e(f"{cw}: uncovered text before clause: {gap!r}")
        pos = idx + len(ct)
        # label-specific fields
        if lab == "profile":
            slot, val = c.get("slot"), c.get("value")
            if slot not in SLOTS:
                e(f"{cw}: bad or missing slot {slot!r}")
            if not isinstance(val, str) or not val.strip():
                e(f"{cw}: profile needs a value")
            elif slot == "birthday" and not BIRTHDAY_RE.match(val):
                e(f"{cw}: birthday value must be MM-DD or YYYY-MM-DD: {val!r}")
            elif slot in VALUE_SETS and val not in VALUE_SETS[slot]:
                e(f"{cw}: value {val!r} not allowed for slot {slot}")
        else:
            if "slot" in c or "value" in c:
                e(f"{cw}: slot/value only allowed on profile clauses")
        if lab == "sensitive":
            ks = c.get("kinds")
            if not isinstance(ks, list) or not ks:
                e(f"{cw}: sensitive clause needs kinds")
            else:
                for k in ks:
                    if k not in KINDS:
                        e(f"{cw}: bad kind {k!r}")
                if len(set(ks)) != len(ks):
                    e(f"{cw}: duplicate kinds")
        elif "kinds" in c:
            e(f"{cw}: kinds only allowed on sensitive clauses")
    tail = text[pos:]
    if not residue_ok(tail):
        e(f"{where}: uncovered text after last clause: {tail!r}")
    return errs


def features(s):
    """Leak-scan features: Chinese character bigrams plus English word unigrams and bigrams."""
    s = s.lower()
    f = set()
    for run in re.findall(r"[\u3400-\u9fff]+", s):
        if len(run) == 1:
            f.add(run)
        f.update(run[i : i + 2] for i in range(len(run) - 1))
    words = re.findall(r"[a-z0-9']+", s)
    f.update(words)
    f.update(a + " " + b for a, b in itertools.pairwise(words))
    return f


def jaccard(a, b):
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--dir",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "memlane", "eval", "data", "judge"
        ),
    )
    ap.add_argument("--no-leak", action="store_true", help="skip the train/test near-duplicate scan")
    ap.add_argument("--leak-threshold", type=float, default=0.5)
    ap.add_argument("--max-errors", type=int, default=200)
    args = ap.parse_args()

    seen_ids = {}
    errors = []
    data = {}
    for split in ("train", "test"):
        path = os.path.join(args.dir, split + ".jsonl")
        rows = []
        if not os.path.exists(path):
            errors.append(f"{path}: missing")
            data[split] = rows
            continue
        with open(path, encoding="utf-8") as f:
            for ln, line in enumerate(f, 1):
                where = f"{split}:{ln}"
                if not line.strip():
                    errors.append(f"{where}: blank line")
                    continue
                if re.search(r"\\u[0-9a-fA-F]{4}", line):
                    errors.append(f"{where}: \\u escape found (write real characters)")
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as ex:
                    errors.append(f"{where}: JSON error {ex}")
                    continue
                errors.extend(validate(obj, where, seen_ids))
                rows.append(obj)
        data[split] = rows

    # exact duplicate texts
    seen_text = {}
    for split, rows in data.items():
        for o in rows:
            t = re.sub(r"\s+", " ", o.get("text", "").strip().lower())
            if t in seen_text:
                errors.append(f"{split} {o.get('id')}: duplicate text (also {seen_text[t]})")
            else:
                seen_text[t] = f"{split} {o.get('id')}"

    # ---- counts
    langs = ["zh", "en", "mixed"]
    print("== messages per split x language (compound = 2+ clauses)")
    print(f"{'split':6} {'lang':6} {'msgs':>6} {'compound':>9} {'pct':>6} {'clauses':>8}")
    for split in ("train", "test"):
        for lg in [*langs, "ALL"]:
            rows = [o for o in data[split] if lg == "ALL" or o.get("lang") == lg]
            comp = sum(1 for o in rows if len(o.get("clauses", [])) >= 2)
            ncl = sum(len(o.get("clauses", [])) for o in rows)
            pct = 100 * comp / len(rows) if rows else 0
            print(f"{split:6} {lg:6} {len(rows):6d} {comp:9d} {pct:5.1f}% {ncl:8d}")
    tot = sum(len(r) for r in data.values())
    print(f"total messages: {tot}")

    cnt = defaultdict(Counter)
    for split, rows in data.items():
        for o in rows:
            for c in o.get("clauses", []):
                if isinstance(c, dict):
                    cnt[(split, o.get("lang"))][c.get("label")] += 1
                    cnt[("ALL", o.get("lang"))][c.get("label")] += 1
    print("\n== clauses per label x split x language")
    cols = [(s, l) for s in ("train", "test", "ALL") for l in langs]
    hdr = f"{'label':13}" + "".join(f"{s[:2] + '/' + l[:2]:>8}" for s, l in cols) + f"{'total':>8}"
    print(hdr)
    for lab in LABELS:
        row = [cnt[k][lab] for k in cols]
        total = sum(cnt[("ALL", l)][lab] for l in langs)
        print(f"{lab:13}" + "".join(f"{v:8d}" for v in row) + f"{total:8d}")
    row = [sum(cnt[k].values()) for k in cols]
    print(f"{'TOTAL':13}" + "".join(f"{v:8d}" for v in row) + f"{sum(row[-3:]):8d}")

    slots = Counter()
    kinds = Counter()
    for rows in data.values():
        for o in rows:
            for c in o.get("clauses", []):
                if isinstance(c, dict) and c.get("label") == "profile":
                    slots[c.get("slot")] += 1
                if isinstance(c, dict) and c.get("label") == "sensitive":
                    for k in c.get("kinds") or []:
                        kinds[k] += 1
    print("\n== profile slots (train+test): " + ", ".join(f"{k}={v}" for k, v in slots.most_common()))
    print("== sensitive kinds (train+test): " + ", ".join(f"{k}={v}" for k, v in kinds.most_common()))

    # ---- leak scan
    if not args.no_leak and data["train"] and data["test"]:
        tr = [(o["id"], o["text"], features(o["text"])) for o in data["train"] if "text" in o]
        te = [(o["id"], o["text"], features(o["text"])) for o in data["test"] if "text" in o]
        hits = []
        for tid, ttext, tg in te:
            best = max(((jaccard(tg, g), i, x) for i, x, g in tr), default=(0, None, None))
            if best[0] >= args.leak_threshold and len(ttext) > 6:
                hits.append((best[0], tid, ttext, best[1], best[2]))
        hits.sort(reverse=True)
        print(
            f"\n== train/test near-duplicate scan (Jaccard of zh char bigrams + en word uni/bigrams >= {args.leak_threshold}): {len(hits)} pair(s)"
        )
        for s, a, at, b, bt in hits[:50]:
            print(f"  {s:.2f} test {a}: {at!r}  ~  train {b}: {bt!r}")

    print(f"\n== errors: {len(errors)}")
    for x in errors[: args.max_errors]:
        print("  " + x)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
