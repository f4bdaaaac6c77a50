"""How the user wants to be answered, in English words: more detail or less, plain words, the shape of
an answer, and an instruction for every later answer. :mod:`memlane.write.extract.rules_en` turns
each into a style rule (a slot where the words name one: ``response_style``, ``plain_language``).
"""

from __future__ import annotations

DETAILED = (
    r"(?i)\bmore\s+details?\b|\bin\s+(?:more|full|great|much\s+more)\s+detail\b"
    r"|\b(?:be\s+)?more\s+(?:detailed|thorough)\b"
    r"|\b(?:detailed|longer|thorough|in-depth)\s+(?:answers?|responses?|replies|explanations?)\b"
    r"|\b(?:explain|elaborate)\s+(?:in\s+detail|more|further)\b|\bgo\s+into\s+(?:more\s+)?detail\b"
    r"|\b(?:give\s+me\s+)?the\s+long\s+version\b|\bi\s+(?:like|love|want|prefer)\s+(?:the\s+|lots\s+of\s+|more\s+)?details[\s.!]*$"
)
# words anyone understands: what to say, where CONCISE is how much
PLAIN = (
    r"(?i)\b(?:plain|simple|everyday|normal)\s+(?:words|language|english|terms)\b"
    r"|\b(?:no|without|avoid|skip|cut)\s+(?:the\s+)?(?:tech(?:nical)?\s+)?(?:jargon|buzzwords)\b"
    r"|\bin\s+layman'?s\s+terms\b|\blike\s+i'?m\s+(?:five|5|a\s+beginner)\b"
)
# the shape an answer takes: "answer in bullet points", "use tables when you compare things"
FORMAT = (
    r"(?i)\b(?:answer|reply|respond|format|write|give|show|lay\s+out|list|put)\b[^.!?]{0,30}?\b(?:in|as|with|using)"
    r"\s+(?:a\s+)?(?:bullet(?:ed)?\s+(?:points?|lists?)|bullets|numbered\s+(?:lists?|steps)|(?:a\s+)?tables?"
    r"|markdown|plain\s+text|short\s+paragraphs)\b"
    r"|\buse\s+(?:bullet\s+points|bullets|tables?|numbered\s+lists?|markdown)\b"
)
# a standing instruction: how every later answer should be given ("pls always chuck a shopping list at
# the end", "if you would always set out instructions in numbered steps", "send me the steps first from
# now on")
ASKED = (
    r"(?:use|set\s+out|give|send|chuck|put|add|include|list|write|answer|reply|start|end|lay\s+out|show|cite|link"
    # (not a compliment: "you always make me smile", "you always make my day")
    r"|keep|make(?!\s+(?:me|my)\s+(?:smile|laugh|feel|happy|cry|day|think|blush|so)\b)|explain|format|number|break"
    # ("pls always tell me the why behind stuff", "always flag the risks"; not "you always tell me the truth")
    r"|tell(?!\s+me\s+(?:the\s+truth|i'?m|im|how\s+(?:great|good|smart|amazing)))|flag|mention|warn\s+me)"
)
STANDING = (
    r"(?i)(?:^|\b(?:you|u|pls|please|kindly|just)\s+)(?:(?:would|could|can|will|should)\s+)?"
    rf"(?:always|from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|every\s+time|each\s+time)[\s,]+(?:pls\s+|please\s+)?{ASKED}\b"
    rf"|^(?:pls\s+|please\s+|kindly\s+|just\s+)?{ASKED}\b.{{0,60}}\b(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future"
    r"|every\s+time|each\s+time)\b"
)
CONCISE = (
    r"(?i)\b(?:keep|make)\s+(?:it|them|things|(?:your\s+)?(?:answers?|responses?|replies))"
    r"\s+(?:short|brief|concise|succinct|simple|to\s+the\s+point)\b"
    r"|\bbe\s+(?:more\s+)?(?:concise|brief|succinct)\b|\btl;?dr\b"
    r"|\b(?:shorter|briefer|more\s+concise|short|brief|concise)\s+(?:answers?|responses?|replies)\b"
    r"|\bget\s+to\s+the\s+point\b|\b(?<!went\s)(?<!goes\s)(?<!go\s)(?<!got\s)(?:straight|right)\s+to\s+the\s+point\b|\bshort\s+and\s+sweet\b"
    r"|\b(?:answer|reply|respond)\s+(?:briefly|concisely|in\s+short)\b"
    r"|\bno\s+(?:long|lengthy)\s+(?:answers?|explanations?)\b|\bless\s+verbose\b"
    r"|\bdon'?t\s+be\s+(?:so\s+)?(?:verbose|wordy|long-winded)\b"
    r"|\bjust\s+(?:give\s+me\s+|show\s+me\s+)?the\s+(?:code|answer)\b|\b(?:code|answers?)\s+only\b"
    r"|\b(?:skip|no)\s+(?:the\s+)?explanations?\b"
)
