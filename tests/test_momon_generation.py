"""The Momon Wonder generator (issue 10, items 2 and 4): swarm testing, the coverage goals, generation profiles, and
shrinking that turns features off.

The coverage test plays the whole 1,000 scenarios of seed 0 that ``trigger-conformance coverage --ruleset
momon-wonder --max-examples 1000`` plays (the reference engine only, no invariants: a few seconds).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

import pytest

from reference_engine.kernel.engine import Skipped
from conformance.running.checking import play
from conformance.running.coverage import measure
from reference_engine.momon_wonder import generator as momon_wonder
from reference_engine.momon_wonder.generator import FEATURES, PROFILE_FEATURES, build_scenario
from reference_engine.kernel.source import ReplaySource, SeededSource
from conformance.running.runner import RunConfig, prepare_generated
from conformance.generation.stream import explorable_options
from conformance.running.session import RunSpec, Session
from conformance.shrinking.shrinker import shrink
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")
ENGINE = MomonWonderEngine()


def _actions(effect: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for action in effect:
        yield action
        yield from _actions(action.get("snatch_check", ()))


def actions(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action of a scenario: scripted, in abilities' effects and in Snatch Checks."""
    found = [a for step in document["script"] for act in step["actions"] for a in _actions(act["effect"])]
    for obj in document["objects"]:
        for ability in obj.get("abilities", ()):
            found += list(_actions(ability["effect"]))
    return found


def abilities(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [ab for obj in document["objects"] for ab in obj.get("abilities", ())]


def uses(document: dict[str, Any]) -> set[str]:
    """The features of :data:`FEATURES` a scenario document shows (read from the document, not the builder)."""
    acts, abs_ = actions(document), abilities(document)
    triggers = {ab["trigger"]["event"] for ab in abs_}
    shown = set()
    if any(a["do"] == "signal" for a in acts) or "signal" in triggers:
        shown.add("signal")
    if any(a["do"] == "summon" and a["succeeds"] for a in acts) or "summon" in triggers:
        shown.add("summon")
    if any(a["do"] == "summon" and a.get("also") for a in acts):
        shown.add("several_monsters")
    if any(a["do"] == "summon" and not a["succeeds"] for a in acts) or "summon_failed" in triggers:
        shown.add("failed_summon")
    if any(a["do"] == "summon" and a.get("snatch_check") for a in acts):
        shown.add("snatch_check")
    if any(a["do"] == "mark_defeat" for a in acts) or "defeated" in triggers:
        shown.add("mark_defeat")
    if any(a["do"] == "move" for a in acts) or "leave" in triggers:
        shown.add("move")
    if any(a["do"] == "remedy_missed_trigger" for a in acts):
        shown.add("remedy")
    if any(ab.get("optional") for ab in abs_):
        shown.add("optional")
    if any(ab.get("intervening_if") for ab in abs_):
        shown.add("intervening_if")
    if len(document["players"]) > 1:
        shown.add("several_players")
    return shown


def config(max_examples: int = 1000, seed: int = 0) -> RunConfig:
    return RunConfig(ruleset=RULESET, edition="1.0.0", options=RULESET.resolve_options({}), max_examples=max_examples,
                     seed=seed, explored_options=explorable_options(RULESET, {}))


# -- Coverage goals (the goals themselves are checked for every ruleset in tests/test_coverage.py) -------------


def test_every_situation_of_the_vocabulary_is_reached():
    names = {s.name for s in RULESET.situations}
    assert {"remedy-in-ability", "summon-several", "summon-in-resolution", "summon-failed-triggers",
            "leave-triggers", "order-choice", "remedy-front"} <= names
    found = measure(ENGINE, config(300, seed=1), RULESET.situations)
    assert [s.name for s in RULESET.situations if s.goal == "at-least" and not found.situations[s.name]] == []


# -- Swarm testing ----------------------------------------------------------------------------------------------


def test_each_scenario_draws_its_own_subset_of_features():
    shown = [frozenset(uses(build_scenario(SeededSource(seed)))) for seed in range(300)]
    per_feature = Counter(f for s in shown for f in s)
    for feature in FEATURES:
        assert 0 < per_feature[feature] < 300, (feature, per_feature[feature])
    assert len(set(shown)) >= 50  # many different mixes, not one fixed mix


def test_the_feature_draws_come_first_and_zero_turns_a_feature_off():
    for feature in FEATURES:
        alone = [0] * len(FEATURES)
        alone[list(FEATURES).index(feature)] = 99
        builder = momon_wonder._Builder(ReplaySource(alone), "1.0.0")
        expected = {feature} if feature not in ("several_monsters", "snatch_check") else set()
        if not expected & {"signal", "summon", "failed_summon", "move", "mark_defeat"}:
            expected.add("signal")  # a scenario always has something to happen: the simplest feature
        assert builder.on == expected, feature
    assert momon_wonder._Builder(ReplaySource([]), "1.0.0").on == {"signal"}
    simplest = build_scenario(ReplaySource([]))
    assert uses(simplest) == {"signal"} and len(simplest["objects"]) == 1


def _shrunk_features(fails) -> tuple[frozenset[str], frozenset[str], bytes]:
    """Shrink the first scenario of the seeded sources with six or more features that ``fails``: the features on
    before and after, and the shrunk log."""
    source = next(s for s in (SeededSource(seed) for seed in range(200))
                  if fails(build_scenario(s)) and len(momon_wonder._Builder(ReplaySource(s.log), "1.0.0").on) >= 6)
    shrunk = shrink(build_scenario, "1.0.0", source.log, fails, b"test-momon-generation", seconds=20)
    assert fails(shrunk.document)
    before = momon_wonder._Builder(ReplaySource(source.log), "1.0.0").on
    return before, momon_wonder._Builder(ReplaySource(shrunk.log), "1.0.0").on, shrunk.log


def test_shrinking_turns_the_features_a_failure_does_not_need_off():
    before, after, log = _shrunk_features(lambda document: len(document["players"]) >= 2)
    assert len(before) >= 6
    # Every draw but the one the failure needs went to 0: off ("signal" is the fallback of a scenario without events).
    assert after == {"several_players", "signal"}
    assert [n for n, answer in enumerate(log[:len(FEATURES)]) if answer] == [list(FEATURES).index("several_players")]


def test_shrinking_a_summon_failure_keeps_only_what_a_summon_needs():
    def fails(document: dict[str, Any]) -> bool:  # "the reference engine performs a successful Summon"
        scenario = {**document, "options": RULESET.resolve_options({})}
        return any(e["kind"] == "event" and e["type"] == "summon" for e in play(ENGINE, scenario).trace["entries"])

    before, after, _ = _shrunk_features(fails)
    assert len(before) >= 6 and "summon" in after
    # The shrinker may stop with "signal" still drawn (turning it off moves the later answers), nothing else.
    assert after <= {"summon", "signal"}


# -- Profiles ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_a_profile_keeps_an_excluded_feature_out_of_every_scenario(feature):
    profile = {"exclude": [feature]}
    implied = {"summon": {"several_monsters", "snatch_check"}}.get(feature, set())
    for seed in range(150):
        document = build_scenario(SeededSource(seed), profile=profile)
        assert not uses(document) & ({feature} | implied), (seed, feature)
        if feature == "failed_summon":  # no Summon fails, though Summons are made
            scenario = prepare_generated(config(), {**document, "options": RULESET.resolve_options({})})
            events = [e for e in play(ENGINE, scenario).trace["entries"] if e["kind"] == "event"]
            assert not any(e["type"] == "summon_failed" for e in events), seed


def test_an_unknown_profile_feature_is_refused():
    with pytest.raises(ValueError, match="unknown Momon Wonder generation profile features"):
        build_scenario(SeededSource(0), profile={"exclude": ["summons"]})
    assert PROFILE_FEATURES == frozenset(FEATURES) | {"zone_tour"}  # zone_tour: profile-only, never swarmed


SIGNALS_ONLY = ["summon", "failed_summon", "several_monsters", "snatch_check"]


class SignalsOnlyEngine(MomonWonderEngine):
    """A partial engine: it plays signals, marks, moves, the remedy and optional and intervening abilities, but not
    yet Effect-Based Summons, and says so in its generation profile."""

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return {"exclude": SIGNALS_ONLY}

    def run(self, scenario, chooser):
        if any(a["do"] == "summon" for a in actions(scenario)) or any(
                ab["trigger"]["event"] in ("summon", "summon_failed") for ab in abilities(scenario)):
            raise Skipped("Effect-Based Summons are not supported yet")
        return super().run(scenario, chooser)


class SignalsOnlyWithoutProfile(SignalsOnlyEngine):
    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return None


# Rules whose situations need a Summon (a package, its processing, a failed Summon).
PACKAGE_RULES = {"mw.summon-package", "mw.package-position", "mw.package-completes", "mw.processing-queue-distinct",
                 "mw.no-package-interrupts", "mw.package-processing-queue", "mw.nested-package-deferred",
                 "mw.deferred-groups-stay-out"}


def _run(engine_class: type) -> dict[str, dict[str, Any]]:
    session = Session(RunSpec(ruleset="momon-wonder", engine=f"{__name__}:{engine_class.__name__}",
                              max_examples=100, seed=0, fixtures=False))
    try:
        return {key: session.check_rule(key) for key in session.rule_keys()}
    finally:
        session.close()


def test_a_signals_only_engine_gets_every_rule_it_can_play_exercised_and_nothing_skipped():
    entries = _run(SignalsOnlyEngine)
    assert all(e.get("engine_problems", {}).get("skipped", 0) == 0 for e in entries.values())
    assert all(e["status"] in ("passed", "unexercised") for e in entries.values())
    exercised = {key for key, e in entries.items() if e["status"] == "passed" and e["scenarios_exercised"] > 0}
    assert exercised == set(entries) - PACKAGE_RULES, sorted(set(entries) - exercised)
    # Without its profile, the same engine skips most of the stream: the profile is what gets it checked.
    without = _run(SignalsOnlyWithoutProfile)
    assert all(e.get("engine_problems", {}).get("skipped", 0) >= 50 for e in without.values())


def test_on_a_slow_engine_hypothesis_stops_after_a_count_of_plays_not_wherever_the_clock_cut_it():
    """patience = (tries, seconds per play, plays): an engine at least that slow (here: 0 seconds, so every engine)
    gets at most ``plays`` plays of Hypothesis's shrinker, the same on every machine; without patience it goes on
    finding smaller failures (many more plays), within the time budget."""
    source = next(s for s in (SeededSource(seed) for seed in range(200))
                  if len(build_scenario(s)["players"]) >= 2 and len(s.log) > 20)
    plays = [0]

    def fails(document: dict[str, Any]) -> bool:
        plays[0] += 1
        return len(document["players"]) >= 2

    cut = shrink(build_scenario, "1.0.0", source.log, fails, b"t-slow", seconds=20, patience=(50, 0.0, 10),
                 replay=lambda document: True)
    assert plays[0] == 10 and fails(cut.document) and len(cut.log) <= len(source.log)
    plays[0] = 0
    shrink(build_scenario, "1.0.0", source.log, fails, b"t-fast", seconds=20, replay=lambda document: True)
    assert plays[0] > 10
