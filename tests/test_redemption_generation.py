"""The Redemption scenario generator (issue 10, items 2 and 4): swarm testing reaches every listed situation often
enough with scenarios of the goal's size, a generation profile gives a partial engine only what it can play (and
every rule it can exercise is exercised), and shrinking still switches the swarm's features off."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from reference_engine.kernel.engine import Skipped
from conformance.running.checking import check_scenario
from conformance.running.coverage import goals_met, measure
from reference_engine.redemption import generator as redemption
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ReplaySource, SeededSource
from conformance.running.runner import explore
from conformance.running.session import RunSpec, Session
from conformance.shrinking.shrinker import shrink
from reference_engine.kernel.registry import MUTANTS
from reference_engine.redemption.engines.reference import RedemptionEngine
from reference_engine.kernel.registry import get_ruleset
from reference_engine.redemption.judge.situations import SITUATIONS

EDITION = "reg-glossary"
RULESET = get_ruleset("redemption")
DEFAULTS = {option.name: option.default for option in RULESET.options}


def _config(max_examples: int, seed: int = 0):
    session = Session(RunSpec(ruleset="redemption", max_examples=max_examples, seed=seed, fixtures=False))
    try:
        return session.run_config()
    finally:
        session.close()


# -- Coverage goals ------------------------------------------------------------------------------------------------

def test_the_stream_meets_every_coverage_goal():
    """`trigger-conformance coverage --ruleset redemption --max-examples 1000` on seed 0 (the full count: it takes a
    few seconds on the reference engine): every situation in at least 2% of scenarios, nothing triggering in at
    most 10%, median scenario at least 20 events and 3 levels of nesting."""
    found = measure(RedemptionEngine(), _config(1000), SITUATIONS)
    assert found.played == 1000, found.problems
    assert goals_met(found, SITUATIONS, RULESET.size_goals) == []
    assert statistics.median(found.events) >= RULESET.size_goals.events
    assert statistics.median(found.nesting) >= RULESET.size_goals.nesting


def test_each_scenario_draws_its_own_mix_of_features():
    mixes = []
    for n in range(200):
        builder = redemption._Builder(SeededSource(n), EDITION)
        builder.build()
        mixes.append(frozenset(builder.on))
    assert len(set(mixes)) > 100  # a swarm, not one fixed mix
    for feature in redemption.FEATURES:
        share = sum(feature in mix for mix in mixes) / len(mixes)
        assert 0.2 < share < 0.95, (feature, share)


# -- Profiles ------------------------------------------------------------------------------------------------------

PARTIAL = ("negate", "negate_ability", "set_aside")


def _uses_excluded(scenario: dict[str, Any]) -> str | None:
    """Why an engine without negation and the set-aside area cannot play ``scenario`` (None: it can)."""
    for obj in scenario["objects"]:
        if obj["zone"] == "set_aside":
            return f"{obj['id']} starts set aside"
        for ability in obj.get("abilities", ()):
            if "set_aside" in ability.get("active_in", ()):
                return f"ability {ability['id']} works in the set-aside area"
            if any(a["do"] == "negate" or a.get("to") == "set_aside" for a in ability["effect"]):
                return f"ability {ability['id']} negates or sets aside"
    for step in scenario["script"]:
        for action in step["actions"]:
            if any(a["do"] == "negate" or a.get("to") == "set_aside" for a in action["effect"]):
                return "a scripted action negates or sets aside"
    if any(ability.get("condition", {}).get("zone") == "set_aside"
           for obj in scenario["objects"] for ability in obj.get("abilities", ())):
        return "an 'If X, Y' condition about the set-aside area"
    return None


class PartialEngine(RedemptionEngine):
    """A Redemption engine that has neither negation nor the set-aside area yet: it says so in its profile and
    skips any scenario that needs them."""

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return {"exclude": list(PARTIAL)} if ruleset == "redemption" else None

    def run(self, scenario, chooser):
        reason = _uses_excluded(scenario)
        if reason:
            raise Skipped(f"not supported yet: {reason}")
        return super().run(scenario, chooser)


def _exercised(engine, config) -> dict[str, Any]:
    return explore(engine, config, RULESET.invariants_for(EDITION), stop_when_all_failed=False)


def test_a_partial_engine_skips_nothing_and_every_rule_it_can_play_is_exercised():
    config = _config(300)
    partial = _exercised(PartialEngine(), config)
    assert not any(share.engine_problems for share in partial.values()), {
        key: share.engine_problems for key, share in partial.items() if share.engine_problems}
    assert all(share.failure_index is None for share in partial.values())
    assert all(share.scenarios_run == 300 for share in partial.values())
    exercised = {key for key, share in partial.items() if share.scenarios_exercised}
    # Every rule but the one about negation is exercised without negation and the set-aside area.
    assert exercised == {inv.key for inv in RULESET.invariants_for(EDITION)} - {"red.negation-ends"}
    full = _exercised(RedemptionEngine(), config)
    assert full["red.negation-ends"].scenarios_exercised > 0  # the profile is what keeps it out


def test_without_its_profile_the_partial_engine_would_skip_much():
    config = _config(100)
    engine = PartialEngine()
    engine.generation_profile = lambda ruleset: None
    skipped = _exercised(engine, config)["red.triggers-on-situation"].engine_problems.get("skipped", 0)
    assert skipped > 50


@pytest.mark.parametrize("feature", sorted(redemption.PROFILE_FEATURES))
def test_an_excluded_feature_is_never_built(feature):
    build = builder_for("redemption", {"exclude": [feature]})
    for n in range(150):
        builder = redemption._Builder(SeededSource(n), EDITION, frozenset([feature]))
        builder.build()
        assert feature not in builder.on
        scenario = build(SeededSource(n), EDITION)
        text = repr(scenario)
        if feature == "set_aside":
            assert "set_aside" not in text
        elif feature == "negate":
            assert not any("'do': 'negate'" in part and "'ability'" not in part for part in text.split("}"))
        elif feature == "gain_control":
            assert "gain_control" not in text and "'controller'" not in text
        elif feature == "optional":
            assert "'optional': True" not in text
        elif feature == "ends_if_card_leaves":
            assert "ends_if_card_leaves" not in text
        elif feature == "play":
            assert "'hand'" not in text and "checks_on_play" not in text
        elif feature == "if_x_y":
            assert "checks_on_play" not in text
        elif feature == "several_players":
            assert len(scenario["players"]) == 2
        elif feature == "end_phase":
            assert "end_phase" not in text
        elif feature == "control_triggers":
            assert "'event': 'control'" not in text
        elif feature == "leave_triggers":
            assert "'event': 'leave'" not in text
        elif feature == "discards":
            assert "'do': 'move'" not in text


def test_profiles_read_the_source_the_same_way_and_reject_unknown_features():
    for n in range(50):
        plain, empty = SeededSource(n), SeededSource(n)
        assert redemption.build_scenario(plain, EDITION) == redemption.build_scenario(
            empty, EDITION, profile={"exclude": []})
        assert plain.log == empty.log
    with pytest.raises(ValueError, match="unknown Redemption generation profile features"):
        redemption.build_scenario(SeededSource(0), EDITION, profile={"exclude": ["summon"]})


# -- Shrinking -----------------------------------------------------------------------------------------------------

def _features(log: bytes) -> set[str]:
    return set(redemption._Builder(ReplaySource(log), EDITION).on)


def test_the_feature_draws_come_first_and_zero_is_off():
    assert _features(b"") == set()
    assert _features(bytes(len(redemption.FEATURES))) == set()
    for k, feature in enumerate(redemption.FEATURES):
        log = bytearray(len(redemption.FEATURES))
        log[k] = 99
        expected = {feature} if feature != "if_x_y" else set()  # 'If X, Y' abilities need cards to play
        assert _features(bytes(log)) == expected


@pytest.mark.parametrize("mutant, needed", [
    ("redemption-stack-of-batches", set()),
    ("redemption-negation-ignored", {"negate", "negate_ability"}),
])
def test_shrinking_switches_off_the_features_a_failure_does_not_need(mutant, needed):
    faulty = MUTANTS[mutant]
    inv = RULESET.invariant(faulty.expected_rule_key)
    engine = faulty.factory()

    def fails(document):
        return inv.key in check_scenario(engine, {**document, "options": DEFAULTS}, [inv]).violations

    for n in range(300):
        source = SeededSource(n)
        if fails(redemption.build_scenario(source, EDITION)):
            break
    else:
        pytest.fail(f"{mutant} not caught in 300 scenarios")
    before = _features(source.log)
    shrunk = shrink(redemption.build_scenario, EDITION, source.log, fails, mutant.encode(), None, 10)
    after = _features(shrunk.log)
    assert fails(redemption.build_scenario(ReplaySource(shrunk.log), EDITION))
    assert len(after) <= len(before) // 2, (before, after)  # Hypothesis's shrinker, under a time limit
    if needed:
        assert after & needed
