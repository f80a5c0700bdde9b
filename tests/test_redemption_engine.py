"""The Redemption reference engine and generator: every invariant holds on generated scenarios, under every reading
the options allow, every rule key is exercised, and the generator is deterministic and varied."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from reference_engine.kernel.engine import Skipped
from reference_engine.kernel.errors import ScenarioError
from conformance.running.checking import check_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.redemption.generator import build_scenario
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ReplaySource, SeededSource
from redemption_support import EDITION, prepared
from reference_engine.redemption.judge import REDEMPTION
from reference_engine.redemption.judge.options import OPTIONS
from reference_engine.kernel.registry import get_ruleset
from reference_engine.kernel.registry import reference_engine_for

SEEDS = range(300)
READINGS = [dict(zip([o.name for o in OPTIONS], values)) for values in product(*[list(o.values) for o in OPTIONS])]


def test_registered():
    assert get_ruleset("redemption") is REDEMPTION
    assert builder_for("redemption") is build_scenario
    assert REDEMPTION.editions == ("reg-glossary",)
    assert {o.name: o.default for o in REDEMPTION.options} == {
        "trigger_during_resolution": "after-pending", "mandatory_after_phase": "lapse",
        "control_change_holder": "new-controller"}


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("options", READINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_reference_satisfies_every_invariant_on_generated_scenarios(options):
    engine = reference_engine_for(REDEMPTION.name)
    exercised: Counter = Counter()
    for seed in SEEDS:
        document = build_scenario(SeededSource(seed), EDITION)
        scenario = prepared(document, **options)
        result = check_scenario(engine, scenario, REDEMPTION.invariants)
        assert result.outcome.status == "trace", (seed, result.outcome.message, result.outcome.context)
        assert not result.check_errors, (seed, result.check_errors)
        assert not result.violations, (seed, result.violations)
        exercised.update(k for k, n in result.exercised.items() if n)
    unexercised = [inv.key for inv in REDEMPTION.invariants if not exercised[inv.key]]
    assert not unexercised


def test_generator_is_deterministic_and_replayable():
    for seed in range(50):
        source = SeededSource(seed)
        document = build_scenario(source, EDITION)
        assert build_scenario(SeededSource(seed), EDITION) == document
        assert build_scenario(ReplaySource(source.log), EDITION) == document


def test_simplest_scenario_is_small():
    document = build_scenario(ReplaySource([]), EDITION)
    assert document["players"] == ["P1", "P2"] and document["active_player"] == "P1"
    assert len(document["script"]) == 1


def test_generator_covers_the_situations_the_issue_names():
    seen: Counter = Counter()
    for seed in SEEDS:
        document = build_scenario(SeededSource(seed), EDITION)
        scenario = prepared(document)
        trace = reference_engine_for(REDEMPTION.name).run(scenario, ScenarioChooser(scenario))
        seen[f"players={len(document['players'])}"] += 1
        seen[f"active seat={document['players'].index(document['active_player'])}"] += 1
        for entry in trace["entries"]:
            if entry["kind"] == "event":
                seen[f"event {entry['type']}"] += 1
                if entry.get("to") in ("graveyard", "set_aside"):
                    seen[f"to {entry['to']}"] += 1
            elif entry["kind"] == "removed":
                seen[f"removed {entry['reason']}"] += 1
            elif entry["kind"] == "trigger":
                ability = next(a for o in document["objects"] if o["id"] == entry["source"] for a in o["abilities"]
                               if a["id"] == entry["ability"])
                if ability["trigger"]["event"] == "control":
                    seen["trigger on a change of control"] += 1
                    if ability["trigger"].get("subject") == "self":
                        seen["trigger on its own card's change of control"] += 1
            elif entry["kind"] == "activation_begin":
                seen[f"on-play held={entry['condition_held']}"] += 1
    for wanted in ["players=2", "players=3", "players=4", "active seat=0", "active seat=1", "active seat=2",
                   "active seat=3", "event play", "event negate", "event control", "event end_phase", "to graveyard",
                   "to set_aside", "removed negated", "removed source_gone", "removed declined", "removed card_left",
                   "removed expired", "on-play held=True", "on-play held=False", "trigger on a change of control",
                   "trigger on its own card's change of control"]:
        assert seen[wanted], wanted


def test_foreign_vocabulary_is_rejected_with_its_path_and_skipped_by_the_engine():
    document = build_scenario(ReplaySource([]), EDITION)
    document["script"][0]["actions"][0]["effect"].append({"do": "summon", "object": "P1c1", "succeeds": True})
    with pytest.raises(ScenarioError, match=r"\$\.script\[0\]\.actions\[0\]\.effect\[1\]\.do"):
        prepared(document)
    scenario = {**document, "options": REDEMPTION.resolve_options({})}  # handed to the engine without the harness
    with pytest.raises(Skipped):
        reference_engine_for(REDEMPTION.name).run(scenario, ScenarioChooser(scenario))
