"""What happened to the user and what they plan, in English: the patterns of the event and plan rules
of :mod:`memlane.write.extract.rules_en` (a plan made, moved or called off; something done, paid for,
finished or that befell the user's things), and the first person they are said in.
"""

from __future__ import annotations

import re

from .holds import HABITUAL
from .rule import Build, Context, Draft
from .rule import any_of as _any

SUBJECT = r"\b(?:i|we)(?:\s+|(?='))"  # I / we, before a verb or a contraction (I've, we'll)
# …or the user and someone else: "my girlfriend Priya and I are planning a trip to Goa"
SUBJECT_IS = r"\b(?:i'?m|i\s+am|we'?re|we\s+are|and\s+i\s+are)\s+"
INTENT = (
    rf"(?i){SUBJECT_IS}(?:planning|going|about|hoping|thinking\s+(?:of|about)|looking\s+to|preparing)\b"
    rf"|{SUBJECT}(?:plan|intend|want|hope|would\s+like|'d\s+like|need|aim|am\s+going|'ll|will|shall)\b"
    r"|^planning\s+to\b|\bgonna\b"
)
# an arrangement told in the present, with its day ("we're flying to Tokyo on March 3rd")
ARRANGED = (
    rf"(?i){SUBJECT_IS}(?:flying|leaving|heading|driving|travell?ing|moving|getting\s+married|visiting"
    r"|(?:training|preparing|studying|saving\s+up|registered|signed\s+up)\s+for)\b"
)
IRREGULAR = _any(
    "went bought ran got moved started finished had met saw took made left came became lost won visited did "
    "wrote flew drove ate drank sold paid spent found gave began broke fell built caught chose forgot hurt "
    "kept learnt quit rode sang sat slept spoke swam taught told threw woke wore sent brought held been gone "
    "done seen"
)
DID = (
    rf"(?i){SUBJECT}(?:just\s+|finally\s+|recently\s+|already\s+|also\s+|have\s+|'ve\s+)?"
    rf"(?:(?!need|feed|seed|speed|bleed|proceed|succeed|exceed)\w+ed|{IRREGULAR})\b(?!')"  # not "won't"
)
# what the user paid for something, said without "I": "cost 385 in the end", "paid 420 for the repair",
# "that set me back 80 quid" (not what something costs every month)
SPENT = (
    r"(?i)^(?:(?:so|and|also|well|it|that|which|the\s+[\w-]+)\s+)*(?:cost|came\s+to|paid|spent|set\s+(?:me|us)"
    r"\s+back)\s+(?:me\s+|us\s+)?(?:about\s+|around\s+|like\s+|only\s+|just\s+)?[$€£¥]?\d"
    r"(?!.*\b(?:a|per|each|every)\s+(?:month|week|year|day|night|lesson|hour|session)\b)"
)
# what a check found, settling what was only a guess: "turns out it was the ISP's line fault", "it was
# actually the drain hose", "the shutter was actually fine", "confirmed with the pool: Thursdays"
FOUND_OUT = (
    r"(?i)^(?:(?:so|and|but|well|ok|okay|oh|(?:an\s+)?update:?)\s+)*(?:turns?\s+out|it\s+turned\s+out|found\s+out"
    r"|(?:just\s+)?confirmed|it'?s\s+confirmed|checked\s+(?:the|my|with)\b[^,]{0,30},?|(?:i\s+)?checked(?=,|\s+and\b))\b"
    # what someone who looked at it found: "the man at the nursery examined the plant and said…"
    r"|^(?:(?:so|and|but|well|ok|okay|oh|(?:an\s+)?update:?)\s+)*(?:the|a|my|our)\s+[\w' -]{1,40}?\s+"
    r"(?:examined|checked|looked\s+at|inspected|tested|ran\s+tests\s+on)\b.{0,60}?\b(?:said|says|found|told\s+(?:me|us))\b"
    # …or said what it is, having looked or tested: "the mechanic said it's the alternator", "vet says it
    # was just a bee sting", "the inspector confirmed it's termites" (not what they said to do)
    r"|^(?:(?:so|and|but|well|ok|okay|oh|(?:an\s+)?update:?)\s+)*(?:the\s+|my\s+|our\s+|a\s+)?(?:[\w'-]+\s+){0,2}?"
    r"(?:vet|doctor|doc|dentist|mechanic|garage|plumber|electrician|technician|tech|engineer|inspector"
    r"|surveyor|repairman|specialist|lab|tests?|results?|scan|x-?ray|trail\s+cam|camera)\s+"
    r"(?:(?:came(?:\s+out|\s+round|\s+by)?|had\s+a\s+look)\s+and\s+)?(?:said|says|confirmed|showed|shows|found)"
    r"\s+(?:that\s+)?(?:it'?s|it\s+(?:is|was))\b"
    r"|^(?:(?:so|and|but|well|ok|okay|oh)\s+)*(?:it|that|the\s+[\w' -]{1,30}?)\s+(?:was|is|were|are)"
    r"\s+actually\b"
    r"|^(?:(?:so|and|but|well|ok|okay|oh)\s+)*actually\s+it\s+(?:was|is)\b"
)
# something of the user's done: "the sweater is finished", "my thesis is finally done"
DONE = (
    # (its owner named or not: "leave got approved", "good news, visa's approved")
    r"(?i)^(?:(?:so|and|also|well|ok|okay|oh|yay|update:?|(?:good|great|big)\s+news,?)\s+)*"
    r"(?!(?:it|that|this|everything|all|things|stuff|which|what)\s)(?:(?:my|our|the)\s+)?[\w' -]{1,40}?\s+"
    r"(?:is|are|was|were|'s|got)\s+(?:finally\s+|all\s+|now\s+|officially\s+)?"
    r"(?:finished|done|complete|completed|ready|sorted|fixed|booked|sold|approved|published|over)\b"
    # how it went: "interview went well", "the move went smoothly", "my driving test went badly"
    r"|^(?:(?:so|and|also|well|ok|okay|oh|yay|update:?)\s+)*(?!(?:it|that|this|everything|all|things|stuff)\s)"
    r"(?:(?:my|our|the)\s+)?[\w' -]{1,40}?\s+went\s+"
    r"(?:really\s+|so\s+|pretty\s+|super\s+|very\s+)?(?:well|great|fine|ok|okay|badly|terribly|smoothly|amazing"
    r"|awful|perfectly|brilliantly)\b"
)
# something that happened to the user's things: "the lead flashing around the chimney had split", "the
# new mattress got delivered", "my laptop died"
HAPPENED = (
    r"(?i)^(?:(?:so|and|then|also|oh|ugh|update:?)\s+)*(?:my|our|the)\s+[\w' -]{1,40}?\s+"
    r"(?:(?:had|has|have|just|finally|also|totally|completely)\s+)*(?:broke(?:\s+down)?|split|cracked|leaked"
    r"|burst|failed|died|crashed|stopped\s+working|arrived|came|got\s+delivered|went\s+missing|flooded"
    r"|collapsed|caught\s+fire|fell\s+(?:off|apart)|started\s+leaking|blew\s+up|showed\s+up|turned\s+up)\b"
)
# a plan moved to another time, or called off (also by the user's own way out: "pulled out of Boston,
# my knee isn't up to it")
# what a new time starts with: "to sept 13", "to 5:30am", "till next week", "to the 27th"
_NEW_TIME = (
    r"(?=(?:the\s+)?(?:\d|next\b|this\b|coming\b|tomorrow|tonight|noon|midnight|(?:mon|tue|wed|thu|fri|sat|sun)"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|early\b|mid\b|late\b|later\b))"
)
MOVED = (
    r"(?i)\b(?:rebooked|rescheduled|re-scheduled|postponed)(?:\s+(?:it|that|the\s+\w+))?\s+(?:to|for|till|until)\b"
    r"|\b(?:moved|pushed|bumped)\s+(?:it|that|the\s+\w+|our\s+\w+|my\s+\w+)\s+(?:back\s+)?(?:to|till|until)\b"
    # what was moved named in a few words, or not at all, before its new time: "we moved practice to
    # 5:30am", "the invitational got pushed to sept 13" (not "we moved to 5th avenue")
    # (the verb's plain form too, as dialect says it: "GM move di fire drill to friday 28th")
    rf"|\b(?:move[ds]?|push(?:ed|es)?|bump(?:ed|s)?|shift(?:ed|s)?|changed)\s+(?:[\w'-]+\s+){{1,3}}?(?:back\s+)?"
    rf"(?:to|till|until)\s+{_NEW_TIME}"
    rf"|\b(?:got|been|was|were|is|are|'s)\s+(?:moved|pushed|bumped|shifted|changed)\s+(?:back\s+)?(?:to|till|until)\s+"
    rf"{_NEW_TIME}"
    # put off with no new time yet: "the wedding got postponed", "our trip has been pushed back"
    r"|\b(?:got|been|was|were|is|are)\s+(?:postponed|pushed\s+back|rescheduled)\b"
)
CALLED_OFF = (
    r"(?i)\b(?:cancell?ed|called\s+off|scrapped|is\s+off|got\s+cancell?ed"
    # not gone after all: "we didn't end up going to the concert", "bailed on the hike"
    r"|(?:didn'?t|did\s+not|never)\s+end(?:ed)?\s+up\s+(?:going|making\s+it)|ended\s+up\s+not\s+going"
    r"|bailed\s+on"
    r"|(?:pulled|pulling|backed|backing)\s+out\s+of|withdr[ae]wn?\s+from"
    # (dropping out of school is what happened, not a plan given up)
    r"|dropp(?:ed|ing)\s+out\s+of(?!\s+(?:college|school|uni|university|high\s+school|grad\s+school|my\s+\w+)))\b"
    # the user letting go of a plan named as one: "scrap the GP plan", "ditch the road trip idea"
    r"|\b(?:scrap|scrapping|ditch|ditching|drop|dropping|nix|binning|bin)\s+(?:the|my|our|that)\s+"
    r"(?:[\w-]+\s+){0,3}?(?:plan|idea|trip)s?\b"
)


# what the user does at a time of day, every day: "I take the 7:40 bus to work", "we eat at 6"; said in
# the present with only a clock time, it is a habit, whichever side of now the clock time falls (not
# a trip's times: "I fly out at 6am")
_PRESENT = re.compile(
    r"(?i)^(?:(?:so|and|also|well|yeah|oh)\s+)*(?:i|we)\s+(?:usually\s+|always\s+|normally\s+|often\s+"
    r"|typically\s+|generally\s+|still\s+|just\s+)?(?!am\b|was\b|were\b|will\b|shall\b|would\b|had\b"
    r"|did\b|have\b|has\b|can\b|could\b|might\b|must\b|should\b|need\b|want\b|hope\b|plan\b"
    r"|fly\b|land\b|depart\b|arrive\b|board\b|check\b|(?:[a-z]+ed|" + IRREGULAR + r")\b)[a-z]+\b"
)
_DID = re.compile(DID)
# how something was, said in the past ("my TL was so annoying tonight", "the kids were wild today"), not
# what was arranged for a time ("the meeting was moved to tonight", "we were booked for friday")
_WAS = re.compile(
    r"(?i)\b(?:was|were)\s+(?:(?:so+|really|very|super|kinda|pretty|extra|absolutely|totally|a\s+bit)\s+)*"
    r"(?!(?:moved|pushed|rescheduled|changed|postponed|delayed|booked|set|scheduled|planned|supposed|going"
    r"|meant|due|told|asked|invited|(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|yesterday"
    r"|tomorrow|last|this|next|on|at|in)\b)[a-z]+\b"
)
_DUE = re.compile(r"(?i)\b(?:to|for|until|till|by|on)\s+(?:tonight|today|tomorrow|this\s+\w+|next\s+\w+)\b")
_CLOCK = re.compile(r"(?i)(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)?")


def in_its_tense(build: Build, planned: bool) -> Build:
    """``build`` for a clause dated only by the time it names, unless it names only clock times and its
    tense says otherwise: in the present or with a word of habit, a habit ("usually up till 2am"); for a
    plan, in the past ("I got home at 11pm", said at seven in the morning, is no plan for tonight; "we
    booked the venue for saturday" is)."""

    def dated(m: re.Match[str], ctx: Context) -> Draft | None:
        clock = ctx.times and all(_CLOCK.fullmatch(t.text.strip()) for t in ctx.times)
        if clock and (
            _PRESENT.match(ctx.text) or HABITUAL.search(ctx.text) or (planned and _DID.search(ctx.text))
        ):
            return None
        if planned and _WAS.search(ctx.text) and not _DUE.search(ctx.text):
            return None  # "my TL was so annoying tonight": how a day went, no plan for it
        return build(m, ctx)

    return dated
