"""The phase.rs adapter (reference_engine/mtg/phase/__init__.py): rendering, the generation profile, Skipped, and
scenarios where phase.rs is known to be right. Skipped as a whole when the extra is not installed:
``pip install '.[phase]'``."""

from __future__ import annotations

import copy

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from reference_engine.kernel.engine import Skipped  # noqa: E402
from reference_engine.mtg.phase import (  # noqa: E402
    PROFILE, Names, PhaseEngine, card_text, delayed_effect, render_ability,
)
from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.checking import check_scenario, play  # noqa: E402
from reference_engine.mtg.generator import build_scenario  # noqa: E402
from reference_engine.kernel.registry import builder_for  # noqa: E402
from reference_engine.kernel.source import SeededSource  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402

OPTIONS = {"pass_two_membership": "triggering-only", "departed_delayed": "cease"}


@pytest.fixture(scope="module")
def engine():
    return PhaseEngine()


def scenario(objects, script, players=("P1", "P2"), active="P1", order=None, optional=None):
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
           "players": list(players), "active_player": active, "objects": objects,
           "script": [{"step": "main", "actions": [{"by": active, "effect": [a]} for a in script]}],
           "choices": {"trigger_order": order or []}, "options": dict(OPTIONS)}
    if optional:
        doc["choices"]["optional"] = optional
    return doc


def gain(owner, n=1):
    return {"do": "life", "player": owner, "amount": n}


def etb(aid, owner, subject="self", n=1, **more):
    return {"id": aid, "trigger": {"event": "enter", "subject": subject}, "effect": [gain(owner, n)], **more}


def entries(trace, kind):
    return [e for e in trace["entries"] if e["kind"] == kind]


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
    {"id": "A1", "trigger": {"event": "signal", "name": "s1"}, "effect": [gain("P1")]},
    {"id": "A1", "trigger": {"event": "enter", "subject": "self"},  # a control change by an ability
     "effect": [{"do": "gain_control", "object": "C2", "player": "P1"}]},
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
                   [{"do": "signal", "name": "s1"}])
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
                "left the game before their abilities")), \
                outcome.message
    # (was 20 of 30 before targets on creatures and reflexive abilities, 15 with them; the profile-only features
    # that keep out what the adapter skips brought it back up)
    assert played >= 27


def test_known_deviation_intervening_if_checked_after_the_resolution(engine):
    """Triaged in docs/engines/phase.md: phase 0.103.0 checks an intervening 'if' when it collects the trigger (after
    the whole resolution that caused the event), not as the event occurs (603.4). The suite must keep catching it."""
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
    assert set(check.violations) == {"mtg.look-back"}


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

def _judged(engine, doc):
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert not check.violations, check.violations
    return check


def _events(check, **fields):
    return [e for e in entries(check.outcome.trace, "event") if all(e.get(k) == v for k, v in fields.items())]


def _enters(aid, owner, effect, **more):
    return {"id": aid, "trigger": {"event": "enter", "subject": "self"}, "effect": effect, **more}


MOVE_IN = [{"do": "move", "object": "C1", "from": "hand", "to": "field"}]


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
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 2, "abilities": [_enters("A1", "P1", effect)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": "field",
                                                               "toughness": 3},
               {"id": "C4", "owner": "P2", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert wording in card_text(objects[0], Names.of(doc))
    check = _judged(engine, doc)
    assert _events(check, cause={"resolution": "T1"}, **expect), check.outcome.trace


@pytest.mark.parametrize("trigger, wording", [
    ({"event": "leave", "subject": "C2", "to": "graveyard"}, "Whenever an Elf dies"),
    ({"event": "leave", "subject": "C2"}, "Whenever an Elf leaves the battlefield"),
    ({"event": "damage", "subject": "any"}, "Whenever a creature deals damage"),
    ({"event": "damage", "subject": "self"}, "Whenever this creature deals damage"),
])
def test_triggers_on_one_object_and_on_damage(engine, trigger, wording):
    watcher = {"id": "A2", "trigger": trigger, "effect": [gain("P2", 1)]}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [_enters("A1", "P1", [
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
    check = _judged(engine, doc)
    assert any(t["ability"] == "A2" for t in entries(check.outcome.trace, "trigger"))


def test_a_life_trigger_sees_every_life_change(engine):
    watcher = {"id": "A2", "trigger": {"event": "life"}, "effect": [{"do": "move", "object": "C2", "from": "field",
                                                                     "to": "graveyard"}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [_enters("A1", "P1", [gain("P1", 2)])]},
               {"id": "C2", "owner": "P2", "zone": "field", "abilities": [watcher]}]
    doc = scenario(objects, MOVE_IN)
    assert card_text(objects[1], Names.of(doc)).startswith("Whenever a player gains or loses life")
    check = _judged(engine, doc)
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
                "abilities": [_enters("A1", "P1", [gain("P1", 1)], intervening_if=condition)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "field"},
               {"id": "C4", "owner": "P2", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert wording in card_text(objects[0], Names.of(doc))
    check = _judged(engine, doc)
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
    check = _judged(engine, doc)
    trace = check.outcome.trace
    assert _events(check, type="control", subject="C2", controller="P4")
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
        check = _judged(engine, doc)
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
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [_enters("A1", "P1", [
                   {"do": "move", "object": "C3", "from": "hand", "to": "field"}, gain("P1", 1)], optional=True)]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN)
    assert "you may put all Zombie cards from your hand onto the battlefield. If you do, you gain 1 life." in \
        card_text(objects[0], Names.of(doc))
    check = _judged(engine, doc)
    assert _events(check, type="enter", subject="C3", cause={"resolution": "T1"})
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
    check = _judged(engine, doc)
    assert not _events(check, cause={"resolution": "T1"})


@pytest.mark.parametrize("script, expected", [
    ("damage_to_a_card_in_the_graveyard.py", ["DEVIATION"]),
    ("triggers_judged_after_the_resolution.py", ["a. ", "DEVIATION", "b. ", "DEVIATION", "c. ", "DEVIATION"]),
    ("resolution_and_sba_triggers_one_batch.py", ["DEVIATION"]),
    ("leaves_intervening_if_without_look_back.py", ["DIFFERENT READING", "DIFFERENT READING"]),
    ("concession_is_no_loss.py", ["life: ", "True", "concede: ", "False", "DEVIATION"]),
    ("departed_players_abilities_trigger.py", ["DEVIATION"]),
    ("lethal_damage_and_a_loss_in_one_check.py", ["DEVIATION"]),
    ("two_events_of_one_resolution_apnap.py", ["DEVIATION"]),
    ("target_chosen_after_priority.py", ["Priority", "[[]]", "TriggerTargetSelection", "DEVIATION"]),
    ("target_never_asked.py", ["asked: 1", "DEVIATION"]),
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
    objects = [{"id": "C1", "owner": "P3", "zone": "hand", "abilities": [_enters("A1", "P3", [
                   {"do": "damage", "player": "P3", "amount": 1}])]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C6", "owner": "P1", "zone": "field"},
               {"id": "C3", "owner": "P3", "zone": "field", "abilities": [etb("A3", "P3", "other", 2)]},
               {"id": "C4", "owner": "P3", "zone": "hand"}]
    doc = scenario(objects, MOVE_IN, players=("P1", "P2", "P3"), active="P3", order=["A1", "A3"])
    doc["life"] = {"P3": 1}
    check = _judged(engine, doc)
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
    assert _events(check, type="player_leaves", player="P3", cause={"action": [0, 0]})
    assert _events(check, type="leave", subject="C3", to="removed")
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
    check = _judged(engine, doc)
    assert not _events(check, type="control")


# -- Targeted abilities: "target player" (issue 12 item 4; profile-only feature untargeted_zone_triggers) ------------

def _aimer(aid, owner, effect, trigger=None, **more):
    return {"id": aid, "trigger": trigger or {"event": "enter", "subject": "self"}, "effect": effect, **more}


@pytest.mark.parametrize("effect, optional, wording", [
    ([{"do": "life", "amount": -2, "target": True}], False, "When this creature enters, target player loses 2 life."),
    ([{"do": "damage", "amount": 3, "target": True}], False,
     "When this creature enters, this creature deals 3 damage to target player."),
    ([{"do": "life", "amount": -1, "target": True}, gain("P1", 2)], True,
     "When this creature enters, you may have target player lose 1 life. If you do, you gain 2 life."),
])
def test_target_player_is_worded_and_parsed_as_a_player_target(effect, optional, wording):
    obj = {"id": "C1", "owner": "P1", "zone": "hand",
           "abilities": [_aimer("A1", "P1", effect, target={"players": ["P1", "P2"]}, optional=optional)]}
    names = Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}], ["P1", "P2"])
    assert card_text(obj, names) == wording
    face = phase.build_oracle_face({"name": "Probe", "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
                                    "supertypes": [], "subtypes": ["Goblin"], "text": wording, "type": "Creature",
                                    "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [],
                                    "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
                                    "rulings": [], "power": "1", "toughness": "1"}, None)
    (trigger,) = face["triggers"]
    assert trigger["execute"]["effect"]["target"] == {"type": "Player"}
    assert trigger["optional"] is optional


@pytest.mark.parametrize("target", [{"players": ["P1"]}, {"candidates": ["C2"]}])
def test_other_targets_are_skipped_not_guessed(target):
    obj = {"id": "C1", "owner": "P1", "zone": "hand",
           "abilities": [_aimer("A1", "P1", [{"do": "life", "amount": -2, "target": True}], target=target)]}
    with pytest.raises(Skipped):
        card_text(obj, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}], ["P1", "P2"]))
    with pytest.raises(Skipped):  # "target player gains N life" parses with no target
        render_ability(_aimer("A1", "P1", [{"do": "life", "amount": 2, "target": True}], target={"players": ["P1"]}),
                       obj)


def test_a_target_phase_asks_as_the_ability_goes_on_the_stack_is_its_target(engine):
    """Two abilities of one player on one event, one of them targeted: phase asks for their order, puts them on the
    stack and asks for the target before anyone receives priority, so the target is chosen as the ability goes on
    the stack (603.3d): the trace's stack_push carries the chooser's target and every rule holds."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [_aimer(
                   "A1", "P1", [{"do": "damage", "amount": 2, "target": True}],
                   {"event": "leave", "subject": "other"}, target={"players": ["P1", "P2"]})]},
               {"id": "C2", "owner": "P1", "zone": "field", "abilities": [_aimer(
                   "A2", "P1", [gain("P1", 2)], {"event": "leave", "subject": "any"})]},
               {"id": "C3", "owner": "P1", "zone": "field"}, {"id": "C4", "owner": "P2", "zone": "field"}]
    for chosen in ("P1", "P2"):
        doc = scenario(objects, [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}])
        doc["choices"]["targets"] = {"A1": [chosen]}
        check = _judged(engine, doc)
        (push,) = [e for e in entries(check.outcome.trace, "stack_push") if e.get("target")]
        assert push["target"] == chosen
        assert _events(check, type="damage", subject="C1", player=chosen, amount=2)
        assert check.exercised["mtg.no-legal-target"] == 1


def test_known_deviation_a_target_chosen_after_priority(engine):
    """Triaged in docs/engines/phase.md (violation 7; docs/engines/phase-triage/target_chosen_after_priority.py):
    a lone targeted ability goes on phase's stack with no target, its controller receives priority and passes, and
    only then does phase ask for the target (phase-rs/phase#1287, "push first, choose second"). The trace shows it
    as phase did it: a stack_push with no target, priority, the target choice, priority again; mtg.no-legal-target
    reports the push without a target (603.3d) and mtg.resolution-effect the life loss of an ability the trace says
    targets nobody. Nothing is moved to make it look right."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [_aimer(
                   "A1", "P1", [{"do": "life", "amount": -2, "target": True}], target={"players": ["P1", "P2"]})]},
               {"id": "C2", "owner": "P2", "zone": "field"}]
    doc = scenario(objects, MOVE_IN)
    doc["choices"]["targets"] = {"A1": ["P2"]}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    kinds = [(e["kind"], e.get("decision")) for e in check.outcome.trace["entries"]
             if e["kind"] in ("stack_push", "priority", "choice", "resolve_begin")]
    assert kinds == [("stack_push", None), ("priority", None), ("choice", "target"), ("priority", None),
                     ("resolve_begin", None), ("priority", None)]
    assert "target" not in entries(check.outcome.trace, "stack_push")[0]
    assert _events(check, type="life", player="P2", amount=-2)
    assert set(check.violations) == {"mtg.no-legal-target", "mtg.resolution-effect"}, check.violations
    assert "targeting None" in check.violations["mtg.no-legal-target"][0]


def test_the_profile_draws_targets_only_for_a_profile_asking_for_it():
    """untargeted_zone_triggers is a profile-only feature: the default stream never draws it; phase's profile
    excludes it, so enter/leave abilities may target "target player" (every player a candidate), "target creature"
    (every object) or one object, sometimes one in a hand (no legal target while it is there)."""
    plain = builder_for("mtg", {"exclude": [f for f in PROFILE["exclude"] if f != "untargeted_zone_triggers"]})
    restricted = builder_for("mtg", PROFILE)
    kinds = {"player": 0, "creature": 0, "one": 0, "one in a hand": 0}
    for seed in range(60):
        for ability in (a for o in plain(SeededSource(seed), "2026-02-27")["objects"] for a in o.get("abilities", ())):
            assert "target" not in ability
        doc = restricted(SeededSource(seed), "2026-02-27")
        ids = [o["id"] for o in doc["objects"]]
        for ability in (a for o in doc["objects"] for a in o.get("abilities", ())):
            if "target" not in ability:
                continue
            assert ability["trigger"]["event"] in ("enter", "leave")
            first = ability["effect"][0]
            if "players" in ability["target"]:
                kinds["player"] += 1
                assert ability["target"] == {"players": doc["players"]} and first["target"] is True
                continue
            (candidates,) = ability["target"].values()
            assert first.get("target") is True or first["do"] == "move_target"
            if candidates == ids:
                kinds["creature"] += 1
            else:
                (one,) = candidates
                kinds["one in a hand" if next(o for o in doc["objects"] if o["id"] == one)["zone"] == "hand"
                      else "one"] += 1
    assert kinds["player"] >= 10 and kinds["creature"] >= 5 and kinds["one"] >= 5 and kinds["one in a hand"] >= 1, kinds


def test_known_deviation_a_targeted_ability_never_asked_its_target(engine):
    """Triaged in docs/engines/phase.md (violation 8; docs/engines/phase-triage/target_never_asked.py): an ability
    triggered during a resolution goes on phase's stack with the one a state-based action after it triggered, and
    phase asks the target of the latter only; the former resolves doing nothing. The trace shows its push with no
    target and its removal as an ability with no legal target left (phase reported StackResolved alone):
    mtg.no-legal-target reports the push."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 3, "abilities": [_enters("A1", "P1", [
                   {"do": "move", "object": "C2", "from": "field", "to": "graveyard"},
                   {"do": "damage", "object": "C3", "amount": 1}])]},
               {"id": "C2", "owner": "P1", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "field"},
               {"id": "C4", "owner": "P1", "zone": "field", "toughness": 3, "abilities": [_aimer(
                   "A4", "P1", [{"do": "damage", "amount": 1, "target": True}], {"event": "leave", "subject": "any"},
                   target={"players": ["P1", "P2"]})]},
               {"id": "C5", "owner": "P2", "zone": "field"}]
    doc = scenario(objects, MOVE_IN)
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    pushes = [e for e in entries(check.outcome.trace, "stack_push") if e["trigger"] != "T1"]
    assert len(pushes) == 2 and sum("target" in e for e in pushes) == 1
    untargeted = next(e["trigger"] for e in pushes if "target" not in e)
    assert {"kind": "removed", "trigger": untargeted, "reason": "illegal_target"} in check.outcome.trace["entries"]
    assert len(_events(check, type="damage", subject="C4")) == 1
    assert "mtg.no-legal-target" in check.violations
    assert any("targeting None" in m for m in check.violations["mtg.no-legal-target"])


def test_a_loss_after_the_resolution_followed_by_phases_push_is_after_the_resolution(engine):
    """The resolution's damage leaves P1 at 0 life; phase reports StackResolved, P1's loss and departure (704.5a),
    then StackPushed for the ability the departure triggered. The departure is a state-based action after the
    resolution (704.4 holds); a StackPushed is no part of the resolution. (Before: mtg.sba-between-resolutions,
    a false alarm.) What does fail is phase's own: the target chosen after priority (violation 7) and the two
    batches (violation 3)."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P1", "zone": "hand"},
               {"id": "C3", "owner": "P2", "zone": "field", "toughness": 2, "abilities": [_aimer(
                   "A4", "P2", [{"do": "damage", "amount": 2, "target": True},
                                {"do": "move", "object": "C2", "from": "hand", "to": "field"}],
                   {"event": "leave", "subject": "any"}, target={"players": ["P1", "P2", "P3", "P4"]})]},
               {"id": "C5", "owner": "P3", "zone": "field", "abilities": [_aimer(
                   "A7", "P3", [{"do": "damage", "amount": 2, "player": "P3"}], {"event": "enter", "subject": "other"})]},
               {"id": "C7", "owner": "P4", "zone": "field", "toughness": 2}]
    doc = scenario(objects, [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}],
                   players=("P1", "P2", "P3", "P4"), active="P4")
    doc["life"] = {"P1": 1}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert _events(check, type="player_leaves", player="P1")[0]["cause"].get("sba")
    assert "mtg.sba-between-resolutions" not in check.violations
    assert check.exercised["mtg.sba-between-resolutions"]


# -- Targeted abilities on creatures (issue 12 item 4): "target Elf", "target creature" -------------------------------

DESTROY_TARGET = {"do": "move_target", "to": "graveyard"}
EXILE_TARGET = {"do": "move_target", "to": "exile"}


@pytest.mark.parametrize("effect, target, optional, wording, parsed", [
    ([DESTROY_TARGET], ["C2"], False, "When this creature enters, destroy target Elf.",
     ("Destroy", {"Subtype": "Elf"})),
    ([EXILE_TARGET, gain("P1", 1)], ["C1", "C2", "C3"], False,
     "When this creature enters, exile target creature. You gain 1 life.", ("ChangeZone", "Creature")),
    ([{"do": "damage", "amount": 2, "target": True}], ["C3"], False,
     "When this creature enters, this creature deals 2 damage to target Zombie.",
     ("DealDamage", {"Subtype": "Zombie"})),
    ([DESTROY_TARGET, gain("P1", 1)], ["C1", "C2", "C3"], True,
     "When this creature enters, you may destroy target creature. If you do, you gain 1 life.",
     ("Destroy", "Creature")),
])
def test_targets_on_creatures_are_worded_and_parsed_as_targets(effect, target, optional, wording, parsed):
    obj = {"id": "C1", "owner": "P1", "zone": "hand",
           "abilities": [_aimer("A1", "P1", effect, target={"candidates": target}, optional=optional)]}
    names = Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": "field"}],
                  ["P1", "P2"])
    assert card_text(obj, names) == wording
    face = PhaseEngine().face(obj, names)
    (trigger,) = face["triggers"]
    kind, filtered = parsed
    assert trigger["execute"]["effect"]["type"] == kind
    assert trigger["execute"]["effect"]["target"]["type_filters"] == [filtered]
    assert trigger["optional"] is optional


@pytest.mark.parametrize("target", [{"candidates": ["C1", "C2"]}, {"candidates": ["C2"], "zone": "graveyard"}])
def test_other_object_targets_are_skipped_not_guessed(target):
    obj = {"id": "C1", "owner": "P1", "zone": "hand",
           "abilities": [_aimer("A1", "P1", [DESTROY_TARGET], target=target)]}
    with pytest.raises(Skipped):
        card_text(obj, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"},
                              {"id": "C3", "owner": "P2", "zone": "field"}], ["P1", "P2"]))
    with pytest.raises(Skipped):  # a target in a later instruction than the first
        card_text({**obj, "abilities": [_aimer("A1", "P1", [gain("P1", 1), DESTROY_TARGET], target={
            "candidates": ["C2"]})]}, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}], ["P1", "P2"]))


def _targeting_creatures(effect, target, sibling=True, third="field"):
    abilities = [_aimer("A1", "P1", effect, target={"candidates": target})]
    if sibling:  # a second ability on the same event: phase asks the order, then the target, before priority
        abilities.append(_aimer("A2", "P1", [gain("P1", 1)]))
    return [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": abilities},
            {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": third}]


@pytest.mark.parametrize("effect, gone", [([DESTROY_TARGET], "graveyard"), ([EXILE_TARGET], "exile")])
def test_a_lone_legal_target_phase_chooses_itself_is_the_push_target(engine, effect, gone):
    """'destroy target Elf' with the Elf on the battlefield: phase puts the ability on the stack with its only legal
    target, asking nothing; the stack_push carries it (603.3d) and the Elf leaves on resolution."""
    check = _judged(engine, scenario(_targeting_creatures(effect, ["C2"], sibling=False), MOVE_IN))
    (push,) = entries(check.outcome.trace, "stack_push")
    assert push["target"] == "C2"
    assert _events(check, type="leave", subject="C2", to=gone)
    assert check.exercised["mtg.no-legal-target"] == 1


@pytest.mark.parametrize("effect", [[{"do": "damage", "amount": 2, "target": True}], [EXILE_TARGET]])
def test_target_creature_asked_with_the_order_is_the_chooser_s_and_the_push_s(engine, effect):
    """'target creature' with an other ability of the same player on the same event: phase asks for their order,
    then for the target before anyone receives priority; the chooser's target (among every creature on the
    battlefield, in the scenario's order) is the push's, and every rule holds."""
    for chosen in ("C2", "C3"):
        doc = scenario(_targeting_creatures(effect, ["C1", "C2", "C3"]), MOVE_IN, order=["A2", "A1"])
        doc["choices"]["targets"] = {"A1": [chosen]}
        check = _judged(engine, doc)
        (push,) = [e for e in entries(check.outcome.trace, "stack_push") if e["trigger"] in
                   {t["id"] for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"}]
        assert push["target"] == chosen
        (choice,) = [e for e in entries(check.outcome.trace, "choice") if e["decision"] == "target"]
        assert choice["among"] == ["C1", "C2", "C3"] and choice["chosen"] == [chosen]
        hit = _events(check, type="damage", target=chosen) or _events(check, type="leave", subject=chosen, to="exile")
        assert hit


def test_a_target_gone_before_resolution_is_removed_and_does_nothing(engine):
    """The other ability of the same event destroys the target first: phase reports StackResolved alone for the
    targeted one, and does not do its second instruction either; written removed for an illegal target (608.2b),
    every rule holds."""
    objects = _targeting_creatures([EXILE_TARGET, gain("P1", 1)], ["C3"])
    objects[0]["abilities"][1]["effect"] = [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}]
    check = _judged(engine, scenario(objects, MOVE_IN, order=["A2", "A1"]))
    (t1,) = [t["id"] for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"]
    assert {"kind": "removed", "trigger": t1, "reason": "illegal_target"} in check.outcome.trace["entries"]
    assert not _events(check, type="life")


@pytest.mark.parametrize("order", [["A1", "A2"], ["A2", "A1"]])
def test_no_legal_target_phase_offered_for_ordering_is_removed_as_it_goes_on_the_stack(engine, order):
    """'destroy target Zombie' with the Zombie in a hand, and another ability on the same event: phase offers both
    for ordering, then puts only the other on the stack (603.3d: an ability with no legal target is removed as it
    would be put there). Its event is read from phase's pending abilities; the trace shows it pushed where the order
    put it and removed for no_target at once; mtg.no-legal-target is exercised with it and holds."""
    check = _judged(engine, scenario(_targeting_creatures([DESTROY_TARGET], ["C3"], third="hand"), MOVE_IN,
                                     order=order))
    trace = check.outcome.trace["entries"]
    (t1,) = [t for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"]
    push = trace.index({"kind": "stack_push", "trigger": t1["id"]})
    assert trace[push + 1] == {"kind": "removed", "trigger": t1["id"], "reason": "no_target"}
    assert t1["event"] == _events(check, type="enter", subject="C1")[0]["id"]
    assert check.exercised["mtg.no-legal-target"] == 1
    assert not _events(check, type="leave")


def test_a_lone_ability_with_no_legal_target_is_skipped_not_guessed(engine):
    """Alone, an ability phase removes for want of a target leaves no trace at all in phase (no event, no prompt,
    no log line): whether it triggered cannot be seen, so the scenario is skipped with the reason."""
    outcome = play(engine, scenario(_targeting_creatures([DESTROY_TARGET], ["C3"], sibling=False, third="hand"),
                                    MOVE_IN) | {"options": dict(OPTIONS)})
    assert outcome.status == "skipped" and "none on the battlefield" in outcome.message


def test_known_deviation_a_creature_target_chosen_after_priority(engine):
    """Violation 7 with a creature target (docs/engines/phase.md): a lone 'destroy target creature' with several
    legal targets goes on phase's stack with none, its controller receives priority, and only then does phase ask.
    Written as phase did it; mtg.no-legal-target reports the push without a target."""
    doc = scenario(_targeting_creatures([DESTROY_TARGET], ["C1", "C2", "C3"], sibling=False), MOVE_IN)
    doc["choices"]["targets"] = {"A1": ["C3"]}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    kinds = [(e["kind"], e.get("decision")) for e in check.outcome.trace["entries"]
             if e["kind"] in ("stack_push", "priority", "choice", "resolve_begin")]
    assert kinds[:4] == [("stack_push", None), ("priority", None), ("choice", "target"), ("priority", None)]
    assert _events(check, type="leave", subject="C3", to="graveyard")
    assert "targeting None" in check.violations["mtg.no-legal-target"][0]


# -- Reflexive abilities (issue 12 item 4; 603.12): "destroy all Elves. When you do, ..." ------------------------------

def _reflexive(victim, follow, optional=False, before=()):
    return {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "optional": optional,
            "effect": [*before, {"do": "move", "object": victim, "from": "field", "to": "graveyard"},
                       {"do": "reflexive", "ability": {"id": "R1", "trigger": {
                           "event": "leave", "subject": victim, "to": "graveyard"}, "effect": [follow]}}]}


def _reflexive_objects(ability, victim_zone="field"):
    return [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [ability]},
            {"id": "C2", "owner": "P2", "zone": victim_zone}, {"id": "C3", "owner": "P2", "zone": "field"}]


EXILE_C3 = {"do": "move", "object": "C3", "from": "field", "to": "exile"}


@pytest.mark.parametrize("optional, wording", [
    (False, "When this creature enters, destroy all Elves. When you do, exile all Zombies."),
    (True, "When this creature enters, you may destroy all Elves. When you do, exile all Zombies."),
])
def test_a_reflexive_ability_is_worded_when_you_do_and_parsed_as_one(optional, wording):
    objects = _reflexive_objects(_reflexive("C2", EXILE_C3, optional))
    names = Names(objects, ["P1", "P2"])
    assert card_text(objects[0], names) == wording
    (trigger,) = PhaseEngine().face(objects[0], names)["triggers"]
    assert trigger["execute"]["sub_ability"]["condition"] == {"type": "WhenYouDo"}
    with pytest.raises(Skipped):  # watching another object than the one destroyed: no "When you do"
        card_text({**objects[0], "abilities": [_reflexive("C2", EXILE_C3) | {"effect": [
            {"do": "move", "object": "C3", "from": "field", "to": "graveyard"},
            _reflexive("C2", EXILE_C3)["effect"][1]]}]}, names)


@pytest.mark.parametrize("optional", [False, True])
def test_a_reflexive_ability_is_created_triggers_on_the_death_and_resolves(engine, optional):
    """The Elf dies, the reflexive ability is created at the end of the resolution and triggers on that death
    (603.12a), goes on the stack after the resolution and exiles the Zombie; mtg.reflexive is exercised and holds."""
    check = _judged(engine, scenario(_reflexive_objects(_reflexive("C2", EXILE_C3, optional)), MOVE_IN,
                                     optional={"A1": True}))
    trace = check.outcome.trace["entries"]
    (create,) = entries(check.outcome.trace, "delayed_create")
    assert create["reflexive"] is True and create["ability"] == "R1" and create["created_by"] == "T1"
    (reflexive,) = [t for t in entries(check.outcome.trace, "trigger") if t["ability"] == "R1"]
    assert reflexive["delayed"] == create["id"]
    assert reflexive["event"] == _events(check, type="leave", subject="C2")[0]["id"]
    assert trace.index(reflexive) == trace.index(create) + 1
    assert _events(check, type="leave", subject="C3", to="exile")
    assert check.exercised["mtg.reflexive"] == 1


def test_a_reflexive_ability_whose_object_is_not_there_is_created_and_does_not_trigger(engine):
    """Not optional, the Elf in a hand: 'destroy all Elves' destroys nothing, phase's 'When you do' does not
    trigger, and neither does the scenario's reflexive ability (no death to trigger on); it is created all the
    same."""
    check = _judged(engine, scenario(_reflexive_objects(_reflexive("C2", EXILE_C3), "hand"), MOVE_IN))
    assert len(entries(check.outcome.trace, "delayed_create")) == 1
    assert [t["ability"] for t in entries(check.outcome.trace, "trigger")] == ["A1"]


def test_a_declined_optional_ability_creates_no_reflexive_ability(engine):
    check = _judged(engine, scenario(_reflexive_objects(_reflexive("C2", EXILE_C3, True)), MOVE_IN,
                                     optional={"A1": False}))
    assert not entries(check.outcome.trace, "delayed_create")
    assert not _events(check, type="leave")


@pytest.mark.parametrize("optional, before, victim_zone", [
    (True, [], "hand"),  # phase's optional "When you do" triggers on the choice alone
    (False, [{"do": "move", "object": "C2", "from": "field", "to": "exile"}], "field"),  # an earlier instruction
])
def test_where_when_you_do_is_no_death_the_scenario_is_skipped(engine, optional, before, victim_zone):
    doc = scenario(_reflexive_objects(_reflexive("C2", EXILE_C3, optional, before), victim_zone), MOVE_IN,
                   optional={"A1": True}) | {"options": dict(OPTIONS)}
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "does not watch a death" in outcome.message


# -- Delayed abilities (issue 12 item 4; 603.7): "whenever a creature dies this turn, ..." -----------------------------

def _delayed(subject="any", to=None, follow=None, before=()):
    trigger = {"event": "leave", "subject": subject} | ({"to": to} if to else {})
    return {"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [*before, {
        "do": "create_delayed", "duration": "turn", "ability": {"id": "D1", "trigger": trigger,
                                                              "effect": [follow or gain("P1", 1)]}}]}


def _killer(*victims):
    return {"id": "C4", "owner": "P1", "zone": "hand", "abilities": [_enters("A4", "P1", [
        {"do": "move", "object": v, "from": "field", "to": "graveyard"} for v in victims])]}


def _delayed_objects(ability, *more):
    return [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [ability]},
            {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": "field"}, *more]


BOTH_ENTER = MOVE_IN + [{"do": "move", "object": "C4", "from": "hand", "to": "field"}]


@pytest.mark.parametrize("ability, wording, mode", [
    (_delayed(to="graveyard"), "When this creature enters, whenever a creature dies this turn, you gain 1 life.",
     "ChangesZone"),
    (_delayed("C2", follow={"do": "move", "object": "C3", "from": "field", "to": "graveyard"}),
     "When this creature enters, whenever an Elf leaves the battlefield this turn, destroy all Zombies.",
     "LeavesBattlefield"),
    (_delayed(to="graveyard", before=[gain("P1", 2)]),
     "When this creature enters, you gain 2 life. Whenever a creature dies this turn, you gain 1 life.", "ChangesZone"),
])
def test_a_delayed_ability_is_worded_whenever_this_turn_and_parsed_as_one(ability, wording, mode):
    objects = _delayed_objects(ability)
    names = Names(objects, ["P1", "P2"])
    assert card_text(objects[0], names) == wording
    (trigger,) = PhaseEngine().face(objects[0], names)["triggers"]
    created = delayed_effect(trigger["execute"], 0)
    assert created is not None
    step = trigger["execute"]
    while step["effect"]["type"] != "CreateDelayedTrigger":
        step = step["sub_ability"]
    assert step["effect"]["condition"]["type"] == "WheneverEvent"
    assert step["effect"]["condition"]["trigger"]["mode"] == mode


@pytest.mark.parametrize("action", [
    {"do": "create_delayed", "ability": {"id": "D1", "trigger": {"event": "leave", "subject": "any"},
                                         "effect": [gain("P1", 1)]}},  # no duration: "the next time" is unparsed
    {"do": "create_delayed", "duration": "step", "ability": {"id": "D1", "trigger": {
        "event": "leave", "subject": "any"}, "effect": [gain("P1", 1)]}},
    {"do": "create_delayed", "duration": "turn", "ability": {"id": "D1", "trigger": {
        "event": "leave", "subject": "any"}, "effect": [gain("P1", 1)],
        "intervening_if": {"test": "life_at_least", "player": "controller", "value": 15}}},
])
def test_other_delayed_abilities_are_skipped_not_guessed(action):
    objects = _delayed_objects({"id": "A1", "trigger": {"event": "enter", "subject": "self"}, "effect": [action]})
    with pytest.raises(Skipped):
        card_text(objects[0], Names(objects, ["P1", "P2"]))


def test_a_delayed_ability_is_created_where_phase_creates_it_and_triggers_on_a_later_death(engine):
    """The delayed ability is created as its creator resolves (phase's EffectResolved CreateDelayedTrigger), and
    triggers on the Elf leaving in a later resolution: its trigger names the delayed creation, its controller the
    creator's (603.7a, 603.7d-e); every rule holds and mtg.delayed-trigger and mtg.delayed-controller are
    exercised."""
    check = _judged(engine, scenario(_delayed_objects(_delayed("C2"), _killer("C2")), BOTH_ENTER))
    (create,) = entries(check.outcome.trace, "delayed_create")
    assert create == {"kind": "delayed_create", "id": "D1", "ability": "D1", "source": "C1", "controller": "P1",
                      "created_by": "T1", "duration": "turn"}
    (fired,) = [t for t in entries(check.outcome.trace, "trigger") if t.get("delayed") == "D1"]
    assert fired["event"] == _events(check, type="leave", subject="C2")[0]["id"]
    assert _events(check, type="life", player="P1", amount=1)
    assert check.exercised["mtg.delayed-trigger"] == 1 and check.exercised["mtg.delayed-controller"] == 1


def test_known_deviation_a_delayed_ability_triggers_once_for_two_deaths_of_one_resolution(engine):
    """Triaged in docs/engines/phase.md (violation 10; docs/engines/phase-triage/delayed_once_per_resolution.py):
    "whenever a creature dies this turn" sees two creatures die in one resolution and triggers once."""
    check = check_scenario(engine, scenario(_delayed_objects(_delayed(to="graveyard"), _killer("C2", "C3")),
                                            BOTH_ENTER), get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert len([t for t in entries(check.outcome.trace, "trigger") if t.get("delayed")]) == 1
    assert set(check.violations) == {"mtg.delayed-trigger"}, check.violations
    assert "should have triggered on E3 and E4 but triggered on E3" in check.violations["mtg.delayed-trigger"][0]


def test_known_deviation_a_delayed_ability_triggers_on_a_death_before_its_creation(engine):
    """Triaged in docs/engines/phase.md (violation 11; docs/engines/phase-triage/delayed_sees_an_earlier_event.py):
    "destroy all Elves. Whenever a creature dies this turn, ..." triggers on the Elf, which died before the delayed
    ability existed (603.7a)."""
    check = check_scenario(engine, scenario(_delayed_objects(_delayed(to="graveyard", before=[
        {"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])), MOVE_IN),
        get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    trace = check.outcome.trace["entries"]
    (fired,) = [t for t in entries(check.outcome.trace, "trigger") if t.get("delayed")]
    assert trace.index(fired) < trace.index(entries(check.outcome.trace, "delayed_create")[0])
    assert set(check.violations) == {"mtg.delayed-trigger"}, check.violations


def test_a_scripted_event_a_delayed_ability_may_trigger_on_is_skipped(engine):
    """phase's debug MoveToZone (the adapter's scripted actions) fires printed triggers, never delayed ones: such a
    scenario is skipped, never reported as a missed trigger."""
    doc = scenario(_delayed_objects(_delayed(to="graveyard")),
                   MOVE_IN + [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])
    outcome = play(engine, doc | {"options": dict(OPTIONS)})
    assert outcome.status == "skipped" and "do not fire delayed abilities" in outcome.message


def test_known_deviation_a_reflexive_ability_is_stacked_without_asking_for_the_order(engine):
    """Triaged in docs/engines/phase.md (violation 12; docs/engines/phase-triage/reflexive_not_offered_for_ordering.py):
    the reflexive ability and its parent's next instance wait together; phase stacks them without asking (the
    reflexive one on top, resolving first) as if their texts were identical. Where the scenario's order is the
    other one, mtg.apnap-order reports it; where it is phase's, every rule holds."""
    chain = {"id": "A1", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"}, "effect": [
        {"do": "move", "object": "C2", "from": "field", "to": "graveyard"},
        {"do": "reflexive", "ability": {"id": "R1", "trigger": {"event": "leave", "subject": "C2", "to": "graveyard"},
                                        "effect": [gain("P1", 2)]}}]}
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [chain]},
               {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": "field"}]
    died = [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}]
    invariants = get_ruleset("mtg").invariants_for("2026-02-27")
    theirs = check_scenario(engine, scenario(objects, died, order=["R1", "A1"]), invariants)
    assert theirs.outcome.status == "trace" and not theirs.violations, theirs.violations
    ours = check_scenario(engine, scenario(objects, died, order=["A1", "R1"]), invariants)
    assert ours.outcome.status == "trace", ours.outcome.message
    assert set(ours.violations) == {"mtg.apnap-order"}, ours.violations
    assert not [e for e in entries(ours.outcome.trace, "choice") if e["decision"] == "order"]


def test_known_deviation_destroy_this_creature_after_a_target_destroys_the_target(engine):
    """Triaged in docs/engines/phase.md (violation 13;
    docs/engines/phase-triage/destroy_this_creature_after_a_target.py):
    "This creature deals 1 damage to target Elf. Destroy this creature.": phase destroys the Elf (its only legal
    target, chosen by phase as the ability goes on the stack) instead of the source; mtg.resolution-effect reports
    it, and nothing else fails."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 3, "abilities": [_aimer(
                   "A1", "P1", [{"do": "damage", "amount": 1, "target": True},
                                {"do": "move", "object": "C1", "from": "field", "to": "graveyard"}],
                   target={"candidates": ["C2"]})]},
               {"id": "C2", "owner": "P2", "zone": "field", "toughness": 3}]
    check = check_scenario(engine, scenario(objects, MOVE_IN), get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert _events(check, type="leave", subject="C2", to="graveyard") and not _events(check, type="leave", subject="C1")
    assert set(check.violations) == {"mtg.resolution-effect"}, check.violations


def test_a_departed_players_abilities_that_may_have_triggered_before_they_left_are_skipped(engine):
    """docs/engines/phase-triage/departed_players_waiting_ability.py: P2, at 1 life, is dealt 1 damage and sees the
    Goblin die in one resolution, then loses in the state-based actions right after, before their abilities that
    triggered (a printed one and a reflexive one) go on the stack; phase shows nothing of them, so whether they
    triggered cannot be seen: skipped, never reported as missed (it was a false mtg.reflexive and mtg.look-back
    failure). With P2 at 20 life both are mapped and the trace passes every rule."""
    pinger = _enters("A1", "P2", [{"do": "damage", "amount": 1, "player": "P2"},
                                  {"do": "move", "object": "C4", "from": "field", "to": "graveyard"},
                                  {"do": "reflexive", "ability": {"id": "R2", "trigger": {
                                      "event": "leave", "subject": "C4", "to": "graveyard"}, "effect": [gain("P2", 2)]}}])
    objects = [{"id": "C1", "owner": "P2", "zone": "hand", "toughness": 3, "abilities": [pinger]},
               {"id": "C2", "owner": "P1", "zone": "field"},
               {"id": "C3", "owner": "P2", "zone": "field", "abilities": [
                   {"id": "A3", "trigger": {"event": "leave", "subject": "any", "to": "graveyard"},
                    "effect": [gain("P2")]}]},
               {"id": "C4", "owner": "P3", "zone": "field"}]
    doc = scenario(objects, MOVE_IN, players=("P1", "P2", "P3"), order=["R2", "A3"])
    doomed = copy.deepcopy(doc) | {"life": {"P2": 1}}
    outcome = play(engine, doomed)
    assert outcome.status == "skipped", outcome.message
    assert "P2 left the game before their abilities" in outcome.message and "R2" in outcome.message
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert {t["ability"] for t in entries(check.outcome.trace, "trigger")} == {"A1", "A3", "R2"}


def test_known_deviation_the_active_players_delayed_ability_goes_on_the_stack_after_the_others_printed_one(engine):
    """Triaged in docs/engines/phase.md (violation 14; docs/engines/phase-triage/delayed_after_printed_apnap.py): P1
    is active; their delayed ability ("whenever a creature dies this turn") and P2's printed "When this creature
    dies" trigger on one death; phase puts P2's on the stack first, so mtg.apnap-order reports it."""
    creator = _enters("A1", "P1", [{"do": "create_delayed", "duration": "turn", "ability": {
        "id": "D2", "trigger": {"event": "leave", "subject": "any", "to": "graveyard"}, "effect": [gain("P1")]}}])
    killer = _enters("A3", "P1", [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}])
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [creator]},
               {"id": "C2", "owner": "P1", "zone": "hand", "abilities": [killer]},
               {"id": "C3", "owner": "P2", "zone": "field", "abilities": [
                   {"id": "A4", "trigger": {"event": "leave", "subject": "self", "to": "graveyard"},
                    "effect": [gain("P2")]}]}]
    doc = scenario(objects, MOVE_IN + [{"do": "move", "object": "C2", "from": "hand", "to": "field"}])
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    pushes = [next(t for t in entries(check.outcome.trace, "trigger") if t["id"] == p["trigger"])
              for p in entries(check.outcome.trace, "stack_push")]
    assert [(t["ability"], t["controller"]) for t in pushes][-2:] == [("A4", "P2"), ("D2", "P1")]
    assert list(check.violations) == ["mtg.apnap-order"], check.violations
