"""Each MTG invariant holds on the reference engine's traces, and rejects a trace broken by hand to violate it, so
that none passes vacuously."""

from __future__ import annotations

import pytest

from mtg_support import ability, exercised, find, fixture, obj, play, scenario, violations
from reference_engine.mtg.judge import MTG

S1 = {"event": "signal", "name": "s1"}


def broken(fixture_id, surgery):
    prepared, trace = fixture(fixture_id)
    assert violations(prepared, trace) == {}
    surgery(trace["entries"])
    return violations(prepared, trace)


def test_every_rule_key_is_listed_once():
    keys = [inv.key for inv in MTG.invariants]
    assert len(keys) == len(set(keys)) == 21
    for inv in MTG.invariants:
        assert inv.rule_numbers["2026-02-27"]
        assert inv.summary and inv.summary.endswith(".")
    assert "2021-02-24" not in MTG.invariant("mtg.trigger-on-trigger-last").rule_numbers


def test_stack_at_priority_rejects_a_push_during_a_resolution():
    def surgery(entries):
        push = entries.pop(find(entries, kind="stack_push", trigger="T1"))
        entries.insert(find(entries, kind="trigger", id="T1") + 1, push)
    found = broken("mtg-603-8-discard-then-draw", surgery)
    assert "mtg.stack-at-priority" in found
    assert "while scripted action" in found["mtg.stack-at-priority"][0]


def test_stack_at_priority_rejects_a_trigger_still_waiting_at_priority():
    def surgery(entries):
        block = [entries.pop(find(entries, kind="stack_push", trigger="T1"))]
        entries.insert(find(entries, kind="priority") + 1, block[0])
    assert "mtg.stack-at-priority" in broken("mtg-603-4-felidar-wins", surgery)


def test_trigger_controller_rejects_the_wrong_controller():
    def surgery(entries):
        entries[find(entries, kind="trigger", id="T1")]["controller"] = "P2"
    assert "mtg.trigger-controller" in broken("mtg-603-10a-artifact-dies-with-creatures", surgery)


def test_trigger_controller_follows_a_control_change():
    prepared = scenario(["P1", "P2"], "P1", [obj("C1", "P1", abilities=[ability("A1", S1)])],
                        [("P1", [{"do": "gain_control", "object": "C1", "player": "P2"}]), ("P1", [{"do": "signal", "name": "s1"}])])
    trace = play(prepared)
    t = trace["entries"][find(trace["entries"], kind="trigger")]
    assert t["controller"] == "P2"
    assert violations(prepared, trace) == {} and exercised(prepared, trace)["mtg.trigger-controller"] == 1


def test_sba_loop_rejects_a_push_without_a_check():
    def surgery(entries):
        del entries[find(entries, kind="sba_check", id="S1")]
    assert "mtg.sba-loop" in broken("mtg-603-4-felidar-wins", surgery)


def test_sba_loop_rejects_a_check_that_ignores_lethal_damage():
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("C1", "P1"), obj("W", "P2", abilities=[ability("A1", {"event": "leave", "subject": "other"})])],
                        [("P1", [{"do": "damage", "object": "C1", "amount": 1}])])
    trace = play(prepared)
    entries = trace["entries"]
    death = find(entries, kind="event", type="leave")
    assert entries[death]["cause"] == {"sba": "S1"}  # the creature dies in the first check, and W triggers (704.3)
    assert violations(prepared, trace) == {}
    entries.insert(death - 1, {"kind": "sba_check", "id": "S99"})
    assert "did not put C1 into its owner's graveyard" in " ".join(violations(prepared, trace)["mtg.sba-loop"])


def test_sba_between_resolutions_rejects_a_check_mid_action():
    def surgery(entries):
        entries.insert(find(entries, kind="event", id="E2") + 1, {"kind": "sba_check", "id": "S99"})
    assert "mtg.sba-between-resolutions" in broken("mtg-704-4-maro", surgery)


def test_triggers_when_satisfied_rejects_an_extra_trigger():
    def surgery(entries):
        i = find(entries, kind="trigger", id="T1")
        entries.insert(i + 1, dict(entries[i], id="T99"))
    assert "mtg.triggers-when-satisfied" in broken("mtg-603-4-felidar-wins", surgery)


def test_triggers_when_satisfied_rejects_a_missing_trigger():
    prepared = scenario(["P1", "P2"], "P1", [obj("C1", "P1", abilities=[ability("A1", S1), ability("A2", S1)])],
                        [("P1", [{"do": "signal", "name": "s1"}])])
    trace = play(prepared)
    entries = trace["entries"]
    entries[find(entries, kind="trigger", ability="A2")]["ability"] = "A1"
    assert "should have triggered ability A2" in " ".join(violations(prepared, trace)["mtg.triggers-when-satisfied"])


def test_prevented_no_trigger_rejects_a_trigger_from_prevented_damage():
    def surgery(entries):
        entries.insert(find(entries, kind="event", id="E1") + 1,
                       {"kind": "trigger", "id": "T99", "ability": "A1", "source": "O1", "controller": "P1", "event": "E1"})
    assert "mtg.prevented-no-trigger" in broken("mtg-603-2g-prevented-damage", surgery)


def test_look_back_rejects_a_trigger_moved_to_another_occurrence():
    def surgery(entries):
        entries[find(entries, kind="trigger", id="T2")]["event"] = "E2"
    found = broken("mtg-603-10a-artifact-dies-with-creatures", surgery)
    assert any("E3" in m and "more time" in m for m in found["mtg.look-back"])


def test_apnap_order_rejects_the_non_active_player_first():
    def surgery(entries):
        p2 = [find(entries, kind="stack_push", trigger=t) for t in ("T8", "T5", "T2")]
        p3 = [find(entries, kind="stack_push", trigger=t) for t in ("T9", "T6", "T3")]
        for a, b in zip(p2, p3):
            entries[a], entries[b] = entries[b], entries[a]
    found = broken("mtg-101-4-each-player-sacrifices", surgery)
    assert "comes first in APNAP order" in found["mtg.apnap-order"][0]


def test_apnap_order_rejects_ignoring_the_players_choice():
    prepared = scenario(["P1", "P2"], "P1", [obj("C1", "P1", abilities=[ability("A1", S1), ability("A2", S1)])],
                        [("P1", [{"do": "signal", "name": "s1"}])], choices={"trigger_order": ["A2", "A1"]})
    trace = play(prepared)
    entries = trace["entries"]
    pushes = [i for i, e in enumerate(entries) if e["kind"] == "stack_push"]
    assert [entries[i]["trigger"] for i in pushes] == ["T1", "T2"]  # A2 (T2) resolves first: it is put on last
    entries[pushes[0]], entries[pushes[1]] = entries[pushes[1]], entries[pushes[0]]
    assert "mtg.apnap-order" in violations(prepared, trace)


def _watcher_scenario(edition):
    """P1 (active) watches C2's ability triggering (603.3b second pass); P2's C2 triggers on s1."""
    return scenario(["P1", "P2"], "P1",
                    [obj("W", "P1", abilities=[ability("A1", {"event": "ability_triggered", "subject": "C2"})]),
                     obj("C2", "P2", abilities=[ability("A2", S1)])],
                    [("P1", [{"do": "signal", "name": "s1"}])], edition=edition)


def _push_order(trace):
    return [(e["trigger"]) for e in trace["entries"] if e["kind"] == "stack_push"]


def test_two_pass_and_single_pass_editions_differ():
    new, old = _watcher_scenario("2026-02-27"), _watcher_scenario("2021-02-24")
    new_trace, old_trace = play(new), play(old)
    # T1 is C2's ability (P2), T2 the watcher (P1, the active player).
    assert _push_order(new_trace) == ["T1", "T2"]  # two passes: the watcher goes on in the second
    assert _push_order(old_trace) == ["T2", "T1"]  # one pass: the active player's first
    assert violations(new, new_trace) == {} and violations(old, old_trace) == {}
    assert "mtg.apnap-order" in violations(old, new_trace)  # a 2026 engine checked against the 2021 rules
    assert "mtg.trigger-on-trigger-last" in violations(new, old_trace)  # and the other way round


def test_stack_lifo_rejects_resolving_below_the_top():
    def surgery(entries):
        for kind in ("resolve_begin", "resolve_end"):
            a, b = find(entries, kind=kind, trigger="T1"), find(entries, kind=kind, trigger="T2")
            entries[a]["trigger"], entries[b]["trigger"] = "T2", "T1"
    found = broken("mtg-603-2c-destroy-all-lands", surgery)
    assert "was not on top" in found["mtg.stack-lifo"][0]


def test_stack_lifo_rejects_resolving_without_priority():
    def surgery(entries):
        del entries[find(entries, kind="resolve_begin", trigger="T1") - 1]
    assert "mtg.stack-lifo" in broken("mtg-603-4-felidar-wins", surgery)


def test_intervening_if_rejects_resolving_when_the_condition_fails():
    def surgery(entries):
        i = find(entries, kind="removed", trigger="T1")
        entries[i:i + 1] = [{"kind": "resolve_begin", "trigger": "T1"}, {"kind": "resolve_end", "trigger": "T1"}]
    found = broken("mtg-603-4-felidar-drops-below", surgery)
    assert "no longer held" in found["mtg.intervening-if"][0]


def test_intervening_if_rejects_triggering_when_the_condition_fails():
    prepared, trace = fixture("mtg-603-4-felidar-39-life")
    entries = trace["entries"]
    entries.insert(find(entries, kind="event", id="E1") + 1,
                   {"kind": "trigger", "id": "T1", "ability": "A1", "source": "FS", "controller": "P1", "event": "E1"})
    assert "did not hold" in violations(prepared, trace)["mtg.intervening-if"][0]


def test_optional_on_resolution_rejects_choosing_on_trigger():
    def surgery(entries):
        choice = entries.pop(find(entries, kind="choice", decision="optional"))
        entries.insert(find(entries, kind="trigger", id="T1") + 1, choice)
    assert "outside its resolution" in broken("mtg-603-12-manticore-declines", surgery)["mtg.optional-on-resolution"][0]


def test_optional_on_resolution_rejects_a_declined_ability_kept_off_the_stack():
    def surgery(entries):
        start, stop = find(entries, kind="sba_check", id="S1"), find(entries, kind="resolve_end", trigger="T1")
        entries[start:stop + 1] = [{"kind": "removed", "trigger": "T1", "reason": "declined"}]
    assert "mtg.optional-on-resolution" in broken("mtg-603-12-manticore-declines", surgery)


def test_no_legal_target_rejects_resolving_with_an_illegal_target():
    def surgery(entries):
        i = find(entries, kind="removed", trigger="T1")
        entries[i:i + 1] = [{"kind": "resolve_begin", "trigger": "T1"}, {"kind": "resolve_end", "trigger": "T1"}]
    assert "no longer legal" in broken("mtg-608-2b-target-gone", surgery)["mtg.no-legal-target"][0]


def test_no_legal_target_rejects_a_target_that_is_no_candidate():
    def surgery(entries):
        entries[find(entries, kind="stack_push", trigger="T1")]["target"] = "O1"
    assert "mtg.no-legal-target" in broken("mtg-608-2b-target-gone", surgery)


def test_no_legal_target_removes_at_once_and_the_others_still_go_on():
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("O1", "P1", abilities=[ability("A1", S1, target={"candidates": ["C9"]}), ability("A2", S1)]),
                         obj("C9", "P2", "graveyard")],
                        [("P1", [{"do": "signal", "name": "s1"}])])
    trace = play(prepared)
    entries = trace["entries"]
    i = find(entries, kind="stack_push", trigger="T1")
    assert entries[i]["target"] is None and entries[i + 1] == {"kind": "removed", "trigger": "T1", "reason": "no_target"}
    assert "T2" in entries[find(entries, kind="resolve_begin")]["trigger"]
    assert violations(prepared, trace) == {}
    del entries[i + 1]
    assert "mtg.no-legal-target" in violations(prepared, trace)


def test_independent_of_source_rejects_an_ability_dropped_with_its_source():
    def surgery(entries):
        start, stop = find(entries, kind="resolve_begin", trigger="T2"), find(entries, kind="resolve_end", trigger="T2")
        del entries[start:stop + 1]
    found = broken("mtg-603-10a-artifact-dies-with-creatures", surgery)
    assert "never resolved" in found["mtg.independent-of-source"][0]


def test_delayed_trigger_rejects_a_second_trigger():
    def surgery(entries):
        entries.insert(find(entries, kind="event", id="E5") + 1,
                       {"kind": "trigger", "id": "T99", "ability": "X1", "source": "C1", "controller": "P1", "event": "E5",
                        "delayed": "D1"})
    assert "exactly once" in broken("mtg-603-7a-delayed-waits-for-next", surgery)["mtg.delayed-trigger"][0]


def test_delayed_trigger_rejects_triggering_on_an_earlier_event():
    def surgery(entries):
        entries[find(entries, kind="trigger", id="T3")]["event"] = "E2"
    assert "mtg.delayed-trigger" in broken("mtg-603-7a-delayed-waits-for-next", surgery)


def test_delayed_controller_rejects_another_controller():
    def surgery(entries):
        entries[find(entries, kind="delayed_create", id="D1")]["controller"] = "P2"
    assert "mtg.delayed-controller" in broken("mtg-603-7a-delayed-waits-for-next", surgery)


def test_delayed_controller_ignores_later_control_of_the_source():
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("C1", "P1", abilities=[ability("A1", S1, [{"do": "create_delayed", "duration": "turn", "ability":
                                                                       ability("X1", {"event": "signal", "name": "s2"})}])])],
                        [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "gain_control", "object": "C1", "player": "P2"}]),
                         ("P1", [{"do": "signal", "name": "s2"}]), ("P1", [{"do": "signal", "name": "s2"}])])
    trace = play(prepared)
    delayed = [e for e in trace["entries"] if e["kind"] == "trigger" and "delayed" in e]
    assert [t["controller"] for t in delayed] == ["P1", "P1"]  # 603.7e, and a duration: each occurrence (603.7b)
    assert violations(prepared, trace) == {}


def test_state_trigger_rejects_triggering_again_while_on_the_stack():
    def surgery(entries):
        entries.insert(find(entries, kind="event", id="E2") + 1,
                       {"kind": "trigger", "id": "T99", "ability": "A1", "source": "S1", "controller": "P1", "event": "E2"})
    assert "had not yet left the stack" in broken("mtg-603-8-last-card-played", surgery)["mtg.state-trigger"][0]


def test_state_trigger_rejects_not_triggering():
    def surgery(entries):  # the state trigger never triggers: its trigger, push and resolution are gone
        entries[:] = [e for e in entries if "T1" not in (e.get("id"), e.get("trigger"))
                      and e.get("cause") != {"resolution": "T1"}]
    prepared, trace = fixture("mtg-603-8-last-card-played")
    surgery(trace["entries"])
    assert "yet it did not trigger" in violations(prepared, trace)["mtg.state-trigger"][0]


def test_reflexive_rejects_an_event_from_outside_the_resolution():
    def surgery(entries):
        entries[find(entries, kind="trigger", id="T2")]["event"] = "E1"
    assert "mtg.reflexive" in broken("mtg-603-12-manticore-sacrifices", surgery)


# -- Completeness (issue 9): what the rules require to have happened -------------------------------------------------

ONE_BATCH = "mtg-judge-603-3b-resolution-and-sba-one-batch"


def _split_run(entries):
    """The issue 9 faulty course: S (T2) goes on alone, state-based actions are checked again, D (T3) goes on top and
    resolves first."""
    cut = find(entries, kind="sba_check", id="S4") + 1
    entries[cut:] = [
        {"kind": "stack_push", "trigger": "T2"}, {"kind": "sba_check", "id": "S5"},
        {"kind": "stack_push", "trigger": "T3"}, {"kind": "sba_check", "id": "S6"}, {"kind": "priority", "player": "P1"},
        {"kind": "resolve_begin", "trigger": "T3"},
        {"kind": "event", "id": "E4", "position": 4, "type": "life", "cause": {"resolution": "T3"}, "player": "P1",
         "amount": 2},
        {"kind": "resolve_end", "trigger": "T3"}, {"kind": "sba_check", "id": "S7"}, {"kind": "priority", "player": "P1"},
        {"kind": "resolve_begin", "trigger": "T2"},
        {"kind": "event", "id": "E5", "position": 5, "type": "life", "cause": {"resolution": "T2"}, "player": "P1",
         "amount": 1},
        {"kind": "resolve_end", "trigger": "T2"}, {"kind": "sba_check", "id": "S8"}, {"kind": "priority", "player": "P1"},
        {"kind": "step_advance", "from": 0}]


def test_one_batch_fixture_puts_the_resolution_and_sba_triggers_on_together():
    prepared, trace = fixture(ONE_BATCH)
    entries = trace["entries"]
    pushed = [e["trigger"] for e in entries if e["kind"] == "stack_push"]
    assert pushed[-2:] == ["T3", "T2"]  # D put on first, S on top: S resolves first, as the active player chose
    between = entries[find(entries, kind="stack_push", trigger="T3"):find(entries, kind="stack_push", trigger="T2")]
    assert not [e for e in between if e["kind"] == "sba_check"]
    assert exercised(prepared, trace)["mtg.apnap-order"] >= 1


def test_apnap_order_rejects_a_run_split_by_an_extra_state_based_actions_check():
    found = broken(ONE_BATCH, _split_run)
    assert set(found) == {"mtg.apnap-order"}, found  # the engine's own batches are each in order: not enough
    assert "left out of that run" in found["mtg.apnap-order"][0] and "T3" in found["mtg.apnap-order"][0]


def test_apnap_order_does_not_trust_a_late_trigger_entry():
    """The engine writes D's trigger entry only after S went on: D still triggered as C died (the judge dates a
    trigger by its event), so it had to go on with S."""
    def surgery(entries):
        _split_run(entries)
        trigger = entries.pop(find(entries, kind="trigger", id="T3"))
        entries.insert(find(entries, kind="stack_push", trigger="T2") + 1, trigger)
    found = broken(ONE_BATCH, surgery)
    assert any("left out of that run" in m for m in found["mtg.apnap-order"])


def test_apnap_order_rejects_an_ability_put_on_in_the_run_it_triggered_in():
    def surgery(entries):
        push = find(entries, kind="stack_push", trigger="T3")
        event = {"kind": "event", "id": "E9", "position": 3, "type": "ability_stacked", "cause": {"push": "T3"},
                 "subject": "C", "player": "P1"}
        trigger = entries.pop(find(entries, kind="trigger", id="T3"))
        del entries[find(entries, kind="event", id="E3")]
        entries[push - 1:push - 1] = [event, dict(trigger, event="E9")]
    prepared, trace = fixture(ONE_BATCH)
    surgery(trace["entries"])
    messages = violations(prepared, trace).get("mtg.apnap-order", [])
    assert any("triggered only during that run" in m for m in messages), messages


def test_sba_loop_rejects_putting_triggers_on_while_a_state_based_action_applies():
    def surgery(entries):
        push = entries.pop(find(entries, kind="stack_push", trigger="T2"))
        entries.insert(find(entries, kind="resolve_end", trigger="T1") + 1, push)
    found = broken(ONE_BATCH, surgery)
    assert any("while state-based actions still applied (C to the graveyard)" in m for m in found["mtg.sba-loop"])


def test_sba_loop_rejects_priority_while_a_state_based_action_applies():
    def surgery(entries):
        cut = find(entries, kind="resolve_end", trigger="T1") + 1
        entries[cut:] = [{"kind": "sba_check", "id": "S3"}, {"kind": "priority", "player": "P1"},
                         {"kind": "step_advance", "from": 0}]
        del entries[find(entries, kind="trigger", id="T2")]
    found = broken(ONE_BATCH, surgery)
    assert any("P1 received priority" in m and "still applied" in m for m in found["mtg.sba-loop"])


def test_independent_of_source_rejects_a_reason_mtg_does_not_have():
    def surgery(entries):
        entries[find(entries, kind="removed", trigger="T1")]["reason"] = "negated"  # a Redemption reason
    found = broken("mtg-603-4-felidar-drops-below", surgery)
    assert any("MTG has no rule" in m for m in found["mtg.independent-of-source"])


def test_independent_of_source_rejects_a_stack_reason_for_an_ability_never_stacked():
    def surgery(entries):
        i = find(entries, kind="stack_push", trigger="T2")
        entries[i] = {"kind": "removed", "trigger": "T2", "reason": "no_target"}
    found = broken(ONE_BATCH, surgery)
    assert any("before it was ever put on the stack" in m for m in found["mtg.independent-of-source"])


def test_delayed_trigger_rejects_an_effect_that_does_not_create_its_delayed_ability():
    def surgery(entries):
        del entries[find(entries, kind="delayed_create", id="D1")]
    found = broken("mtg-603-7a-delayed-created-too-late", surgery)
    assert any("without creating its delayed triggered ability X1" in m for m in found["mtg.delayed-trigger"])


def test_reflexive_rejects_an_effect_that_does_not_create_its_reflexive_ability():
    reflexive = {"do": "reflexive", "ability": ability("R1", {"event": "signal", "name": "never"})}
    prepared = scenario(["P1", "P2"], "P1", [obj("C1", "P1", abilities=[ability("A1", S1, [reflexive])])],
                        [("P1", [{"do": "signal", "name": "s1"}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    del trace["entries"][find(trace["entries"], kind="delayed_create")]
    assert any("without creating its reflexive ability R1" in m for m in violations(prepared, trace)["mtg.reflexive"])


def test_sba_loop_rejects_a_lethal_creature_put_elsewhere_than_the_graveyard():
    def surgery(entries):
        entries[find(entries, kind="event", id="E3")]["to"] = "exile"
    found = broken(ONE_BATCH, surgery)
    assert any("elsewhere than its owner's graveyard" in m for m in found["mtg.sba-loop"])


def test_stack_lifo_rejects_a_script_step_that_never_ends():
    def surgery(entries):
        del entries[find(entries, kind="step_advance")]
    assert any("steps that ended" in m for m in broken(ONE_BATCH, surgery)["mtg.stack-lifo"])


def test_the_split_batch_faulty_engine_fails_the_one_batch_fixture_by_apnap_order():
    from conformance.running.fixtures import check_fixture
    from conformance.documents.fixture_files import bundled_fixtures
    from reference_engine.kernel.registry import MUTANTS

    (fx,) = [f for f in bundled_fixtures("mtg") if f.id == ONE_BATCH]
    result = check_fixture(MUTANTS["mtg-split-batch"].factory(), fx, MTG.invariants_for("2026-02-27"))
    assert result.status == "failed"
    assert any(m.startswith("mtg.apnap-order:") and "left out of that run" in m for m in result.messages)


def test_resolution_effect_rejects_a_resolution_that_skips_an_instruction():
    def surgery(entries):
        del entries[find(entries, kind="event", id="E4")]  # S resolves without its controller gaining life
    found = broken(ONE_BATCH, surgery)
    assert any("should have caused" in m for m in found["mtg.resolution-effect"])


def test_resolution_effect_rejects_a_state_based_action_passed_off_as_the_resolution():
    """An engine that destroys C in the middle of A1's resolution and records it as A1's doing: no sba_check inside
    the resolution for 704.4 to see, but A1's effect never said so."""
    def surgery(entries):
        death = entries.pop(find(entries, kind="event", id="E3"))
        death["cause"] = {"resolution": "T1"}
        entries.insert(find(entries, kind="resolve_end", trigger="T1"), death)
        trigger = entries.pop(find(entries, kind="trigger", id="T3"))
        entries.insert(find(entries, kind="resolve_end", trigger="T1"), trigger)
    found = broken(ONE_BATCH, surgery)
    assert any("caused E2 and E3" in m or "E3" in m for m in found["mtg.resolution-effect"])


def test_resolution_effect_rejects_a_scripted_action_not_performed_as_written():
    def surgery(entries):
        entries[find(entries, kind="event", id="E1")]["subject"] = "Y"  # the script signals about X
    found = broken(ONE_BATCH, surgery)
    assert any(m.startswith("[608.2] scripted action [0, 0]") for m in found["mtg.resolution-effect"]), found


# -- Spells on the stack (issue 12, item 1g) ---------------------------------------------------------------------------

SPELLS = "mtg-vocab-608-2b-spells-on-the-stack"


def test_spell_resolution_rejects_a_spell_resolving_with_an_illegal_target():
    def surgery(entries):
        k = find(entries, kind="spell_removed", spell="S1")
        entries[k] = {"kind": "spell_resolve_begin", "spell": "S1"}
        entries.insert(k + 2, {"kind": "spell_resolve_end", "spell": "S1"})
    found = broken(SPELLS, surgery)
    assert any("its target X was no longer legal" in m for m in found["mtg.spell-resolution"])


def test_spell_resolution_rejects_a_spell_resolving_above_its_cast_trigger():
    def surgery(entries):
        begin = find(entries, kind="spell_resolve_begin", spell="S3")
        span = entries[begin:find(entries, kind="spell_resolve_end", spell="S3") + 1]
        del entries[begin:begin + len(span)]
        at = find(entries, kind="resolve_begin", trigger="T5")
        entries[at:at] = span
    found = broken(SPELLS, surgery)
    assert any("spell S3 started resolving" in m and "not on top (T5 was)" in m
               for m in found["mtg.spell-resolution"])


def test_spell_resolution_rejects_a_countered_spell_resolving_and_a_spell_left_on_the_stack():
    def resolves(entries):
        at = find(entries, kind="action_begin", action=[0, 2])
        entries[at:at] = [{"kind": "priority", "player": "P1"}, {"kind": "spell_resolve_begin", "spell": "S2"},
                          {"kind": "spell_resolve_end", "spell": "S2"}]
    found = broken(SPELLS, resolves)
    assert any("spell S2 started resolving" in m and "was not on the stack" in m
               for m in found["mtg.spell-resolution"])

    def stays(entries):
        begin = find(entries, kind="spell_resolve_begin", spell="S3")
        end = find(entries, kind="spell_resolve_end", spell="S3")
        del entries[begin:end + 1]
    found = broken(SPELLS, stays)
    assert any("with spell(s) ['S3'] still on the stack" in m for m in found["mtg.spell-resolution"])


@pytest.mark.parametrize("key", [inv.key for inv in MTG.invariants])
def test_every_invariant_is_broken_by_some_test_here(key):
    """A guard: the tests above and those of test_mtg_rule_readings.py name every rule key (keep them in step when a
    key is added)."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    source = "".join((here / name).read_text("utf-8") for name in ("test_mtg_invariants.py", "test_mtg_rule_readings.py"))
    assert f'"{key}"' in source


def test_the_judge_s_model_is_not_a_copy_of_the_engine_s():
    """Issue 9 item 1: the judge reads the rules in its own code. Guard against the model being copied back: no three
    consecutive substantial lines of the MTG judge appear in the MTG reference engine (or the engines' shared code)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent

    def runs(folder: str) -> set[tuple[str, ...]]:
        found = set()
        for path in (root / folder).rglob("*.py"):
            lines = [line.strip() for line in path.read_text("utf-8").splitlines()]
            lines = [line for line in lines if len(line) > 25 and not line.startswith(("#", '"""', "from ", "import "))]
            found |= {tuple(lines[i:i + 3]) for i in range(len(lines) - 2)}
        return found

    shared = runs("reference_engine/mtg/judge") & (runs("reference_engine/mtg/engines") |
                                                     runs("reference_engine/common"))
    assert not shared, sorted(shared)[:3]


def test_triggers_when_satisfied_rejects_a_trigger_announced_after_a_later_event():
    """Issue 22, item 3: a trigger written after the game moved on from its event (here T2, from C entering, moved
    after the signal that follows it) fails; written right after its event, as the reference engine writes it, it
    passes (broken() checks that first)."""
    def surgery(entries):
        late = entries.pop(find(entries, kind="trigger", id="T2"))
        entries.insert(find(entries, kind="event", id="E3") + 1, late)
    found = broken("mtg-ref-603-2-triggers-as-each-event-happens", surgery)
    assert list(found) == ["mtg.triggers-when-satisfied"]
    assert "after the game moved on from its event" in found["mtg.triggers-when-satisfied"][0]


def test_a_trigger_lost_to_a_late_check_fails_the_intervening_if_too():
    """Issue 22, item 3: an engine checking triggers (and their intervening 'if') only after the whole resolution
    loses X's ability, whose condition held as its event occurred: mtg.intervening-if fails as well as
    mtg.triggers-when-satisfied; a trigger missing for another reason is not put down to the intervening 'if'."""
    from conformance.running.checking import check_scenario
    from reference_engine.kernel.registry import MUTANTS

    prepared, _ = fixture("mtg-ref-603-2-triggers-as-each-event-happens")
    found = check_scenario(MUTANTS["mtg-batched-trigger-checks"].factory(), prepared,
                           MTG.invariants_for(prepared["edition"])).violations
    assert any("should have triggered ability AX of X" in m for m in found["mtg.intervening-if"])
    assert any("AW" in m for m in found["mtg.triggers-when-satisfied"])
    assert not any("AW" in m for m in found["mtg.intervening-if"])
