"""The memory judge: rules for what must be exact, a small learned model for the rest.

- ``rules``: the policy per category and :class:`RuleJudge`, the rules alone;
- ``features`` / ``model``: the hashed n-gram classifier shipped as ``model.npz``;
- ``combined``: :class:`Judge`, where rules and model meet and every decision says which decided;
- ``train``: how the model is rebuilt (``memlane eval judge --train``), numpy only.
"""

from __future__ import annotations

from .combined import Judge
from .model import LABELS, TIERS, Classifier, Prediction
from .rules import POLICIES, Policy, RuleJudge

__all__ = ["LABELS", "POLICIES", "TIERS", "Classifier", "Judge", "Policy", "Prediction", "RuleJudge"]
