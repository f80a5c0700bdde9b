"""The golden Redemption fixtures: each is valid, names real rule keys, is reproduced exactly by the reference engine
and satisfies every invariant (its own rule keys exercised); and the key outcome of each is asserted here by hand."""

from __future__ import annotations

import pytest

from conformance.documents.json_io import problems
from redemption_support import all_fixtures, fixture, judge, prepared, reference_trace
from reference_engine.redemption.judge import REDEMPTION
from reference_engine.kernel.registry import reference_engine_for

FIXTURES = all_fixtures()
KEYS = {inv.key for inv in REDEMPTION.invariants}


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx["id"])
def test_fixture_is_reproduced_and_passes(fx):
    assert fx["format"] == "trigger-conformance/fixture/1"
    assert set(fx["rule_keys"]) <= KEYS
    assert not problems(fx["expected_trace"], "trace")
    scenario = prepared(fx["scenario"])
    assert reference_trace(scenario) == fx["expected_trace"]
    result = judge(scenario, fx["expected_trace"])
    assert not result.violations and not result.check_errors
    assert all(result.exercised[key] > 0 for key in fx["rule_keys"]), result.exercised


def test_bundled_fixtures_load_and_pass_through_the_harness():
    from conformance.running.fixtures import check_fixture
    from conformance.documents.fixture_files import bundled_fixtures

    loaded = bundled_fixtures("redemption")  # validates each against schemas/fixture.schema.json
    assert [f.id for f in loaded] == [fx["id"] for fx in FIXTURES]
    engine = reference_engine_for(REDEMPTION.name)
    for fx in loaded:
        result = check_fixture(engine, fx, REDEMPTION.invariants)
        assert result.status == "passed", (fx.id, result.messages)


def test_every_paragraph_has_a_fixture():
    covered = {REDEMPTION.invariant(k).rule_number(REDEMPTION.default_edition) for fx in FIXTURES for k in fx["rule_keys"]}
    assert covered == {f"TA.{n}" for n in range(1, 7)}


def entries(name):
    return fixture(name)["expected_trace"]["entries"]


def turns(name):
    """Trigger ids (with their ability) in the order they took their turns, and how: resolved or the removal reason."""
    es = entries(name)
    ability = {e["id"]: e["ability"] for e in es if e["kind"] == "trigger"}
    out = []
    for e in es:
        if e["kind"] == "resolve_begin":
            out.append((ability[e["trigger"]], "resolved"))
        elif e["kind"] == "removed":
            out.append((ability[e["trigger"]], e["reason"]))
    return out


def test_ta1_only_the_situation_triggers():
    triggered = [(e["ability"], e["controller"]) for e in entries("ta1-triggers-on-situation") if e["kind"] == "trigger"]
    assert triggered == [("A1", "P1"), ("A4", "P2")]


def test_ta2_if_x_y_completes_or_fails_at_once_and_never_waits():
    es = entries("ta2-if-x-y-checks-on-play")
    activations = [(e["ability"], e["condition_held"]) for e in es if e["kind"] == "activation_begin"]
    assert activations == [("A1", True), ("A2", False)]
    assert not any(e["kind"] == "trigger" and e["ability"] in ("A1", "A2") for e in es)
    last_activation = max(i for i, e in enumerate(es) if e["kind"] == "activation_end")
    first_resolution = min(i for i, e in enumerate(es) if e["kind"] == "resolve_begin")
    assert last_activation < first_resolution
    assert turns("ta2-if-x-y-checks-on-play") == [("A3", "resolved"), ("A4", "resolved")]


def test_ta3_mandatory_whose_card_was_discarded_still_activates():
    es = entries("ta3-mandatory-discarded-still-activates")
    discarded = next(i for i, e in enumerate(es) if e["kind"] == "event" and e.get("to") == "graveyard")
    assert turns("ta3-mandatory-discarded-still-activates") == [("A1", "resolved")]
    assert discarded < next(i for i, e in enumerate(es) if e["kind"] == "resolve_begin")


def test_ta3_optional_whose_card_was_discarded_does_not_activate():
    assert turns("ta3-optional-discarded-does-not-activate") == [("A1", "source_gone")]
    assert not any(e["kind"] == "choice" for e in entries("ta3-optional-discarded-does-not-activate"))


def test_ta3_card_set_aside_keeps_its_optional_trigger():
    assert turns("ta3-optional-set-aside-keeps-trigger") == [("A1", "resolved")]


def test_ta3_optional_needs_its_holder_in_control():
    assert turns("ta3-optional-control-lost") == [("A1", "source_gone")]


def test_ta3_card_that_says_otherwise():
    assert turns("ta3-card-says-otherwise") == [("A1", "card_left"), ("A2", "resolved")]


def test_ta3_negation_ends_a_mandatory_trigger():
    assert turns("ta3-negated-mandatory-ends") == [("A1", "resolved"), ("A2", "negated")]


def test_ta3_triggers_lapsing_together_are_recorded_in_the_order_they_arose():
    """Reference engine fix: simultaneous removals no longer follow the order a player chose for turns never taken
    (the audit compares removal order, and two engines agreeing on the rules must agree on it)."""
    assert turns("ta3-lapse-together-in-arising-order") == [("A1", "resolved"), ("A2", "expired"), ("A3", "expired")]
    chosen = [e["chosen"] for e in entries("ta3-lapse-together-in-arising-order") if e["kind"] == "choice"]
    assert chosen == [["T3", "T2"]]  # P2's chosen order, which the lapse does not follow


def test_ta3_negating_one_ability_ends_only_its_trigger():
    assert turns("ta3-negated-ability-only") == [("A1", "resolved"), ("A2", "negated"), ("A3", "resolved")]


def test_ta3_after_the_phase_under_either_option():
    assert turns("ta3-mandatory-lapses-at-phase-end") == [("A1", "resolved"), ("A2", "expired")]
    assert turns("ta3-mandatory-persists-past-phase") == [("A1", "resolved"), ("A2", "resolved")]
    es = entries("ta3-mandatory-persists-past-phase")
    step_begin_1 = next(i for i, e in enumerate(es) if e["kind"] == "step_begin" and e["step"] == 1)
    a2 = next(e["id"] for e in es if e["kind"] == "trigger" and e["ability"] == "A2")
    assert es.index({"kind": "resolve_begin", "trigger": a2}) > step_begin_1
    skipped = [e for e in entries("ta3-mandatory-lapses-at-phase-end") if e["kind"] == "action_begin"]
    assert [e["action"] for e in skipped] == [[0, 0], [1, 0]]  # the battle phase's second action never happened


@pytest.mark.parametrize("name, order", [
    ("ta4-active-player-first-2p", ["A4", "A3", "A2", "A1"]),
    ("ta4-active-player-first-3p", ["A4", "A3", "A6", "A5", "A2", "A1"]),
    ("ta4-active-player-first-4p", ["A6", "A5", "A8", "A7", "A2", "A1", "A4", "A3"]),
])
def test_ta4_active_player_resolves_all_first_then_turn_order(name, order):
    assert turns(name) == [(a, "resolved") for a in order]


def test_ta5_optional_same_order_each_choosing():
    assert turns("ta5-optional-active-player-first-3p") == [
        ("A6", "declined"), ("A5", "resolved"), ("A2", "resolved"), ("A1", "resolved"), ("A4", "resolved"),
        ("A3", "declined")]


def test_ta6_trigger_arising_during_resolution_waits():
    es = entries("ta6-trigger-during-resolution-waits")
    assert turns("ta6-trigger-during-resolution-waits") == [("A1", "resolved"), ("A2", "resolved"), ("A3", "resolved")]
    a3 = next(i for i, e in enumerate(es) if e["kind"] == "trigger" and e["ability"] == "A3")
    a1_end = next(i for i, e in enumerate(es) if e["kind"] == "resolve_end")
    assert a3 < a1_end  # it arose while A1 resolved, and still waited
    assert turns("ta6-trigger-during-resolution-before-pending") == [
        ("A1", "resolved"), ("A3", "resolved"), ("A2", "resolved")]


def test_ta4_order_holds_for_a_trigger_negated_later():
    """Issue 9, the small input of TA.4: P2 active in the middle seat; P3's trigger goes before P1's and negates it."""
    assert turns("ta4-negated-later-3p") == [("A2", "resolved"), ("A1", "negated")]
    assert turns("ta4-lapsed-later-3p") == [("A2", "resolved"), ("A1", "expired")]
    assert turns("ta5-optional-negated-later-4p") == [("A2", "resolved"), ("A1", "negated")]
    asked = [e["among"] for e in entries("ta5-optional-negated-later-4p") if e["kind"] == "choice"]
    assert asked == [["T2"]]  # P1 is never asked about the negated A1


def test_ta3_optional_trigger_does_not_lapse_at_phase_end():
    assert turns("ta3-optional-does-not-lapse") == [("A1", "resolved"), ("A2", "source_gone")]
    es = entries("ta3-optional-does-not-lapse")
    assert es.index({"kind": "step_begin", "step": 1}) < es.index({"kind": "removed", "trigger": "T2",
                                                                    "reason": "source_gone"})


def test_ta1_control_change_holder_under_either_option():
    def holders(name):
        return [(e["ability"], e["controller"]) for e in entries(name) if e["kind"] == "trigger"]

    assert holders("ta1-control-change-new-controller") == [("A1", "P2"), ("A2", "P2"), ("A3", "P2")]
    assert turns("ta1-control-change-new-controller") == [("A1", "resolved"), ("A2", "resolved"), ("A3", "resolved")]
    assert holders("ta1-control-change-old-controller") == [("A1", "P1"), ("A2", "P1"), ("A3", "P2")]
    assert turns("ta1-control-change-old-controller") == [("A1", "resolved"), ("A2", "source_gone"),
                                                          ("A3", "resolved")]


def test_control_change_fixtures_fail_under_the_other_reading():
    for name, other in (("ta1-control-change-new-controller", "old-controller"),
                        ("ta1-control-change-old-controller", "new-controller")):
        fx = fixture(name)
        result = judge(prepared(fx["scenario"], control_change_holder=other), fx["expected_trace"],
                       "red.triggers-on-situation")
        assert "red.triggers-on-situation" in result.violations, name


# Each faulty engine of reference_engine/redemption/engines/faulty.py fails a golden fixture on its own rule key.
MUTANT_FIXTURES = {
    "redemption-last-step-unplayed": ["ta1-triggers-on-situation"],
    "redemption-inactive-player-first": ["ta4-active-player-first-3p"],
    "redemption-cuts-in": ["ta6-trigger-during-resolution-waits"],
    "redemption-drops-mandatory": ["ta3-mandatory-discarded-still-activates"],
    "redemption-optional-after-discard": ["ta3-optional-discarded-does-not-activate"],
    "redemption-seat-order": ["ta4-negated-later-3p", "ta4-lapsed-later-3p", "ta4-active-player-first-4p",
                              ("ta5-optional-negated-later-4p", "red.optional-active-player-first")],
    "redemption-negation-ignored": ["ta3-negated-mandatory-ends", "ta4-negated-later-3p"],
    "redemption-negation-misses-free-batch": ["ta3-negated-mandatory-ends", "ta4-negated-later-3p"],
    "redemption-lazy-negation": ["ta3-negated-mandatory-ends", "ta4-negated-later-3p"],
    "redemption-lapse-ignored": ["ta3-mandatory-lapses-at-phase-end", "ta4-lapsed-later-3p"],
    "redemption-lapses-optional": ["ta3-optional-does-not-lapse"],
    "redemption-optional-asked-early": ["ta5-optional-active-player-first-3p", "ta3-optional-set-aside-keeps-trigger"],
    "redemption-mandatory-asked": ["ta4-active-player-first-2p"],
    "redemption-if-x-y-pending": ["ta2-if-x-y-checks-on-play"],
    "redemption-triggers-before-on-play": ["ta2-if-x-y-checks-on-play"],
    "redemption-set-aside-dropped": ["ta3-optional-set-aside-keeps-trigger"],
    "redemption-control-change-ignored": ["ta1-control-change-new-controller"],
    "redemption-control-holder-looks-back": ["ta1-control-change-new-controller"],
    "redemption-phase-ends-late": ["ta3-mandatory-lapses-at-phase-end"],
    "redemption-foreign-removal-reason": ["ta3-optional-discarded-does-not-activate", "ta3-optional-control-lost"],
    "redemption-stack-of-batches": ["ta6-trigger-during-resolution-waits"],
    "redemption-card-says-otherwise-ignored": ["ta3-card-says-otherwise"],
    "redemption-negates-whole-card": ["ta3-negated-ability-only"],
}


def test_every_redemption_mutant_has_fixtures():
    from reference_engine.kernel.registry import MUTANTS

    assert set(MUTANT_FIXTURES) == {n for n, m in MUTANTS.items() if m.ruleset == "redemption"}


@pytest.mark.parametrize("name, fixture_id", [(n, f) for n, fs in MUTANT_FIXTURES.items() for f in fs], ids=str)
def test_mutant_fails_the_fixture_on_its_key(name, fixture_id):
    """(A fixture given as (id, key) fails on that key: the same fault seen by the optional twin of its rule.)"""
    from conformance.running.checking import check_scenario
    from reference_engine.kernel.registry import MUTANTS

    mutant = MUTANTS[name]
    fixture_id, key = fixture_id if isinstance(fixture_id, tuple) else (fixture_id, mutant.expected_rule_key)
    scenario = prepared(fixture(fixture_id)["scenario"], **dict(mutant.options))
    result = check_scenario(mutant.factory(), scenario, REDEMPTION.invariants)
    assert result.outcome.status == "trace", result.outcome.message
    assert key in result.violations, (result.violations, result.check_errors)
