"""The named things of a clause: people, places, organisations and products (iPhone 16, 腾讯), kept
as a memory's entities so that search and reconcile can match on them."""

from __future__ import annotations

import re

from .lexicon import words
from .rule import Context

OPAQUE = "[#]"
"""What a placeholder left by redaction reads as to the rules: never a name, an object or a value."""
_ZH_ENTITY_FLAGS = ("nr", "ns", "nt", "nz", "nrt", "nrfg")
# Words jieba's tagger often marks as names but that name nothing.
_ZH_NOT_ENTITY = frozenset(words("过敏 有点 有点烦 好累 美式 冷萃 拿铁 上课 开会"))
_EN_ENTITY = re.compile(r"(?:\b[A-Z][\w&'-]*|\b[a-z]+[A-Z][\w-]*)(?:\s+(?:[A-Z][\w&'-]*|\d[\w-]*))*")
# Capitalised words that start a sentence or name a day, not a thing.
_EN_NOT_ENTITY = frozenset(
    words(
        "i i'm i've i'd i'll im my me we we're you're they're it's there's let's the a an please hi hello "
        "hey thanks thank ok okay yes no but and so also remember note don't never can could would will you "
        "he she they it this that there maybe perhaps just actually oh well btw what when where why how is "
        "are was do does did if then today tomorrow yesterday last next every each on in at for to of "
        "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
        "july august september october november december ugh lol keep make be email call text send use "
        "answer reply write tell give show let contact reach avoid stop"
    )
)


def zh_entities(ctx: Context) -> list[str]:
    """The names in a Chinese clause (people, places, organisations, products), as jieba tags them."""
    out: list[str] = []
    tokens = ctx.words
    for i, (word, flag) in enumerate(tokens):
        if word in OPAQUE:
            continue
        if (
            flag in _ZH_ENTITY_FLAGS
            and len(word) >= 2
            and word not in _ZH_NOT_ENTITY
            and not word.startswith("加")
        ):
            out.append(word)
        elif flag == "eng" and (any(c.isupper() for c in word) or any(c.isdigit() for c in word)):
            # join a model number: iPhone 16, Galaxy S24
            name = word
            rest = tokens[i + 1 : i + 3]
            if len(rest) == 2 and rest[0][0] == " " and rest[1][1] in ("m", "eng"):
                name = f"{word} {rest[1][0]}"
            if not any(name in o for o in out):
                out.append(name)
    return out


def en_entities(text: str) -> list[str]:
    """The capitalised names in an English clause, without the words that only open a sentence."""
    out: list[str] = []
    for m in _EN_ENTITY.finditer(text.replace(OPAQUE, " ")):
        parts = m.group(0).split()
        while parts and parts[0].lower().strip(".,!?") in _EN_NOT_ENTITY:
            parts.pop(0)
        if parts and not (len(parts) == 1 and parts[0].isdigit()):
            out.append(" ".join(parts))
    return out
