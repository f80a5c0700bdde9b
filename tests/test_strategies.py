"""The public Hypothesis strategy (issue 10, item 6): the suite's scenarios for properties of your own, over
Hypothesis's public API, with ``@given``, ``target()`` and ``@example``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, find, given, settings, target

from conformance.running.checking import check_scenario
from conformance.documents.scenarios import prepare_scenario
from conformance.strategies import scenarios
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import RULESETS, get_ruleset

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = json.loads((ROOT / "fixtures" / "momon-wonder" / "mw-once-per-event.json").read_text("utf-8"))
_, FIXED = prepare_scenario(FIXTURE["scenario"], "fixture")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_scenario_is_valid_and_the_reference_engine_passes_it(name):
    ruleset = get_ruleset(name)
    invariants = ruleset.invariants_for(ruleset.default_edition)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(scenarios(name))
    def reference_passes(scenario):
        prepare_scenario(scenario, "a generated scenario")  # schema, consistency, vocabulary
        assert set(scenario["options"]) == {o.name for o in ruleset.options}
        check = check_scenario(reference_engine_for(name), scenario, invariants)
        assert check.outcome.status == "trace" and not check.violations, check.violations
        target(len(check.outcome.trace["entries"]), label="trace entries")

    reference_passes()


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios("momon-wonder", options={"sanctioned_play": True}))
@example(FIXED)
def test_pinned_options_hold_and_examples_are_played(scenario):
    if scenario is not FIXED:
        assert scenario["options"]["sanctioned_play"] is True
    assert check_scenario(reference_engine_for("momon-wonder"), scenario,
                          get_ruleset("momon-wonder").invariants).violations == {}


def test_a_faulty_engine_is_found_and_shrunk_by_hypothesis_itself():
    engine = MUTANTS["mw-lifo"].factory()
    inv = get_ruleset("momon-wonder").invariant("mw.queue-fifo")
    found = find(scenarios("momon-wonder"), lambda s: bool(check_scenario(engine, s, [inv]).violations),
                 settings=settings(max_examples=2000, deadline=None, database=None,
                                   suppress_health_check=list(HealthCheck)))
    assert len(found["objects"]) <= 3, found


def test_bad_arguments_are_refused():
    with pytest.raises(KeyError):
        scenarios("chess")
    with pytest.raises(ValueError):
        scenarios("mtg", edition="1993-08-05")
    with pytest.raises(ValueError):
        scenarios("momon-wonder", options={"sanctioned_play": "yes"})
