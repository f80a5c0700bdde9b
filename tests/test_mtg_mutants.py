"""Each MTG faulty engine fails on the rule key that must catch it, with a shrunk counterexample found through
the runner; and the single-pass engine is right under the 2021-02-24 edition it follows."""

from __future__ import annotations

import pytest

from quick_sample import first_quick

from conformance.running.checking import check_scenario
from reference_engine.mtg.generator import build_scenario
from reference_engine.kernel.source import SeededSource
from conformance.running.concluding import check_rule
from conformance.running.runner import RunConfig
from conformance.documents.scenarios import prepare_scenario
from reference_engine.mtg.judge import MTG
from reference_engine.kernel.registry import MUTANTS
from reference_engine.mtg.engines.faulty import MUTANTS as MTG_MUTANTS, SinglePassGame, _engine
from reference_engine.kernel.registry import reference_engine_for

NAMES = [m.name for m in MTG_MUTANTS]


def test_mutants_are_registered_with_their_keys():
    keys = {inv.key for inv in MTG.invariants}
    for mutant in MTG_MUTANTS:
        assert MUTANTS[mutant.name] is mutant
        assert mutant.expected_rule_key in keys and mutant.fault
        assert mutant.expected_rule_key in mutant.fault  # the docstring names the key that catches it
    assert len(NAMES) >= 16


@pytest.mark.sampled_nightly  # one slow case in four in .ci/run, all nightly (15 minutes)
@pytest.mark.parametrize("name", first_quick(NAMES))  # one quick, the others in the slow set
def test_mutant_fails_on_its_rule_key_with_a_shrunk_counterexample(name):
    mutant = MUTANTS[name]
    config = RunConfig(MTG, mutant.edition, MTG.resolve_options(dict(mutant.options)), max_examples=200, seed=0,
                       engine_name=f"mutant:{name}")
    result = check_rule(mutant.factory(), reference_engine_for(MTG.name), config, MTG.invariant(mutant.expected_rule_key))
    assert result.status == "failed", (result.status, result.first_problem, result.check_error)
    failure = result.failure
    assert failure.messages and failure.shrunk_size <= failure.original_size
    assert failure.expected_trace is not None and failure.actual_trace != failure.expected_trace
    # the shrunk scenario still breaks the rule, and the reference engine passes it
    _, prepared = prepare_scenario(failure.scenario, "shrunk")
    invariant = MTG.invariant(mutant.expected_rule_key)
    assert check_scenario(mutant.factory(), prepared, [invariant]).violations
    assert check_scenario(reference_engine_for(MTG.name), prepared, MTG.invariants_for(mutant.edition)).violations == {}


def test_single_pass_engine_is_right_under_the_2021_edition():
    engine = _engine("single-pass-2021", SinglePassGame, "")()
    for seed in range(150):
        _, prepared = prepare_scenario(build_scenario(SeededSource(seed), "2021-02-24"), f"seed {seed}")
        result = check_scenario(engine, prepared, MTG.invariants_for("2021-02-24"))
        assert result.violations == {}, (seed, result.violations)


# Each fixture of issue 9's reference-engine fixes: the reference engine passes it (tests/test_mtg_fixtures.py), and
# the faulty engine for that fix fails it on the named rule key.
FIXTURE_MUTANTS = [
    ("mtg-ref-603-3b-resolution-and-sba-batch-3p", "mtg-split-batch"),
    ("mtg-ref-603-3b-resolution-and-sba-batch-3p", "mtg-late-sba"),
    ("mtg-ref-603-4-delayed-intervening-if", "mtg-delayed-if-ignored"),
    ("mtg-ref-603-4-state-trigger-intervening-if", "mtg-state-if-ignored"),
    ("mtg-ref-603-10-leaves-intervening-if-looks-back", "mtg-leaves-if-forward"),
    ("mtg-ref-603-10a-graveyard-leaving-looks-back", "mtg-no-graveyard-look-back"),
    ("mtg-ref-603-10a-put-into-hand-looks-back", "mtg-no-graveyard-look-back"),
    ("mtg-ref-800-4a-leaves-at-once", "mtg-departed-kept"),
    ("mtg-ref-104-4b-state-trigger-without-target", "mtg-no-target-kept"),
    ("mtg-ref-104-4b-state-trigger-without-target", "mtg-target-on-resolution"),
    ("mtg-ref-603-3a-control-ends-off-the-battlefield", "mtg-control-outlives-the-battlefield"),
    # issue 12, item 1: the wider vocabulary
    ("mtg-vocab-115-1-target-player-leaves", "mtg-departed-target-kept"),
    ("mtg-vocab-filters-you-opponent-type-token", "mtg-filter-you-is-active-player"),
    ("mtg-vocab-603-10a-zone-changes-anywhere", "mtg-zone-change-off-battlefield-only"),
    ("mtg-vocab-603-2c-one-or-more-enter", "mtg-each-of-one-or-more"),
    ("mtg-vocab-603-2d-additional-times", "mtg-no-additional-triggers"),
    ("mtg-vocab-603-2h-once-each-turn", "mtg-once-each-turn-ignored"),
    ("mtg-vocab-603-2-ability-resolves", "mtg-no-resolved-event"),
    ("mtg-vocab-603-7b-durations-across-turns", "mtg-this-turn-outlives-the-turn"),
    ("mtg-vocab-608-2b-spells-on-the-stack", "mtg-spell-target-unchecked"),
    ("mtg-vocab-608-2b-spells-on-the-stack", "mtg-spell-resolves-at-once"),
    # issue 22, item 1: new words
    ("mtg-vocab-108-3-ownership-filters", "mtg-owner-is-controller"),
    ("mtg-vocab-608-2-that-many", "mtg-that-many-is-printed"),
    ("mtg-vocab-400-7-triggers-once-each-turn", "mtg-triggers-once-read-as-do-once"),
    # issue 31: more words
    ("mtg-vocab-603-7d-spell-creates-delayed", "mtg-spell-delayed-dropped"),
    ("mtg-vocab-120-3-dealt-damage", "mtg-dealt-read-as-deals"),
    ("mtg-vocab-603-2c-damage-occurrences", "mtg-damage-event-once"),
    ("mtg-vocab-603-6a-token-enters", "mtg-token-enters-silently"),
    ("mtg-vocab-602-2-sacrifice-cost-triggers", "mtg-cost-triggers-below"),
    ("mtg-vocab-510-2-combat-damage", "mtg-combat-read-as-any-damage"),
    ("mtg-vocab-608-2-that-player", "mtg-that-player-unresolved"),
    # issue 22, item 2: the two readings fixed
    ("mtg-ref-603-6c-from-anywhere-dies-together", "mtg-anywhere-looks-back"),
    ("mtg-ref-603-10a-exiled-from-anywhere-out-of-a-graveyard", "mtg-anywhere-looks-back"),
    ("mtg-ref-603-4-felidar-stolen-on-the-stack", "mtg-if-you-is-source-controller"),
    ("mtg-ref-603-4-you-is-the-thief-and-the-creator", "mtg-if-you-is-source-controller"),
    # issue 22, item 3: triggers announced late
    ("mtg-ref-603-2-triggers-as-each-event-happens", "mtg-batched-trigger-checks"),
]


@pytest.mark.parametrize("fixture_id,name", FIXTURE_MUTANTS, ids=lambda x: x)
def test_fixture_fails_on_its_faulty_engine_with_the_right_key(fixture_id, name):
    from mtg_support import fixture

    prepared, expected = fixture(fixture_id)
    mutant = MUTANTS[name]
    reference = check_scenario(reference_engine_for(MTG.name), prepared, MTG.invariants_for(prepared["edition"]))
    assert reference.violations == {}
    faulty = check_scenario(mutant.factory(), prepared, MTG.invariants_for(prepared["edition"]))
    assert mutant.expected_rule_key in faulty.violations, (faulty.outcome.status, faulty.violations)
    assert faulty.outcome.trace != expected


@pytest.mark.parametrize("name", NAMES)
def test_mutant_differs_from_the_reference_engine(name):
    """Each fault shows: on some generated scenario the faulty engine's trace differs from the reference's."""
    from reference_engine.kernel.choices import ScenarioChooser

    mutant, reference = MUTANTS[name].factory(), reference_engine_for(MTG.name)
    for seed in range(300):
        _, prepared = prepare_scenario(build_scenario(SeededSource(seed), MUTANTS[name].edition), f"seed {seed}")
        if mutant.run(prepared, ScenarioChooser(prepared)) != reference.run(prepared, ScenarioChooser(prepared)):
            return
    pytest.fail(f"{name} played 300 generated scenarios exactly like the reference engine")
