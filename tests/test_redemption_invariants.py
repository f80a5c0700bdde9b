"""Every Redemption invariant rejects traces that break it, so none passes vacuously.

Each test starts from a golden fixture's trace (which every invariant accepts, see test_redemption_fixtures.py),
edits it minimally so that it breaks one rule, and checks that the rule's invariant names the fault.
"""

from __future__ import annotations

import pytest

from redemption_support import Surgery, asked, fixture, judge, prepared, removed, resolve
from reference_engine.redemption.judge import REDEMPTION


def breaks(scenario, surgery: Surgery, key: str, *words: str) -> list[str]:
    result = judge(scenario, surgery.trace(), key)
    assert result.outcome.status == "trace", result.outcome.message  # a rule violation, not an unreadable trace
    assert key in result.violations, f"{key} accepted the broken trace"
    text = " ".join(result.violations[key])
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"
    return result.violations[key]


def case(name: str, **options):
    fx = fixture(name)
    return prepared(fx["scenario"], **options), Surgery(fx["expected_trace"])


def test_every_invariant_has_a_breaking_test():
    source = open(__file__, encoding="utf-8").read()
    missing = [inv.key for inv in REDEMPTION.invariants if f'"{inv.key}"' not in source]
    assert not missing


# -- TA.1 ----------------------------------------------------------------------------------------------------------

def test_triggers_on_situation_missing_trigger():
    scenario, s = case("ta1-triggers-on-situation")
    first, last = s.resolution("T2")
    s.cut(first, last)
    del s.entries[s.index(kind="trigger", id="T2")]
    breaks(scenario, s, "red.triggers-on-situation", "ability A4 of C4", "did not trigger")


def test_triggers_on_situation_extra_trigger_and_card_in_hand():
    scenario, s = case("ta1-triggers-on-situation")
    at = s.index(kind="trigger", id="T2") + 1
    s.insert(at, [{"kind": "trigger", "id": "T9", "ability": "A3", "source": "C3", "controller": "P1", "event": "E1"}])
    s.insert(s.index(kind="step_advance") , resolve("T9"))
    breaks(scenario, s, "red.triggers-on-situation", "A3 of C3", "not its situation")


def test_triggers_on_situation_wrong_holder():
    scenario, s = case("ta1-triggers-on-situation")
    s.edit(s.index(kind="trigger", id="T2"), controller="P1")
    breaks(scenario, s, "red.triggers-on-situation", "held by P1", "P2 controlled C4")


# -- TA.2 ----------------------------------------------------------------------------------------------------------

def test_if_x_y_never_waits_activation_missing():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    s.cut(s.index(kind="activation_begin", id="V2"), s.index(kind="activation_end", id="V2"))
    breaks(scenario, s, "red.if-x-y-never-waits", "ability A2 of C1 did not activate")


def test_if_x_y_never_waits_trigger_goes_first():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    block = s.cut(*s.resolution("T1"))
    s.insert(s.index(kind="activation_begin", id="V1"), block)
    breaks(scenario, s, "red.if-x-y-never-waits", "T1 took its turn", "before ability A1 of C1")


def test_if_x_y_never_waits_became_pending():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    s.insert(s.index(kind="activation_begin", id="V2"),
             [{"kind": "trigger", "id": "T9", "ability": "A2", "source": "C1", "controller": "P1", "event": "E1"}])
    s.insert(s.index(kind="step_advance"), resolve("T9"))
    breaks(scenario, s, "red.if-x-y-never-waits", "became a pending trigger")


def test_if_x_y_checks_now_wrong_outcome():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    s.edit(s.index(kind="activation_begin", id="V2"), condition_held=True)
    breaks(scenario, s, "red.if-x-y-checks-now", "reports its condition as held", "did not hold")


def test_if_x_y_checks_now_failed_yet_acted():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    s.edit(s.index(kind="activation_begin", id="V1"), condition_held=False)
    breaks(scenario, s, "red.if-x-y-checks-now", "failed its condition, yet it caused")


# -- TA.3 ----------------------------------------------------------------------------------------------------------

def test_optional_needs_card_activates_after_discard():
    scenario, s = case("ta3-optional-discarded-does-not-activate")
    at = s.index(kind="removed", trigger="T1")
    s.replace(at, at, asked("P1", "T1", True) + resolve("T1"))
    breaks(scenario, s, "red.optional-needs-card", "activated", "C1 was in graveyard")


def test_optional_needs_card_set_aside_wrongly_removed():
    scenario, s = case("ta3-optional-set-aside-keeps-trigger")
    s.replace(s.index(kind="choice"), s.index(kind="resolve_end", trigger="T1"), removed("T1", "source_gone"))
    breaks(scenario, s, "red.optional-needs-card", "C1 was in set_aside")


def test_optional_needs_card_declined_though_card_gone():
    scenario, s = case("ta3-optional-discarded-does-not-activate")
    at = s.index(kind="removed", trigger="T1")
    s.replace(at, at, asked("P1", "T1", False) + removed("T1", "declined"))
    breaks(scenario, s, "red.optional-needs-card", "removed as declined", "C1 was in graveyard")


def test_optional_needs_card_control_lost():
    scenario, s = case("ta3-optional-control-lost")
    at = s.index(kind="removed", trigger="T1")
    s.replace(at, at, asked("P1", "T1", True) + resolve("T1"))
    breaks(scenario, s, "red.optional-needs-card", "controlled by P2, not by its holder P1")


def test_mandatory_persists_dropped_when_card_left():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.replace(*s.resolution("T1"), removed("T1", "source_gone"))
    breaks(scenario, s, "red.mandatory-persists", "dropped (source_gone)", "graveyard")


def test_mandatory_persists_silently_dropped():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.cut(*s.resolution("T1"))
    breaks(scenario, s, "red.mandatory-persists", "never activated")


def test_mandatory_persists_card_says_otherwise():
    scenario, s = case("ta3-card-says-otherwise")
    at = s.index(kind="removed", trigger="T1")
    s.replace(at, at, resolve("T1"))
    breaks(scenario, s, "red.mandatory-persists", "its card says the ability ends")


def test_mandatory_persists_card_left_without_saying_so():
    scenario, s = case("ta3-card-says-otherwise")
    s.replace(*s.resolution("T2"), removed("T2", "card_left"))
    breaks(scenario, s, "red.mandatory-persists", "does not say")


def test_mandatory_no_choice():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.insert(s.index(kind="resolve_begin", trigger="T1"), asked("P1", "T1", True))
    breaks(scenario, s, "red.mandatory-no-choice", "asked", "mandatory")


def test_mandatory_no_choice_declined():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.replace(*s.resolution("T1"), asked("P1", "T1", False) + removed("T1", "declined"))
    breaks(scenario, s, "red.mandatory-no-choice", "was declined")


def test_negation_ends_negated_trigger_activates():
    scenario, s = case("ta3-negated-mandatory-ends")
    s.cut(s.index(kind="removed", trigger="T2"), s.index(kind="removed", trigger="T2"))
    s.insert(s.index(kind="resolve_end", trigger="T1") + 1, resolve("T2"))
    breaks(scenario, s, "red.negation-ends", "negated it, yet it activated")


def test_negation_ends_removed_without_negation():
    scenario, s = case("ta4-active-player-first-2p")
    s.replace(*s.resolution("T3"), removed("T3", "negated"))
    breaks(scenario, s, "red.negation-ends", "no negation named it")


def test_mandatory_after_phase_lapse_ignored():
    scenario, s = case("ta3-mandatory-lapses-at-phase-end")
    s.cut(s.index(kind="removed", trigger="T2"), s.index(kind="removed", trigger="T2"))
    s.insert(s.index(kind="step_begin", step=1) + 1, resolve("T2"))
    breaks(scenario, s, "red.mandatory-after-phase", "should lapse", "activated later")


def test_mandatory_after_phase_checks_either_choice():
    """The same trace is right under one reading and wrong under the other."""
    lapsed, persisted = fixture("ta3-mandatory-lapses-at-phase-end"), fixture("ta3-mandatory-persists-past-phase")
    persist = prepared(persisted["scenario"])
    lapse = prepared(persisted["scenario"], mandatory_after_phase="lapse")
    assert not judge(persist, persisted["expected_trace"]).violations
    breaks(lapse, Surgery(persisted["expected_trace"]), "red.mandatory-after-phase", "should lapse")
    breaks(prepared(lapsed["scenario"], mandatory_after_phase="persist"), Surgery(lapsed["expected_trace"]),
           "red.mandatory-after-phase", "mandatory_after_phase=persist")


def test_mandatory_after_phase_lapse_of_optional():
    scenario, s = case("ta3-optional-set-aside-keeps-trigger")
    s.replace(s.index(kind="choice"), s.index(kind="resolve_end", trigger="T1"), [])
    s.insert(s.index(kind="step_advance") + 1, removed("T1", "expired"))
    breaks(scenario, s, "red.mandatory-after-phase", "not a pending mandatory trigger")


# -- TA.4 and TA.5 ---------------------------------------------------------------------------------------------------

def test_active_player_first_three_players():
    scenario, s = case("ta4-active-player-first-3p")
    p3 = s.cut(s.index(kind="resolve_begin", trigger="T6"), s.index(kind="resolve_end", trigger="T5"))
    s.insert(s.index(kind="resolve_begin", trigger="T4"), p3)  # P3's before the active player P2's
    breaks(scenario, s, "red.active-player-first", "of P3 took its turn before", "the active player goes first")


def test_active_player_first_inactive_order():
    scenario, s = case("ta4-active-player-first-4p")
    p2 = s.cut(s.index(kind="resolve_begin", trigger="T4"), s.index(kind="resolve_end", trigger="T3"))
    s.insert(s.index(kind="resolve_begin", trigger="T2"), p2)  # P2 before P1, though P1 comes first after P4
    breaks(scenario, s, "red.active-player-first", "of P2 took its turn before", "P1, earlier in turn order")


def test_mandatory_own_order():
    scenario, s = case("ta4-active-player-first-2p")
    block = s.cut(*s.resolution("T3"))
    s.insert(s.index(kind="resolve_begin", trigger="T4"), block)
    breaks(scenario, s, "red.mandatory-own-order", "P2 chose to take T4")


def test_optional_active_player_first():
    scenario, s = case("ta5-optional-active-player-first-3p")
    p1 = s.cut(s.index(kind="choice", decision="optional", among=["T2"]), s.index(kind="resolve_end", trigger="T1"))
    s.insert(s.index(kind="choice", decision="optional", among=["T6"]), p1)
    breaks(scenario, s, "red.optional-active-player-first", "of P1 took its turn before")


def test_optional_own_order():
    scenario, s = case("ta5-optional-active-player-first-3p")
    t1 = s.cut(s.index(kind="choice", decision="optional", among=["T1"]), s.index(kind="resolve_end", trigger="T1"))
    s.insert(s.index(kind="choice", decision="optional", among=["T2"]), t1)
    breaks(scenario, s, "red.optional-own-order", "P1 chose to take T2")


def test_optional_choice_declined_yet_activated():
    scenario, s = case("ta5-optional-active-player-first-3p")
    at = s.index(kind="choice", decision="optional", among=["T6"])
    s.replace(at, at + 1, asked("P3", "T6", True) + resolve("T6"))
    breaks(scenario, s, "red.optional-choice", "answer for optional T6", "is no")


def test_optional_choice_not_asked():
    scenario, s = case("ta5-optional-active-player-first-3p")
    at = s.index(kind="choice", decision="optional", among=["T5"])
    del s.entries[at]
    breaks(scenario, s, "red.optional-choice", "without its holder P3 being asked")


# -- TA.6 ----------------------------------------------------------------------------------------------------------

def test_no_cutting_in_during_resolution():
    scenario, s = case("ta6-trigger-during-resolution-waits")
    block = s.cut(*s.resolution("T3"))
    s.insert(s.index(kind="resolve_end", trigger="T1"), block)
    breaks(scenario, s, "red.no-cutting-in", "T3", "while trigger T1 resolving")


def test_no_cutting_in_during_action():
    scenario, s = case("ta2-if-x-y-checks-on-play")
    block = s.cut(*s.resolution("T2"))
    s.insert(s.index(kind="action_end"), block)
    breaks(scenario, s, "red.no-cutting-in", "while scripted action [0, 0]")


def test_pending_then_activates_left_pending_past_phase():
    scenario, s = case("ta1-triggers-on-situation")
    block = s.cut(*s.resolution("T2"))
    s.entries.extend(block)
    breaks(scenario, s, "red.pending-then-activates", "T2", "the phase ended")


def test_pending_then_activates_left_pending_past_action():
    scenario, s = case("ta3-mandatory-persists-past-phase")
    s.cut(*s.resolution("T2"))  # its signal goes too, so that event positions stay in order
    s.insert(s.index(kind="action_end", action=[1, 0]) + 1, resolve("T2"))
    breaks(scenario, s, "red.pending-then-activates", "scripted action [1, 0] began")


def test_pending_then_activates_second_turn():
    scenario, s = case("ta1-triggers-on-situation")
    s.insert(s.index(kind="step_advance"), resolve("T1"))
    breaks(scenario, s, "red.pending-then-activates", "T1", "second turn")


def test_no_cutting_in_resolution_never_completes():
    scenario, s = case("ta1-triggers-on-situation")
    del s.entries[s.index(kind="resolve_end", trigger="T2")]
    breaks(scenario, s, "red.no-cutting-in", "trigger T2 resolving", "never completed")


def test_new_trigger_placement_checks_either_choice():
    waits, ahead = fixture("ta6-trigger-during-resolution-waits"), fixture("ta6-trigger-during-resolution-before-pending")
    assert not judge(prepared(waits["scenario"]), waits["expected_trace"]).violations
    assert not judge(prepared(ahead["scenario"]), ahead["expected_trace"]).violations
    breaks(prepared(waits["scenario"], trigger_during_resolution="before-pending"), Surgery(waits["expected_trace"]),
           "red.new-trigger-placement", "before-pending")
    breaks(prepared(ahead["scenario"], trigger_during_resolution="after-pending"), Surgery(ahead["expected_trace"]),
           "red.new-trigger-placement", "T3 (ability A3", "ahead of T2", "after-pending")


# -- Issue 9: requirements that hold whatever later happens to a trigger, and the rest of the new checks -----------

def test_active_player_first_holds_for_a_trigger_negated_later():
    """The small input of issue 9 (TA.4), turned the seat-order way: P1's trigger goes first and negates P3's, which
    never takes a turn. Comparing only triggers that both activated would pass it."""
    scenario, s = case("ta4-negated-later-3p")
    s.replace(s.index(kind="resolve_begin", trigger="T2"), s.index(kind="resolve_end", trigger="T2"), [
        {"kind": "resolve_begin", "trigger": "T1"},
        {"kind": "event", "id": "E2", "position": 2, "type": "negate", "cause": {"resolution": "T1"},
         "subject": "C3", "player": "P1"},
        {"kind": "removed", "trigger": "T2", "reason": "negated"},
        {"kind": "resolve_end", "trigger": "T1"}])
    assert not judge(scenario, s.trace(), "red.negation-ends", "red.effect-carried-out").violations
    breaks(scenario, s, "red.active-player-first", "T1 (ability A1 of C1", "of P1 took its turn before", "T2",
           "negated without its turn")


def test_active_player_first_holds_for_a_trigger_that_lapsed_later():
    scenario, s = case("ta4-lapsed-later-3p")
    s.replace(s.index(kind="resolve_begin", trigger="T2"), s.index(kind="removed", trigger="T1"), [
        {"kind": "resolve_begin", "trigger": "T1"},
        {"kind": "event", "id": "E2", "position": 2, "type": "leave", "cause": {"resolution": "T1"},
         "subject": "C3", "player": "P1", "from": "field", "to": "graveyard"},
        {"kind": "event", "id": "E3", "position": 3, "type": "end_phase", "cause": {"resolution": "T1"}, "player": "P1"},
        {"kind": "resolve_end", "trigger": "T1"},
        {"kind": "step_advance", "from": 0},
        {"kind": "removed", "trigger": "T2", "reason": "expired"}])
    assert not judge(scenario, s.trace(), "red.mandatory-after-phase", "red.effect-carried-out").violations
    breaks(scenario, s, "red.active-player-first", "of P1 took its turn before", "expired without its turn")


def test_optional_active_player_first_holds_for_a_trigger_negated_later():
    scenario, s = case("ta5-optional-negated-later-4p")
    s.replace(s.index(kind="choice"), s.index(kind="resolve_end", trigger="T2"), asked("P1", "T1", True) + [
        {"kind": "resolve_begin", "trigger": "T1"},
        {"kind": "event", "id": "E2", "position": 2, "type": "negate", "cause": {"resolution": "T1"},
         "subject": "C4", "player": "P1"},
        {"kind": "removed", "trigger": "T2", "reason": "negated"},
        {"kind": "resolve_end", "trigger": "T1"}])
    breaks(scenario, s, "red.optional-active-player-first", "of P1 took its turn before", "T2")


def test_own_order_holds_for_a_trigger_removed_later():
    scenario, s = case("ta4-active-player-first-2p")
    s.cut(*s.resolution("T4"))  # P2 chose T4 first; T3 goes first and T4 never takes its turn
    s.insert(s.index(kind="resolve_end", trigger="T3") + 1, removed("T4", "negated"))
    breaks(scenario, s, "red.mandatory-own-order", "P2 chose to take T4", "T3 took its turn first",
           "removed as negated")


@pytest.mark.parametrize("reason", ["no_target", "intervening_if", "illegal_target", "player_left"])
def test_removal_reason_of_another_game(reason):
    scenario, s = case("ta3-optional-discarded-does-not-activate")
    s.edit(s.index(kind="removed", trigger="T1"), reason=reason)
    breaks(scenario, s, "red.removal-reason", repr(reason), "not a Redemption reason")


def test_removal_reason_card_left_for_an_optional_trigger():
    scenario, s = case("ta3-optional-discarded-does-not-activate")
    s.edit(s.index(kind="removed", trigger="T1"), reason="card_left")
    breaks(scenario, s, "red.removal-reason", "optional T1", "card_left")


def test_removal_reason_declined_mandatory():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.replace(*s.resolution("T1"), removed("T1", "source_gone"))
    breaks(scenario, s, "red.removal-reason", "mandatory T1", "only an optional trigger has")


def test_effect_carried_out_negation_not_performed():
    """A negate effect the engine ignores: no negate event, and the card's trigger activates."""
    scenario, s = case("ta3-negated-mandatory-ends")
    s.cut(s.index(kind="event", id="E2"), s.index(kind="removed", trigger="T2"))
    s.insert(s.index(kind="step_advance"), resolve("T2"))
    breaks(scenario, s, "red.effect-carried-out", "did not carry out do=negate object=C2")


def test_effect_carried_out_extra_and_wrong_events():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    s.edit(s.index(kind="event", type="signal", name="s1"), name="s2")
    breaks(scenario, s, "red.effect-carried-out", "name 's2' where 's1' was due")
    scenario, s = case("ta1-triggers-on-situation")
    s.insert(s.index(kind="resolve_end", trigger="T1"), [
        {"kind": "event", "id": "E9", "position": 9, "type": "signal", "cause": {"resolution": "T1"}, "name": "s5"}])
    breaks(scenario, s, "red.effect-carried-out", "is more than the resolution of T1")


def test_effect_carried_out_event_outside_its_cause():
    scenario, s = case("ta3-mandatory-discarded-still-activates")
    at = s.index(kind="event", type="signal", name="s1")
    block = s.cut(at, at)
    s.insert(s.index(kind="step_advance"), block)
    breaks(scenario, s, "red.effect-carried-out", "was not being carried out")


def test_effect_carried_out_script_skipped_or_not_skipped():
    scenario, s = case("ta3-mandatory-persists-past-phase")
    s.cut(s.index(kind="action_begin", action=[1, 0]), s.index(kind="action_end", action=[1, 0]))
    breaks(scenario, s, "red.effect-carried-out", "performed scripted actions none", "where 0 were due")
    scenario, s = case("ta3-mandatory-lapses-at-phase-end")
    s.insert(s.index(kind="step_advance"), [{"kind": "action_begin", "action": [0, 1]},
                                            {"kind": "event", "id": "E9", "position": 3, "type": "signal",
                                             "cause": {"action": [0, 1]}, "name": "s1", "player": "P1"},
                                            {"kind": "action_end", "action": [0, 1]}])
    s.edit(s.index(kind="event", id="E3"), position=2)
    s.edit(s.index(kind="event", id="E2"), position=1)
    s.edit(s.index(kind="event", id="E1"), position=0)
    breaks(scenario, s, "red.effect-carried-out", "performed scripted actions 0 and 1", "an effect ended the phase")


def test_negation_ends_at_once():
    scenario, s = case("ta3-negated-mandatory-ends")
    block = s.cut(s.index(kind="removed", trigger="T2"), s.index(kind="removed", trigger="T2"))
    s.insert(s.index(kind="resolve_end", trigger="T1") + 1, block)  # dropped only when its turn comes
    breaks(scenario, s, "red.negation-ends", "not at once")


def test_optional_choice_asked_when_triggered():
    scenario, s = case("ta3-optional-set-aside-keeps-trigger")
    block = s.cut(s.index(kind="choice"), s.index(kind="choice"))
    s.insert(s.index(kind="trigger", id="T1") + 1, block)
    breaks(scenario, s, "red.optional-choice", "without its holder P1 being asked at its turn", "asked at entry 4")


def test_optional_choice_asked_though_its_card_is_gone():
    scenario, s = case("ta3-optional-discarded-does-not-activate")
    s.insert(s.index(kind="removed", trigger="T1"), asked("P1", "T1", True))
    breaks(scenario, s, "red.optional-choice", "was asked about optional T1", "not as its turn came")


def test_pending_then_activates_not_after_the_phase_was_ended():
    scenario, s = case("ta3-mandatory-persists-past-phase")
    block = s.cut(*s.resolution("T2"))
    s.insert(s.index(kind="step_advance"), block)
    s.edit(s.index(kind="event", id="E4"), position=4)
    breaks(scenario, s, "red.pending-then-activates", "after event E3 (end_phase", "ended the phase")


def test_triggers_on_situation_control_change_holder():
    fx = fixture("ta1-control-change-new-controller")
    scenario, s = prepared(fx["scenario"]), Surgery(fx["expected_trace"])
    s.edit(s.index(kind="trigger", id="T1"), controller="P1")
    breaks(scenario, s, "red.triggers-on-situation", "held by P1", "P2 controlled C1")
    breaks(prepared(fx["scenario"], control_change_holder="old-controller"), Surgery(fx["expected_trace"]),
           "red.triggers-on-situation", "T1", "held by P2", "P1 controlled C1")


@pytest.mark.parametrize("key", [inv.key for inv in REDEMPTION.invariants])
def test_rule_numbers_and_summaries(key):
    inv = REDEMPTION.invariant(key)
    assert key.startswith("red.")
    assert inv.rule_numbers[REDEMPTION.default_edition] in {f"TA.{n}" for n in range(1, 7)}
    assert inv.summary and "\n" not in inv.summary


def test_the_docs_tables_are_the_code_s():
    """reference_engine/redemption/docs.md lists each rule key with its paragraph (the generated table, whose summaries
    tests/test_docs.py checks), each option with its default and other values, and each faulty engine with the key
    that catches it (issue 9 item 6)."""
    import re
    from pathlib import Path

    from reference_engine.kernel.registry import MUTANTS

    doc = (Path(__file__).resolve().parent.parent / "reference_engine" / "redemption" / "docs.md").read_text("utf-8")
    rows = {key: number for number, key in re.findall(r"^\| (TA\.\d) \| `(red\.[a-z-]+)` \|", doc, re.M)}
    assert rows == {inv.key: inv.rule_number(REDEMPTION.default_edition) for inv in REDEMPTION.invariants}
    for option in REDEMPTION.options:
        row = re.search(rf"^\| `{option.name}` \| `{option.default}`: .+$", doc, re.M)
        assert row, option.name
        assert all(f"`{value}`" in row.group(0) for value in option.values), option.name
    faulty = dict(re.findall(r"^\| `(redemption-[a-z-]+)` \| .+ \| `(red\.[a-z-]+)` \|$", doc, re.M))
    assert faulty == {n: m.expected_rule_key for n, m in MUTANTS.items() if m.ruleset == "redemption"}
