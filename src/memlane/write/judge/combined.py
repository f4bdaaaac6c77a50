"""The memory judge: the rules for what must be exact, the learned model for the rest.

The rules decide first (:class:`~memlane.write.judge.rules.RuleJudge`). Their word is final for
what must be exact: a never-store value the detectors found, another speaker's turn, a withdrawal
("别记这个"), and a request to remember. For every other candidate the classifier
(:mod:`memlane.write.judge.model`) reads the clause and what the rules made of it; when it is at
least :attr:`Classifier.threshold` sure (chosen by cross-validation on the training split) and puts
the clause somewhere else (another tier, or a lasting kind where the rules saw an episode or a
plan, or the reverse), its class decides. The rules' structure stays: a slot, a date, the objects.
A decision the model made says so in the user's language::

    learned: mood (0.93), not kept
    学习判断：情绪（0.93），不保存

Where the model disagrees but is not sure, :meth:`Judge.doubt` says so, and a second opinion (the
LLM judge, ``docs/llm.md``) sees that clause with the rules' own doubts.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import numpy as np
import numpy.typing as npt

from memlane.domain import Action, Candidate, Category, Decision
from memlane.settings import Settings

from .features import rule_cues
from .guards import (
    LONG_NUMBER,
    exact,
    from_now_on,
    habitual,
    momentary,
    on_its_day,
    settles,
    standing,
    states_a_choice,
    tier,
)
from .meaning import MeaningHead
from .model import IMPORTANCE, TIERS, Classifier, Prediction, tier_shares
from .reasons import learned_reason
from .rules import POLICIES, RuleJudge, placed

# the category a learned class gives a candidate, when the rules' own does not fit it
CATEGORY = {
    "mood": Category.MOOD,
    "smalltalk": Category.SMALLTALK,
    "request": Category.REQUEST,
    "hypothetical": Category.HYPOTHETICAL,
    "other": Category.OTHER,
    "forget": Category.OTHER,  # only the rules' words withdraw what was said
    "sensitive": Category.SENSITIVE,
    "context": Category.CONTEXT,
    "condition": Category.CONDITION,
    "preference": Category.PREFERENCE,
    "constraint": Category.CONSTRAINT,
    "profile": Category.FACT,  # a lasting fact with no slot the rules could fill
    "background": Category.FACT,
    "event": Category.EVENT,
    "plan": Category.PLAN,
}
# the rules' categories of each learned class (a candidate already in one keeps its own)
_FITS = {
    "preference": {Category.PREFERENCE, Category.DISLIKE, Category.ROUTINE, Category.STYLE, Category.CONTACT},
    "constraint": {Category.CONSTRAINT, Category.CONTACT, Category.STYLE},
    "background": {Category.FACT, Category.FAMILY, Category.JOB, Category.LOCATION, Category.NAME},
    "profile": {Category.NAME, Category.LOCATION, Category.JOB, Category.CONTACT, Category.STYLE},
    "event": {Category.EVENT, Category.COMPLAINT},
    "plan": {Category.PLAN},
    "condition": {Category.CONDITION, Category.BUDGET},
}
# what only the rules may decide: sensitive data. The model's guess of it is a doubt, never a
# decision ("my invoice number is INV-2231" is no secret; a phone number the policy encrypts is kept)
_RULES_ONLY = {"sensitive"}
_DATED = {Category.PLAN, Category.EVENT, Category.COMPLAINT}
_PASSING = {Category.MOOD, Category.SMALLTALK, Category.HYPOTHETICAL, Category.REQUEST}
# how sure the model must be that a query is small talk for a context block to show no memories
# (chosen on the context benchmark's dev half: its greetings and thanks score 0.90-1.00, its questions
# that need a memory at most 0.48, "hi, what should I cook tonight?" 0.43)
_CHATTER = 0.8
# how much of the vector model's probability must be in the long-term tier for the rules' decision to
# keep a clause to stand where the n-gram model overruled it (chosen on the context benchmark's dev half
# and LoCoMo's dev conversations)
_RESTORE = 0.7
# how sure the model must be to name the kind of a clause the rules dropped as "nothing lasting"
# (chosen on the context benchmark's dev half and LoCoMo's dev conversations)
_NAMING = 0.35


class Judge(RuleJudge):
    """Rules and the learned model in one place (``Settings(learned_judge=False)``: rules alone).

    >>> from memlane import Settings
    >>> judge = Judge(Settings())
    """

    def __init__(
        self, settings: Settings, classifier: Classifier | None = None, head: MeaningHead | None = None
    ) -> None:
        super().__init__(settings)
        self._classifier = classifier
        self._head = head

    def use(self, classifier: Classifier, head: MeaningHead) -> None:
        """Read ``classifier`` and ``head`` instead of the shipped models (an evaluation of models
        fitted without the messages it says, :mod:`memlane.eval.judge_folds`)."""
        self._classifier, self._head = classifier, head

    @property
    def classifier(self) -> Classifier | None:
        """The model, read on first use (None when the settings turn it off)."""
        if not self.settings.learned_judge:
            return None
        if self._classifier is None:
            self._classifier = Classifier.bundled()
        return self._classifier

    def decide(self, candidate: Candidate, at: datetime) -> Decision:
        """The rules' decision, or the model's where it is sure and places the clause elsewhere."""
        rules = super().decide(candidate, at)
        prediction = self.prediction(candidate)
        if prediction is None:
            return rules
        if self._overrules(prediction, rules):
            return replace(self._learned(rules, candidate, prediction, at), overruled=rules)
        if self.names_junk(prediction, rules):
            named = replace(candidate, category=CATEGORY[prediction.label])
            reason = learned_reason(prediction, candidate.lang)
            return replace(rules, category=named.category, candidate=named, reason=reason)
        return rules

    @property
    def head(self) -> MeaningHead | None:
        """The second look over a clause's e5 vector, read on first use (None with the model off)."""
        if not self.settings.learned_judge:
            return None
        if self._head is None:
            self._head = MeaningHead.bundled()
        return self._head

    def second_look(self, decision: Decision, vector: npt.ArrayLike, at: datetime) -> Decision:
        """``decision`` read again with the clause's own e5 passage vector (the one its memory is, or
        would be, stored with) (:mod:`memlane.write.judge.meaning`): a clause about to be kept
        long-term that the vector's model and the n-gram model together put in the session or the
        bin is not kept; a clause dropped as about nothing in particular that they are sure is
        lasting is kept. Only what :meth:`looks_again` or :meth:`may_keep` names is read again;
        every other decision stays."""
        head, c = self.head, decision.candidate
        again = self.looks_again(decision)
        restorable = self.restorable(decision)
        if head is None or c is None or not (again or restorable or self.may_keep(decision)):
            return decision
        vector = np.asarray(vector, dtype=np.float32)
        model = self.classifier
        if model is None or vector.shape != (head.dim,):
            return decision
        if restorable:
            assert decision.overruled is not None
            lasting = float(tier_shares(head.probabilities(vector))[2])
            return decision.overruled if lasting >= _RESTORE else decision
        mixed = head.mix(vector, lambda: model.predict(c.text, rule_cues(c)))
        changed = head.moves(mixed) if again else head.keeps(mixed)
        return decision if changed is None else self._learned(decision, c, changed, at)

    def reads_again(self, decision: Decision) -> bool:
        """Whether the second look reads ``decision`` (so the write path embeds its clause): what
        :meth:`looks_again` names, and what :meth:`may_keep` names when the n-gram model gives the
        long-term tier at least the head's ``floor``."""
        if self.looks_again(decision):
            return True
        head, c = self.head, decision.candidate
        if self.restorable(decision):
            return head is not None
        if head is None or c is None or not self.may_keep(decision):
            return False
        model = self.classifier
        return model is not None and leans_lasting(model.predict(c.text, rule_cues(c)), head.floor)

    @staticmethod
    def restorable(decision: Decision) -> bool:
        """Whether the second look may give back the rules' decision to keep what the n-gram model
        dropped or kept for this conversation only ("Kindly keep replies brief": one-off context to
        it, 0.57; "I must not practise between 1 and 3 p.m": a request, 0.58): the vector's model
        reads the clause again, and where it puts at least ``_RESTORE`` of its probability in the
        long-term tier, the rules' word stands."""
        rules = decision.overruled
        return (
            rules is not None
            and tier(rules.action) == "long-term"
            and tier(decision.action) != "long-term"
            and decision.candidate is not None
            and not LONG_NUMBER.search(decision.candidate.text)
        )

    @staticmethod
    def may_keep(decision: Decision) -> bool:
        """Whether the second look may keep ``decision``: a clause dropped as about nothing in
        particular (no rule named it, the n-gram model named nothing passing), unless the rules
        decide it alone, the user hedged it, or it holds a long number no detector named."""
        c = decision.candidate
        return (
            c is not None
            and decision.action is Action.DISCARD
            and decision.category is Category.OTHER
            and not exact(c)
            and not c.hedged
            and not LONG_NUMBER.search(c.text)
        )

    @staticmethod
    def looks_again(decision: Decision) -> bool:
        """Whether the second look reads ``decision``: a clause about to be kept long-term, as a fact,
        a preference or an episode (whose vector holds its day: the head learnt from such vectors
        too), unless the rules decide it alone or found structure in it that no learned class takes
        apart: a profile slot (a name, a city, how to be contacted), a reported problem or a plan
        called off, whose status later messages settle ("快递又延迟了，物流太慢" reads as a mood to the
        vectors, and is a complaint)."""
        c = decision.candidate
        if c is None or decision.action not in (Action.SEMANTIC, Action.PROFILE, Action.EPISODIC):
            return False
        if exact(c):
            return False
        return (
            c.slot is None
            and not settles(decision)
            and not standing(c)
            and not habitual(c)
            and not from_now_on(c)
            and not states_a_choice(decision)
        )

    def chatter(self, text: str) -> bool:
        """Whether the model is sure ``text`` is small talk ("hey there", "哈哈谢谢你呀"): as a query,
        it asks nothing of what the user said before. False with the model off."""
        model = self.classifier
        if model is None:
            return False
        prediction = model.predict(text)
        return prediction.label == "smalltalk" and prediction.confidence >= _CHATTER

    @staticmethod
    def names_junk(prediction: Prediction, rules: Decision) -> bool:
        """Whether the model names what the rules only dropped as "nothing lasting": a clause they
        discard as being about nothing in particular that the model is sure is a mood, small talk, a
        request or an imagined case. The decision stays a discard; the name tells the context block
        that the turn holds nothing a model should read again ("thx coach haha")."""
        return (
            rules.action is Action.DISCARD
            and rules.category is Category.OTHER
            and CATEGORY.get(prediction.label) in _PASSING
            and prediction.confidence >= _NAMING
        )

    def prediction(self, candidate: Candidate) -> Prediction | None:
        """The model's view of ``candidate``, or None when the rules' word is final."""
        model = self.classifier
        if model is None or exact(candidate):
            return None
        return model.predict(candidate.text, rule_cues(candidate))

    def doubt(self, decision: Decision) -> str | None:
        """The rules' doubt, or the model's when it places the clause elsewhere but is not sure
        (never for sensitive data or text that reads as an instruction: those are never sent)."""
        rules = super().doubt(decision)
        c = decision.candidate
        if rules is not None or c is None or c.instruction or c.sensitive:
            return rules
        if decision.reason.startswith(("learned:", "学习判断")):
            return None  # the model was sure
        prediction = self.prediction(c)
        if prediction is not None and self.disagrees(prediction, decision):
            return f"the learned judge leans to {prediction.label} ({prediction.confidence:.2f})"
        return None

    def _overrules(self, prediction: Prediction, rules: Decision) -> bool:
        model = self.classifier
        assert model is not None
        return self.overrules(prediction, rules, model.threshold, model.keep)

    @classmethod
    def overrules(cls, prediction: Prediction, rules: Decision, threshold: float, keep: float) -> bool:
        """Whether the model's class decides instead of the rules: it is ``threshold`` sure (``keep``
        sure to keep long-term what the rules would not), it places the clause elsewhere, and it
        would not keep long-term what the rules' own words call a passing mood, small talk, an
        imagined case, a request, a guess or a thing for this once (those it may only move between
        discard and the session, and a request not even there: what the user asks for is no context
        of theirs).

        Sensitive data is the rules' alone, and so is a long number the rules did not keep ("long
        number on my debit card reads 4916 …" with no detector behind it), and a problem the user
        reported: its status is what later messages settle, and three alike a month apart are a
        trend (the n-gram model read "快递又延迟了，物流太慢" as talk about the world). A clause the
        model reads as a withdrawal is discarded, but only the rules' words take back what earlier
        messages said."""
        # a keep is as sure as the long-term tier's whole share (a fact about the user spreads over
        # profile, background and preference); a drop, or a move within long-term, as its label
        ruled = tier(rules.action)
        keeps = prediction.tier == "long-term" and ruled != "long-term"
        sure = prediction.share if keeps else prediction.confidence
        if sure < threshold or not cls.disagrees(prediction, rules):
            return False
        if prediction.label in _RULES_ONLY or settles(rules) or states_a_choice(rules):
            return False
        c = rules.candidate
        if ruled == "long-term" and c is not None and (standing(c) or on_its_day(c)):
            return False
        if (
            ruled == "long-term"
            and prediction.tier == "session"
            and c is not None
            and (habitual(c) or from_now_on(c))
        ):
            return False  # a habit is not this moment's ("mostly i just take the bus": context, 0.88)
        if prediction.tier == "session" and rules.category is Category.REQUEST:
            return False  # what the user asks for is no context of theirs ("any lounges here": 0.76)
        if prediction.tier != "long-term":
            return True
        if ruled == "session" and c is not None and c.slot is not None:
            # a slot the rules keep for this conversation is a condition of the task at hand: kept, a
            # gift's "budget £50" (0.71 long-term) would replace the user's lasting budget
            return False
        if ruled == "long-term":
            # a profile slot is structure: "we just moved to Austin" sets the user's city, however
            # much its words look like an event (0.76), and an episode would set none
            return c is None or c.slot is None
        if c is not None and (c.hedged or c.session_only or LONG_NUMBER.search(c.text)):
            # a guess in the user's own words ("我可能喜欢…吧"), a clause its words hold to this once
            # ("just this once, skip the small talk": background, 0.70), or a number no detector named
            return False
        if c is not None and rules.category is Category.CONTEXT and momentary(c):
            return False  # its words say it is this moment's: "I only have ten minutes" (background, 0.90)
        return sure >= keep and rules.category not in _PASSING

    @staticmethod
    def disagrees(prediction: Prediction, rules: Decision) -> bool:
        """Whether the model places the clause elsewhere: another tier, or a lasting fact where the
        rules saw a dated one (or the reverse)."""
        if prediction.tier != tier(rules.action):
            return True
        if prediction.tier != "long-term" or prediction.label == "profile":
            return False
        return (prediction.label in ("event", "plan")) != (rules.category in _DATED)

    def _learned(self, rules: Decision, candidate: Candidate, p: Prediction, at: datetime) -> Decision:
        """The decision the model's class makes, keeping the rules' structure where it fits."""
        category = candidate.category
        if category not in _FITS.get(p.label, ()):
            category = CATEGORY.get(p.label, category)
        changed = replace(candidate, category=category)
        if category not in _DATED and candidate.category in _DATED:
            changed = replace(changed, event_time=None, event_status=None)  # a routine, not a date
        if p.tier == "session":
            changed = replace(changed, session_only=True)
        if p.label == "guess":
            changed = replace(changed, hedged=True)
        shares = [
            (label, share)
            for label, share in zip(TIERS, p.probabilities, strict=True)
            if TIERS[label] == p.tier
        ]
        within = sum(share for _, share in shares) or 1.0
        importance = sum(IMPORTANCE[label] * share for label, share in shares) / within
        if p.tier == "discard":
            action = Action.DISCARD
        elif p.tier == "session":
            action = Action.SESSION
        elif importance < self.settings.write_threshold:
            return rules  # the write threshold binds the model too: below it, the rules' word stands
        else:
            action = placed(POLICIES[category].action, changed)
            if action in (Action.DISCARD, Action.SESSION):
                action = Action.SEMANTIC
        policy = POLICIES[category]
        return replace(
            rules,
            action=action,
            reason=learned_reason(p, candidate.lang),
            category=category,
            importance=round(importance, 3),
            confidence=round(within, 3),
            stability=p.stability,
            expires_at=self._expiry(action, policy, changed, at),
            candidate=changed,
        )


def leans_lasting(prediction: Prediction, floor: float) -> bool:
    """Whether the long-term tier holds at least ``floor`` of ``prediction``."""
    return float(tier_shares(np.asarray(prediction.probabilities))[2]) >= floor
