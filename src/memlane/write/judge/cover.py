"""Which corpus clause a candidate stands for: how much of a labelled clause a text covers, and the
label a candidate covering several learns. Training labels each candidate the extractor finds with
it (:mod:`memlane.write.judge.train`), and ``memlane eval judge`` scores each labelled clause on the
decision that covers it most (:mod:`memlane.eval.judge`)::

    overlap("got absolutely soaked on the ride in", "ugh")  # 0.0: no word of the clause is there
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from memlane.text.lang import has_cjk

from .model import TIERS

# which label a candidate covering several corpus clauses learns, first to last: what bars keeping
# it (a withdrawal, a secret, an imagined case, a guess), then lasting news, then this conversation's
# condition or context, then what is dropped
_PRECEDENCE = {"forget": 0, "sensitive": 0, "hypothetical": 0, "guess": 0, "long-term": 1, "session": 2}


def covered(found: str, labelled: Sequence[tuple[str, str]]) -> str:
    """The label a candidate learns: of the corpus clause it covers most of, or, where it holds
    several whole, of the one that most decides where it goes. "ok long story so my landlord
    finally fixed the heating" holds small talk and an event, and is kept for the event: learnt as
    small talk, it taught the model that news after a greeting is chatter."""
    whole = [label for text, label in labelled if overlap(found, text) == 1.0]
    if len(whole) > 1:
        return min(whole, key=lambda label: _PRECEDENCE.get(label, _PRECEDENCE.get(TIERS[label], 3)))
    return max(labelled, key=lambda c: overlap(found, c[0]))[1]


def overlap(found: str, labelled: str) -> float:
    """How much of a labelled clause a candidate's text covers: 1.0 when one holds the other, else
    the share of the clause's pieces it has: its words, or for Chinese its pairs of characters. (The
    share of its characters, as before, gave "ugh" to "got absolutely soaked on the ride in", which
    has a u, a g and an h.)"""
    if labelled in found or found in labelled:
        return 1.0
    return share(found, labelled)


def share(found: str, labelled: str) -> float:
    """The share of a labelled clause's pieces a text has, however little of it the clause is: of
    two texts inside "ok so my manager just yelled at me", "my manager just yelled at me" has more
    than "ok"."""
    want, have = _pieces(labelled), _pieces(found)
    return len(want & have) / max(1, len(want))


def _pieces(text: str) -> set[str]:
    folded = text.lower()
    if not has_cjk(folded):
        return set(folded.split())
    chars = [ch for ch in folded if not ch.isspace()]
    return {a + b for a, b in pairwise(chars)} or set(chars)
