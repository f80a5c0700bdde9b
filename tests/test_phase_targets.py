"""The phase.rs adapter's targeted abilities (issue 12 item 4): "target player", "target creature", "target Elf", the
target prompts phase asks, and abilities with no legal target. Skipped as a whole when the extra is not installed."""

from __future__ import annotations

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from reference_engine.kernel.engine import Skipped  # noqa: E402
from reference_engine.mtg.phase import (  # noqa: E402
    PROFILE, Names, PhaseEngine, card_text, render_ability,
)
from conformance.running.checking import check_scenario, play  # noqa: E402
from reference_engine.kernel.registry import builder_for  # noqa: E402
from reference_engine.kernel.source import SeededSource  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402
from phase_support import MOVE_IN, OPTIONS, aimer, enters, entries, gain, judged, scenario, trace_events  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    return PhaseEngine()


# -- Targeted abilities: "target player" (issue 12 item 4; profile-only feature untargeted_zone_triggers) ------------



@pytest.mark.parametrize("effect, optional, wording", [
    ([{"do": "life", "amount": -2, "target": True}], False, "When this creature enters, target player loses 2 life."),
    ([{"do": "damage", "amount": 3, "target": True}], False,
     "When this creature enters, this creature deals 3 damage to target player."),
    ([{"do": "life", "amount": -1, "target": True}, gain("P1", 2)], True,
     "When this creature enters, you may have target player lose 1 life. If you do, you gain 2 life."),
])
def test_target_player_is_worded_and_parsed_as_a_player_target(effect, optional, wording):
    obj = {"id": "C1", "owner": "P1", "zone": "hand",
           "abilities": [aimer("A1", "P1", effect, target={"players": ["P1", "P2"]}, optional=optional)]}
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
           "abilities": [aimer("A1", "P1", [{"do": "life", "amount": -2, "target": True}], target=target)]}
    with pytest.raises(Skipped):
        card_text(obj, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}], ["P1", "P2"]))
    with pytest.raises(Skipped):  # "target player gains N life" parses with no target
        render_ability(aimer("A1", "P1", [{"do": "life", "amount": 2, "target": True}], target={"players": ["P1"]}),
                       obj)


def test_a_target_phase_asks_as_the_ability_goes_on_the_stack_is_its_target(engine):
    """Two abilities of one player on one event, one of them targeted: phase asks for their order, puts them on the
    stack and asks for the target before anyone receives priority, so the target is chosen as the ability goes on
    the stack (603.3d): the trace's stack_push carries the chooser's target and every rule holds."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [aimer(
                   "A1", "P1", [{"do": "damage", "amount": 2, "target": True}],
                   {"event": "leave", "subject": "other"}, target={"players": ["P1", "P2"]})]},
               {"id": "C2", "owner": "P1", "zone": "field", "abilities": [aimer(
                   "A2", "P1", [gain("P1", 2)], {"event": "leave", "subject": "any"})]},
               {"id": "C3", "owner": "P1", "zone": "field"}, {"id": "C4", "owner": "P2", "zone": "field"}]
    for chosen in ("P1", "P2"):
        doc = scenario(objects, [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}])
        doc["choices"]["targets"] = {"A1": [chosen]}
        check = judged(engine, doc)
        (push,) = [e for e in entries(check.outcome.trace, "stack_push") if e.get("target")]
        assert push["target"] == chosen
        assert trace_events(check, type="damage", subject="C1", player=chosen, amount=2)
        assert check.exercised["mtg.no-legal-target"] == 1


def test_a_lone_target_is_chosen_as_the_ability_goes_on_the_stack_after_a_land_played(engine):
    """Issue 32 item 1 (formerly the pinned "violation 7"): the scripted entry is phase's own PlayLand (every card is a
    land creature), so phase asks for a lone targeted ability's target as it puts it on the stack, before anyone
    receives priority (603.3d, 117.5): the push carries the chooser's target and every rule holds. The old
    "target chosen after priority" was the debug zone move's doing, not phase's."""
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [aimer(
                   "A1", "P1", [{"do": "life", "amount": -2, "target": True}], target={"players": ["P1", "P2"]})]},
               {"id": "C2", "owner": "P2", "zone": "field"}]
    doc = scenario(objects, MOVE_IN)
    doc["choices"]["targets"] = {"A1": ["P2"]}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    kinds = [(e["kind"], e.get("decision")) for e in check.outcome.trace["entries"]
             if e["kind"] in ("stack_push", "priority", "choice", "resolve_begin")]
    assert kinds == [("stack_push", None), ("choice", "target"), ("priority", None), ("resolve_begin", None),
                     ("priority", None)]
    assert entries(check.outcome.trace, "stack_push")[0]["target"] == "P2"
    assert trace_events(check, type="life", player="P2", amount=-2)
    assert not check.violations, check.violations


def test_a_target_asked_after_priority_following_a_debug_move_is_skipped(engine):
    """A scripted move phase has no game action for (battlefield to graveyard) is a debug MoveToZone, after which
    phase asks a lone ability's target only once its controller passed priority: the debug path's doing (a real
    game action gets the target first), so the adapter skips it rather than report it."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field", "abilities": [aimer(
                   "A1", "P1", [{"do": "life", "amount": -2, "target": True}],
                   {"event": "leave", "subject": "self", "to": "graveyard"}, target={"players": ["P1", "P2"]})]},
               {"id": "C2", "owner": "P2", "zone": "field"}]
    outcome = play(engine, scenario(objects, [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}])
                   | {"options": dict(OPTIONS)})
    assert outcome.status == "skipped" and "following a debug zone move" in outcome.message, outcome.message


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
    objects = [{"id": "C1", "owner": "P1", "zone": "hand", "toughness": 3, "abilities": [enters("A1", "P1", [
                   {"do": "move", "object": "C2", "from": "field", "to": "graveyard"},
                   {"do": "damage", "object": "C3", "amount": 1}])]},
               {"id": "C2", "owner": "P1", "zone": "field"}, {"id": "C3", "owner": "P1", "zone": "field"},
               {"id": "C4", "owner": "P1", "zone": "field", "toughness": 3, "abilities": [aimer(
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
    assert len(trace_events(check, type="damage", subject="C4")) == 1
    assert "mtg.no-legal-target" in check.violations
    assert any("targeting None" in m for m in check.violations["mtg.no-legal-target"])


def test_a_loss_after_the_resolution_followed_by_phases_push_is_after_the_resolution(engine):
    """The resolution's damage leaves P1 at 0 life; phase reports StackResolved, P1's loss and departure (704.5a),
    then StackPushed for the ability the departure triggered. The departure is a state-based action after the
    resolution (704.4 holds); a StackPushed is no part of the resolution. (Before: mtg.sba-between-resolutions,
    a false alarm.) What does fail is phase's own: the target chosen after priority (violation 7) and the two
    batches (violation 3). C1 leaves in a resolution (C8, the active player's, played as a land, destroys it):
    after a debug move phase would ask A4's target only after priority, which the adapter skips."""
    objects = [{"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P1", "zone": "hand"},
               {"id": "C3", "owner": "P2", "zone": "field", "toughness": 2, "abilities": [aimer(
                   "A4", "P2", [{"do": "damage", "amount": 2, "target": True},
                                {"do": "move", "object": "C2", "from": "hand", "to": "field"}],
                   {"event": "leave", "subject": "any"}, target={"players": ["P1", "P2", "P3", "P4"]})]},
               {"id": "C5", "owner": "P3", "zone": "field", "abilities": [aimer(
                   "A7", "P3", [{"do": "damage", "amount": 2, "player": "P3"}], {"event": "enter", "subject": "other"})]},
               {"id": "C7", "owner": "P4", "zone": "field", "toughness": 2},
               {"id": "C8", "owner": "P4", "zone": "hand", "abilities": [aimer(
                   "A9", "P4", [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}])]}]
    doc = scenario(objects, [{"do": "move", "object": "C8", "from": "hand", "to": "field"}],
                   players=("P1", "P2", "P3", "P4"), active="P4")
    doc["life"] = {"P1": 1}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    assert trace_events(check, type="player_leaves", player="P1")[0]["cause"].get("sba")
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
           "abilities": [aimer("A1", "P1", effect, target={"candidates": target}, optional=optional)]}
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
           "abilities": [aimer("A1", "P1", [DESTROY_TARGET], target=target)]}
    with pytest.raises(Skipped):
        card_text(obj, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"},
                              {"id": "C3", "owner": "P2", "zone": "field"}], ["P1", "P2"]))
    with pytest.raises(Skipped):  # a target in a later instruction than the first
        card_text({**obj, "abilities": [aimer("A1", "P1", [gain("P1", 1), DESTROY_TARGET], target={
            "candidates": ["C2"]})]}, Names([obj, {"id": "C2", "owner": "P2", "zone": "field"}], ["P1", "P2"]))


def _targeting_creatures(effect, target, sibling=True, third="field"):
    abilities = [aimer("A1", "P1", effect, target={"candidates": target})]
    if sibling:  # a second ability on the same event: phase asks the order, then the target, before priority
        abilities.append(aimer("A2", "P1", [gain("P1", 1)]))
    return [{"id": "C1", "owner": "P1", "zone": "hand", "abilities": abilities},
            {"id": "C2", "owner": "P2", "zone": "field"}, {"id": "C3", "owner": "P2", "zone": third}]


@pytest.mark.parametrize("effect, gone", [([DESTROY_TARGET], "graveyard"), ([EXILE_TARGET], "exile")])
def test_a_lone_legal_target_phase_chooses_itself_is_the_push_target(engine, effect, gone):
    """'destroy target Elf' with the Elf on the battlefield: phase puts the ability on the stack with its only legal
    target, asking nothing; the stack_push carries it (603.3d) and the Elf leaves on resolution."""
    check = judged(engine, scenario(_targeting_creatures(effect, ["C2"], sibling=False), MOVE_IN))
    (push,) = entries(check.outcome.trace, "stack_push")
    assert push["target"] == "C2"
    assert trace_events(check, type="leave", subject="C2", to=gone)
    assert check.exercised["mtg.no-legal-target"] == 1


@pytest.mark.parametrize("effect", [[{"do": "damage", "amount": 2, "target": True}], [EXILE_TARGET]])
def test_target_creature_asked_with_the_order_is_the_chooser_s_and_the_push_s(engine, effect):
    """'target creature' with an other ability of the same player on the same event: phase asks for their order,
    then for the target before anyone receives priority; the chooser's target (among every creature on the
    battlefield, in the scenario's order) is the push's, and every rule holds."""
    for chosen in ("C2", "C3"):
        doc = scenario(_targeting_creatures(effect, ["C1", "C2", "C3"]), MOVE_IN, order=["A2", "A1"])
        doc["choices"]["targets"] = {"A1": [chosen]}
        check = judged(engine, doc)
        (push,) = [e for e in entries(check.outcome.trace, "stack_push") if e["trigger"] in
                   {t["id"] for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"}]
        assert push["target"] == chosen
        (choice,) = [e for e in entries(check.outcome.trace, "choice") if e["decision"] == "target"]
        assert choice["among"] == ["C1", "C2", "C3"] and choice["chosen"] == [chosen]
        hit = trace_events(check, type="damage", target=chosen) or trace_events(check, type="leave", subject=chosen, to="exile")
        assert hit


def test_a_target_gone_before_resolution_is_removed_and_does_nothing(engine):
    """The other ability of the same event destroys the target first: phase reports StackResolved alone for the
    targeted one, and does not do its second instruction either; written removed for an illegal target (608.2b),
    every rule holds."""
    objects = _targeting_creatures([EXILE_TARGET, gain("P1", 1)], ["C3"])
    objects[0]["abilities"][1]["effect"] = [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}]
    check = judged(engine, scenario(objects, MOVE_IN, order=["A2", "A1"]))
    (t1,) = [t["id"] for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"]
    assert {"kind": "removed", "trigger": t1, "reason": "illegal_target"} in check.outcome.trace["entries"]
    assert not trace_events(check, type="life")


@pytest.mark.parametrize("order", [["A1", "A2"], ["A2", "A1"]])
def test_no_legal_target_phase_offered_for_ordering_is_removed_as_it_goes_on_the_stack(engine, order):
    """'destroy target Zombie' with the Zombie in a hand, and another ability on the same event: phase offers both
    for ordering, then puts only the other on the stack (603.3d: an ability with no legal target is removed as it
    would be put there). Its event is read from phase's pending abilities; the trace shows it pushed where the order
    put it and removed for no_target at once; mtg.no-legal-target is exercised with it and holds."""
    check = judged(engine, scenario(_targeting_creatures([DESTROY_TARGET], ["C3"], third="hand"), MOVE_IN,
                                     order=order))
    trace = check.outcome.trace["entries"]
    (t1,) = [t for t in entries(check.outcome.trace, "trigger") if t["ability"] == "A1"]
    push = trace.index({"kind": "stack_push", "trigger": t1["id"]})
    assert trace[push + 1] == {"kind": "removed", "trigger": t1["id"], "reason": "no_target"}
    assert t1["event"] == trace_events(check, type="enter", subject="C1")[0]["id"]
    assert check.exercised["mtg.no-legal-target"] == 1
    assert not trace_events(check, type="leave")


def test_a_lone_ability_with_no_legal_target_is_skipped_not_guessed(engine):
    """Alone, an ability phase removes for want of a target leaves no trace at all in phase (no event, no prompt,
    no log line): whether it triggered cannot be seen, so the scenario is skipped with the reason."""
    outcome = play(engine, scenario(_targeting_creatures([DESTROY_TARGET], ["C3"], sibling=False, third="hand"),
                                    MOVE_IN) | {"options": dict(OPTIONS)})
    assert outcome.status == "skipped" and "none on the battlefield" in outcome.message


def test_a_lone_creature_target_is_chosen_as_the_ability_goes_on_the_stack(engine):
    """The same with a creature target: a lone 'destroy target creature' with several legal targets, its source
    played as a land: phase asks before anyone receives priority, and the push carries the target."""
    doc = scenario(_targeting_creatures([DESTROY_TARGET], ["C1", "C2", "C3"], sibling=False), MOVE_IN)
    doc["choices"]["targets"] = {"A1": ["C3"]}
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert check.outcome.status == "trace", check.outcome.message
    kinds = [(e["kind"], e.get("decision")) for e in check.outcome.trace["entries"]
             if e["kind"] in ("stack_push", "priority", "choice", "resolve_begin")]
    assert kinds[:3] == [("stack_push", None), ("choice", "target"), ("priority", None)]
    assert entries(check.outcome.trace, "stack_push")[0]["target"] == "C3"
    assert trace_events(check, type="leave", subject="C3", to="graveyard")
    assert "mtg.no-legal-target" not in check.violations, check.violations
