"""The context benchmark's calibration of the relevance floor: set on the dev half, never on the held-out."""

from __future__ import annotations

import pytest

from memlane.eval import context as scenarios
from memlane.read.admit import FLOORS


def test_the_shipped_floors_are_the_ones_the_dev_half_calibrates() -> None:
    found = scenarios.floors()
    assert set(found) == set(FLOORS)
    # within a step of the calibration: a change to search or extraction that moves them further
    # needs `memlane eval context --floors` run again and the table in read/admit.py updated
    off = {key: found[key] for key in FLOORS if abs(found[key] - FLOORS[key]) > 0.03}
    assert off == {}, found
    # Chinese scores run higher than English for the same closeness, whatever the kind
    assert all(FLOORS["zh", kind] > FLOORS["en", kind] for _, kind in FLOORS)


def test_a_held_out_scenario_is_never_calibrated_on() -> None:
    held_out = next(s for s in scenarios.load() if s["split"] == "test")
    with pytest.raises(ValueError, match="held out"):
        scenarios.floors([held_out])


def test_a_line_that_says_it_no_longer_holds_is_no_junk() -> None:
    scenario = {"id": "zh-x", "split": "dev", "lang": "zh"}
    question = {"id": "q1", "category": "event_status", "must": [["换好了"]], "must_not": ["扎手"]}
    settled = "- [episodic · 2025-03-17 · resolved 2025-03-26] 屏幕摔裂了 就是手划上去扎手\n- 屏幕换好了"
    assert scenarios.score(scenario, question, settled, 20).junk == ()
    # still open, or the word only in what the user said: the line is current
    current = ("- [episodic · 2025-03-17] 屏幕摔裂了 扎手", "- [semantic · 2025-03-17] 说resolved了但还扎手")
    for block in current:
        assert scenarios.score(scenario, question, block, 20).junk == ("扎手",)
