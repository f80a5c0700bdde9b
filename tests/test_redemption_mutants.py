"""Each faulty Redemption engine fails on its expected rule key, on generated scenarios and through the runner with
a shrunk counterexample."""

from __future__ import annotations

import pytest

from quick_sample import first_quick

from conformance.running.checking import check_scenario
from reference_engine.redemption.generator import build_scenario
from reference_engine.kernel.source import SeededSource
from conformance.running.concluding import check_rule
from conformance.running.runner import RunConfig
from redemption_support import EDITION, prepared
from reference_engine.kernel.registry import MUTANTS
from reference_engine.redemption.judge import REDEMPTION
from reference_engine.kernel.registry import reference_engine_for

REDEMPTION_MUTANTS = [m for m in MUTANTS.values() if m.ruleset == "redemption"]


def test_the_faults_are_registered_each_with_a_real_rule_key():
    assert len(REDEMPTION_MUTANTS) >= 10
    keys = {inv.key for inv in REDEMPTION.invariants}
    for m in REDEMPTION_MUTANTS:
        assert m.expected_rule_key in keys, m.name
        assert m.expected_rule_key in m.factory.__doc__, m.name
    assert {"redemption-inactive-player-first", "redemption-cuts-in", "redemption-drops-mandatory",
            "redemption-optional-after-discard", "redemption-seat-order", "redemption-negation-ignored",
            "redemption-lapse-ignored", "redemption-optional-asked-early", "redemption-mandatory-asked",
            "redemption-if-x-y-pending", "redemption-set-aside-dropped", "redemption-control-change-ignored",
            } <= {m.name for m in REDEMPTION_MUTANTS}


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("mutant", REDEMPTION_MUTANTS, ids=lambda m: m.name)
def test_mutant_caught_on_its_key_by_generated_scenarios(mutant):
    engine = mutant.factory()
    caught = 0
    for seed in range(200):
        scenario = prepared(build_scenario(SeededSource(seed), EDITION), **dict(mutant.options))
        result = check_scenario(engine, scenario, REDEMPTION.invariants)
        assert result.outcome.status == "trace"
        caught += mutant.expected_rule_key in result.violations
    assert caught >= 5


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("mutant", first_quick(REDEMPTION_MUTANTS, ids=lambda m: m.name))  # one quick, the rest slow
def test_mutant_fails_through_the_runner_with_a_shrunk_counterexample(mutant):
    config = RunConfig(REDEMPTION, mutant.edition, REDEMPTION.resolve_options(dict(mutant.options)), max_examples=500)
    result = check_rule(mutant.factory(), reference_engine_for(REDEMPTION.name), config, REDEMPTION.invariant(mutant.expected_rule_key))
    assert result.status == "failed"
    failure = result.failure
    assert failure.messages and failure.messages[0].startswith("[TA.")
    assert failure.shrunk_size <= failure.original_size
    # Shrinking has a time budget (conformance/shrinking/shrinker.py); under load a mutant may stop short of the minimum,
    # but its counterexample stays small enough to read.
    assert failure.shrunk_size <= 25, failure.scenario
    assert failure.determinism == "deterministic"
    assert failure.expected_trace is not None and failure.expected_trace != failure.actual_trace


def test_reference_passes_every_rule_through_the_runner():
    config = RunConfig(REDEMPTION, EDITION, REDEMPTION.resolve_options({}), max_examples=200)
    reference = reference_engine_for(REDEMPTION.name)
    for inv in REDEMPTION.invariants:
        result = check_rule(reference, reference, config, inv)
        assert result.status == "passed", (inv.key, result.status, result.first_problem, result.check_error)
