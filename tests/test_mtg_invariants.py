"""Each MTG invariant holds on the reference engine's traces, and rejects a trace broken by hand to violate it, so
that none passes vacuously."""

from __future__ import annotations

import pytest

from mtg_support import ability, exercised, find, fixture, obj, play, scenario, violations
from reference_engine.rulesets.mtg import MTG

S1 = {"event": "signal", "name": "s1"}


def broken(fixture_id, surgery):
    prepared, trace = fixture(fixture_id)
    assert violations(prepared, trace) == {}
    surgery(trace["entries"])
    return violations(prepared, trace)


def test_every_rule_key_is_listed_once():
    keys = [inv.key for inv in MTG.invariants]
    assert len(keys) == len(set(keys)) == 19
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
    def surgery(entries):
        i = find(entries, kind="trigger", id="T1")
        entries[i]["ability"] = "A9"  # no such ability: the state trigger did not trigger
    prepared, trace = fixture("mtg-603-8-last-card-played")
    surgery(trace["entries"])
    assert "yet it did not trigger" in violations(prepared, trace)["mtg.state-trigger"][0]


def test_reflexive_rejects_an_event_from_outside_the_resolution():
    def surgery(entries):
        entries[find(entries, kind="trigger", id="T2")]["event"] = "E1"
    assert "mtg.reflexive" in broken("mtg-603-12-manticore-sacrifices", surgery)


def _leaving_scenario():
    """P3 (3 life) has a trigger on the stack when P1's trigger, resolving first, deals P3 5 damage."""
    return scenario(["P1", "P2", "P3"], "P2",
                    [obj("X", "P3", abilities=[ability("A1", S1, [{"do": "signal", "name": "late"}])]),
                     obj("Y", "P1", abilities=[ability("A2", S1, [{"do": "damage", "player": "P3", "amount": 5}])]),
                     obj("Z", "P2", abilities=[ability("A3", {"event": "player_leaves"})])],
                    [("P2", [{"do": "signal", "name": "s1"}])], life={"P3": 3})


def test_player_leaves_removes_their_abilities_and_keeps_the_rest():
    prepared = _leaving_scenario()
    trace = play(prepared)
    entries = trace["entries"]
    leave = find(entries, kind="event", type="player_leaves")
    assert entries[leave]["cause"]["sba"]  # 704.5a, then 800.4a
    removed = find(entries, kind="removed", reason="player_left")
    assert entries[removed]["trigger"] == "T1" and removed > leave
    assert "T1" not in [e.get("trigger") for e in entries if e["kind"] == "resolve_begin"]
    assert any(e["kind"] == "trigger" and e["ability"] == "A3" for e in entries)  # 603.9-style trigger of others
    assert violations(prepared, trace) == {}
    assert exercised(prepared, trace)["mtg.player-leaves"] == 1
    del entries[removed]
    assert "did not cease to exist" in violations(prepared, trace)["mtg.player-leaves"][0]


@pytest.mark.parametrize("key", [inv.key for inv in MTG.invariants])
def test_every_invariant_is_broken_by_some_test_here(key):
    """A guard: the tests above name every rule key (keep them in step when a key is added)."""
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    assert f'"{key}"' in source
