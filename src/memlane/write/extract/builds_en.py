"""What the English rules (:mod:`.rules_en`) make of a match: the builders that turn the groups of a
rule's pattern into a :class:`~.rule.Draft` (a slot's value, its entities, its time), and the words
they refuse (not a name, not an employer) or read (numbers, months, relations).
"""

from __future__ import annotations

import re

from memlane.domain import Category as C
from memlane.text.kin import EN_RELATIONS
from memlane.text.lang import has_cjk

from .holds import LASTING
from .lexicon import FEELINGS
from .money import budget_draft
from .rule import Build, Context, Draft, any_of, en_objects

# fmt: off
RELATIONS = EN_RELATIONS
# fmt: on
PETS = ("dog", "cat", "puppy", "kitten", "rabbit", "hamster", "parrot", "fish", "turtle", "bird")
# a pet is as often named by its breed ("we have a golden retriever called Max"): the species it is
_DOGS = (
    "golden_retriever labrador corgi poodle beagle husky dachshund pug border_collie collie german_shepherd"
    " shih_tzu french_bulldog frenchie bulldog terrier spaniel greyhound whippet cockapoo cavapoo labradoodle"
    " goldendoodle chihuahua schnauzer jack_russell staffie rottweiler"
)
_CATS = "maine_coon ragdoll siamese bengal british_shorthair sphynx tabby"
BREEDS = {
    w.replace("_", " "): kind for words, kind in ((_DOGS, "dog"), (_CATS, "cat")) for w in words.split()
}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_NOT_A_NAME = frozenset(
    any_of(
        "tomorrow later back anytime tonight today now maybe please sometime again whenever soon asap first "
        "then instead on at after before if when by"
    ).split("|")
)
_NOT_SELF_NAME = frozenset(
    any_of(
        "chinese english american british german french japanese korean indian canadian australian spanish "
        "italian russian brazilian mexican dutch swiss irish scottish welsh vietnamese thai muslim christian "
        "buddhist jewish catholic fine good okay ok sorry here back done ready sure happy tired hungry busy "
        "new monday tuesday wednesday thursday friday saturday sunday january february march july "
        "september october november december today tonight tomorrow great nice cool awesome amazing perfect "
        "crazy insane weird bad terrible awful hard easy true right wrong fun over late early cold hot sunny "
        "raining snowing freezing boiling quiet everyone everybody nobody me us"
    ).split("|")
)
_REQUEST = re.compile(
    r"(?i)\b(?:can|could|would|will)\s+you\b|\bhelp\s+me\b|\bi\s+(?:want|need)\s+to\s+know\b"
    r"|\bi\s+have\s+a\s+question\b|\bi\s+wonder\b|\bplease\b"
)
_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
# "joined" something that is not an employer
_NOT_AN_EMPLOYER = frozenset(
    any_of("a the my our gym club team class group chat call meeting Netflix Spotify Twitter Reddit")
    .lower()
    .split("|")
)


def nickname(m: re.Match[str], ctx: Context) -> Draft | None:
    name = m.group("v").strip("\"'")
    if name.lower() in _NOT_A_NAME:
        return None
    return Draft(slot="nickname", value=name, entities=[name])


def self_name(m: re.Match[str], ctx: Context) -> Draft | None:
    name = m.group("v")
    if name.split()[0].lower() in _NOT_SELF_NAME:
        return None
    return Draft(slot="name", value=name, entities=[name])


def family(m: re.Match[str], ctx: Context) -> Draft | None:
    groups = m.groupdict()
    relation = RELATIONS.get((groups.get("rel") or "children").lower(), "children")
    value: dict[str, object] = {"relation": relation}
    entities = []
    if groups.get("n"):
        value["count"] = _NUMBERS.get(groups["n"].lower()) or int(groups["n"])
    if groups.get("name"):
        value["name"] = groups["name"]
        entities.append(groups["name"])
    if groups.get("age"):
        value["age"] = int(groups["age"])
    if groups.get("detail"):
        if _FEELS.match(groups["detail"]):
            return Draft(category=C.MOOD)  # "my sister is devastated": how they feel now, no fact of them
        value["detail"] = groups["detail"].strip()
    return Draft(slot=f"family:{relation}", value=value, entities=entities)


# how a relative feels now: "is devastated", "is so stressed", "was gutted"
_FEELS = re.compile(
    rf"(?i)(?:is|are|was|were|'s|feels?|felt|seems?)\s+(?:(?:so|really|pretty|totally|absolutely|super|a\s+bit"
    rf"|kinda|quite|very|completely|utterly|just)\s+)*(?:{FEELINGS})\b"
    # …said of this moment, not of a place or a thing ("is happy at his new school", "scared of dogs")
    r"(?=\s*(?:$|[,.!?;]|(?:and|but|about|today|tonight|rn|tbh|lol)\b|right\s+now\b))"
)


# what may follow a place typed in lower case ("i moved to london last year"); any other word says the
# words were no place ("I moved to day shifts", "we moved to a bigger flat", "moved to the night team")
_AFTER_A_PLACE = frozenset(
    "with since for and but now at near right because today too as on in from last this next ago recently "
    "yesterday so originally lol haha tbh btw".split()
)
_NO_PLACE = frozenset("a an the my our his her their this that some another".split())
_NAMED_PLACE = re.compile(r"\b(?:in|near|outside|called|named)\s+((?-i:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*))")
# a home named by what it is and where ("a flatshare in heaton", "a studio in gateshead"): texting writes
# the place in lower case, and the kind of home says it is one
HOME = r"flat|flatshare|flat\s+share|houseshare|studio|apartment|house|bedsit|condo|townhouse|dorm"
_HOME_IN = re.compile(rf"(?i)\b(?:{HOME})\s+(?:in|near|outside)\s+([a-z][\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*)*)")


def _a_place(where: str, after: str) -> bool:
    """Whether ``where``, followed in its clause by ``after``, names a place."""
    if where.lower() in _NO_PLACE:
        return False
    if has_cjk(where[:1]) or where[:1].isupper():
        return True
    following = re.match(r"\s*([\w']+)", after)
    return following is None or following.group(1).lower() in _AFTER_A_PLACE


def place(slot: str) -> Build:
    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        found = next((v for k, v in m.groupdict().items() if k.startswith("v") and v), "")
        where = re.sub(r"(?i)^the\s+", "", found.strip())
        if where and not _a_place(where, ctx.text[m.end() :]):
            # "a tiny town in Ohio called Marietta", "a small town near Spokane": the place it names
            rest = ctx.text[m.start("v") if m.groupdict().get("v") else m.start() :]
            named = _NAMED_PLACE.findall(rest) or _HOME_IN.findall(rest)
            where = named[-1] if named and where.lower() in _NO_PLACE else ""
        if not where:
            return None
        if slot == "home_city" and ctx.time(1):
            return None  # "moving to Tokyo next month" is a plan
        past = ctx.time(-1)
        return Draft(slot=slot, value=where, event_time=past.at if past else None)

    return build


def work_in(m: re.Match[str], ctx: Context) -> Draft | None:
    where = m.group("v")
    if where[:1].isupper() or has_cjk(where[:1]):  # "I work in Paris", "I work in 深圳"; not "in tech"
        return Draft(slot="work_city", value=where)
    return Draft(category=C.JOB, slot="industry", value=where.lower())


def job(m: re.Match[str], ctx: Context) -> Draft | None:
    groups = m.groupdict()
    job = re.sub(r"(?i)^an?\s+", "", (groups.get("job") or groups.get("job2") or "").strip())
    employer = (groups.get("emp") or "").strip()
    if not job and employer:
        return Draft(slot="employer", value=employer, entities=[employer])
    if not job:
        return None
    return Draft(slot="job", value=job.lower(), entities=[employer] if employer else [])


_NOT_A_SUBJECT = frozenset(
    "it that this them him her you me us kids children people students classes class".split()
)


def teacher(m: re.Match[str], ctx: Context) -> Draft | None:
    """Teaching a subject is a teacher's job: "I teach math at a high school" -> math teacher."""
    subject = m.group("subj").lower()
    if subject.split()[0] in _NOT_A_SUBJECT:
        return None
    return Draft(slot="job", value=f"{subject} teacher")


# who a coach coaches, which names no sport: "girls and boys cross country" -> cross country coach
_COACHED = re.compile(
    r"(?i)\b(?:my|our|the|a|his|her|their|kids'?|girls'?|boys'?|and|youth|junior|son's|daughter's|team)\b"
)


def coach(m: re.Match[str], ctx: Context) -> Draft | None:
    """Coaching a sport is a coach's job: "i coach girls and boys cross country at a high school" ->
    cross country coach; "I coach my son's team" -> coach."""
    sport = " ".join(_COACHED.sub(" ", m.group("subj")).split()[-2:]).lower()
    return Draft(slot="job", value=f"{sport} coach" if sport else "coach")


def employer(m: re.Match[str], ctx: Context) -> Draft | None:
    """A change of employer: "I just joined Microsoft" (a city is a move: "moved to Berlin")."""
    employer = m.group("emp").strip()
    if not employer or employer.lower() in _NOT_AN_EMPLOYER or ctx.time(1):
        return None
    return Draft(slot="employer", value=employer, entities=[employer])


def birthday(m: re.Match[str], ctx: Context) -> Draft | None:
    groups = m.groupdict()
    month = next((groups[k] for k in ("mon", "mon2", "mon3", "mon4") if groups.get(k)), "")
    day = next((groups[k] for k in ("d", "d2", "d3", "d4") if groups.get(k)), "")
    number = _MONTHS.get(month.lower()[:3])
    if number is None or not day or not 1 <= int(day) <= 31:
        return None
    return Draft(slot="birthday", value=f"{number:02d}-{int(day):02d}")


def condition(m: re.Match[str], ctx: Context) -> Draft | None:
    mention = ctx.time()
    return Draft(event_time=mention.at if mention else None, session_only=LASTING.search(ctx.text) is None)


def fact_about(slot: str) -> Build:
    def build(m: re.Match[str], ctx: Context) -> Draft | None:
        what = next((v for k, v in m.groupdict().items() if k.startswith("obj") and v), "")
        objects = en_objects(what, ctx)
        return Draft(slot=slot, value=objects[0], objects=objects) if objects else None

    return build


def pet(m: re.Match[str], ctx: Context) -> Draft | None:
    name = m.group("name")
    kind = " ".join(m.group("pet").lower().split())
    return Draft(slot=f"pet:{BREEDS.get(kind, kind)}", value=name, entities=[name] if name else [])


def first_person(m: re.Match[str], ctx: Context) -> Draft | None:
    if _REQUEST.search(ctx.text) or len(ctx.text.split()) < 2:
        return None
    negative = re.match(
        r"(?i)i(?:\s+(?:don't|do\s+not|never|can't|cannot)|'?m\s+not|\s+am\s+not)\b", ctx.text
    )
    return Draft(polarity=-1 if negative else 1)


def budget(m: re.Match[str], ctx: Context) -> Draft | None:
    return budget_draft(ctx, "")
