"""Hybrid search: keyword (BM25 over segmented tokens) and vector (cosine) candidates, fused, then
ranked with importance, confidence and recency. Every hit explains why it was recalled.

A query that names a time ("in July 2023", "上周", "last year", "6月10号") adds a third list: the
records whose time (an event's date, a turn's message time) falls in that period, ranked by similarity.
The query is embedded without the names of the user's speakers (the names messages came with), and
what the speakers it does not name said ranks lower.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from memlane.domain import Flag, Hit, Kind, MemoryItem
from memlane.embed import Embedder
from memlane.lifecycle.portrait import SLOT
from memlane.read.options import SearchPlan
from memlane.store import Stores, Vector
from memlane.store.tokens import SPEAKER, indexed
from memlane.text.keywords import named, query_tokens, said_in, without_names
from memlane.text.timeparse import TimeMention, find_times
from memlane.vocabulary import MemoryQuery, ScoredId

# e5 cosine similarities of unrelated texts sit near 0.75; relevance starts above this floor
_VECTOR_FLOOR = 0.75
_VECTOR_SPAN = 0.17
# BM25 saturates: a score of _BM25_HALF counts as half a perfect keyword match
_BM25_HALF = 4.0
# reciprocal-rank fusion constant: small, so that being first in either list counts (chosen on the
# LoCoMo dev split, conversations 1-2: k=5 gave R@5 0.663 against 0.556 for k=60 and 0.610 for the
# weighted sum of normalised scores)
_RRF_K = 5
_PRIOR = 0.2  # share of the score that importance, confidence and recency may move
_OUTDATED_WEIGHT = 0.5  # a raw turn whose memory was superseded
_CHATTER_WEIGHT = 0.5  # a raw turn that was small talk only
# what another speaker said than the one a question names ("What activities does Melanie partake in?"
# asks what Melanie said): on LoCoMo's dev conversations 0.8 lifted R@10 0.815 -> 0.824 and multi-hop
# 0.503 -> 0.517, adversarial questions (which name the wrong speaker on purpose) at 0.920 as before;
# 0.6 lifted multi-hop to 0.536 but cost adversarial 0.920 -> 0.866 (docs/architecture.md)
_OTHER_SPEAKER_WEIGHT = 0.8
_RECENCY_HALF_LIFE_DAYS = 180.0
# a hit this relevant counts as a recall (access count, last accessed); weaker ones are only listed
_RECALLED = 0.3
# threads for the reads that run beside a read's own thread: a search's keyword side (while its query
# is embedded) and a context's session, summary and profile (while it searches); both wait on the
# database or release the GIL, and neither waits for another task of this pool
BESIDE = ThreadPoolExecutor(max_workers=16, thread_name_prefix="memlane-beside")


def _keyword_part(bm25: float) -> float:
    return bm25 / (bm25 + _BM25_HALF) if bm25 > 0 else 0.0


def _vector_part(similarity: float) -> float:
    return min(1.0, max(0.0, (similarity - _VECTOR_FLOOR) / _VECTOR_SPAN))


def _recency(item: MemoryItem, now: datetime) -> float:
    when = item.valid_from or item.updated_at or item.created_at
    if when is None:
        return 0.5
    days = max(0.0, (now - when).total_seconds() / 86400)
    return math.pow(0.5, days / _RECENCY_HALF_LIFE_DAYS)


@dataclass
class _Parts:
    """What each index said about one record."""

    bm25: float = 0.0
    keyword_rank: int | None = None
    terms: list[str] = field(default_factory=list)
    similarity: float = 0.0
    vector_rank: int | None = None
    time_rank: int | None = None  # rank among the records of the period the query names
    lists: int = 2  # ranked lists in play: 3 when the query names a period that holds records

    def relevance(self) -> float:
        """How well it matches, on an absolute scale (for thresholds and recall counting)."""
        kw, vec = _keyword_part(self.bm25), _vector_part(self.similarity)
        return 0.45 * kw + 0.55 * vec + 0.15 * kw * vec  # both agreeing is worth more than either

    def fused(self) -> float:
        """Reciprocal-rank fusion of the lists, scaled so that first in every list is 1: the most a
        record can score, since importance, confidence, recency and the weights only lower it."""
        ranks = [r for r in (self.keyword_rank, self.vector_rank, self.time_rank) if r is not None]
        return sum(1.0 / (_RRF_K + r) for r in ranks) * (_RRF_K + 1) / self.lists


class Searcher:
    """The read path's retrieval step over one store and embedder."""

    def __init__(self, stores: Stores, embedder: Embedder, *, first_read: int | None = None) -> None:
        self.stores = stores
        self.embedder = embedder
        self.first_read = first_read  # rows read at first (default: the limit and ten more)

    def search(self, user_id: str, text: str, options: SearchPlan, now: datetime) -> list[Hit]:
        """The best memories (and log turns) for ``text``, best first (hits carry no embeddings)."""
        q = options.query
        if not q.kinds:
            kinds = tuple(k for k in Kind if options.include_log or k is not Kind.LOG)
            q = MemoryQuery(**{**q.__dict__, "kinds": kinds})
        tokens = query_tokens(text)
        # a speaker's name says whose turns, not what about: embedded, it draws every turn that
        # greets or names that person; the keyword side keeps it (it weighs little there anyway)
        speakers = self.stores.records.speakers(user_id)
        meaning = without_names(text, speakers) if speakers else text
        # …and a question about one of them is about what that one said
        asked = named(text, speakers) if speakers else set()
        others = _Others.of(speakers, asked)
        # the keyword search needs no vector: it runs while the query is embedded (the embedder and
        # the database both release the GIL), and so does reading its best candidates' rows
        keywords = BESIDE.submit(self._keywords, user_id, tokens, q, options) if tokens else None
        embedded = self.embedder.embed_query(meaning)
        vector = self.stores.search.vector_search(user_id, embedded, q, options.candidates)
        periods = _periods(find_times(text, now), q)
        timed = self._in_periods(user_id, embedded, q, periods, options.candidates)
        keyword, read = keywords.result() if keywords else ([], {})
        lists = 3 if timed else 2  # a period in which nothing was said leaves the scale as it was
        by_id: dict[str, _Parts] = {}
        for rank, hit in _ranked(keyword):
            found = by_id.setdefault(hit.id, _Parts(lists=lists))
            found.bm25, found.keyword_rank, found.terms = hit.score, rank, hit.terms
        for rank, hit in _ranked(vector):
            found = by_id.setdefault(hit.id, _Parts(lists=lists))
            found.similarity, found.vector_rank = hit.score, rank
        for rank, hit in _ranked(timed):
            found = by_id.setdefault(hit.id, _Parts(lists=lists))
            found.similarity, found.time_rank = hit.score, rank
        scored = self._read_best(user_id, by_id, options, now, read, others)
        ranked = [scored[i] for i in by_id if i in scored]  # in the order the indexes gave, for ties
        ranked.sort(key=lambda s: s[0], reverse=True)
        # only the hits returned are explained
        said = ", ".join(m.text for m in periods)
        best = _without_covered_turns(ranked)[: options.limit]
        hits = [_explained(item, by_id[item.id], score, now, said) for score, item in best]
        recalled = [
            h.memory.id for h in hits if h.memory.kind is not Kind.LOG and h.explain["relevance"] >= _RECALLED
        ]
        self.stores.records.touch(user_id, recalled, now)
        return hits

    def _in_periods(
        self, user_id: str, vector: Vector, q: MemoryQuery, periods: list[TimeMention], limit: int
    ) -> list[ScoredId]:
        """The records of the periods, most similar first (each once, by its best similarity)."""
        best: dict[str, float] = {}
        for period in periods:
            inside = replace(q, since=period.at, until=period.end_at)
            for hit in self.stores.search.vector_search(user_id, vector, inside, limit):
                best[hit.id] = max(hit.score, best.get(hit.id, -1.0))
        ranked = sorted(best.items(), key=lambda kv: kv[1], reverse=True)[:limit]
        return [ScoredId(i, score) for i, score in ranked]

    def _first_read(self, options: SearchPlan) -> int:
        return self.first_read or options.limit + 10

    def _keywords(
        self, user_id: str, tokens: list[str], q: MemoryQuery, options: SearchPlan
    ) -> tuple[list[ScoredId], dict[str, MemoryItem]]:
        """The keyword candidates, and the rows of the best of them: most of those make the list,
        and reading them here, beside the query's embedding, takes their time off the search."""
        found = self.stores.search.keyword_search(user_id, tokens, q, options.candidates)
        best = [hit.id for hit in found[: self._first_read(options)]]
        return found, {
            item.id: item for item in self.stores.records.get_many(user_id, best, embeddings=False)
        }

    def _read_best(
        self,
        user_id: str,
        by_id: dict[str, _Parts],
        options: SearchPlan,
        now: datetime,
        read: dict[str, MemoryItem],
        others: _Others | None = None,
    ) -> dict[str, tuple[float, MemoryItem]]:
        """Score the candidates that can make the list, reading their rows best fused rank first.

        A record scores at most its fused rank (:meth:`_Parts.fused`), so once the ``limit``-th best
        score read so far is above the fused rank of the next unread candidate, no unread one can
        make the list and its row is not read. Reading the limit and ten more first is usually enough (on
        LoCoMo's ~700-memory users a search for 10 reads about 20 rows of the ~90 candidates, one for 20
        about 33); when it is not, each further batch is twice the last. Rows already ``read`` beside
        the query's embedding are not read again.
        """
        bound = {i: p.fused() for i, p in by_id.items() if round(p.relevance(), 4) > 0}
        order = sorted(
            (i for i, b in bound.items() if b + 1e-4 >= options.min_score),
            key=bound.__getitem__,
            reverse=True,
        )
        scored: dict[str, tuple[float, MemoryItem]] = {}
        done, batch = 0, self._first_read(options)
        while done < len(order):
            chunk = order[done : done + batch]
            done += len(chunk)
            batch *= 2
            unread = [i for i in chunk if i not in read]
            rows = [read[i] for i in chunk if i in read]
            for item in rows + (
                self.stores.records.get_many(user_id, unread, embeddings=False) if unread else []
            ):
                # the user summary is injected by context() on its own; as a hit it would crowd out evidence
                if item.slot != SLOT:
                    score = _score(item, by_id[item.id], now, others)
                    if score >= options.min_score:
                        scored[item.id] = (score, item)
            # the list is what is left once covered turns go: a memory not read yet scores below the
            # limit-th kept score, so it cannot cover a turn of the list
            ranked = sorted(scored.values(), key=lambda pair: pair[0], reverse=True)
            best = [score for score, _ in _without_covered_turns(ranked)]
            # scores are rounded to 4 places: the margin keeps a rounded-up unread score out of reach
            out_of_reach = len(best) >= options.limit and done < len(order)
            if out_of_reach and best[options.limit - 1] > bound[order[done]] + 1e-4:
                break
        return scored


@dataclass(frozen=True)
class _Others:
    """The ``speaker:`` tags of the speakers a question names and of the others, whose words rank
    lower unless a named one said the same."""

    named: frozenset[str]
    others: frozenset[str]

    @classmethod
    def of(cls, speakers: list[str], asked: set[str]) -> _Others | None:
        if not asked:
            return None
        tagged = {s: f"{SPEAKER}{s}" for s in speakers}
        return cls(
            frozenset(t for s, t in tagged.items() if s in asked),
            frozenset(t for s, t in tagged.items() if s not in asked),
        )

    def said_only(self, item: MemoryItem) -> bool:
        """Whether only speakers the question does not name said ``item``."""
        return not self.others.isdisjoint(item.tags) and self.named.isdisjoint(item.tags)


def _score(item: MemoryItem, parts: _Parts, now: datetime, others: _Others | None = None) -> float:
    """The ranking score (to 4 places): the fused rank of the two lists, nudged by importance,
    confidence and recency, halved for superseded and small-talk turns, and lowered for what only
    speakers a question does not name said (``others``)."""
    prior = (1 - _PRIOR) + _PRIOR * (item.importance + item.confidence + _recency(item, now)) / 3
    score = parts.fused() * prior
    if Flag.OUTDATED in item.flags:
        score *= _OUTDATED_WEIGHT
    if Flag.CHATTER in item.flags:
        score *= _CHATTER_WEIGHT
    if others is not None and others.said_only(item):
        score *= _OTHER_SPEAKER_WEIGHT
    return round(score, 4)


def _periods(mentions: list[TimeMention], q: MemoryQuery) -> list[TimeMention]:
    """The periods a query names, each a whole day at least ("yesterday at 3pm" looks at yesterday: a
    turn's time is when it was said, not when it happened), within the caller's own time filter."""
    out = []
    for m in mentions:
        at, end_at = m.at, m.end_at
        if end_at - at < timedelta(days=1):
            at = at.replace(hour=0, minute=0, second=0, microsecond=0)
            end_at = at + timedelta(days=1)
        if q.since is not None:
            at = max(at, q.since)
        if q.until is not None:
            end_at = min(end_at, q.until)
        if at < end_at:
            out.append(replace(m, at=at, end_at=end_at))
    return out


def _ranked(hits: list[ScoredId]) -> Iterator[tuple[int, ScoredId]]:
    """Each hit with its rank, 1 for the best; equal scores share the better rank. A memory and its
    own turn often say the same words and so score the same: which of them an index lists first is
    the order of their random ids, and must not decide which of them ranks higher."""
    rank, last = 0, None
    for place, hit in enumerate(hits, start=1):
        if hit.score != last:
            rank, last = place, hit.score
        yield rank, hit


def _without_covered_turns(ranked: list[tuple[float, MemoryItem]]) -> list[tuple[float, MemoryItem]]:
    """``ranked`` without the log turns a memory ranked above them came from: the memory says it."""
    covered: set[str] = set()
    out = []
    for score, item in ranked:
        if item.kind is Kind.LOG and set(item.provenance) & covered:
            continue
        if item.kind is not Kind.LOG:
            covered.update(item.provenance)
        out.append((score, item))
    return out


def _explained(item: MemoryItem, parts: _Parts, score: float, now: datetime, periods: str = "") -> Hit:
    """The hit, with why it was recalled. The words named are those of the hit's own text; a turn is
    also indexed with the turn before it, and a word found only there is named as such."""
    bm25, sim = parts.bm25, parts.similarity
    terms = said_in(indexed(item), parts.terms) if parts.terms else []
    before = [t for t in parts.terms if t not in terms]
    kw, vec = _keyword_part(bm25), _vector_part(sim)
    why = []
    if terms:
        why.append("matched words: " + ", ".join(terms))
    if before:
        why.append("words of the turn it answers: " + ", ".join(before))
    if vec > 0:
        why.append(f"similar in meaning ({sim:.2f})")
    if parts.time_rank is not None:
        why.append(f"dated in the period asked about ({periods})")
    if item.kind is Kind.LOG:
        why.append("from the conversation log")
    if Flag.OUTDATED in item.flags:
        why.append("says something since superseded")
    explain = {
        "relevance": round(parts.relevance(), 4),
        "keyword": round(kw, 4),
        "bm25": round(bm25, 4),
        "matched_terms": terms,
        "context_terms": before,
        "keyword_rank": parts.keyword_rank,
        "vector": round(vec, 4),
        "similarity": round(sim, 4),
        "vector_rank": parts.vector_rank,
        "time_rank": parts.time_rank,
        "importance": item.importance,
        "confidence": item.confidence,
        "recency": round(_recency(item, now), 4),
        "source": "log" if item.kind is Kind.LOG else "memory",
        "why": "; ".join(why),
    }
    return Hit(memory=item, score=score, explain=explain)


def collapse_log(hits: list[Hit]) -> list[Hit]:
    """Drop log turns whose memories already made the list: the memory says it better."""
    covered = {p for h in hits if h.memory.kind is not Kind.LOG for p in h.memory.provenance}
    return [h for h in hits if h.memory.kind is not Kind.LOG or not set(h.memory.provenance) & covered]
