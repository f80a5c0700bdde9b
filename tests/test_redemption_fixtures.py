"""The golden Redemption fixtures: each is valid, names real rule keys, is reproduced exactly by the reference engine
and satisfies every invariant (its own rule keys exercised); and the key outcome of each is asserted here by hand."""

from __future__ import annotations

import pytest

from conformance.documents import problems
from redemption_support import all_fixtures, fixture, judge, prepared, reference_trace
from reference_engine.rulesets.redemption import REDEMPTION
from reference_engine.engines import reference_engine_for

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
    from conformance.fixtures import bundled_fixtures, check_fixture

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
