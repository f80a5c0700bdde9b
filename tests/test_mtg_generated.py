"""The reference engine obeys every MTG invariant on generated scenarios, in both editions, and every rule key is
exercised; the generator is deterministic and its scenarios valid."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.running.checking import check_scenario
from reference_engine.mtg.generator import build_scenario
from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ReplaySource, SeededSource
from conformance.documents.scenarios import prepare_scenario
from reference_engine.mtg.judge import MTG
from reference_engine.mtg.engines.reference import MtgEngine

SEEDS = range(300)


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("edition", MTG.editions)
def test_reference_engine_obeys_every_invariant_on_generated_scenarios(edition):
    invariants = MTG.invariants_for(edition)
    exercised: Counter = Counter()
    for seed in SEEDS:
        _, prepared = prepare_scenario(build_scenario(SeededSource(seed), edition), f"seed {seed}")
        result = check_scenario(MtgEngine(), prepared, invariants)
        assert result.outcome.status == "trace", (seed, result.outcome.message, result.outcome.context)
        assert not result.check_errors, (seed, result.check_errors)
        assert result.violations == {}, (seed, result.violations)
        exercised.update(k for k, n in result.exercised.items() if n > 0)
    assert {inv.key for inv in invariants} == set(exercised), "never exercised: " + ", ".join(
        sorted({inv.key for inv in invariants} - set(exercised)))


def test_generation_is_deterministic_and_replayable():
    source = SeededSource(7)
    first = build_scenario(source, "2026-02-27")
    assert build_scenario(SeededSource(7), "2026-02-27") == first
    assert build_scenario(ReplaySource(source.log), "2026-02-27") == first
    assert builder_for("mtg") is build_scenario


def test_simplest_answers_give_a_small_valid_scenario():
    document = build_scenario(ReplaySource([]), "2021-02-24")
    _, prepared = prepare_scenario(document, "zeros")
    assert len(prepared["players"]) == 2
    result = check_scenario(MtgEngine(), prepared, MTG.invariants_for("2021-02-24"))
    assert result.outcome.status == "trace" and result.violations == {}


def test_generated_scenarios_cover_the_issue_features():
    seen: Counter = Counter()
    for seed in range(200):
        document = build_scenario(SeededSource(seed), "2026-02-27")
        text = repr(document)
        seen["players-%d" % len(document["players"])] += 1
        seen["active-not-first"] += document["active_player"] != document["players"][0]
        for feature in ("ability_triggered", "'state'", "create_delayed", "reflexive", "intervening_if", "optional",
                        "move_together", "concede", "prevented", "gain_control", "dies_when", "target"):
            seen[feature] += feature in text
    for players in (2, 3, 4):
        assert seen[f"players-{players}"] > 10
    assert all(seen[f] > 5 for f in seen), seen
