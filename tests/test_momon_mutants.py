"""The Momon Wonder faulty engines: each names the rule key that must catch it, that key catches it on the generated
scenarios of every seed tried, and the small inputs of issue 9 are fixtures that the reference engine passes and
the corresponding faulty engine fails with the right rule key."""

from __future__ import annotations

import pytest

from conformance.running.checking import check_scenario
from conformance.running.fixtures import check_fixture
from conformance.documents.fixture_files import bundled_fixtures
from conformance.commands.selftest import catch_rate
from reference_engine.momon_wonder.engines.reference import MomonWonderEngine
from reference_engine.kernel.registry import MUTANTS
from reference_engine.momon_wonder.engines.faulty import MUTANTS as MOMON_MUTANTS
from reference_engine.kernel.registry import get_ruleset

RULESET = get_ruleset("momon-wonder")
FIXTURES = {f.id: f for f in bundled_fixtures("momon-wonder")}


def test_mutants_are_registered_with_their_keys():
    keys = {inv.key for inv in RULESET.invariants}
    assert len(MOMON_MUTANTS) >= 15
    for mutant in MOMON_MUTANTS:
        assert MUTANTS[mutant.name] is mutant
        assert mutant.ruleset == "momon-wonder" and mutant.fault
        assert mutant.expected_rule_key in keys, mutant.name
        RULESET.resolve_options(dict(mutant.options))  # options it runs under are real ones


@pytest.mark.parametrize("name", [m.name for m in MOMON_MUTANTS])
def test_mutant_is_caught_by_its_rule_key_on_every_seed_tried(name):
    # The self-check's goal is 19 of 20 seeds within 100 examples; four seeds keep the test quick.
    rate = catch_rate(name, seeds=range(4), max_examples=100)
    assert rate["caught"] == 4, rate


# (fixture, faulty engine, rule key that must catch it on the fixture's scenario)
FIXTURE_CATCHES = [
    ("mw-sbc-defeat-before-next-ability", "mw-lazy-sbc", "mw.sbc-after-completion"),
    ("mw-sbc-defeat-before-next-ability", "mw-late-defeat-triggers", "mw.collect-every-trigger"),
    ("mw-on-summon-before-snatch-check", "mw-snatch-before-drain", "mw.package-completes"),
    ("mw-on-summon-before-snatch-check", "mw-on-summon-chain-deferred", "mw.package-processing-queue"),
    ("mw-on-summon-before-snatch-check", "mw-snatch-check-skipped", "mw.package-completes"),
    ("mw-removal-reasons", "mw-intervening-not-rechecked", "mw.removal-reason"),
    ("mw-removal-reasons", "mw-optional-asked-on-trigger", "mw.removal-reason"),
    ("mw-sbc-after-each-ability", "mw-lazy-sbc", "mw.sbc-after-completion"),
    ("mw-defeat-looks-back", "mw-defeat-no-look-back", "mw.triggers-when-satisfied"),
    ("mw-package-keeps-summon-position", "mw-package-at-front", "mw.package-position"),
    ("mw-no-package-interrupts", "mw-package-during-resolution", "mw.no-package-interrupts"),
    ("mw-deferred-groups-stay-out", "mw-deferred-groups-join", "mw.deferred-groups-stay-out"),
    ("mw-remedy-not-front-casual", "mw-remedy-front-casual", "mw.remedy-front"),
    ("mw-remedy-front-sanctioned", "mw-remedy-back-sanctioned", "mw.remedy-front"),
    ("mw-same-event-active-player-first", "mw-same-event-reversed", "mw.same-event-order"),
    ("mw-sbc-defeats-in-marked-order", "mw-sbc-defeats-reversed", "mw.sbc-defeat-order"),
    ("mw-triggers-during-snatch-check", "mw-no-sbc-after-snatch", "mw.sbc-after-completion"),
    ("mw-empty-before-advance", "mw-advance-with-package-pending", "mw.empty-before-advance"),
    ("mw-once-per-event", "mw-recollect-on-open", "mw.once-per-event"),
    ("mw-one-summon-several-monsters", "mw-summon-one-by-one", "mw.summon-package"),
    ("mw-one-summon-several-monsters", "mw-trigger-per-occurrence", "mw.once-per-event"),
    ("mw-one-summon-several-monsters", "mw-group-judged-in-turn", "mw.triggers-when-satisfied"),
    ("mw-resolve-completely", "mw-sbc-mid-resolution", "mw.no-interruption"),
    ("mw-nested-summon-ordinary-triggers-stay-inside", "mw-on-summon-chain-deferred", "mw.package-processing-queue"),
    ("mw-failed-summon-no-package", "mw-scripted-failed-summon-silent", "mw.resolve-completely"),
]


@pytest.mark.parametrize("fixture_id, name, key", FIXTURE_CATCHES, ids=[f"{c[1]}@{c[0]}" for c in FIXTURE_CATCHES])
def test_fixture_fails_the_faulty_engine_with_the_right_key(fixture_id, name, key):
    fixture = FIXTURES[fixture_id]
    assert check_fixture(MomonWonderEngine(), fixture, RULESET.invariants).status == "passed"
    result = check_scenario(MUTANTS[name].factory(), fixture.scenario, [RULESET.invariant(key)])
    assert result.outcome.status == "trace", result.outcome.message
    assert result.violations.get(key), f"{name} passes {key} on fixture {fixture_id}"


def course(trace) -> list[str]:
    entries = trace["entries"]
    triggers = {e["id"]: e for e in entries if e["kind"] == "trigger"}
    return [f"{triggers[e['trigger']]['ability']}@{triggers[e['trigger']]['source']}"
            for e in entries if e["kind"] == "resolve_begin"]


def test_issue_9_small_inputs_give_the_faulty_orders():
    """The faulty orders issue 9 describes are the ones these engines produce, and they are now caught."""
    lazy = check_scenario(MUTANTS["mw-lazy-sbc"].factory(), FIXTURES["mw-sbc-defeat-before-next-ability"].scenario,
                          RULESET.invariants)
    assert course(lazy.outcome.trace) == ["A1@W", "A2@W", "C@V", "K@M"]
    assert "mw.sbc-after-completion" in lazy.violations
    deferred = check_scenario(MUTANTS["mw-on-summon-chain-deferred"].factory(),
                              FIXTURES["mw-on-summon-before-snatch-check"].scenario, RULESET.invariants)
    assert course(deferred.outcome.trace) == ["O@S", "Z@V", "G@U"]
    assert "mw.package-processing-queue" in deferred.violations
    # Same order of resolutions, but G resolved after the Snatch Check: On Summon processing was cut short.
    early = check_scenario(MUTANTS["mw-snatch-before-drain"].factory(),
                           FIXTURES["mw-on-summon-before-snatch-check"].scenario, RULESET.invariants)
    entries = early.outcome.trace["entries"]
    kinds = [e["kind"] for e in entries]
    g_begins = next(i for i, e in enumerate(entries) if e["kind"] == "resolve_begin" and e["trigger"] == "T2")
    assert kinds.index("snatch_check_end") < g_begins
    assert "mw.package-completes" in early.violations
