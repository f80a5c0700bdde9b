"""Issue 28 (judge gap): where the triggers of the State-Based Conditions performed right after a package's Snatch
Check go (Momon Wonder 1.0.0, 11.2.4 and 11.2.5; Section 9.3 as assumed).

11.2.5 names only On Summon and post-Snatch processing as using a package's processing Queue; the Snatch Check and
the State-Based Conditions after it are neither, and option snatch_check_triggers (docs/options.md) names both as one
class in each of its values: under post-snatch both enter the package's processing queue, under deferred both are
appended to the Trigger Queue. mw.package-processing-queue now judges that class under either value, both ways: the
reference engine's placement is accepted, and either trigger moved to the other queue is rejected.

The permissive engine's branch point ``package-sbc-placement`` (commit 74d6464, reverted) is not restored: the key
now settles it under either value, but asking it changes the scenarios lint-rules enumerates at the defaults, and
its open reading ``reading:snatch_check_triggers`` (docs/findings.md, M8) became "one outcome" there.
"""

from __future__ import annotations

import copy

import pytest

from conformance.documents.scenarios import prepare_scenario
from conformance.running.checking import check_scenario
from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.traceview import TraceView
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from trace_surgery import find

RULESET = get_ruleset("momon-wonder")
KEY = "mw.package-processing-queue"


def snatch_defeat(option: str) -> dict:
    """P1 summons X, then signals t (F1's A2 waits in the Trigger Queue behind the package); X's Snatch Check signals
    snatched (F2's B1 triggers: the Snatch Check's own trigger) and marks F1 for defeat, and F1's A1 triggers on its
    own defeat in the State-Based Conditions right after the Snatch Check."""
    document = {
        "format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0", "players": ["P1"],
        "active_player": "P1", "options": {"snatch_check_triggers": option},
        "objects": [
            {"id": "F1", "owner": "P1", "zone": "field", "abilities": [
                {"id": "A1", "trigger": {"event": "defeated", "subject": "self"}, "effect": []},
                {"id": "A2", "trigger": {"event": "signal", "name": "t"}, "effect": []}]},
            {"id": "F2", "owner": "P1", "zone": "field", "abilities": [
                {"id": "B1", "trigger": {"event": "signal", "name": "snatched"}, "effect": []}]},
            {"id": "X", "owner": "P1", "zone": "hand"}],
        "script": [{"step": "one", "actions": [{"by": "P1", "effect": [
            {"do": "summon", "object": "X", "succeeds": True, "snatch_check": [
                {"do": "signal", "name": "snatched"}, {"do": "mark_defeat", "object": "F1"}]},
            {"do": "signal", "name": "t"}]}]}],
    }
    return prepare_scenario(copy.deepcopy(document), "test")[1]


def played(option: str) -> tuple[dict, list[dict]]:
    scenario = snatch_defeat(option)
    check = check_scenario(MomonWonderEngine(), scenario, RULESET.invariants)
    assert not check.violations, check.violations
    assert check.exercised[KEY] >= 2  # the Snatch Check's trigger and the defeat's trigger are both judged
    return scenario, check.outcome.trace["entries"]


def instance(entries: list[dict], ability: str) -> str:
    return next(e["id"] for e in entries if e["kind"] == "trigger" and e["ability"] == ability)


def judged(scenario: dict, entries: list[dict]) -> list[str]:
    view = TraceView(scenario, {"format": "trigger-conformance/trace/1", "entries": entries}, scenario["options"])
    return RULESET.invariant(KEY).check(view)


@pytest.mark.parametrize("option", ["post-snatch", "deferred"])
def test_the_reference_placement_is_accepted_under_either_value(option):
    scenario, entries = played(option)
    package = next(e["package"] for e in entries if e["kind"] == "package_create")
    expected = package if option == "post-snatch" else "main"
    for ability in ("A1", "B1"):
        i = find(entries, kind="enqueue", trigger=instance(entries, ability))
        assert entries[i]["queue"] == expected, (ability, entries[i])
    assert judged(scenario, entries) == []


@pytest.mark.parametrize("option", ["post-snatch", "deferred"])
@pytest.mark.parametrize("ability", ["A1", "B1"])
def test_the_other_queue_is_rejected_under_either_value(option, ability):
    """A1 (the State-Based Conditions' trigger, the gap of issue 28) and B1 (the Snatch Check's own) each moved to the
    queue the option does not give it: rejected, under deferred as at the defaults."""
    scenario, entries = played(option)
    package = next(e["package"] for e in entries if e["kind"] == "package_create")
    other = "main" if option == "post-snatch" else package
    trigger = instance(entries, ability)
    entries[find(entries, kind="enqueue", trigger=trigger)]["queue"] = other
    found = judged(scenario, entries)
    assert found and trigger in found[0], found
    assert ("Trigger Queue" in found[0]) == (option == "deferred")
