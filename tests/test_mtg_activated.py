"""MTG activated abilities with costs (issue 31; 602.2, 601.2h, 603.3, 405.5): a scripted ``activate`` puts the
ability on the stack, then pays its cost (a sacrifice, a discard, life), each part an event; what the payment
triggers goes on the stack above the ability and resolves first. The reference engine plays it, the judge requires
it both ways, and the faulty engine mtg-cost-triggers-below (the payment's triggers under the ability) is caught."""

from __future__ import annotations

import copy

import pytest

from conformance.documents.scenarios import prepare_scenario
from mtg_support import ability, find, obj, play, scenario, violations
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.errors import ScenarioError

ALTAR_COST = [{"pay": "sacrifice", "object": "C"}, {"pay": "discard", "object": "H"}, {"pay": "life", "amount": 2}]


def _altar(cost=ALTAR_COST, life=None, by="P1", actions=None):
    """P1's ALTAR: '{cost}: you gain 5 life'. C, a creature: 'when this dies, it deals 1 damage to P2'; W: 'whenever
    a card is put into a graveyard from a hand, signal discarded'; H, a card in P1's hand."""
    altar = obj("ALTAR", "P1", types=["artifact"], activated=[
        {"id": "X", "cost": list(cost), "effect": [{"do": "life", "player": "P1", "amount": 5}]}])
    creature = obj("C", "P1", types=["creature"], abilities=[ability(
        "D", {"event": "leave", "subject": "self", "to": "graveyard"}, [{"do": "damage", "player": "P2", "amount": 1}])])
    watcher = obj("W", "P1", abilities=[ability("M", {"event": "move", "from": "hand", "to": "graveyard"},
                                                [{"do": "signal", "name": "discarded"}])])
    extra = {"life": life} if life else {}
    return scenario(["P1", "P2"], "P1", [altar, creature, watcher, obj("H", "P1", zone="hand")],
                    actions or [(by, [{"do": "activate", "object": "ALTAR", "ability": "X"}])], **extra)


def _order(entries):
    return [e.get("trigger") or e.get("activated") for e in entries
            if e["kind"] in ("resolve_begin", "activated_resolve_begin")]


def test_the_ability_goes_on_the_stack_before_its_cost_is_paid_and_the_cost_triggers_resolve_first():
    prepared = _altar()
    trace = play(prepared)
    entries = trace["entries"]
    activate = find(entries, kind="activate")
    assert entries[activate]["source"] == "ALTAR" and entries[activate]["player"] == "P1"
    sacrifice = find(entries, kind="event", type="leave", subject="C")
    discard = find(entries, kind="event", type="move", subject="H")
    paid = find(entries, kind="event", type="life", amount=-2)
    assert activate < sacrifice < discard < paid < find(entries, kind="action_end")  # 602.2a, then 601.2h
    assert entries[sacrifice]["cause"] == {"action": [0, 0]}
    order = _order(entries)
    assert order[-1] == entries[activate]["id"] and len(order) == 3  # D and M above it, resolved first
    gain = find(entries, kind="event", type="life", amount=5)
    assert entries[gain]["cause"] == {"activated": entries[activate]["id"]}
    assert violations(prepared, trace) == {}


@pytest.mark.parametrize("cost, life, by", [
    ([{"pay": "life", "amount": 21}], None, "P1"),  # 119.4: more life than P1 has
    ([{"pay": "sacrifice", "object": "H"}], None, "P1"),  # H is not on the battlefield
    ([{"pay": "discard", "object": "C"}], None, "P1"),  # C is not in a hand
    ([{"pay": "sacrifice", "object": "C"}, {"pay": "sacrifice", "object": "C"}], None, "P1"),  # C twice
    (ALTAR_COST, None, "P2"),  # only its controller activates it (602.2)
])
def test_an_ability_whose_cost_cannot_be_paid_is_not_activated(cost, life, by):
    prepared = _altar(cost, life, by)
    trace = play(prepared)
    assert not [e for e in trace["entries"] if e["kind"] in ("activate", "event")]
    assert violations(prepared, trace) == {}


def test_paying_life_down_to_zero_is_allowed_and_the_player_then_loses():
    prepared = _altar([{"pay": "life", "amount": 3}], {"P1": 3})
    trace = play(prepared)
    entries = trace["entries"]
    assert find(entries, kind="activate") < find(entries, kind="event", type="player_leaves", player="P1")
    assert find(entries, kind="activated_removed", reason="player_left")  # 800.4a
    assert violations(prepared, trace) == {}


def _faulty(name, prepared):
    from reference_engine.kernel.registry import MUTANTS

    return MUTANTS[name].factory().run(prepared, ScenarioChooser(prepared))


def test_the_cost_triggers_under_the_ability_are_caught():
    prepared = _altar()
    trace = _faulty("mtg-cost-triggers-below", prepared)
    order = _order(trace["entries"])
    assert order[0].startswith("A")  # the faulty engine resolves the ability first
    found = violations(prepared, trace)
    assert "mtg.stack-lifo" in found, found


def _broken(mutate):
    prepared = _altar()
    trace = play(prepared)
    entries = copy.deepcopy(trace["entries"])
    mutate(entries)
    return violations(prepared, dict(trace, entries=entries))


def test_the_judge_requires_the_activation_before_its_cost():
    def late(entries):
        k = find(entries, kind="activate")
        entry = entries.pop(k)
        entries.insert(find(entries, kind="action_end"), entry)
    assert "mtg.resolution-effect" in _broken(late)


def test_the_judge_requires_the_activation_and_its_cost():
    def dropped(entries):  # never activated: nothing of it on the stack either
        begin = find(entries, kind="activated_resolve_begin")
        del entries[begin:begin + 3]
        del entries[find(entries, kind="activate")]
    found = _broken(dropped)
    assert "mtg.resolution-effect" in found

    def unpaid(entries):
        del entries[find(entries, kind="event", type="life", amount=-2)]
    assert "mtg.resolution-effect" in _broken(unpaid)


def test_the_judge_requires_the_ability_to_resolve_and_do_its_effect():
    def never(entries):
        begin = find(entries, kind="activated_resolve_begin")
        del entries[begin:begin + 3]
    assert "mtg.stack-lifo" in _broken(never)

    def nothing(entries):
        del entries[find(entries, kind="event", type="life", amount=5)]
    assert "mtg.resolution-effect" in _broken(nothing)


def test_the_judge_forbids_removing_an_activated_ability_of_a_player_still_in_the_game():
    def removed(entries):
        begin = find(entries, kind="activated_resolve_begin")
        entries[begin:begin + 3] = [{"kind": "activated_removed", "activated": entries[begin]["activated"],
                                     "reason": "player_left"}]
    assert "mtg.stack-lifo" in _broken(removed)


def test_the_scenario_must_name_a_printed_activated_ability():
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
           "players": ["P1"], "active_player": "P1", "objects": [{"id": "A", "owner": "P1", "zone": "field"}],
           "script": [{"step": "main", "actions": [{"by": "P1", "effect": [
               {"do": "activate", "object": "A", "ability": "nope"}]}]}]}
    with pytest.raises(ScenarioError, match="no activated ability"):
        prepare_scenario(doc, "test")


def test_the_fixture_from_forge_10622_resolves_the_cost_triggers_first_and_catches_the_faulty_engine():
    from mtg_support import fixture

    prepared, expected = fixture("mtg-vocab-602-2-sacrifice-cost-triggers")
    entries = expected["entries"]
    assert _order(entries) == ["T1", "A1", "T2", "T3", "A2"]  # SC's before EB's ability, WT's before MD's
    assert len([e for e in entries if e["kind"] == "activate"]) == 2  # EB gone: the third activation does nothing
    assert violations(prepared, expected) == {}
    assert "mtg.stack-lifo" in violations(prepared, _faulty("mtg-cost-triggers-below", prepared))


def test_the_judge_forbids_an_activation_outside_a_scripted_action():
    def outside(entries):
        k = find(entries, kind="activate")
        entry = entries.pop(k)
        entries.insert(find(entries, kind="sba_check"), entry)  # after the action ended
    assert "mtg.resolution-effect" in _broken(outside)


def test_an_activated_ability_creating_a_delayed_ability_is_refused_not_ignored():
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
           "players": ["P1"], "active_player": "P1", "objects": [{"id": "A", "owner": "P1", "zone": "field", "activated": [
               {"id": "X", "cost": [{"pay": "life", "amount": 1}], "effect": [{"do": "create_delayed", "ability": {
                   "id": "D", "trigger": {"event": "signal", "name": "s"}, "effect": []}}]}]}],
           "script": [{"step": "main", "actions": [{"by": "P1", "effect": [
               {"do": "activate", "object": "A", "ability": "X"}]}]}]}
    with pytest.raises(ScenarioError, match="not in the MTG vocabulary yet"):
        prepare_scenario(doc, "test")
