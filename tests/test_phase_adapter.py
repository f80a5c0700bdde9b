"""The phase.rs adapter (the package reference_engine/mtg/phase/): registration, rendering, the generation
profile, Skipped, and scenarios where phase.rs is known to be right, with the wider subset (issue 12 item 4); targets
are in test_phase_targets.py, reflexive and delayed abilities in test_phase_created.py. Skipped as a whole when the
extra is not installed: ``pip install '.[phase]'``."""

from __future__ import annotations

import copy

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from reference_engine.kernel.engine import Skipped  # noqa: E402
from reference_engine.mtg.phase import (  # noqa: E402
    PROFILE, Names, PhaseEngine, card_text, render_ability,
)
from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.running.checking import check_scenario, play  # noqa: E402
from reference_engine.mtg.generator import build_scenario  # noqa: E402
from reference_engine.kernel.registry import builder_for  # noqa: E402
from reference_engine.kernel.source import SeededSource  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402
from phase_support import MOVE_IN, OPTIONS, enters, entries, etb, gain, judged, scenario, trace_events  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    return PhaseEngine()


def test_registered_as_an_engine_with_a_profile():
    eng = load_engine("phase", "mtg")
    assert isinstance(eng, PhaseEngine)
    assert eng.info.supports("mtg", "2026-02-27")
    assert eng.generation_profile("mtg") is PROFILE
    assert eng.generation_profile("momon-wonder") is None


def test_rendering_is_oracle_text_phase_parses():
    obj = {"id": "C1", "owner": "P1", "zone": "field"}
    ability = {"id": "A1", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"},
               "intervening_if": {"test": "life_at_least", "player": "controller", "value": 17},
               "effect": [gain("P1", 2), {"do": "damage", "amount": 1, "object": "C1"},
                          {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}]}
    text = render_ability(ability, obj)
    assert text == ("Whenever another creature dies, if you have 17 or more life, you gain 2 life. This creature "
                    "deals 1 damage to this creature. Destroy this creature.")
    face = phase.build_oracle_face({
        "name": "X", "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"], "supertypes": [], "subtypes": [],
        "text": text, "type": "Creature", "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [],
        "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [], "rulings": [], "power": "1",
        "toughness": "1"}, None)
    (trigger,) = face["triggers"]
    assert trigger["mode"] == "ChangesZone" and trigger["destination"] == "Graveyard"
    assert trigger["condition"]["comparator"] == "GE"
    assert trigger["execute"]["sub_ability"]["effect"]["target"] == {"type": "SelfRef"}
    without_if = {k: v for k, v in ability.items() if k != "intervening_if"}
    optional = render_ability(without_if | {"optional": True}, obj)
    assert optional.startswith("Whenever another creature dies, you may gain 2 life. If you do, ")
    assert card_text({"id": "C2", "owner": "P2", "zone": "hand", "abilities": [etb("A2", "P2")]}) == \
        "When this creature enters, you gain 1 life."


@pytest.mark.parametrize("ability", [
    # a signal about an object (a named signal about none is a helper land played: test_phase_words.py)
    {"id": "A1", "trigger": {"event": "signal", "name": "s1", "subject": "self"}, "effect": [gain("P1")]},
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"},  # a control change to another player
     "effect": [{"do": "gain_control", "object": "C2", "player": "P2"}]},  # (to "you": test_phase_words.py)
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"},  # a condition about a graveyard
     "effect": [gain("P1")], "intervening_if": {"test": "not_in_zone", "object": "C2", "zone": "graveyard"}},
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": []},
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [gain("P1")],
     "target": {"candidates": ["C1"]}},
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [gain("P1")],
     "intervening_if": {"test": "life_at_least", "player": "P2", "value": 10}},  # another player's life
])
def test_out_of_subset_scenarios_are_skipped_not_guessed(engine, ability):
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [ability]},
                    {"id": "C2", "owner": "P2", "zone": "field"}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    with pytest.raises(Skipped):
        engine.run(doc, None)
    assert play(engine, doc).status == "skipped"


def test_out_of_subset_script_is_skipped(engine):
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P2", "zone": "field"}],
                   [{"do": "signal", "name": "s1", "subject": "C1"}])  # a signal about an object
    assert play(engine, doc).status == "skipped"


def test_apnap_enter_the_battlefield_two_players(engine):
    """Known right in phase.rs: AP's trigger goes on the stack first, NAP's above it, NAP's resolves first."""
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [etb("A1", "P1", "self", 1)]},
                    {"id": "C2", "owner": "P2", "zone": "field", "abilities": [etb("A2", "P2", "other", 2)]}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    outcome = play(engine, doc)
    assert outcome.status == "trace", outcome.message
    trace = outcome.trace
    triggers = {e["id"]: e for e in entries(trace, "trigger")}
    pushed = [triggers[e["trigger"]]["controller"] for e in entries(trace, "stack_push")]
    resolved = [triggers[e["trigger"]]["controller"] for e in entries(trace, "resolve_begin")]
    assert pushed == ["P1", "P2"]
    assert resolved == ["P2", "P1"]
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert not check.violations, check.violations
    assert check.exercised["mtg.apnap-order"] == 1


def test_apnap_with_the_active_player_in_another_seat_and_a_chosen_order(engine):
    objects = [{"id": "C1", "owner": "P1", "zone": "field",
                "abilities": [etb("A1", "P1", "other", 1), etb("A2", "P1", "other", 2)]},
               {"id": "C2", "owner": "P2", "zone": "field", "abilities": [etb("A3", "P2", "other", 3)]},
               {"id": "C3", "owner": "P3", "zone": "hand"}]
    doc = scenario(objects, [{"do": "move", "object": "C3", "from": "hand", "to": "field"}],
                   players=("P1", "P2", "P3"), active="P3", order=["A2", "A1"])
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert not check.violations, check.violations
    trace = check.outcome.trace
    triggers = {e["id"]: e for e in entries(trace, "trigger")}
    assert [triggers[e["trigger"]]["ability"] for e in entries(trace, "stack_push")] == ["A1", "A2", "A3"]


def test_optional_declined_does_nothing(engine):
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand",
                     "abilities": [etb("A1", "P1", optional=True) | {"effect": [
                         gain("P1"), {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}]}]},
                    {"id": "C2", "owner": "P2", "zone": "field"}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}], optional={"A1": False})
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert not check.violations, check.violations
    assert [e["chosen"] for e in entries(check.outcome.trace, "choice")] == [False]
    assert not [e for e in entries(check.outcome.trace, "event") if e["cause"] != {"action": [0, 0]}]


def test_profile_keeps_the_default_generator_and_yields_renderable_scenarios(engine):
    for seed in range(30):
        assert builder_for("mtg")(SeededSource(seed), "2026-02-27") == build_scenario(SeededSource(seed), "2026-02-27")
    restricted = builder_for("mtg", PROFILE)
    played = 0
    for seed in range(30):
        doc = restricted(SeededSource(seed), "2026-02-27")
        doc = copy.deepcopy(doc) | {"options": dict(OPTIONS)}
        outcome = play(engine, doc)
        assert outcome.status in ("trace", "skipped"), outcome.message
        played += outcome.status == "trace"
        if outcome.status == "skipped":  # what the profile cannot keep out, each with its reason
            assert any(why in outcome.message for why in (
                "0 life", "changed hands", "a card in a hand", "no Oracle wording", "left the game before it resolved",
                "SetController gave them", "the game ended", "several players lost", "none on the battlefield",
                "does not watch a death", "When you do' wording", "does not report which removed it",
                "do not fire delayed abilities", "cannot be told", "this turn' wording",
                "left the game before their abilities", "following a debug zone move",
                "while phase was asking them to order")), \
                outcome.message
    # (was 20 of 30 before targets on creatures and reflexive abilities, 15 with them; the profile-only features
    # that keep out what the adapter skips brought it back up; 25 on the stream of issue 22's new words, the same
    # skip reasons in another mix; 24 since issue 32: a target phase asks after priority following a debug move, a
    # targeted ability triggered by its source leaving the battlefield, is skipped instead of reported)
    assert played >= 24


def test_known_deviation_intervening_if_checked_after_the_resolution(engine):
    """Triaged in docs/engines/phase.md: phase 0.103.0 checks an intervening 'if' when it collects the trigger (after
    the whole resolution that caused the event), not as the event occurs (603.4). The suite must keep catching it,
    under mtg.intervening-if too (issue 22, item 3: the condition held as the event occurred, not at the end)."""
    kill = {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [
        {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}, {"do": "damage", "amount": 1, "player": "P1"}]}
    watch = {"id": "A2", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"},
             "intervening_if": {"test": "life_at_least", "player": "controller", "value": 20}, "effect": [gain("P1")]}
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [kill]},
                    {"id": "C2", "owner": "P1", "zone": "field", "abilities": [watch]},
                    {"id": "C3", "owner": "P2", "zone": "field"}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert set(check.violations) == {"mtg.look-back", "mtg.intervening-if"}
    assert "no longer at the end of" in check.violations["mtg.intervening-if"][0]


def _lethal_resolution():
    """C1 enters; its ability deals 1 damage to itself (lethal) and then gains 2 life; C2 watches creatures die."""
    lethal = {"id": "A1", "trigger": {"event": "enter", "subject": "self"},
              "effect": [{"do": "damage", "amount": 1, "object": "C1"}, gain("P1", 2)]}
    watch = {"id": "A2", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"}, "effect": [gain("P1")]}
    return scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [lethal]},
                     {"id": "C2", "owner": "P1", "zone": "field", "abilities": [watch]},
                     {"id": "C3", "owner": "P2", "zone": "field"}],
                    [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])


def _is_rules_destroy(e):
    return e["type"] == "CreatureDestroyed" and e["data"].get("source_id") is None


def test_state_based_action_after_the_resolution_goes_under_a_check_between_resolutions(engine):
    check = check_scenario(engine, _lethal_resolution(), get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert not check.violations, check.violations
    trace = check.outcome.trace["entries"]
    death = next(i for i, e in enumerate(trace) if e["kind"] == "event" and e["type"] == "leave")
    assert "sba" in trace[death]["cause"]
    assert trace.index({"kind": "resolve_end", "trigger": "T1"}) < death


def test_a_state_based_action_phase_performs_mid_resolution_is_never_moved_out(engine, monkeypatch):
    """No false pass (issue 9): were phase to destroy the creature between two effects of the resolution, the trace
    must show it there, and 704.4 must fail. The phase events are rearranged here to stand for such a phase."""
    from reference_engine.mtg import phase as phase_engine

    original = phase_engine.Play.apply

    def mid_resolution(self, seat, action):
        events = original(self, seat, action)
        sba = [e for e in events if _is_rules_destroy(e) or (e["type"] == "ZoneChanged" and any(
            _is_rules_destroy(d) and d["data"]["object_id"] == e["data"]["object_id"] for d in events))]
        life = next((k for k, e in enumerate(events) if e["type"] == "LifeChanged"), None)
        if not sba or life is None:
            return events
        rest = [e for e in events if e not in sba]
        life = next(k for k, e in enumerate(rest) if e["type"] == "LifeChanged")
        return rest[:life] + sba + rest[life:]

    monkeypatch.setattr(phase_engine.Play, "apply", mid_resolution)
    check = check_scenario(engine, _lethal_resolution(), get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    entries_ = check.outcome.trace["entries"]
    begin, end = (entries_.index({"kind": k, "trigger": "T1"}) for k in ("resolve_begin", "resolve_end"))
    assert any(e["kind"] == "sba_check" for e in entries_[begin:end])
    assert "mtg.sba-between-resolutions" in check.violations


def test_an_event_the_adapter_cannot_map_is_an_error_not_dropped(engine, monkeypatch):
    from reference_engine.mtg import phase as phase_engine

    original = phase_engine.Play.apply

    def with_unknown(self, seat, action):
        events = original(self, seat, action)
        if any(e["type"] == "LifeChanged" for e in events):
            events = events + [{"type": "CounterAdded", "data": {"object_id": 1}}]
        return events

    monkeypatch.setattr(phase_engine.Play, "apply", with_unknown)
    outcome = play(engine, _lethal_resolution())
    assert outcome.status == "errored" and "CounterAdded" in outcome.message


def test_a_player_who_owns_no_object_is_skipped_not_errored(engine):
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [etb("A1", "P1")]}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "own no object" in outcome.message


def test_known_deviation_damage_dealt_to_a_card_in_the_graveyard(engine):
    """Triaged in docs/engines/phase.md (violation 2; docs/engines/phase-triage/ drives phase directly): after
    "destroy this creature", phase 0.103.0 still has "this creature deals 2 damage to this creature" deal damage to
    the card, now in the graveyard. The judge replays the effect (608.2) and must keep catching it."""
    selfkill = {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [
        {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}, {"do": "damage", "amount": 2, "object": "C1"}]}
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 3, "abilities": [selfkill]},
                    {"id": "C2", "owner": "P2", "zone": "field"}],
                   [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert set(check.violations) == {"mtg.resolution-effect"}, check.violations
    assert "should have caused nothing" in check.violations["mtg.resolution-effect"][0]


# -- The wider subset (issue 12 item 4): each rendered piece played on phase and judged by every MTG rule ---------


@pytest.mark.parametrize("effect, wording, expect", [
    ([{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}], "destroy all Elves",
     {"type": "leave", "subject": "C2", "to": "graveyard"}),
    ([{"do": "move", "object": "C2", "from": "field", "to": "exile"}], "exile all Elves",
     {"type": "leave", "subject": "C2", "to": "exile"}),
    ([{"do": "move", "object": "C1", "from": "field", "to": "exile"}], "exile this creature",
     {"type": "leave", "subject": "C1", "to": "exile"}),
    ([{"do": "damage", "object": "C3", "amount": 1}], "this creature deals 1 damage to each Zombie",
     {"type": "damage", "target": "C3", "amount": 1}),
    ([{"do": "damage", "player": "P2", "amount": 2}], "this creature deals 2 damage to each opponent",
     {"type": "damage", "player": "P2", "amount": 2}),
    ([{"do": "life", "player": "P2", "amount": -2}], "each opponent loses 2 life",
     {"type": "life", "player": "P2", "amount": -2}),
    ([{"do": "life", "player": "P2", "amount": 3}], "each opponent gains 3 life",
     {"type": "life", "player": "P2", "amount": 3}),
    ([{"do": "move", "object": "C4", "from": "hand", "to": "field"}],
     "each player puts all Merfolk cards from their hand onto the battlefield", {"type": "enter", "subject": "C4"}),
])
def test_effects_on_other_objects_and_players_are_worded_and_played(engine, effect, wording, expect):
    """"destroy all Elves", "exile all Elves", "deals 1 damage to each Zombie", "each opponent loses 2 life"...: each
    object has a creature type of its own, so "all Elves" is exactly the one object; "each opponent" is exactly the
    other player of a two-player game."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 2, "abilities": [enters("A1", "P1", effect)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": "field",
                                                               "toughness": 3},
               {"id": "C4", "owner": "P2", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert wording in card_text(objects[0], Names.of(doc))
    check = judged(engine, doc)
    assert trace_events(check, cause={"resolution": "T1"}, **expect), check.outcome.trace


@pytest.mark.parametrize("trigger, wording", [
    ({"event": "leave", "subject": "C2", "to": "graveyard"}, "Whenever an Elf dies"),
    ({"event": "leave", "subject": "C2"}, "Whenever an Elf leaves the battlefield"),
    ({"event": "damage", "subject": "any"}, "Whenever a creature deals damage"),
    ({"event": "damage", "subject": "self"}, "Whenever this creature deals damage"),
])
def test_triggers_on_one_object_and_on_damage(engine, trigger, wording):
    watcher = {"id": "A2", "trigger": trigger, "effect": [gain("P2", 1)]}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [enters("A1", "P1", [
                   {"do": "damage", "object": "C3", "amount": 1},
                   {"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])]},
               {"id": "C2", "owner": "P2", "zone": "field"},
               {"id": "C3", "owner": "P2", "zone": "field", "toughness": 3, "abilities": [watcher]}]
    if trigger["subject"] == "self":  # C3 deals damage itself
        objects[2]["abilities"] = [watcher | {"effect": [gain("P2", 1)]}]
        objects[0]["abilities"][0]["effect"] = [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}]
        objects[1]["abilities"] = [{"id": "A3", "trigger": {"event": "leave", "subject": "self", "to": "graveyard"},
                                    "effect": [{"do": "damage", "object": "C1", "amount": 1}]}]
        objects[2]["abilities"].append({"id": "A4", "trigger": {"event": "enter", "subject": "other"},
                                        "effect": [{"do": "damage", "player": "P2", "amount": 1}]})
    doc = scenario(objects, MOVE_IN)
    assert card_text(objects[2], Names.of(doc)).startswith(wording)
    check = judged(engine, doc)
    assert any(t["ability"] == "A2" for t in entries(check.outcome.trace, "trigger"))


def test_a_life_trigger_sees_every_life_change(engine):
    watcher = {"id": "A2", "trigger": {"event": "life"}, "effect": [{"do": "move", "object": "C2", "from": "field",
                                                                     "to": "graveyard"}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [enters("A1", "P1", [gain("P1", 2)])]},
               {"id": "C2", "owner": "P2", "zone": "field", "abilities": [watcher]}]
    doc = scenario(objects, MOVE_IN)
    assert card_text(objects[1], Names.of(doc)).startswith("Whenever a player gains or loses life")
    check = judged(engine, doc)
    assert [t["ability"] for t in entries(check.outcome.trace, "trigger")] == ["A1", "A2"]


@pytest.mark.parametrize("condition, wording, triggers", [
    ({"test": "in_zone", "object": "C2", "zone": "field"}, "if an Elf is on the battlefield", True),
    ({"test": "in_zone", "object": "C4", "zone": "field"}, "if a Merfolk is on the battlefield", False),
    ({"test": "life_at_most", "player": "controller", "value": 20}, "if you have 20 or less life", True),
    ({"test": "life_at_most", "player": "controller", "value": 19}, "if you have 19 or less life", False),
    ({"test": "not_in_zone", "object": "C3", "zone": "graveyard"}, "if there are no Zombie cards in your graveyard",
     True),
    ({"test": "in_zone", "object": "self", "zone": "field"}, "if this creature is on the battlefield", True),
])
def test_intervening_conditions_about_objects_and_life(engine, condition, wording, triggers):
    objects = [{"id": "C1", "owner": "P1", "zone": "hand",
                "abilities": [enters("A1", "P1", [gain("P1", 1)], intervening_if=condition)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "field"},
               {"id": "C4", "owner": "P2", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert wording in card_text(objects[0], Names.of(doc))
    check = judged(engine, doc)
    assert bool(entries(check.outcome.trace, "trigger")) == triggers


def test_starting_life_control_changes_and_four_players(engine):
    """Debug SetLife for starting life totals; debug SetController for a scripted control change, after which the
    ability triggers for its new controller (603.3a), in APNAP order among four players with the active player in the
    third seat."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [etb("A1", "P1", "other", 1) | {
                   "intervening_if": {"test": "life_at_most", "player": "controller", "value": 7}}]},
               {"id": "C2", "owner": "P2", "zone": "field", "abilities": [etb("A2", "P2", "other", 2) | {
                   "effect": [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}]}]},
               {"id": "C3", "owner": "P3", "zone": "hand"}, {"id": "C4", "owner": "P4", "zone": "field"}]
    doc = scenario(objects, [{"do": "gain_control", "object": "C2", "player": "P4"},
                             {"do": "move", "object": "C3", "from": "hand", "to": "field"}],
                   players=("P1", "P2", "P3", "P4"), active="P3")
    doc["life"] = {"P1": 7}
    check = judged(engine, doc)
    trace = check.outcome.trace
    assert trace_events(check, type="control", subject="C2", controller="P4")
    triggers = {e["id"]: e for e in entries(trace, "trigger")}
    assert [(triggers[e["trigger"]]["ability"], triggers[e["trigger"]]["controller"])
            for e in entries(trace, "stack_push")] == [("A2", "P4"), ("A1", "P1")]
    assert check.exercised["mtg.trigger-controller"] == 1


def test_identical_texts_phase_orders_itself_are_mapped_not_reported(engine):
    """phase stacks a player's waiting abilities without asking when their texts are identical: when the text names
    no object as "this creature" they are interchangeable, and the adapter maps them in the chooser's order."""
    same = {"trigger": {"event": "enter", "subject": "other"}, "effect": [gain("P1", 1)]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [{"id": "A1", **same}]},
               {"id": "C2", "owner": "P1", "zone": "field", "abilities": [{"id": "A2", **same}]},
               {"id": "C3", "owner": "P2", "zone": "hand"}]
    for order in (["A1", "A2"], ["A2", "A1"]):
        doc = scenario(objects, [{"do": "move", "object": "C3", "from": "hand", "to": "field"}], order=order)
        check = judged(engine, doc)
        triggers = {e["id"]: e for e in entries(check.outcome.trace, "trigger")}
        resolved = [triggers[e["trigger"]]["ability"] for e in entries(check.outcome.trace, "resolve_begin")]
        assert resolved == order
        assert not entries(check.outcome.trace, "choice")  # phase asked nothing


def test_every_creature_type_names_one_object_in_phases_parser():
    from reference_engine.mtg.phase import CREATURE_TYPES

    for singular, plural in CREATURE_TYPES:
        article = "an" if singular[0] in "AEIOU" else "a"
        text = (f"Whenever {article} {singular} dies, if {article} {singular} is on the battlefield, destroy all "
                f"{plural}. This creature deals 1 damage to each {singular}.")
        face = phase.build_oracle_face({
            "name": "X", "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"], "supertypes": [],
            "subtypes": ["Human"], "text": text, "type": "Creature", "layout": "normal", "colors": [],
            "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
            "foreignData": [], "rulings": [], "power": "1", "toughness": "1"}, None)
        (trigger,) = face["triggers"]
        assert "Unimplemented" not in str(trigger), text
        assert str(trigger).count(f"'Subtype': '{singular}'") == 4, (text, trigger)


def test_an_optional_put_from_the_controllers_own_hand(engine):
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [enters("A1", "P1", [
                   {"do": "move", "object": "C3", "from": "hand", "to": "field"}, gain("P1", 1)], optional=True)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert "you may put all Zombie cards from your hand onto the battlefield. If you do, you gain 1 life." in \
        card_text(objects[0], Names.of(doc))
    check = judged(engine, doc)
    assert trace_events(check, type="enter", subject="C3", cause={"resolution": "T1"})
    objects[2]["owner"] = "P2"  # from another player's hand: "you may have each player put ..." moves nothing
    with pytest.raises(Skipped, match="no Oracle wording"):
        engine.run(scenario(objects, MOVE_IN), None)


def test_an_exile_of_the_source_by_its_own_dies_ability_is_worded_through_its_type(engine):
    """"When this creature dies, exile this creature" may find the card in the graveyard (CR 400.7's exception for an
    ability triggering on its own object's zone change), which is not the scenario's exile from the battlefield."""
    ability = {"id": "A1", "trigger": {"event": "leave", "subject": "self", "to": "graveyard"},
               "effect": [{"do": "move", "object": "C1", "from": "field", "to": "exile"}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [ability]},
               {"id": "C2", "owner": "P2", "zone": "field"}]
    doc = scenario(objects, [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}])
    assert card_text(objects[0], Names.of(doc)) == "When this creature dies, exile all Goblins."
    check = judged(engine, doc)
    assert not trace_events(check, cause={"resolution": "T1"})


@pytest.mark.parametrize("script, expected", [
    ("damage_to_a_card_in_the_graveyard.py", ["DEVIATION"]),
    ("triggers_judged_after_the_resolution.py", ["a. ", "DEVIATION", "b. ", "DEVIATION", "c. ", "DEVIATION"]),
    ("resolution_and_sba_triggers_one_batch.py", ["DEVIATION"]),
    ("leaves_intervening_if_without_look_back.py", ["DIFFERENT READING", "DIFFERENT READING"]),
    ("concession_is_no_loss.py", ["life: ", "True", "concede: ", "False", "DEVIATION"]),
    ("departed_players_abilities_trigger.py", ["DEVIATION"]),
    ("lethal_damage_and_a_loss_in_one_check.py", ["DEVIATION"]),
    ("two_events_of_one_resolution_apnap.py", ["DEVIATION"]),
    ("target_chosen_after_priority.py", ["played as a land: [('TriggerTargetSelection'", "debug move: [('Priority'",
                                         "AS REQUIRED"]),
    ("target_never_asked.py", ["asked: 1", "DEVIATION"]),
    ("each_player_scope_leaks.py", ["[18, 19]", "DEVIATION"]),
    ("delayed_and_printed_not_ordered.py", ["DEVIATION"]),
    ("concession_leaves_trigger_nothing.py", ["life: ", "True; Watcher triggered: True", "concede: ",
                                              "True; Watcher triggered: False", "DEVIATION"]),
    ("delayed_once_per_resolution.py", ["1 time(s) (expected 2)", "2 time(s)", "DEVIATION"]),
    ("delayed_sees_an_earlier_event.py", ["life 21 (expected 20)", "life 21 (expected 21)", "DEVIATION"]),
    ("reflexive_not_offered_for_ordering.py", ["waits for Priority", "DEVIATION"]),
    ("sba_after_the_pushes.py", ["TriggerTargetSelection; stack ['Goblin']; Pinger (lethal damage) is in Battlefield",
                                 "DEVIATION"]),
    ("departed_players_delayed_ability.py", ["concede: delayed abilities kept after seat 1 left: 1",
                                             "DIFFERENT READING", "DEVIATION", "life: ", "DIFFERENT READING",
                                             "DEVIATION"]),
    ("destroy_this_creature_after_a_target.py", ["['Wizard'] (expected", "['Wizard'] (expected", "[] (expected",
                                                 "['Aimer']", "DEVIATION"]),
    ("delayed_after_printed_apnap.py", ["[('Goblin', 1), ('Creator', 0)] (expected: [('Creator', 0)", "DEVIATION"]),
    ("reflexive_after_others_printed_apnap.py", ["[('Goblin', 1), ('Chain', 0)] (expected: [('Chain', 0)",
                                                 "DEVIATION"]),
    ("delayed_lost_to_an_order_prompt.py", ["asked for an order: False", "life 22 (expected 22)",
                                            "asked for an order: True", "life 20 (expected 21", "DEVIATION"]),
    ("identical_texts_naming_their_sources.py", ["exile this creature.': asked for an order: False (expected True)",
                                                 "exile this creature.': asked for an order: False (expected True)",
                                                 "gain 1 life.': asked for an order: False (expected False)",
                                                 "DEVIATION"]),
    ("once_each_turn_declined.py", ["triggered 1 time(s)", "DIFFERENT READING"]),
    ("from_anywhere_looks_back.py", ["Sefris dying with Other: its ability triggered 1 time(s) (expected 0)",
                                     "Single dying alone: its ability triggered 1 time(s)", "DEVIATION"]),
    ("that_player_is_the_last_controller.py", ["no control change: Stolen (owner seat 1) controlled by seat 1 as "
                                               "it died; seats that lost life: [1]", "debug SetController: Stolen "
                                               "(owner seat 1) controlled by seat 0 as it died; seats that lost life: "
                                               "[0]", "Gain control of target creature: Stolen (owner seat 1) "
                                               "controlled by seat 0 as it died; seats that lost life: [0]",
                                               "DEVIATION"]),
    ("departed_players_waiting_ability.py", ["left the game: True; phase's stack after Pinger resolved: []",
                                             "an order prompt: False", "left: False", "NOT SHOWN"]),
])
def test_the_triage_scripts_still_show_what_docs_engines_phase_md_says(script, expected):
    """Each script in docs/engines/phase-triage/ drives phase-python directly (no adapter); a phase release that
    changes its behaviour makes this fail, and the triage must be redone."""
    import pathlib
    import subprocess
    import sys

    path = pathlib.Path(__file__).parent.parent / "docs" / "engines" / "phase-triage" / script
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, check=True).stdout
    at = 0
    for word in expected:
        found = out.find(word, at)
        assert found >= 0, (word, out)
        at = found + len(word)


def test_a_player_leaving_the_game_with_an_ability_on_the_stack(engine):
    """Three players, the one at 1 life is dealt damage by the resolving ability while their own ability waits on the
    stack below it: phase eliminates them (704.5a), exiles what they own and takes their ability off the stack; the
    trace shows one event (player_leaves, their objects leaving the game) and the ability removed for player_left
    (800.4a). A permanent that debug SetController gave them is exiled by phase (no control-changing effect ends):
    skipped."""
    objects = [{"id": "C1", "owner": "P3", "zone": "hand", "abilities": [enters("A1", "P3", [
                   {"do": "damage", "player": "P3", "amount": 1}])]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C6", "owner": "P1", "zone": "field"},
               {"id": "C3", "owner": "P3", "zone": "field", "abilities": [etb("A3", "P3", "other", 2)]},
               {"id": "C4", "owner": "P3", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN, players=("P1", "P2", "P3"), active="P3", order=["A1", "A3"])
    doc["life"] = {"P3": 1}
    check = judged(engine, doc)
    trace = check.outcome.trace["entries"]
    leaves = next(e for e in trace if e["kind"] == "event" and e["type"] == "player_leaves")
    group = [e for e in trace if e.get("group") == leaves["id"]]
    assert {(e["type"], e.get("subject"), e.get("to"), e.get("controller")) for e in group} == {
        ("player_leaves", None, None, None), ("leave", "C1", "removed", None), ("leave", "C3", "removed", None),
        ("move", "C4", "removed", None)}
    removed = [e for e in trace if e["kind"] == "removed"]
    assert [(e["reason"], next(t["ability"] for t in entries(check.outcome.trace, "trigger")
                               if t["id"] == e["trigger"])) for e in removed] == [("player_left", "A3")]
    assert check.exercised["mtg.player-leaves"] == 1
    objects.append({"id": "C5", "owner": "P2", "zone": "field", "controller": "P3"})
    outcome = play(engine, doc | {"objects": objects})
    assert outcome.status == "skipped" and "SetController" in outcome.message


def test_known_deviation_a_concession_is_no_loss_for_phase(engine):
    """Triaged in docs/engines/phase.md (violation 4; docs/engines/phase-triage/concession_is_no_loss.py): a player
    who concedes loses the game (104.3a), yet "Whenever a player loses the game" does not trigger in phase 0.103.0
    (it does when the player loses at 0 life). The scripted concession itself is played and traced."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [{"id": "A1", "trigger": {
                   "event": "player_leaves"}, "effect": [gain("P1", 3)]}]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P3", "zone": "field"}]
    doc = scenario(objects, [{"do": "concede", "player": "P3"}], players=("P1", "P2", "P3"))
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert trace_events(check, type="player_leaves", player="P3", cause={"action": [0, 0]})
    assert trace_events(check, type="leave", subject="C3", to="removed")
    assert set(check.violations) == {"mtg.triggers-when-satisfied"}, check.violations
    assert "player_leaves" in check.violations["mtg.triggers-when-satisfied"][0]


def test_an_ability_whose_source_changed_hands_and_that_names_you_is_skipped(engine):
    """"You lose 2 life" after a control change means the new controller, the scenario means the owner: skipped as
    the ability goes on the stack (whatever the case of "You")."""
    watcher = {"id": "A1", "trigger": {"event": "enter", "subject": "other"},
               "effect": [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}, gain("P1", -2)]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "toughness": 3, "abilities": [watcher]},
               {"id": "C2", "owner": "P2", "zone": "hand"}]
    assert card_text(objects[0]).endswith(" You lose 2 life.")
    doc = scenario(objects, [{"do": "gain_control", "object": "C1", "player": "P2"},
                             {"do": "move", "object": "C2", "from": "hand", "to": "field"}], active="P2")
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "changed hands" in outcome.message


def test_a_control_change_to_a_player_who_left_does_nothing(engine):
    """A player who left the game controls nothing (800.4a): the scripted change is not asked of phase (which would
    give the card to the departed seat) and nothing happens, as the judge expects."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P2", "zone": "field"},
               {"id": "C3", "owner": "P3", "zone": "field"}]
    doc = scenario(objects, [{"do": "concede", "player": "P3"}, {"do": "gain_control", "object": "C1", "player": "P3"}],
                   players=("P1", "P2", "P3"))
    check = judged(engine, doc)
    assert not trace_events(check, type="control")




def test_inert_fields_never_cause_a_skip(engine):
    """Issue 22 item 5: fields that change nothing for the adapter are never a reason to skip: an ability's ``text``
    (for reports only, the schema), an object's ``name``, its ``types`` and ``token`` where no trigger filter reads
    them, ``active_in`` the battlefield (every ability's default). The scenario is played and judged as without
    them."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "name": "Pinger", "types": ["artifact"],
                "abilities": [enters("A1", "P1", [gain("P1", 2)], text="When this enters, you gain 2 life.",
                                     active_in=["field"])]},
               {"id": "C2", "owner": "P2", "zone": "field", "types": ["creature"], "token": True,
                "abilities": [etb("A2", "P2", "other")]}]
    doc = scenario(objects, MOVE_IN, order=["A1", "A2"])
    check = judged(engine, doc)
    assert sorted(t["ability"] for t in entries(check.outcome.trace, "trigger")) == ["A1", "A2"]
    bare = copy.deepcopy(doc)
    for obj in bare["objects"]:
        for key in ("name", "types", "token"):
            obj.pop(key, None)
    for key in ("text", "active_in"):
        bare["objects"][0]["abilities"][0].pop(key)
    assert play(engine, bare).trace == check.outcome.trace


@pytest.mark.parametrize("trigger, wording, triggers", [
    ({"event": "leave", "subject": "any", "to": "graveyard", "controller": "you"},
     "Whenever a creature you control dies", False),
    ({"event": "leave", "subject": "any", "to": "graveyard", "controller": "opponent"},
     "Whenever a creature an opponent controls dies", True),
    ({"event": "leave", "subject": "C2", "controller": "opponent"},
     "Whenever an Elf an opponent controls leaves the battlefield", True),
    ({"event": "enter", "subject": "other", "controller": "opponent"},
     "Whenever another creature an opponent controls enters", True),
    ({"event": "enter", "subject": "other", "controller": "you"}, "Whenever another creature you control enters",
     False),
    ({"event": "enter", "subject": "self", "controller": "you"}, "When this creature enters,", False),
    # a card type every object has and "nontoken" with no token: they exclude nothing, so they read as nothing
    ({"event": "leave", "subject": "any", "to": "graveyard", "type": "creature", "nontoken": True},
     "Whenever a creature dies", True),
])
def test_trigger_filters_are_worded_and_played(engine, trigger, wording, triggers):
    """Issue 22 item 5: trigger filters (603.2) "you control" / "an opponent controls" (relative to the ability's
    controller, 603.3a) on enter and leave triggers, and card-type and nontoken filters where they exclude no
    object, are rendered; the scenario is played and judged (P1's C1 enters and destroys P2's Elf; P3's watcher
    sees both)."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "types": ["creature"], "abilities": [enters("A1", "P1", [
                   {"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])]},
               {"id": "C2", "owner": "P2", "zone": "field", "types": ["creature"]},
               {"id": "C3", "owner": "P3", "zone": "field", "types": ["creature"],
                "abilities": [{"id": "A2", "trigger": trigger, "effect": [gain("P3")]}]}]
    doc = scenario(objects, MOVE_IN, players=("P1", "P2", "P3"))
    assert card_text(objects[2], Names.of(doc)).startswith(wording)
    check = judged(engine, doc)
    assert any(t["ability"] == "A2" for t in entries(check.outcome.trace, "trigger")) == triggers


@pytest.mark.parametrize("change", [
    {"types": ["artifact"]},  # "a creature" would see C2, an artifact the filter excludes
    {"token": True},          # "a nontoken creature" would see C2, a token
])
def test_a_filter_excluding_an_object_is_skipped(engine, change):
    watcher = {"id": "A2", "trigger": {"event": "leave", "subject": "any", "type": "creature", "nontoken": True},
               "effect": [gain("P2")]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "types": ["creature"]},
               {"id": "C2", "owner": "P2", "zone": "field", "types": ["creature"], **change},
               {"id": "C3", "owner": "P2", "zone": "field", "types": ["creature"], "abilities": [watcher]}]
    doc = scenario(objects, [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "excludes an object" in outcome.message


@pytest.mark.parametrize("zone", ["graveyard", "deck", "exile"])
def test_cards_that_start_in_a_graveyard_library_or_exile_are_placed(engine, zone):
    """Issue 22 item 5: a card starting in a graveyard, a library or exile is placed there (debug MoveToZone,
    simulate: false, no triggers); its abilities, working from the battlefield only, do not trigger there, and an
    intervening "if there are no Zombie cards in your graveyard" reads it."""
    condition = {"test": "not_in_zone", "object": "C3", "zone": "graveyard"}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand",
                "abilities": [enters("A1", "P1", [gain("P1", 1)], intervening_if=condition)]},
               {"id": "C2", "owner": "P2", "zone": "field"},
               {"id": "C3", "owner": "P1", "zone": zone, "abilities": [etb("A3", "P1", "other")]}]
    doc = scenario(objects, MOVE_IN)
    check = judged(engine, doc)
    assert [t["ability"] for t in entries(check.outcome.trace, "trigger")] == ([] if zone == "graveyard" else ["A1"])


def test_once_each_turn_is_worded_and_played(engine):
    """Issue 22 item 5: ``once_each_turn`` (603.2h, "Do this only once each turn.", phase's OncePerTurn): two
    creatures die one after the other; the watcher's ability resolves using its effect on the first death and does
    not trigger on the second."""
    watcher = {"id": "A1", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"},
               "effect": [gain("P2")], "once_each_turn": True}
    objects = [{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P1", "zone": "field"},
               {"id": "C3", "owner": "P2", "zone": "field", "abilities": [watcher]}]
    doc = scenario(objects, [{"do": "move", "object": c, "from": "field", "to": "graveyard"} for c in ("C1", "C2")])
    assert card_text(objects[2], Names.of(doc)).endswith("you gain 1 life. Do this only once each turn.")
    check = judged(engine, doc)
    assert [t["ability"] for t in entries(check.outcome.trace, "trigger")] == ["A1"]


def test_control_of_a_graveyard_card_given_twice_is_two_control_events(engine):
    """Issue 32 item 1: off the battlefield a card stays its owner's (the scenario's control change of it gives no
    control), so giving P2 control of P1's graveyard card twice is two control events, as the reference engine
    records them; the adapter asks phase each time (it once remembered the first and never asked again) and gives
    phase's card back to its owner after each."""
    objects = [{"id": "C1", "owner": "P1", "zone": "graveyard"}, {"id": "C2", "owner": "P2", "zone": "field"}]
    give = {"do": "gain_control", "object": "C1", "player": "P2"}
    doc = scenario(objects, [give, give])
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert len(trace_events(check, type="control", subject="C1", controller="P2")) == 2
    assert not check.violations, check.violations
    reference = play(load_engine("reference", "mtg"), copy.deepcopy(doc))
    assert [(e["subject"], e["controller"]) for e in reference.trace["entries"] if e.get("type") == "control"] == \
        [("C1", "P2"), ("C1", "P2")]


def test_a_player_leaving_while_phase_asks_them_to_order_is_skipped_not_errored(engine):
    """Seed 3, scenario 117 of the phase run at 200 (issue 32): phase asks P2 to order their abilities and, with the
    answer, performs the state-based actions in which P2 loses. Those abilities never go on the stack (800.4a);
    how phase drops them is not mapped, so the scenario is skipped with the reason (it made 8 rules errored)."""
    import json
    import pathlib

    doc = json.loads((pathlib.Path(__file__).parent / "data" / "phase_departed_while_ordering.json").read_text())
    outcome = play(engine, doc)
    assert outcome.status == "skipped", outcome.message
    assert "while phase was asking them to order" in outcome.message


@pytest.mark.parametrize("start, moves", [
    ("graveyard", [("graveyard", "field")]), ("exile", [("exile", "hand")]), ("deck", [("deck", "graveyard")]),
    ("field", [("field", "exile"), ("exile", "field")]), ("field", [("field", "hand")])])
def test_scripted_moves_between_any_zones_are_played(engine, start, moves):
    """Issue 32 item 3: a scripted move between any two zones phase places cards in is played (debug MoveToZone
    with simulate true; PlayLand from the active player's hand); an entering card's ability triggers."""
    objects = [{"id": "C1", "owner": "P1", "zone": start, "abilities": [etb("A1", "P1")]},
               {"id": "C2", "owner": "P2", "zone": "field"}]
    doc = scenario(objects, [{"do": "move", "object": "C1", "from": a, "to": b} for a, b in moves])
    check = judged(engine, doc)
    assert [(e["from"], e["to"]) for e in trace_events(check, subject="C1")] == moves
    assert len(entries(check.outcome.trace, "trigger")) == sum(b == "field" for _, b in moves)


def test_a_card_given_by_debug_set_controller_comes_back_under_its_owners_control(engine):
    """br-xmage-6806's shape: P2 controls P1's creature (debug SetController, no control-changing effect that could
    end), it is flickered: off the battlefield the card is its owner's (400.7), so the adapter gives phase's card
    back to its owner before it comes back (phase would keep the debug control on it); its ability triggers for P1.
    An ability worded for the starting controller ("you") is skipped once it serves another player."""
    hit = {"id": "A1", "trigger": {"event": "enter", "subject": "self"},
           "effect": [{"do": "damage", "object": "C2", "amount": 1}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "controller": "P2", "abilities": [hit]},
               {"id": "C2", "owner": "P2", "zone": "field", "toughness": 3}]
    flicker = [{"do": "move", "object": "C1", "from": "field", "to": "exile"},
               {"do": "move", "object": "C1", "from": "exile", "to": "field"}]
    (trigger,) = entries(judged(engine, scenario(objects, flicker)).outcome.trace, "trigger")
    assert trigger["controller"] == "P1"
    objects[0]["abilities"] = [etb("A1", "P2")]  # "you gain 1 life", worded for P2
    outcome = play(engine, scenario(objects, flicker))
    assert outcome.status == "skipped" and "changed hands" in outcome.message, outcome.message


@pytest.mark.parametrize("owner, wording, triggers", [
    ("you", "Whenever a creature you own dies", 1), ("opponent", "Whenever a creature an opponent owns dies", 1)])
def test_owner_filters_are_worded_and_played(engine, owner, wording, triggers):
    """Issue 32 item 3: an owner filter (108.3) on another object's death, phase's "Owned" property. P1's C2 is
    controlled by P2 and P2's C3 by P2: "you own" sees C2 die, "an opponent owns" C3."""
    watch = {"id": "A1", "trigger": {"event": "leave", "subject": "any", "to": "graveyard", "owner": owner},
             "effect": [gain("P1")]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [watch]},
               {"id": "C2", "owner": "P1", "zone": "field", "controller": "P2"},
               {"id": "C3", "owner": "P2", "zone": "field"}]
    assert card_text(objects[0], Names(objects, ["P1", "P2"])).startswith(wording)
    doc = scenario(objects, [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"},
                             {"do": "move", "object": "C3", "from": "field", "to": "graveyard"}])
    check = judged(engine, doc)
    (trigger,) = entries(check.outcome.trace, "trigger")
    assert trace_events(check, id=trigger["event"])[0]["subject"] == ("C2" if owner == "you" else "C3")


def test_triggers_once_each_turn_is_worded_and_played(engine):
    """Issue 32 item 3: "This ability triggers only once each turn." (phase's OncePerTurn): two creatures die one
    after the other, the watcher triggers on the first only."""
    watcher = {"id": "A1", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"},
               "effect": [gain("P2")], "triggers_once_each_turn": True}
    objects = [{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P1", "zone": "field"},
               {"id": "C3", "owner": "P2", "zone": "field", "abilities": [watcher]}]
    doc = scenario(objects, [{"do": "move", "object": c, "from": "field", "to": "graveyard"} for c in ("C1", "C2")])
    assert card_text(objects[2], Names.of(doc)).endswith("you gain 1 life. This ability triggers only once each turn.")
    check = judged(engine, doc)
    (trigger,) = entries(check.outcome.trace, "trigger")
    assert trace_events(check, id=trigger["event"])[0]["subject"] == "C1"


def test_additional_triggers_on_entering_are_worded_and_played(engine):
    """Issue 32 item 3: 603.2d, an object of P1's making abilities triggered by a creature entering trigger an
    additional time (phase's DoubleTriggers static): P1's enter watcher triggers twice on C3 entering, P2's once."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "additional_triggers": {"times": 1, "event": "enter"}},
               {"id": "C2", "owner": "P1", "zone": "field", "abilities": [etb("A1", "P1", "other")]},
               {"id": "C3", "owner": "P1", "zone": "hand"},
               {"id": "C4", "owner": "P2", "zone": "field", "abilities": [etb("A2", "P2", "other")]}]
    assert "triggers an additional time" in card_text(objects[0], Names(objects, ["P1", "P2"]))
    check = judged(engine, scenario(objects, [{"do": "move", "object": "C3", "from": "hand", "to": "field"}]))
    assert sorted(t["ability"] for t in entries(check.outcome.trace, "trigger")) == ["A1", "A1", "A2"]


def test_that_much_life_on_a_damage_trigger_is_worded_and_played(engine):
    """Issue 32 item 3: ``that_many`` as the controller's life on a damage trigger ("you gain that much life"): C1
    deals 2 damage to P2 as it enters; P2's watcher gains P2 2 life."""
    watcher = {"id": "A2", "trigger": {"event": "damage", "subject": "any"},
               "effect": [{"do": "life", "player": "P2", "amount": 1, "that_many": True}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [
                   enters("A1", "P1", [{"do": "damage", "amount": 2, "player": "P2"}])]},
               {"id": "C2", "owner": "P2", "zone": "field", "abilities": [watcher]}]
    assert card_text(objects[1], Names(objects, ["P1", "P2"])) == \
        "Whenever a creature deals damage, you gain that much life."
    check = judged(engine, scenario(objects, MOVE_IN))
    assert trace_events(check, type="life", player="P2", amount=2)


@pytest.mark.parametrize("origin, wording", [("graveyard", "enters from a graveyard"), ("exile", "enters from exile")])
def test_entering_from_a_zone_is_worded_and_played(engine, origin, wording):
    """Issue 32 item 3: a trigger's ``from`` on entering (phase's ChangesZone origin): C2 enters from ``origin``
    and triggers the watcher; C3 entering from a hand does not."""
    watcher = {"id": "A1", "trigger": {"event": "enter", "subject": "other", "from": origin}, "effect": [gain("P1")]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [watcher]},
               {"id": "C2", "owner": "P1", "zone": origin}, {"id": "C3", "owner": "P1", "zone": "hand"},
               {"id": "C4", "owner": "P2", "zone": "field"}]
    assert wording in card_text(objects[0], Names(objects, ["P1", "P2"]))
    check = judged(engine, scenario(objects, [{"do": "move", "object": "C3", "from": "hand", "to": "field"},
                                              {"do": "move", "object": "C2", "from": origin, "to": "field"}]))
    (trigger,) = entries(check.outcome.trace, "trigger")
    assert trace_events(check, id=trigger["event"])[0]["subject"] == "C2"
