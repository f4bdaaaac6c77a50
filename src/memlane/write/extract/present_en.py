"""The English present, told apart from what lasts: where the user is and what they are doing now.

:data:`NOW` is this moment ("right now", "rn"), a place the user is on or at (on the train, at the
vet, at my mom's), what they are in the middle of (driving, on my lunch break, on a call), where this
message comes from, where they are for a few days ("I'm in Boston this week"), and what they are doing
for the day or the week ("im borrowing my brother's van for the week"). Said so, a clause
holds for this conversation only; the rules of ``rules_en`` read it after what would make it lasting.
"""

from __future__ import annotations

import re

from .events_en import SUBJECT_IS as IM

NOW = (
    r"(?i)\b(?:right\s+now|at\s+the\s+moment|currently|atm)\b|(?-i:(?<!\ban\s)\brn\b)"
    rf"|{IM}(?:on|in|at)\s+(?:the|a|my)\s+(?:train|bus|plane|flight|subway|metro|tube|car|meeting"
    r"|airport|office|hospital|road|way|gym)\b"
    # a place one stops at, however it is named ("at a gas station outside memphis"); not a workplace
    # ("in the parramatta office" two days a week)
    rf"|{IM}(?:on|in|at)\s+(?:the|a|my)\s+(?:[\w'-]+\s+){{0,2}}?(?:station|stop|cafe|café|coffee\s+shop"
    r"|restaurant|bar|pub|mall|supermarket|pharmacy|dentist|doctor|vet|clinic|post\s+office|waiting\s+room"
    r"|lobby|hotel|motel|parking\s+lot|car\s+park|queue|line|concert|party|wedding|funeral|taxi|cab|dmv|mechanic"
    r"|garage|bank|library|beach|park|zoo|museum|er|emergency\s+room|salon|barber|hairdresser|laundromat"
    r"|car\s+wash|store|shop|market|cinema|movies|theat(?:er|re)|stadium|game|match)(?:'s)?(?![\w'])(?!\s+of\s)"
    # at someone's home for now: "I'm at my mom's", "at my parents' place"
    rf"|{IM}(?:at|in)\s+my\s+[\w-]+(?:'s|s')(?:\s+(?:place|house|flat|apartment|home))?(?![\w'])"
    rf"|{IM}(?:driving|commuting|travell?ing|walking|cooking|eating|on\s+my\s+way|on\s+the\s+way|at\s+work"
    r"|on\s+(?:my\s+|a\s+)?(?:lunch|coffee|smoke)\s+break|on\s+my\s+break(?!\s+from)|on\s+(?:vacation|holiday)"
    r"|on\s+(?:a|the)\s+(?:call|phone)"
    r"|at\s+home|outside|in\s+a\s+meeting|busy|waiting|typing|texting)\b"
    # where this message comes from: "I am writing this from my daughter's house in Bristol", "I am
    # writing from the waiting room"
    r"|\b(?:writing|texting|typing|messaging|sending)\s+(?:(?:this|you|these)\s+)?"
    r"(?:(?:quickly|now|rn|on\s+my\s+phone)\s+)?from\b"
    # where the user is for now, not where they live: "I'm in Boston this week", "not in Munich today"
    rf"|{IM}(?:not\s+)?(?:in|at)\b[^,.;!?]{{1,40}}?\b(?:this\s+week(?:end)?|today|tonight)\b"
    # what the user is doing today or for the week ("I'm babysitting my niece today", "im borrowing my
    # brother's van for the week"), not a milestone of it ("I'm starting my new job today", "we're moving
    # today") nor a trip ("we're flying to Rome for the week")
    rf"|{IM}(?!(?:start|mov|graduat|marry|retir|leav|quit|begin|launch|clos|sign|open|getting\s+married"
    r"|go|head|fly|travel|visit)\w*\b)"
    r"[a-z]+ing\b[^,.;!?]{0,40}?\b(?:today|all\s+day|tonight|(?:this|all|for\s+the)\s+week(?:end)?)\b"
)
# a habit said in the plain present: "I take the bus to work", "i only read these on my 15 min break",
# "we shop at aldi" (not "I take it" of today, tonight or this week, a one-off "for once", nor a past
# "yesterday", "last night")
HABIT = (
    r"(?i)^(?!.*\b(?:today|tonight|tomorrow|yesterday|now|rn|this\s+(?:morning|afternoon|evening|week|weekend|time)"
    r"|next|last|for\s+once|just\s+this)\b)"
    r"(?:(?:and|so|but|also|oh|tbh|honestly|fyi|well)\s+)*(?:i|we)\s+"
    r"(?:(?:only|just|mostly|still|also|usually|normally|often)\s+)?"
    r"(?:read|take|ride|drive|walk|bike|cycle|commute|use|wear|carry|listen|buy|eat|drink|watch|order|pay"
    r"|cook|sleep|work|train|run|swim|shop|go|get\s+up|wake\s+up|bring|pack|play|leave|start|finish)\b"
)
# what someone else is in the middle of this moment: "They are calling my name, so I must go", "she's
# yowling like a siren" (not where they are going, nor what they do for a living: "he's working at
# Google now" is said of a relative, and read so before this)
THEY_NOW = (
    r"(?i)^(?:they|he|she)(?:\s+(?:are|is)|'re|'s)\s+(?:\w+ly\s+)?"
    r"(?!going\b|moving\b|getting\s+married\b)\w+ing\b"
)
# where the user is right now: a problem said with it is one of this moment ("I'm at the airport
# right now, flight delayed"), not one to follow up on later
HERE_NOW = re.compile(
    r"(?i)\b(?:i'?m|i\s+am)\s+(?:at|in|on|stuck\s+(?:at|in|on))\b.*\b(?:right\s+now|at\s+the\s+moment|atm)\b"
    r"|\b(?:right\s+now|at\s+the\s+moment|atm)\b.*\b(?:i'?m|i\s+am)\s+(?:at|in|on|stuck)\b"
    # on the way, where a delay is the journey's: "I'm waiting at the airport gate, flight delayed again"
    r"|\b(?:i'?m|i\s+am)\s+(?:waiting\s+|sitting\s+|stuck\s+)?(?:at|in|on)\s+(?:the|a|my)\s+"
    r"(?:airport|gate|station|platform|terminal|train|bus|plane|flight|subway|metro|tube|highway|freeway)\b"
)
