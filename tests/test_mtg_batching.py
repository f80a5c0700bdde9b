"""How many times an MTG ability triggers (issue 12, item 1f): "one or more" (603.2c), additional times (603.2d),
"do this only once each turn" (603.2h) and abilities triggering on an ability resolving, judged on traces broken by
hand in both directions (a trigger missing, a trigger too many)."""

from __future__ import annotations

import copy

from mtg_support import fixture, violations
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import MUTANTS

KEY = "mtg.triggers-when-satisfied"


def _drop_trigger(trace, ability, nth=0):
    """The trace without the nth trigger entry of ``ability`` (and its later entries naming it)."""
    broken = copy.deepcopy(trace)
    ids = [e["id"] for e in broken["entries"] if e["kind"] == "trigger" and e["ability"] == ability]
    gone = ids[nth]
    broken["entries"] = [e for e in broken["entries"] if gone not in (e.get("id"), e.get("trigger"))]
    for e in broken["entries"]:
        if e["kind"] == "choice":
            e["among"] = [t for t in e["among"] if t != gone]
            if isinstance(e["chosen"], list):
                e["chosen"] = [t for t in e["chosen"] if t != gone]
    return broken


def _duplicate_trigger(trace, ability):
    """The trace with the first trigger entry of ``ability`` recorded twice (the copy never goes on the stack)."""
    broken = copy.deepcopy(trace)
    k = next(i for i, e in enumerate(broken["entries"]) if e["kind"] == "trigger" and e["ability"] == ability)
    twin = dict(broken["entries"][k], id="T99")
    broken["entries"].insert(k + 1, twin)
    return broken


def test_a_one_or_more_ability_may_name_any_matching_occurrence_of_its_event():
    prepared, trace = fixture("mtg-vocab-603-2c-one-or-more-enter")
    assert violations(prepared, trace) == {}
    moved = copy.deepcopy(trace)
    batch = next(e for e in moved["entries"] if e["kind"] == "trigger" and e["ability"] == "B")
    batch["event"] = "E3"  # the third card of the same event: still one trigger for that event
    assert KEY not in violations(prepared, moved)


def test_a_one_or_more_ability_triggering_twice_on_one_event_is_caught():
    prepared, trace = fixture("mtg-vocab-603-2c-one-or-more-enter")
    found = violations(prepared, _duplicate_trigger(trace, "B"))
    assert any("too many" in m for m in found[KEY]), found


def test_an_additional_trigger_missing_is_caught():
    prepared, _ = fixture("mtg-vocab-603-2d-additional-times")
    trace = MUTANTS["mtg-no-additional-triggers"].factory().run(prepared, ScenarioChooser(prepared))
    found = violations(prepared, trace)
    assert any("should have triggered ability A1 of W 1 more time(s)" in m for m in found[KEY]), found
    assert not any("A2" in m for m in found[KEY])  # P2's permanent: M is not theirs


def test_additional_times_on_a_delayed_ability_are_caught():
    prepared, trace = fixture("mtg-vocab-603-2d-additional-times")
    found = violations(prepared, _duplicate_trigger(trace, "D"))
    assert found  # a delayed ability triggering twice on one occurrence, whatever rule names it first


def test_a_once_each_turn_ability_triggering_after_its_action_is_caught():
    prepared, trace = fixture("mtg-vocab-603-2h-once-each-turn")
    broken = copy.deepcopy(trace)
    k = max(i for i, e in enumerate(broken["entries"]) if e["kind"] == "trigger" and e["ability"] == "Q")
    broken["entries"].insert(k + 1, dict(broken["entries"][k], id="T99", ability="O"))
    found = violations(prepared, broken)
    assert any("ability O of W triggered 1 time(s) too many" in m for m in found[KEY]), found


def test_a_declined_once_each_turn_ability_must_trigger_again():
    prepared, trace = fixture("mtg-vocab-603-2h-once-each-turn")
    found = violations(prepared, _drop_trigger(trace, "Q", 2))
    assert any("ability Q of W 1 more time" in m for m in found[KEY]), found


def test_a_resolved_event_missing_or_invented_is_caught():
    prepared, trace = fixture("mtg-vocab-603-2-ability-resolves")
    missing = copy.deepcopy(trace)
    missing["entries"] = [e for e in missing["entries"]
                          if not (e["kind"] == "event" and e.get("cause") == {"resolved": "T4"})]
    assert any("trigger T4 resolved" in m for m in violations(prepared, missing)[KEY])
    invented = copy.deepcopy(trace)
    k = next(i for i, e in enumerate(invented["entries"]) if e["kind"] == "removed" and e["trigger"] == "T3")
    invented["entries"].insert(k + 1, {"kind": "event", "id": "E99", "position": 99, "type": "resolved",
                                       "cause": {"resolved": "T3"}, "subject": "X", "player": "P1"})
    assert any("which it had not" in m for m in violations(prepared, invented)[KEY])
