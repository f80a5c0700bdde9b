"""MTG combat damage as distinct from noncombat damage (issue 31; 120.2a-b, 510.2): a scripted action's damage marked
``combat`` (the combat damage step's) and a trigger's ``combat`` filter ("deals combat damage", "noncombat damage"),
played by the reference engine and judged both ways: an ability reading combat damage as any damage triggers too
often, an engine dropping or adding the mark on an event is caught by mtg.resolution-effect."""

from __future__ import annotations

import pytest

from conformance.documents.scenarios import prepare_scenario
from mtg_support import ability, obj, play, scenario, violations
from reference_engine.kernel.errors import ScenarioError
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import MUTANTS


def _faulty_trace(name, prepared):
    return MUTANTS[name].factory().run(prepared, ScenarioChooser(prepared))


def _slith(filter_value: bool, together: bool) -> dict:
    """P1's S: 'Whenever this creature deals combat damage to a player, you gain 1 life' (``filter_value`` False:
    'noncombat damage'). An ability-like scripted action: S deals 1 damage to P2 (noncombat); then combat damage: S
    deals 2 to P2 (``together``: with X's 1 to P2, in one event)."""
    watcher = ability("AS", {"event": "damage", "subject": "self", "player": "opponent", "combat": filter_value},
                      [{"do": "life", "player": "P1", "amount": 1}])
    combat = ({"do": "damage_together", "combat": True, "hits": [{"source": "S", "player": "P2", "amount": 2},
                                                                  {"source": "X", "player": "P2", "amount": 1}]}
              if together else {"do": "damage", "source": "S", "player": "P2", "amount": 2, "combat": True})
    return scenario(["P1", "P2"], "P1",
                    [obj("S", "P1", types=["creature"], abilities=[watcher]), obj("X", "P1", types=["creature"])],
                    [("P1", [{"do": "damage", "source": "S", "player": "P2", "amount": 1}]), ("P1", [combat])])


def _damage(trace):
    return [e for e in trace["entries"] if e["kind"] == "event" and e["type"] == "damage"]


@pytest.mark.parametrize("together", [False, True])
@pytest.mark.parametrize("filter_value", [True, False])
def test_combat_filter_reads_the_events_mark_and_the_judge_requires_it_both_ways(filter_value, together):
    prepared = _slith(filter_value, together)
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    damage = _damage(trace)
    assert [bool(e.get("combat")) for e in damage] == [False, True] + [True] * together
    wanted = damage[1]["id"] if filter_value else damage[0]["id"]
    assert [t["event"] for t in trace["entries"] if t["kind"] == "trigger"] == [wanted]
    found = violations(prepared, _faulty_trace("mtg-combat-read-as-any-damage", prepared))
    said = " ".join(found.get("mtg.triggers-when-satisfied", ()))
    wrong = damage[0]["id"] if filter_value else damage[1]["id"]
    assert "too many" in said and wrong in said, found


@pytest.mark.parametrize("change", ["drop", "add"])
def test_the_combat_mark_on_an_event_is_the_scripts_both_ways(change):
    """A trace leaving the mark off the combat damage, or putting it on the noncombat damage, is flagged by
    mtg.resolution-effect (the judge replays the script: an action's damage is combat damage only when it says so)."""
    prepared = _slith(True, False)
    trace = play(prepared)
    noncombat, combat = _damage(trace)
    if change == "drop":
        del combat["combat"]
    else:
        noncombat["combat"] = True
    assert "mtg.resolution-effect" in violations(prepared, trace)


def test_a_dealt_damage_trigger_reads_the_mark_too():
    """'Whenever this creature is dealt combat damage': W is dealt noncombat, then combat damage; it triggers once."""
    watcher = ability("AW", {"event": "dealt_damage", "subject": "self", "combat": True},
                      [{"do": "life", "player": "P1", "amount": 1}])
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("W", "P1", types=["creature"], toughness=9, abilities=[watcher]),
                         obj("Y", "P2", types=["creature"], toughness=9)],
                        [("P1", [{"do": "damage", "source": "Y", "object": "W", "amount": 1}]),
                         ("P1", [{"do": "damage", "source": "Y", "object": "W", "amount": 1, "combat": True}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert [t["event"] for t in trace["entries"] if t["kind"] == "trigger"] == [_damage(trace)[1]["id"]]
    assert "mtg.triggers-when-satisfied" in violations(prepared, _faulty_trace("mtg-combat-read-as-any-damage",
                                                                               prepared))


def _doc(objects, effect):
    return {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
            "players": ["P1", "P2"], "active_player": "P1", "objects": objects,
            "script": [{"step": "main", "actions": [{"by": "P1", "effect": effect}]}]}


def test_combat_damage_is_a_scripted_actions_only_and_the_filter_is_on_damage_only():
    """An ability's effect dealing combat damage is refused (510.2: the combat damage step deals it); so is a
    ``combat`` filter on a trigger that hears no damage."""
    dealing = ability("A", {"event": "signal", "name": "go"},
                      [{"do": "damage", "player": "P2", "amount": 1, "combat": True}])
    with pytest.raises(ScenarioError, match="combat damage step"):
        prepare_scenario(_doc([obj("S", "P1", abilities=[dealing])], [{"do": "signal", "name": "go"}]), "t")
    odd = ability("B", {"event": "enter", "combat": True}, [{"do": "life", "player": "P1", "amount": 1}])
    with pytest.raises(ScenarioError, match="damage and dealt_damage triggers only"):
        prepare_scenario(_doc([obj("S", "P1", abilities=[odd])], [{"do": "signal", "name": "go"}]), "t")


def test_the_editors_words_say_combat_and_noncombat_damage():
    """The editors' plain words (conformance/editors/words.py) name the kind of damage, in the trigger and the action."""
    from conformance.editors.words import Describer
    from mtg_support import fixture
    from reference_engine.kernel.registry import get_ruleset

    prepared, _ = fixture("mtg-vocab-510-2-combat-damage")
    text = "\n".join(Describer(prepared).scenario_lines(get_ruleset("mtg")))
    assert "whenever combat damage is dealt" in text and "whenever noncombat damage is dealt" in text, text
    assert "Vivi Ornitier deals 2 combat damage to Alice" in text and "deals 1 damage to Alice" in text, text


@pytest.mark.parametrize("report", ["br-xmage-3919-grenzo-noncombat", "br-xmage-4026-arcbound-slith-combat-only"])
def test_the_real_reports_the_word_made_expressible_catch_xmages_reading(report):
    """Both XMage reports (tests/data/bug-reports) played by the reference engine pass; XMage's reading (the
    ``combat`` filter ignored) triggers on the noncombat damage too and is flagged."""
    import json
    from pathlib import Path

    document = json.loads((Path(__file__).parent / "data" / "bug-reports" / f"{report}.json").read_text("utf-8"))
    prepared = prepare_scenario(document, report)[1]
    assert violations(prepared, play(prepared)) == {}
    found = violations(prepared, _faulty_trace("mtg-combat-read-as-any-damage", prepared))
    assert "too many" in " ".join(found.get("mtg.triggers-when-satisfied", ())), found


def test_a_delayed_ability_reads_the_combat_filter_too():
    """'Whenever a creature deals combat damage this turn, you gain 1 life', created by S's ability on a signal: the
    noncombat damage after it does not trigger it, the combat damage does (603.7b: it lasts the turn)."""
    made = {"do": "create_delayed", "duration": "turn", "ability": {
        "id": "D", "trigger": {"event": "damage", "combat": True}, "effect": [{"do": "life", "player": "P1", "amount": 1}]}}
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("S", "P1", abilities=[ability("AS", {"event": "signal", "name": "go"}, [made])]),
                         obj("X", "P1")],
                        [("P1", [{"do": "signal", "name": "go"}]),
                         ("P1", [{"do": "damage", "source": "X", "player": "P2", "amount": 1}]),
                         ("P1", [{"do": "damage", "source": "X", "player": "P2", "amount": 1, "combat": True}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    delayed = [t["event"] for t in trace["entries"] if t["kind"] == "trigger" and "delayed" in t]
    assert delayed == [_damage(trace)[1]["id"]]
    found = violations(prepared, _faulty_trace("mtg-combat-read-as-any-damage", prepared))
    assert "mtg.delayed-trigger" in found or "mtg.triggers-when-satisfied" in found, found
