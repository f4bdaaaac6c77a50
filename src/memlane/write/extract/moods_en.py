"""English moods: a passing feeling or reaction of the user's, said in a clause about little else, and
a gripe about how someone was to them. Kept for no one (the judge's ``mood``)."""

from __future__ import annotations

from .lexicon import FEELING_TAIL, FEELINGS

MOOD = (
    # a feeling word names the clause only when the clause is about little else: "I'm so excited, we
    # adopted a puppy" is split at the comma, "so excited about the Paris trip next week" is a plan
    rf"(?i)^(?=\W*(?:\S+\s+){{0,6}}\S*$).*?\b(?:{FEELINGS})\b"
    # an interjection names a short clause only: "omg I just got promoted" is the promotion
    r"|^(?:ugh+|argh+|sigh|meh|yay+|oof|phew|damn|omg)\b(?=\W*(?:\S+\s+){0,2}\S*$)"
    r"|\b(?:feel(?:ing)?|felt)\s+(?:(?:really|so|a\s+bit|pretty|quite|kinda|super|very)\s+)?"
    r"(?:bad|great|good|awful|terrible|low|off|sick|down|rough|flat|lousy|like\s+(?:crap|garbage|death))\b"
    r"|\b(?:bad|rough|long|tough|crappy|awful)\s+(?:day|week|night|morning)\b"
    r"|\b(?:want|wanna|going|about)\s+to\s+(?:cry|scream)\b|\bcould\s+(?:cry|scream)\b"
    r"|\b(?:can'?t\s+stop\s+(?:smiling|crying|shaking)|in\s+tears|freaking\s+out|losing\s+my\s+mind)\b"
    r"|\bso\s+(?:done|over)\s+with\b|\bi'?m\s+so\s+over(?=\s+(?:it|this|that|everything|today)\b|\W*$)|\bso\s+sick\s+of\b|\bheart\s+is\s+(?:racing|pounding)\b"
    r"|\bdriving\s+me\s+(?:nuts|crazy|insane|up\s+the\s+wall)\b|\brunning\s+on\s+fumes\b"
    # how the body feels after a day, in a short clause: "my feet are killing me today", "legs are jelly"
    r"|^(?=\W*(?:\S+\s+){0,6}\S*$)(?:.*\b(?:is|are|'s|'re)\s+(?:so\s+|absolutely\s+)?killing\s+me\b"
    r"|.*\b(?:brain|head|legs?|feet|arms?|back|body)\s+(?:is|are|'s|'re)\s+(?:so\s+|absolutely\s+|totally\s+)?"
    r"(?:fried|jelly|toast|wrecked|dead)\b)"
    r"|\bi'?m\s+(?:still\s+)?shaking\b|\bi'?m\s+so\s+done\b"
    r"|^(?:just\s+)?(?:leave\s+me\s+alone|let\s+me\s+be|don'?t\s+ask|stop\s+asking)\b"
    # a mood named as one ("not in a great mood rn", "in a foul mood"), and a telling-off just taken
    # ("my boss yelled at me today", "got chewed out by my manager", "the reg had a go at me", "my mum
    # gave me an earful", "my lead bit my head off"), as 被老板骂了 in Chinese, in a short
    # clause that tells nothing else ("my boss yelled at me so I quit" is the quitting)
    r"|\bin\s+(?:a|such\s+a)\s+(?:(?:really|very|pretty|super|kinda|bit\s+of\s+a)\s+)?"
    r"(?:good|great|bad|foul|terrible|awful|grumpy|weird|rotten|crappy|sour)\s+mood\b"
    r"|^(?!.*\b(?:so|and|but|because|then|after|until|till)\b)(?=\W*(?:\S+\s+){0,8}\S*$).*?(?:"
    r"\b(?:yelled|shouted|screamed|snapped|went\s+off|blew\s+up|lost\s+it|kicked\s+off|went\s+mental)\s+at\s+me\b"
    r"|\b(?:chewed|told)\s+me\s+(?:out|off)\b|\bhad\s+a\s+(?:go|pop|dig)\s+at\s+me\b"
    r"|\b(?:tore|ripped|laid|lit)\s+into\s+me\b|\bbit\s+my\s+head\s+off\b|\bwent\s+off\s+on\s+me\b"
    r"|\bgave\s+me\s+(?:an?\s+)?(?:earful|bollocking|rollicking|dressing[\s-]down|telling[\s-]off|mouthful)\b"
    r"|\b(?:got|get|getting|was|been)\s+(?:chewed\s+out|told\s+off|yelled\s+at|shouted\s+at|scolded"
    r"|reprimanded|ripped\s+into|torn\s+into|bollocked|an\s+earful)\b)"
    # a feeling of the user's, however long what follows, unless it is about something ("I'm so jealous
    # you live by the water", "I'm feeling kinda lonely since the move"; "so excited about the trip" is not)
    rf"|\b(?:i'?m|im|i\s+am|i\s+feel|feeling)\s+(?:(?:so|really|super|kinda|kind\s+of|a\s+bit|pretty|very|quite"
    rf"|still|just|honestly|lowkey)\s+)*(?:{FEELINGS})\b(?!\s+(?:about|for|to|that|of|with)\b)"
    # "feeling super nostalgic today", "feeling blessed": a feeling said alone, whatever its word
    r"|^(?:i'?m\s+|i\s+am\s+|honestly\s+)?feeling\s+(?:(?:so|really|super|kinda|a\s+bit|pretty|very|quite)\s+)?"
    r"(?!like\b)[a-z]+(?:\s+(?:today|tonight|rn|lately|this\s+week|atm))?\W*$"
    r"|^"
    + FEELING_TAIL
    # how someone was to the user, griped about in the past: "my TL was so annoying tonight, kept pulling
    # me for coaching in the middle of calls", "the customers were super rude today" (not what the user
    # did about it: "my boss was so rude that i quit")
    + r"|^(?:ugh\s+)?(?:my|our|the|this|that)\s+(?:[\w'-]+\s+){0,3}?(?:was|were)\s+"
    r"(?:so+|super|really|being(?:\s+so)?|extra|soo+)\s+(?:annoying|rude|mean|awful|horrible|unbearable"
    r"|insufferable|obnoxious|difficult|extra|petty|a\s+nightmare|a\s+pain)\b(?!.*\b(?:i|i'?m|im|we)\b)"
)
