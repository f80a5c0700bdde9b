"""The Momon Wonder reference engine satisfies every invariant on generated scenarios, under every option value,
and the generator exercises every rule key."""

from __future__ import annotations

from collections import Counter

import pytest

from conformance.running.checking import check_scenario
from conformance.documents.json_io import problems
from reference_engine.momon_wonder.generator import build_scenario
from reference_engine.kernel.source import ReplaySource, SeededSource
from conformance.documents.scenarios import prepare_scenario
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")
ENGINE = MomonWonderEngine()


def checked(seed: int, options: dict | None = None):
    document = build_scenario(SeededSource(seed))
    if options:
        document["options"] = options
    _, scenario = prepare_scenario(document, f"seed {seed}")
    return check_scenario(ENGINE, scenario, RULESET.invariants)


def test_reference_engine_satisfies_every_invariant_and_exercises_each():
    exercised = Counter()
    for seed in range(400):
        result = checked(seed)
        assert result.outcome.status == "trace", result.outcome.message
        assert not result.violations, (seed, result.violations)
        assert not result.check_errors, (seed, result.check_errors)
        exercised.update(key for key, n in result.exercised.items() if n)
    assert set(exercised) == {inv.key for inv in RULESET.invariants}


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("option", RULESET.options, ids=lambda o: o.name)
def test_reference_engine_satisfies_every_invariant_under_each_option_value(option):
    for value in option.values:
        for seed in range(60):
            result = checked(seed, {option.name: value})
            assert result.outcome.status == "trace", result.outcome.message
            assert not result.violations, (option.name, value, seed, result.violations)


def test_generated_scenarios_are_valid_documents():
    for seed in range(200):
        assert problems(build_scenario(SeededSource(seed)), "scenario") == []


def test_generation_is_deterministic_and_replayable():
    source = SeededSource(7)
    document = build_scenario(source)
    assert build_scenario(SeededSource(7)) == document
    assert build_scenario(ReplaySource(source.log)) == document


def test_simplest_answers_give_a_small_scenario():
    document = build_scenario(ReplaySource([]))
    assert len(document["players"]) == 1 and len(document["objects"]) == 1
    assert len(document["script"]) == 1 and len(document["script"][0]["actions"]) == 1


def test_generator_reaches_deep_nesting_failed_summons_and_many_players():
    depth = Counter()
    features = Counter()
    for seed in range(400):
        document = build_scenario(SeededSource(seed))
        result = checked(seed)
        entries = result.outcome.trace["entries"]
        features["players>=3"] += len(document["players"]) >= 3
        features["failed summon"] += any(e["kind"] == "event" and e["type"] == "summon_failed" for e in entries)
        features["snatch trigger"] += any(e["kind"] == "event" and "snatch_check" in e["cause"]
                                          and any(t.get("event") == e["id"] for t in entries if t["kind"] == "trigger")
                                          for e in entries)
        features["several triggers on one event"] += any(
            n > 1 for n in Counter(e["event"] for e in entries if e["kind"] == "trigger").values())
        opened = nesting = 0
        for e in entries:  # packages are processed one after another; count summons made inside a package
            if e["kind"] == "package_open":
                opened += 1
        chain = {}
        for e in entries:
            if e["kind"] == "package_create":
                chain[e["package"]] = e["event"]
        by_event = {e["id"]: e for e in entries if e["kind"] == "event"}
        by_trigger = {e["id"]: e for e in entries if e["kind"] == "trigger"}

        def level(event_id, seen=0):
            cause = by_event[event_id]["cause"]
            if "resolution" in cause and by_trigger[cause["resolution"]]["event"]:
                parent = by_event[by_trigger[cause["resolution"]]["event"]]
                return level(parent["id"], seen) + (1 if parent["type"] == "summon" else 0)
            return 1

        nesting = max((level(ev) for ev in chain.values()), default=0)
        depth[min(nesting, 3)] += 1
    assert depth[3] > 0, depth  # On Summon triggers causing Summons three levels deep
    assert all(features[f] > 0 for f in ("players>=3", "failed summon", "snatch trigger",
                                           "several triggers on one event")), features


def test_generator_builds_summons_of_several_monsters_that_become_one_grouped_event():
    grouped = 0
    for seed in range(200):
        result = checked(seed)
        events = [e for e in result.outcome.trace["entries"] if e["kind"] == "event" and e.get("group")]
        if events:
            grouped += 1
            for group in {e["group"] for e in events}:
                members = [e for e in events if e["group"] == group]
                assert len(members) >= 2 and {e["type"] for e in members} == {"summon"}
    assert grouped >= 10
