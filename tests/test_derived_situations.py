"""Issue 30 item 1: the situation goals are derived from each ruleset's vocabulary (its schema fragment) and from what
its invariants observe, not listed by hand; a new word yields its situations with no other edit, the registry refuses
a word with no situation, and ``coverage`` names every derived situation never reached with the reason."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from conformance.commands import cli
from reference_engine.kernel import schemas
from reference_engine.kernel.derived import derive, derived_situations, impossible_situations, seen, \
    unexplained_words
from reference_engine.kernel.registry import LoadedUnit, derived, get_ruleset, units
from reference_engine.kernel.situations import AT_LEAST_ONCE
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.unit import UnitError, unit


def _composed(name: str, fragment: dict) -> dict:
    return schemas.compose(schemas.kernel_schema("scenario"), [(name, fragment)])


def _names(found) -> set[str]:
    return {d.situation.name for d in found}


def test_a_word_added_to_a_copy_of_a_fragment_yields_its_situations():
    ruleset = get_ruleset("mtg")
    fragment = copy.deepcopy(schemas.schema_fragment(unit("mtg"), "scenario"))
    before = derive(_composed("mtg", fragment), ruleset.vocabulary, ruleset.invariants)
    fragment["$defs"]["event_type"]["enum"].append("explode")
    fragment["$defs"]["trigger_condition"]["properties"]["colour"] = {"type": "string"}
    after = derive(_composed("mtg", fragment), ruleset.vocabulary, ruleset.invariants)
    new = _names(after) - _names(before)
    keys = [inv.key for inv in ruleset.invariants]
    assert {"event:explode", "filter:colour"} <= new
    assert {f"{key} x event:explode" for key in keys} <= new and {f"{key} x filter:colour" for key in keys} <= new
    # Not given a meaning by MTG's vocabulary yet: impossible, with the reason, until the vocabulary has it.
    assert "not in this ruleset's vocabulary" in impossible_situations(after)["event:explode"]
    vocabulary = dataclasses.replace(ruleset.vocabulary, trigger_events=ruleset.vocabulary.trigger_events | {"explode"})
    possible = {s.name for s in derived_situations(derive(_composed("mtg", fragment), vocabulary, ruleset.invariants))}
    assert "event:explode" in possible and f"{keys[0]} x event:explode" in possible


def test_a_moving_event_kind_yields_its_pairs_with_the_watchers_zone():
    ruleset = get_ruleset("momon-wonder")
    fragment = copy.deepcopy(schemas.schema_fragment(unit("momon-wonder"), "scenario"))
    zones = schemas.compose(schemas.kernel_schema("scenario"), [("momon-wonder", fragment)])["$defs"]["zone"]["enum"]
    fragment["$defs"]["zone"] = {"enum": ["limbo"]}
    found = _names(derive(_composed("momon-wonder", fragment), ruleset.vocabulary, ruleset.invariants))
    assert {"zone:limbo", "event-watcher:leave/limbo", "from-watcher:limbo/field", "from-watcher:field/limbo"} <= found
    assert all(f"event-watcher:leave/{zone}" in found for zone in zones)


@pytest.mark.parametrize("name", sorted(units()))
def test_every_derived_situation_has_the_at_least_once_goal_and_a_unique_name(name):
    found = derived(name)
    assert len(_names(found)) == len(found)
    assert all(d.situation.goal == AT_LEAST_ONCE for d in found)
    assert not set(_names(found)) & {s.name for s in get_ruleset(name).situations}


def test_impossible_situations_say_why():
    impossible = impossible_situations(derived("redemption"))
    # exile is a zone of the kernel's schema that Redemption's vocabulary does not give a meaning to
    assert impossible["zone:exile"] == "zone word 'exile' is in the schema but not in this ruleset's vocabulary"
    assert "from-watcher:exile/field" in impossible
    assert "zone:set_aside" not in impossible
    mtg = impossible_situations(derived("mtg"))  # MTG gives a meaning to every word of its schema, not every pair
    assert not [name for name in mtg if not name.startswith(("event-watcher:", "from-watcher:"))]
    # the vocabulary's ability zones: no ability works from out of the game or before its token exists
    assert mtg["from-watcher:field/uncreated"] == "no ability works from 'uncreated' in this ruleset (its " \
        "vocabulary's ability zones: field, hand, deck, graveyard, exile, stack)"
    assert "event-watcher:leave/removed" in mtg and "from-watcher:field/stack" not in mtg
    # its final zones: nothing leaves a zone out of the game
    assert mtg["from-watcher:removed/field"] == "no object ever leaves 'removed' in this ruleset (a final zone of " \
        "its vocabulary)"
    assert "from-watcher:uncreated/field" not in mtg and "from-watcher:stack/graveyard" not in mtg


def test_the_registry_refuses_a_vocabulary_word_with_no_situation(monkeypatch):
    from reference_engine import mtg
    from reference_engine.mtg import judge

    ruleset = judge.MTG
    vocabulary = dataclasses.replace(ruleset.vocabulary, trigger_events=ruleset.vocabulary.trigger_events | {"explode"})
    monkeypatch.setattr(judge, "MTG", dataclasses.replace(ruleset, vocabulary=vocabulary))
    manifest = mtg.UNIT
    assert unexplained_words(schemas.composed_schema("scenario", ("mtg",)), vocabulary) == ["event word 'explode'"]
    with pytest.raises(UnitError, match="its vocabulary's event word 'explode' has no derived situation"):
        LoadedUnit(manifest)


def _view(scenario_objects, entries):
    scenario = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
                "players": ["P1"], "active_player": "P1", "objects": scenario_objects, "script": [], "options": {}}
    return TraceView(scenario, {"format": "trigger-conformance/trace/1", "entries": entries}, {})


def test_a_trace_shows_the_pairs_of_a_watcher_in_a_graveyard():
    watcher = {"id": "G", "owner": "P1", "zone": "graveyard", "abilities": [
        {"id": "A", "trigger": {"event": "leave", "to": "graveyard"}, "active_in": ["graveyard"], "effect": []}]}
    dying = {"id": "C", "owner": "P1", "zone": "field"}
    death = {"kind": "event", "id": "E1", "position": 1, "type": "leave", "subject": "C", "from": "field",
             "to": "graveyard", "cause": {"action": [0, 0]}}
    shown = seen(_view([watcher, dying], [death]))
    assert {("event-watcher", "leave", "graveyard"), ("from-watcher", "field", "graveyard"), ("filter", "to"),
            ("zone", "field"), ("zone", "graveyard")} <= shown
    assert ("event-watcher", "leave", "field") not in shown
    quiet = seen(_view([watcher, dying], []))
    assert not any(feature[0] in ("event-watcher", "from-watcher") for feature in quiet)


def test_coverage_prints_the_derived_situations_reached_and_never_reached(capsys):
    assert cli.main(["coverage", "--ruleset", "redemption", "--max-examples", "5"]) == 0
    out = capsys.readouterr().out
    assert "derived situations:" in out and "reached at least once" in out
    assert "never reached: zone:exile: impossible (zone word 'exile' is in the schema but not in this ruleset's " \
           "vocabulary)" in out
    assert ": not built (" in out  # five scenarios cannot reach every derived situation


def test_an_ability_working_from_a_zone_the_vocabulary_rules_out_is_a_foreign_word():
    scenario = _view([{"id": "S", "owner": "P1", "zone": "hand", "abilities": [
        {"id": "A", "trigger": {"event": "enter"}, "active_in": ["stack", "removed"], "effect": []}]}], []).scenario
    found = get_ruleset("mtg").vocabulary.foreign_words(scenario)
    assert len(found) == 1 and found[0].startswith("$.objects[0].abilities[0].active_in[1]: zone an ability works "
                                                   "from 'removed' is not part of this ruleset's vocabulary")


# -- Reached (issue 30 item 2) ---------------------------------------------------------------------------------


def _never_reached(name: str, seed: int, scenarios: int = 50) -> list[str]:
    from conformance.running.coverage import derived_missed, measure
    from conformance.running.session import RunSpec, Session

    session = Session(RunSpec(ruleset=name, engine="reference", max_examples=scenarios, seed=seed))
    try:
        session.check_engine()
        engine = session.new_engine()
        try:
            situations = derived(name)
            found = measure(engine, session.run_config(), derived_situations(situations))
        finally:
            engine.close()
    finally:
        session.close()
    return derived_missed(found, situations)


@pytest.mark.parametrize("name", sorted(units()))
def test_every_possible_derived_situation_is_reached_in_50_scenarios_of_the_default_stream(name):
    assert _never_reached(name, 0) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", sorted(units()))
def test_every_possible_derived_situation_is_reached_in_50_scenarios_of_other_seeds(name, seed):
    assert _never_reached(name, seed) == []
