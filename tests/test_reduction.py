"""The scenario-level reduction passes of :mod:`conformance.shrinking.reduction`, each on its own: what it yields on a small
scenario written here, that a reduction only ever keeps well-formed scenarios, and, on failures of bundled faulty
engines that the plain removals left too large (``tests/data/reduction_starts.json``), that the pass is what takes
the failure down to its recorded minimal size (with the pass switched off, the reduction stops above it)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from conformance.shrinking import reduction
from conformance.running.audit import mutant_config
from conformance.documents.fixture_files import bundled_fixtures
from conformance.shrinking.reduction import candidates, reduce_scenario, reductions, rewrites, scenario_size, well_formed
from conformance.running.concluding import _fails as run_fails, check_rule
from reference_engine.kernel.registry import reference_engine_for
from reference_engine.kernel.registry import MUTANTS
from reference_engine.kernel.registry import get_ruleset

DATA = Path(__file__).resolve().parent / "data"
STARTS = json.loads((DATA / "reduction_starts.json").read_text("utf-8"))["examples"]
MINIMAL = json.loads((DATA / "mutant_minimal_scenarios.json").read_text("utf-8"))
EDITIONS = {"mtg": "2026-02-27", "momon-wonder": "1.0.0", "redemption": "reg-glossary"}


def scenario(ruleset: str, objects: list, script: list, players=("P1", "P2")) -> dict:
    return {"format": "trigger-conformance/scenario/1", "ruleset": ruleset, "edition": EDITIONS[ruleset],
            "players": list(players), "active_player": players[0], "objects": objects,
            "script": [{"step": "step-1" if ruleset == "momon-wonder" else "upkeep",
                        "actions": [{"by": players[0], "effect": script}]}]}


def mutant_fails(name: str):
    mutant = MUTANTS[name]
    inv = get_ruleset(mutant.ruleset).invariant(mutant.expected_rule_key)
    return run_fails(mutant.factory(), mutant_config(name), inv, reference_engine_for(mutant.ruleset))


def test_zones_changed_starts_an_object_in_each_other_zone_of_its_ruleset():
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field"}], [{"do": "signal", "name": "s1"}])
    changed = list(reduction._zones_changed(doc))
    assert sorted(c["objects"][0]["zone"] for c in changed) == sorted(
        get_ruleset("mtg").vocabulary.zones - {"field"})
    assert all(scenario_size(c) == scenario_size(doc) and {**c, "objects": doc["objects"]} == doc for c in changed)
    assert all(c in list(rewrites(doc)) for c in changed)


def test_abilities_hoisted_moves_an_effect_next_to_the_signal_that_sets_it_off():
    ability = {"id": "A1", "trigger": {"event": "signal", "name": "s0"},
               "effect": [{"do": "summon", "object": "H1", "succeeds": True}]}
    summon = ability["effect"][0]
    doc = scenario("momon-wonder", [{"id": "F1", "owner": "P1", "zone": "field", "abilities": [ability]},
                                    {"id": "H1", "owner": "P1", "zone": "hand"}], [{"do": "signal", "name": "s0"}])
    hoisted = list(reduction._abilities_hoisted(doc))
    scripts = [h["script"][0]["actions"][0]["effect"] for h in hoisted]
    assert scripts == [[summon, {"do": "signal", "name": "s0"}], [{"do": "signal", "name": "s0"}, summon]]
    assert all(h["objects"][0]["abilities"] == [] and well_formed(h) for h in hoisted)
    assert all(h in list(rewrites(doc)) for h in hoisted)  # one ability for one scripted action: the same size
    # From another ability's effect (where actions are not counted) the hoist makes the scenario smaller.
    relay = {"id": "A2", "trigger": {"event": "signal", "name": "s9"}, "effect": [{"do": "signal", "name": "s0"}]}
    doc["objects"][0]["abilities"].append(relay)
    doc["script"][0]["actions"][0]["effect"] = [{"do": "signal", "name": "s9"}]
    smaller = [c for c in candidates(doc) if scenario_size(c) < scenario_size(doc)
               and c["objects"][0].get("abilities") == [{**relay, "effect": [summon, {"do": "signal", "name": "s0"}]}]]
    assert smaller and all(well_formed(c) for c in smaller)


def test_an_ability_that_would_set_itself_off_again_is_not_hoisted():
    ability = {"id": "A1", "trigger": {"event": "signal", "name": "s0"}, "effect": [{"do": "signal", "name": "s0"}]}
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [ability]}],
                   [{"do": "signal", "name": "s0"}])
    assert list(reduction._abilities_hoisted(doc)) == []


def test_triggers_changed_makes_a_signal_trigger_each_other_kind_of_its_ruleset_or_another_signal():
    doc = scenario("redemption", [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A1", "trigger": {"event": "signal", "name": "s2"}, "effect": []}]}],
                   [{"do": "gain_control", "object": "C1", "player": "P2"}, {"do": "signal", "name": "s2"}])
    triggers = [c["objects"][0]["abilities"][0]["trigger"] for c in reduction._triggers_changed(doc)]
    events = get_ruleset("redemption").vocabulary.trigger_events - {"signal"}
    assert {t["event"] for t in triggers} == events and {"event": "control", "subject": "self"} in triggers
    assert all(well_formed(c) for c in reduction._triggers_changed(doc))
    # Another signal the scenario sends: the ability may wait for that one instead.
    doc["script"][0]["actions"][0]["effect"].append({"do": "signal", "name": "s5"})
    triggers = [c["objects"][0]["abilities"][0]["trigger"] for c in reduction._triggers_changed(doc)]
    assert {"event": "signal", "name": "s5"} in triggers and {"event": "signal", "name": "s2"} not in triggers


def test_signal_stand_ins_make_a_trigger_and_an_action_one_new_signal():
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field"},
                           {"id": "C2", "owner": "P2", "zone": "field", "abilities": [
                               {"id": "A1", "trigger": {"event": "leave", "subject": "any"}, "effect": []}]}],
                   [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}])
    (changed,) = reduction._signal_stand_ins(doc)
    assert changed["objects"][1]["abilities"][0]["trigger"] == {"event": "signal", "name": "s1"}
    assert changed["script"][0]["actions"][0]["effect"] == [{"do": "signal", "name": "s1"}]
    assert well_formed(changed)
    # C1, which only the replaced action named, can then go: a smaller scenario the plain removals could not reach.
    assert any(c["objects"] == changed["objects"][1:] for c in candidates(changed))


def test_objects_folded_merges_an_object_into_one_unlike_it():
    doc = scenario("redemption", [
        {"id": "C1", "owner": "P1", "zone": "field"},
        {"id": "H1", "owner": "P1", "zone": "hand", "abilities": [
            {"id": "A1", "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
             "condition": {"test": "in_zone", "object": "C1", "zone": "field"}, "effect": []}]}],
        [{"do": "play", "object": "H1"}])
    folded = list(reduction._objects_folded(doc))
    into_h1 = [f for f in folded if [o["id"] for o in f["objects"]] == ["H1"]]
    assert len(folded) == 2 and len(into_h1) == 1
    assert into_h1[0]["objects"][0]["abilities"][0]["condition"]["object"] == "H1" and well_formed(into_h1[0])
    assert scenario_size(into_h1[0]) == scenario_size(doc) - 1


def test_a_summon_naming_its_own_monster_again_is_refused_and_a_fold_never_writes_one():
    """A lint-rules minimal scenario read "Alice summons Watcher and Watcher": folding the other monster of a Summon
    into the summoned one left its ``also`` naming the summoned monster itself. One monster summoned together with
    itself is one monster summoned: the scenario is refused with a clear message, and the fold drops the repeat."""
    from conformance.documents.scenarios import prepare_scenario
    from reference_engine.kernel.errors import ConformanceError

    doc = scenario("momon-wonder", [{"id": "W", "owner": "P1", "zone": "hand"},
                                    {"id": "V", "owner": "P1", "zone": "hand"}],
                   [{"do": "summon", "object": "W", "also": ["V"], "succeeds": True}])
    assert well_formed(doc)
    for also, said in ((["W"], "'W' is the Summon's own monster (object)"), (["V", "V"], "'V' is named twice")):
        twice = copy.deepcopy(doc)
        twice["script"][0]["actions"][0]["effect"][0]["also"] = also
        assert not well_formed(twice)
        with pytest.raises(ConformanceError, match=re.escape(said)):
            prepare_scenario(twice, "a scenario")
    folded = list(reduction._objects_folded(doc))
    assert len(folded) == 1 and well_formed(folded[0])  # V folded into W, alike (the pair is tried one way)
    assert folded[0]["script"][0]["actions"][0]["effect"][0] == {"do": "summon", "object": "W", "succeeds": True}


def test_simpler_abilities_and_objects_drop_one_qualifier_or_description_at_a_time():
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field", "types": ["creature"], "abilities": [
        {"id": "A1", "trigger": {"event": "signal", "name": "s1"}, "optional": True, "effect": [],
         "target": {"candidates": ["C1"]}}]}], [{"do": "signal", "name": "s1"}])
    doc["choices"] = {"targets": {"A1": ["C1"]}}
    simpler = list(reduction._simpler_abilities(doc)) + list(reduction._simpler_objects(doc))
    assert [sorted(set(doc["objects"][0]["abilities"][0]) - set(s["objects"][0]["abilities"][0])) +
            sorted(set(doc["objects"][0]) - set(s["objects"][0])) for s in simpler] == [
        ["optional"], ["target"], ["types"]]
    assert "A1" not in simpler[1]["choices"]["targets"]  # no target, no chosen target
    assert all(well_formed(s) and scenario_size(s) == scenario_size(doc) for s in simpler)


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_every_pass_on_the_fixtures_keeps_its_promise_on_size(ruleset):
    """Over bundled fixtures: rewrites keep the size, candidates never grow it, and each kind of rewrite yields
    well-formed scenarios (the reduction plays only those: what it returns is well-formed)."""
    well = {name: 0 for name in ("_zones_changed", "_abilities_hoisted", "_triggers_changed", "_signal_stand_ins")}
    for fixture in bundled_fixtures(ruleset)[:12]:
        doc, size = fixture.scenario, scenario_size(fixture.scenario)
        assert all(scenario_size(c) <= size for c in candidates(doc)), fixture.id
        assert all(scenario_size(r) == size for r in rewrites(doc)), fixture.id
        for name in well:
            well[name] += sum(well_formed(r) for r in getattr(reduction, name)(doc))
    assert well["_zones_changed"] and well["_triggers_changed"], well


def test_reductions_are_well_formed_and_still_fail():
    doc = STARTS["redemption-control-change-ignored"]["scenario"]
    fails = mutant_fails("redemption-control-change-ignored")
    found = list(reductions(doc, fails, well_formed))
    assert found and all(well_formed(d) and fails(d) and scenario_size(d) <= scenario_size(doc) for d in found)


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", sorted(STARTS))
def test_each_pass_on_its_own_takes_the_failure_down_to_at_most_its_minimal_size_plus_one(name, monkeypatch):
    """Each pass named for the example, with the others named switched off, takes it down to at most its minimal
    size + 1; with all of them switched off, the reduction stops higher than any of them took it."""
    start, named = STARTS[name]["scenario"], STARTS[name]["passes"]
    fails = mutant_fails(name)
    assert well_formed(start) and fails(start)
    passes = {pass_name: getattr(reduction, pass_name) for pass_name in named}
    reached = []
    for kept in named:
        for pass_name, function in passes.items():
            monkeypatch.setattr(reduction, pass_name, function if pass_name == kept else lambda document: iter(()))
        reduced = reduce_scenario(copy.deepcopy(start), fails, well_formed, 120)
        assert well_formed(reduced) and fails(reduced)
        assert scenario_size(reduced) <= MINIMAL[name]["size"] + 1, kept
        assert scenario_size(reduced) < scenario_size(start), kept
        reached.append(scenario_size(reduced))
    for pass_name in named:
        monkeypatch.setattr(reduction, pass_name, lambda document: iter(()))
    without = reduce_scenario(copy.deepcopy(start), fails, well_formed, 120)
    assert scenario_size(without) > max(reached), f"without {named} it still gets there"


def test_an_if_x_y_condition_naming_no_object_is_not_well_formed():
    """Redemption's 'If X, Y' ``condition`` is checked like an intervening 'if': a reduction that removes the object
    it names leaves an inconsistent scenario, which is never played (the removal must fold the object instead)."""
    ability = {"id": "A1", "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
               "condition": {"test": "in_zone", "object": "C1", "zone": "field"}, "effect": []}
    doc = scenario("redemption", [{"id": "C1", "owner": "P1", "zone": "field"},
                                  {"id": "H1", "owner": "P1", "zone": "hand", "abilities": [ability]}],
                   [{"do": "play", "object": "H1"}])
    assert well_formed(doc)
    assert not well_formed({**doc, "objects": doc["objects"][1:]})


def test_a_state_trigger_without_its_state_is_not_well_formed():
    """What a trigger rewritten to another kind may lack (MTG 603.8: the state a state trigger waits for) makes an
    inconsistent scenario, which is never played."""
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A1", "trigger": {"event": "signal", "name": "s1"}, "effect": []}]}], [{"do": "signal", "name": "s1"}])
    changed = [c for c in reduction._triggers_changed(doc)
               if c["objects"][0]["abilities"][0]["trigger"]["event"] == "state"]
    assert changed and not any(well_formed(c) for c in changed)


def _single_deletions(document: dict):
    """``document`` with one list element or one object key taken out, anywhere below the top level (the plainest
    one-step reductions there are, written without the passes' knowledge of the format)."""

    def paths(value, path=()):
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, inner in items:
            yield path + (key,)
            yield from paths(inner, path + (key,))

    for path in paths(document):
        if len(path) == 1 or path[0] == "options":
            continue
        smaller = copy.deepcopy(document)
        parent = smaller
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        yield smaller


# Redemption faulty engines whose counterexample at seed 0, as `trigger-conformance run --engine mutant:NAME
# --ruleset redemption` shows it, was larger than needed before the passes above: 4 for 3 (an object only named by
# an 'If X, Y' condition the failure does not need), 6 for 3 (a control change reached through signals and another
# card's ability, where the card's own trigger on the change does), 4 for 3 (an optional trigger on a signal sent
# just before its card is discarded, where a trigger on the discard does), 5 for 4 (a second signal for a second
# trigger, where both can wait for the first).
SEED_0 = ["redemption-if-x-y-pending", "redemption-control-change-ignored", "redemption-optional-after-discard",
          "redemption-negates-whole-card"]


@pytest.mark.first_quick  # the first quick, the repeats slow (issue 26)
@pytest.mark.parametrize("name", SEED_0)
def test_the_seed_0_counterexample_is_minimal_and_loses_nothing_to_a_single_deletion(name):
    mutant = MUTANTS[name]
    inv = get_ruleset(mutant.ruleset).invariant(mutant.expected_rule_key)
    result = check_rule(mutant.factory(), reference_engine_for(mutant.ruleset), mutant_config(name, seed=0), inv)
    document, fails = result.failure.scenario, mutant_fails(name)
    size = scenario_size(document)
    assert size <= MINIMAL[name]["size"]
    kept = [d for d in _single_deletions(document) if well_formed(d) and scenario_size(d) < size and fails(d)]
    assert kept == [], json.dumps(kept[0], sort_keys=True)


def test_actions_sunk_moves_a_scripted_action_into_an_ability_an_earlier_signal_sets_off():
    ability = {"id": "A1", "trigger": {"event": "signal", "name": "s1"}, "effect": []}
    gain = {"do": "gain_control", "object": "C1", "player": "P2"}
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [ability]}],
                   [{"do": "signal", "name": "s1"}])
    doc["script"][0]["actions"].append({"by": "P1", "effect": [gain]})
    (sunk,) = reduction._actions_sunk(doc)
    assert sunk["objects"][0]["abilities"][0]["effect"] == [gain]
    assert sunk["script"][0]["actions"] == doc["script"][0]["actions"][:1]
    assert well_formed(sunk) and scenario_size(sunk) == scenario_size(doc) - 1 and sunk in list(candidates(doc))
    # Nothing sets the ability off before the signal itself: the signal is not moved into it.
    doc["script"][0]["actions"].reverse()
    assert list(reduction._actions_sunk(doc)) == []


def test_defaults_restored_puts_back_one_value_at_a_time_and_each_lowers_the_non_default_count():
    """Issue 10 (a fresh user's report): options, starting life totals, amounts, turns and the active player's seat
    go back to their defaults, one per candidate, the size staying the same and :func:`non_default_values` lower."""
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field",
                            "additional_triggers": {"times": 2}}],
                   [{"do": "damage", "amount": 3, "player": "P1"}, {"do": "life", "player": "P2", "amount": -2}],
                   players=("P1", "P2", "P3"))
    doc.update(active_player="P2", life={"P1": 3}, options={
        "once_each_turn_taken": "when-performed", "controller_off_battlefield": "last-known",
        "departed_delayed": "cease"})
    doc["script"][0]["turn"] = 2
    assert well_formed(doc) and reduction.non_default_values(doc) == 2 + (1 + 1) + 2 + 1 + 1 + (1 + 1) + 1
    restored = list(reduction._defaults_restored(doc))
    assert all(scenario_size(c) == scenario_size(doc) for c in restored)
    assert all(reduction.non_default_values(c) < reduction.non_default_values(doc) for c in restored)
    assert all(c in list(candidates(doc)) for c in restored)
    changes = sorted(json.dumps({k: v for k, v in c.items() if v != doc.get(k)}, sort_keys=True) for c in restored)
    options = doc["options"]
    assert json.dumps({"options": {**options, "once_each_turn_taken": "unless-declined"}}, sort_keys=True) in changes
    assert json.dumps({"options": {**options, "controller_off_battlefield": "owner"}}, sort_keys=True) in changes
    assert any("life" not in c for c in restored)
    amounts = sorted(a["amount"] for c in restored for a in c["script"][0]["actions"][0]["effect"] if a != doc[
        "script"][0]["actions"][0]["effect"][0] and a != doc["script"][0]["actions"][0]["effect"][1])
    assert amounts == [-1, 1, 2]  # the loss of 2 goes to a loss of 1 (never a gain), the damage of 3 to 1 or 2
    assert sum("turn" not in c["script"][0] for c in restored) == 1
    assert sum(c["script"][0].get("turn") == 1 for c in restored) == 1
    assert [c["objects"][0]["additional_triggers"] for c in restored if c["objects"] != doc["objects"]] == [
        {"times": 1}]
    assert {(c["active_player"], tuple(c["players"])) for c in restored if c["active_player"] != "P2"
            or c["players"] != doc["players"]} == {("P1", ("P1", "P2", "P3")), ("P2", ("P2", "P1", "P3"))}
    # An option the run fixed is not reset.
    pinned = list(reduction._defaults_restored(doc, pinned={"once_each_turn_taken"}))
    assert all(c["options"]["once_each_turn_taken"] == "when-performed" for c in pinned)
    assert len(pinned) == len(restored) - 1


def test_a_reduction_with_nothing_to_remove_still_ends_with_every_value_at_its_default():
    """Same-size simplifications make progress: with every candidate kept, the reduction ends (with no time budget
    left to stop it: it runs out of candidates) on a document with no value left off its default."""
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field"}],
                   [{"do": "damage", "amount": 4, "player": "P2"}])
    doc.update(active_player="P2", life={"P1": 3, "P2": 7}, options={"once_each_turn_taken": "on-resolution"})
    calls = []

    def fails(document):
        calls.append(1)
        return True

    def valid(document):  # only the values may change: the scenario keeps every piece
        return well_formed(document) and scenario_size(document) == scenario_size(doc) and len(
            document["players"]) == 2 and document["script"][0]["actions"][0]["effect"][0].get("do") == "damage"

    reduced = reduce_scenario(copy.deepcopy(doc), fails, valid, 3600)
    assert reduction.non_default_values(reduced) == 0
    assert reduced["options"] == {"once_each_turn_taken": "unless-declined"} and "life" not in reduced
    assert reduced["active_player"] == reduced["players"][0]
    assert reduced["script"][0]["actions"][0]["effect"][0]["amount"] == 1


def test_a_delayed_trigger_counterexample_loses_its_irrelevant_life_total_and_options():
    """The fresh user's case: an ``mtg.delayed-trigger`` counterexample holding ``life: {P1: 3}`` and two options
    off their defaults, none of which the failure needs, is reduced to its recorded minimal scenario with the
    defaults; an option the run pinned stays."""
    name = "mtg-delayed-repeats"
    known = copy.deepcopy(MINIMAL[name]["scenario"])
    start = copy.deepcopy(known)
    start["life"] = {"P1": 3}
    start["options"].update(once_each_turn_taken="when-performed", controller_off_battlefield="last-known")
    fails = mutant_fails(name)
    assert well_formed(start) and fails(start)
    reduced = reduce_scenario(copy.deepcopy(start), fails, well_formed, 120)
    assert "life" not in reduced and reduction.non_default_values(reduced) == 0
    assert scenario_size(reduced) == MINIMAL[name]["size"]
    assert reduced["options"] == {**known["options"], "once_each_turn_taken": "unless-declined",
                                  "controller_off_battlefield": "owner"}
    kept = reduce_scenario(copy.deepcopy(start), fails, well_formed, 120, pinned={"controller_off_battlefield"})
    assert kept["options"]["controller_off_battlefield"] == "last-known" and "life" not in kept


def test_two_instructions_in_the_other_order_let_what_stood_between_them_go():
    """Found with the zone tour's stream: mw-deferred-groups-join's first failure on seed 5 stopped at this 1-minimal
    scenario for every removal (6; its minimal is 4): an ability on s0 signals s1 (whose ability signals s2, watched
    by a third) and then summons. With the summon first, the signal chain is not needed: the rewrite swapping two
    neighbouring instructions, then removals, find it."""
    signal = lambda name: {"do": "signal", "name": name}  # noqa: E731
    on = lambda aid, name, effect: {"id": aid, "trigger": {"event": "signal", "name": name}, "effect": effect}  # noqa
    summon = {"do": "summon", "object": "H1", "succeeds": True}
    stuck = scenario("momon-wonder", [
        {"id": "F1", "owner": "P1", "zone": "field", "abilities": [
            on("A1", "s1", [signal("s2")]), on("A2", "s0", [signal("s1"), summon]), on("A4", "s2", [])]},
        {"id": "H1", "owner": "P1", "zone": "hand"}], [signal("s0")], players=("P1",))
    stuck["options"] = dict(MUTANTS["mw-deferred-groups-join"].options)
    fails = mutant_fails("mw-deferred-groups-join")
    assert fails(stuck) and scenario_size(stuck) == 6
    swapped = [r for r in rewrites(stuck) if r["objects"][0]["abilities"][1]["effect"] == [summon, signal("s1")]]
    assert swapped and fails(swapped[0]) and scenario_size(swapped[0]) == 6
    assert scenario_size(reduce_scenario(stuck, fails, well_formed, 60)) <= 5


def test_arrivals_started_makes_a_created_or_moved_object_start_where_the_script_brings_it():
    """Issue 30 (a nightly shrink): a token created then moved (the zone tour's set piece) goes back, one scripted
    instruction at a time, to starting where it ends up; a move from another zone than the object's is left."""
    token = {"id": "Z1", "owner": "P1", "zone": "uncreated", "token": True}
    doc = scenario("mtg", [token, {"id": "C1", "owner": "P1", "zone": "graveyard"}],
                   [{"do": "create_token", "objects": ["Z1"]}, {"do": "move", "object": "Z1", "from": "field",
                                                                "to": "graveyard"},
                    {"do": "move", "object": "C1", "from": "hand", "to": "exile"}])
    (created,) = reduction._arrivals_started(doc)
    assert created["objects"][0]["zone"] == "field" and created["objects"][1] == doc["objects"][1]
    assert created["script"][0]["actions"][0]["effect"] == doc["script"][0]["actions"][0]["effect"][1:]
    (moved,) = reduction._arrivals_started(created)
    assert moved["objects"][0]["zone"] == "graveyard" and len(moved["script"][0]["actions"][0]["effect"]) == 1
    assert all(well_formed(d) and d in list(candidates(p)) and scenario_size(d) == scenario_size(p) - 1
               for p, d in ((doc, created), (created, moved)))
    # One of several moved together leaves the list only; the script's last step stays, empty.
    doc["script"][0]["actions"][0]["effect"] = [{"do": "move_together", "objects": ["C1", "Z1"],
                                                 "from": "graveyard", "to": "exile"}]
    (together,) = reduction._arrivals_started(doc)
    assert together["objects"][1]["zone"] == "exile" and together["script"][0]["actions"][0]["effect"] == [
        {"do": "move_together", "objects": ["Z1"], "from": "graveyard", "to": "exile"}]
    (alone,) = reduction._arrivals_started({**doc, "objects": doc["objects"][1:], "script": [
        {"step": "upkeep", "actions": [{"by": "P1", "effect": [{"do": "move", "object": "C1", "to": "exile"}]}]}]})
    assert alone["script"] == [{"step": "upkeep", "actions": []}] and well_formed(alone)


def test_a_state_triggers_effect_is_hoisted_after_an_action_naming_what_its_state_watches():
    """A state trigger (603.8) exiling a card once it is in a graveyard: its effect goes just after each action
    naming that card (where the state may become true), never before, and not after an action naming nothing it
    watches."""
    exile = {"do": "move", "object": "C2", "from": "graveyard", "to": "exile"}
    ability = {"id": "A1", "trigger": {"event": "state", "state": {"test": "in_zone", "object": "C2",
                                                                   "zone": "graveyard"}}, "effect": [exile]}
    bury = {"do": "move", "object": "C2", "from": "field", "to": "graveyard"}
    gain = {"do": "life", "player": "P1", "amount": 1}
    doc = scenario("mtg", [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [ability]},
                           {"id": "C2", "owner": "P1", "zone": "field"}], [gain, bury])
    (hoisted,) = reduction._abilities_hoisted(doc)
    assert hoisted["script"][0]["actions"][0]["effect"] == [gain, bury, exile]
    assert hoisted["objects"][0]["abilities"] == [] and well_formed(hoisted) and hoisted in list(rewrites(doc))
    doc["objects"][0]["abilities"][0]["once_each_turn"] = True  # more than a plain state trigger: left alone
    assert list(reduction._abilities_hoisted(doc)) == []
