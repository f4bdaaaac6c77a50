"""English clauses whose subject texting dropped: what the writer did ("took the kids to Yellowstone
over spring break"), how they live ("own a little sailboat", "get the train into birmingham for work"),
where they are ("at a truck stop off I-40 near Amarillo"), and what they and someone else do, said the
spoken way round ("me and my partner jules run a little farm"). :func:`with_subject` says such a clause
again with its "I", and names what that reading may make of it; the extractor keeps the reading only
then, for a clause no rule named.
"""

from __future__ import annotations

import re

from memlane.domain import Category

# a clause that opens with what was done, its "I" dropped: a past verb and what it was done to (not a
# reaction, "loved the photos", "got it", nor where the writer has just come, "just got off a shift")
_EN_DID = re.compile(
    r"(?i)^(?:(?:finally|just|also|then|so|and|already|actually|literally)\s+)*"
    r"(?!(?:loved|liked|enjoyed|appreciated|hated|missed|wanted|needed|hoped|wished|thought|guessed"
    r"|figured|meant|noticed|seemed|looked|sounded|felt|happened|used|supposed|called|named|based|turned)\b"
    r"|got\s+(?:off|home|in|up|here|there)\b)"
    r"(?:[a-z]{3,}ed|took|got|won|lost|bought|sold|made|went|ran|drove|flew|broke|found|gave|left|caught"
    r"|wrote|built|came|met|saw|quit|paid|spent|scored|hit)\s+"
    r"(?!(?:it|that|this|well|great|good|fine|ok|okay|to\s+(?:be|me|you))\b)\w+.*\s\w+"
)
_DID_KINDS = (Category.EVENT, Category.PLAN)
# …and one that opens with how the writer lives or works, as a plain present (not an imperative to the
# assistant: "get me a taxi", "take a look", "have fun")
_EN_HAS = re.compile(
    r"(?i)^(?:(?:also|still|now|currently|mostly|usually)\s+)*(?:own|rent|renting|live|living|work|working"
    r"|commute|drive|ride|cycle|take|get|teach|study|volunteer|grew\s+up"
    # a daily habit: "walk the kids to school then hop on the train", "swim before work"
    r"|walk|swim|jog|bike|park|wake\s+up|sleep|hike|meditate)\s+"
    r"(?!(?:me|us|you|it|this|that|a\s+look|care|fun|well|ready|going|back)\b)\w+"
)
_HAS_KINDS = (Category.FACT, Category.PREFERENCE, Category.ROUTINE, Category.LOCATION, Category.JOB)
# …and one that opens with where the writer is: a place they stop at, travel in or are stuck in ("at
# target with a toddler", "in the back of a taxi in lisbon", "stuck in the walgreens drive thru line");
# "at" needs no article ("at parent teacher conferences"), "in" and "on" do ("in love", "on it" say no place)
_EN_AT = re.compile(
    r"(?i)^(?:(?:still|just|currently|now|out|up|back|stuck|crammed|parked|camped|sitting|standing"
    r"|waiting|hiding|huddled)\s+)*"
    r"(?:at\s+(?!(?:least|all|first|last|once|times|this\s+point|the\s+end|the\s+moment|some\s+point|most|best"
    r"|worst|it|that|this|me|you)\b)|(?:in|on|outside|inside)\s+(?:a|an|the|my|our)\s+"
    r"(?!(?:band|relationship|club|choir|league|team|wheelchair|program(?:me)?|process|market|mood)\b))\w"
)
AT_KINDS = (Category.CONTEXT,)
# …and one whose subject is the writer and someone else, said the spoken way round: "me and my partner
# jules run a little farm outside kamloops", "me and the kids moved to Perth last year" (said as "we")
_EN_WITH = re.compile(
    r"(?i)^me\s+and\s+(?:my\s+|our\s+|the\s+)?[\w'-]+(?:\s+[\w'-]+)??\s+"
    r"(?=(?:run|own|rent|live|work|have|got|are|'re|both|just|moved|bought|started|went|go|met|share|keep"
    r"|grow|raise|sell|farm|homeschool|foster|do|did|still|also|always|usually)\b)"
)
_WITH_KINDS = (*_HAS_KINDS, *_DID_KINDS)
# …and who the writer is, said as who is "here": "night shift csr here for a us healthcare account", "mom
# of three here" (not "same here", "nobody here", "so cold here", "first time here")
_EN_HERE = re.compile(
    r"(?i)^(?!(?:it|its|it's|so|too|very|same|everyone|everybody|nobody|no|someone|people|lots|all|me|you|we"
    r"|they|hi|hey|hello|not|just|still|what|who|how|why|where|when|the|this|that|there|first|long|been|back"
    r"|anyone|anybody)\b)(?P<who>(?:[\w'-]+\s+){0,4}?[\w'-]+)\s+here\b(?=\s*(?:$|[,.!]|for\b|at\b|in\b"
    r"|with\b|from\b|and\b))"
)
# …and who the writer lives with, said as who there is: "its just me and my son here in bangor"
_EN_JUST_US = re.compile(r"(?i)^(?:it'?s|its|it\s+is)\s+(?:just|only)\s+me\s+and\s+(?=(?:my|our)\s)")


def with_subject(text: str) -> tuple[str, tuple[Category, ...]]:
    """An English clause with the subject texting dropped said again, and what that reading may make
    of it (nothing when the clause does not open the way such a clause does)."""
    if (with_someone := _EN_WITH.match(text)) is not None:
        return f"we {text[with_someone.end() :]}", _WITH_KINDS
    if (here := _EN_HERE.match(text)) is not None:
        return f"I'm a {here.group('who')}{text[here.end() :]}", (*_HAS_KINDS, Category.FAMILY)
    if (us := _EN_JUST_US.match(text)) is not None:
        return f"I live with {text[us.end() :]}", _HAS_KINDS
    if _EN_AT.match(text):
        return f"I'm {text}", AT_KINDS
    if _EN_DID.match(text):
        return f"I {text}", _DID_KINDS
    if _EN_HAS.match(text):
        return f"I {text}", _HAS_KINDS
    return text, ()
