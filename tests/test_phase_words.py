"""Issue 32 item 3: words phase.rs's adapter renders for the real-bug scenarios (docs/engines/bug-reports.md): the
script's simultaneous moves (``move_together``, the token maker's "destroy all" ability), 'one or more' triggers,
zone changes from the battlefield and to a graveyard from anywhere, abilities working from a graveyard, and named
signals (helper lands played). Each word is checked twice: a direct probe of phase-python alone (no adapter) shows
phase has the mechanics and what it does, and the adapter's trace of a scenario shows the same. Skipped as a whole
when the extra is not installed."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.documents.scenarios import prepare_scenario  # noqa: E402
from conformance.running.checking import check_scenario, play  # noqa: E402
from phase_support import entries, gain, judged, scenario, trace_events  # noqa: E402
from reference_engine.kernel.registry import get_ruleset  # noqa: E402
from reference_engine.mtg.phase.render import Names, card_text  # noqa: E402
from reference_engine.mtg.phase.tokens import maker_text  # noqa: E402

ROOT = pathlib.Path(__file__).parent.parent
REPORTS = ROOT / "tests" / "data" / "bug-reports"
sys.path.insert(0, str(ROOT / "docs" / "engines" / "phase-triage"))
from _phase import Table  # noqa: E402

HELPER = {"name": "Helper", "manaCost": "", "manaValue": 0.0, "types": ["Artifact"], "supertypes": [],
          "subtypes": [], "text": "{0}: Destroy all Goblins and Elves.", "type": "Artifact", "layout": "normal",
          "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
          "foreignData": [], "rulings": []}
LAND = dict(HELPER, name="Conformance signal s", types=["Land"], type="Land", text="")


@pytest.fixture(scope="module")
def engine():
    return load_engine("phase", "mtg")


def report(name):
    return prepare_scenario(json.loads((REPORTS / f"{name}.json").read_text("utf-8")), name)[1]


def face(text):
    return phase.build_oracle_face(dict(HELPER, name="Probe", text=text), None)


def destroy_together(cards):
    """A direct game: seat 0 holds ``cards`` (name -> (text, type)) on the battlefield and the helper artifact, whose
    "{0}: Destroy all Goblins and Elves." is activated and resolved; returns the table (phase's stack after it)."""
    table = Table(dict(cards, Bystander=("", "Zombie")), [[*cards, "Helper"], ["Bystander"]], others=[HELPER])
    for name in [*cards, "Helper"]:
        table.move(name)
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    for _ in range(4):
        if not any(s["source_id"] == table.ids["Helper"] for s in table.game.stack()):
            break
        table.apply(table.game.waiting_for()["data"]["player"], {"type": "PassPriority"})
    return table


# --- direct probes: phase-python alone ---------------------------------------------------------------------------

def test_probe_destroy_all_of_several_types_is_one_destroy_all_of_an_or():
    effect = face("{0}: Destroy all Goblins, Elves, and Zombies.")["abilities"][0]["effect"]
    assert effect["type"] == "DestroyAll" and effect["target"]["type"] == "Or"
    assert [f["type_filters"] for f in effect["target"]["filters"]] == [[{"Subtype": k}] for k in
                                                                        ("Goblin", "Elf", "Zombie")]


def test_probe_a_simultaneous_destroy_triggers_a_dies_ability_per_creature_and_a_batched_one_once():
    table = destroy_together({"Watcher": ("Whenever another creature dies, you gain 1 life.", "Goblin"),
                              "Other": ("", "Elf"), "Third": ("", "Elf")})
    assert table.stack() == ["Watcher", "Watcher"]  # Other and Third; the source's own death looks back (603.10a)
    table = destroy_together({"Batch": ("Whenever one or more other creatures you control die, you gain 1 life.",
                                        "Goblin"), "Other": ("", "Elf"), "Third": ("", "Elf")})
    assert table.stack() == ["Batch"]


def test_probe_returning_this_card_from_the_graveyard_works_from_the_graveyard():
    trigger = face("Whenever another creature you control dies, you may return this card from your graveyard to the "
                   "battlefield.")["triggers"][0]
    assert trigger["trigger_zones"] == ["Graveyard"]
    assert trigger["execute"]["effect"] == {"type": "ChangeZone", "origin": "Graveyard", "destination": "Battlefield",
                                            "target": {"type": "SelfRef"}, "owner_library": False,
                                            "enter_transformed": False, "enter_tapped": False,
                                            "enters_attacking": False}


@pytest.mark.parametrize("text, controller, batched", [
    ("Whenever a card is put into an opponent's graveyard from anywhere, you gain 1 life.", "Opponent", False),
    ("Whenever one or more creature cards are put into your graveyard from anywhere, you gain 1 life.", "You", True),
])
def test_probe_a_card_put_into_a_graveyard_from_anywhere(text, controller, batched):
    trigger = face(text)["triggers"][0]
    assert (trigger["origin"], trigger["destination"]) == (None, "Graveyard")
    assert trigger["valid_card"]["controller"] == controller and trigger["batched"] is batched


def test_probe_a_named_land_played_triggers_every_players_ability_and_nothing_else():
    text = "Whenever a player plays a land named Conformance signal s, you gain 1 life."
    table = Table({"Watcher": (text, "Goblin"), "Other": (text, "Elf"), "Card": ("", "Zombie")},
                  [["Watcher", "Conformance signal s", "Card"], ["Other"]], others=[LAND])
    table.move("Watcher")
    table.move("Other")
    assert table.play_land("Card") and not table.game.stack()  # a land of another name
    events = table.play_land("Conformance signal s")
    assert [e["type"] for e in events] == ["ZoneChanged", "LandPlayed"]
    assert sorted(table.stack()) == ["Other", "Watcher"]
    assert {s["kind"]["data"]["trigger_event"]["type"] for s in table.game.stack()} == {"LandPlayed"}


# --- through the adapter ------------------------------------------------------------------------------------------

def test_a_simultaneous_move_is_the_token_makers_destroy_all_one_event(engine):
    doc = report("br-forge-3181-syr-konrad")
    assert maker_text(doc, {}, {o: Names.of(doc).all(o) for o in ("K", "C1", "C2", "T1")}) == \
        "{0}: Destroy all Goblins, Elves, Zombies, and Merfolk."
    check = judged(engine, doc)
    left = trace_events(check, type="leave")
    assert [e["subject"] for e in left] == ["K", "C1", "C2", "T1"] and {e["group"] for e in left} == {left[0]["id"]}
    assert sorted(t["event"] for t in entries(check.outcome.trace, "trigger")) == [e["id"] for e in left[1:]]


def test_a_one_or_more_trigger_triggers_once_for_a_simultaneous_move(engine):
    doc = report("br-argentum-688-batched-dies-source-dies")
    assert card_text(doc["objects"][0], Names.of(doc)) == \
        "Whenever one or more other creatures you control die, you gain 1 life."
    assert len(entries(judged(engine, doc).outcome.trace, "trigger")) == 1


def test_an_ability_working_from_a_graveyard_returns_its_card(engine):
    doc = report("br-xmage-3853-nether-traitor")
    assert card_text(doc["objects"][0], Names.of(doc)) == \
        "Whenever another creature you control dies, you may return this card from your graveyard to the battlefield."
    check = judged(engine, doc)
    (trigger,) = entries(check.outcome.trace, "trigger")  # W4's death only: N was on the battlefield with W1-W3
    assert trace_events(check, id=trigger["event"])[0]["subject"] == "W4"
    assert trace_events(check, type="enter", subject="N")


@pytest.mark.parametrize("name, text", [
    ("br-phase-7629-duskmantle-from-anywhere",
     "Whenever a card is put into an opponent's graveyard from anywhere, each opponent loses 1 life."),
])
def test_zone_changes_from_the_battlefield_and_from_anywhere(engine, name, text):
    doc = report(name)
    assert card_text(doc["objects"][0], Names.of(doc)) == text
    judged(engine, doc)


def test_known_deviation_that_player_is_the_dying_creatures_last_controller(engine):
    """docs/engines/phase.md violation 21 (603.2, 608.2, 400.3; triage script that_player_is_the_last_controller.py,
    which shows the same with a real control-changing effect, so the adapter's debug SetController is not the cause).
    Issue 31: "that player loses N life" (that_player). Patron of the Nezumi's ability sees P2's creature, which P1
    controls, die: its owner P2 must lose the life (400.3: the owner's graveyard); phase takes it from P1, the
    creature's last controller (XMage issue 5241's bug), and from P2 once P2 controls the creature too."""
    doc = report("br-xmage-5241-patron-of-the-nezumi")
    assert card_text(doc["objects"][0], Names.of(doc)) == \
        "Whenever a creature an opponent owns dies, that player loses 1 life."
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert list(check.violations) == ["mtg.resolution-effect"], check.violations
    assert [e["player"] for e in trace_events(check, type="life")] == ["P1"]
    owned = json.loads(json.dumps(doc))
    next(o for o in owned["objects"] if o["id"] == "ST").pop("controller")
    assert [e["player"] for e in trace_events(judged(engine, owned), type="life")] == ["P2"]


def test_known_deviation_a_from_anywhere_ability_sees_its_own_death(engine):
    """docs/engines/phase.md violation 19 (603.6c, 603.10a; triage script from_anywhere_looks_back.py)."""
    check = check_scenario(engine, report("br-xmage-8184-sefris-from-anywhere"),
                           get_ruleset("mtg").invariants_for("2026-02-27"))
    assert list(check.violations) == ["mtg.look-back"], check.violations


def test_a_named_signal_is_a_helper_land_played(engine):
    doc = report("br-magarena-423-apnap-bushido")
    check = judged(engine, doc)
    (signal,) = trace_events(check, type="signal")
    assert signal["name"] == "block" and signal["player"] == "P1" and "subject" not in signal
    assert [(t["ability"], t["event"]) for t in entries(check.outcome.trace, "trigger")] == \
        [("A1", signal["id"]), ("A2", signal["id"])]
    # APNAP: the non-active player's ability on top, resolved first
    assert [r["trigger"] for r in entries(check.outcome.trace, "resolve_begin")] == ["T2", "T1"]


@pytest.mark.parametrize("objects, script, words", [
    ([{"id": "W", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A", "trigger": {"event": "signal", "name": "s", "subject": "self"}, "effect": [gain("P1")]}]}],
     [{"do": "signal", "name": "s"}], "a signal trigger with fields"),
    ([{"id": "W", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A", "trigger": {"event": "signal", "name": "s"}, "effect": [gain("P1")]},
        {"id": "B", "trigger": {"event": "enter", "subject": "any"}, "effect": [gain("P1")]}]},
      {"id": "TK", "owner": "P1", "zone": "uncreated", "token": True, "types": ["artifact"]}],
     [{"do": "create_token", "objects": ["TK"]}, {"do": "signal", "name": "s"}], "permanents"),
    ([{"id": "W", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"}, "effect": [gain("P1")],
         "active_in": ["graveyard"]}]}, {"id": "C", "owner": "P2", "zone": "field"}],
     [{"do": "move", "object": "C", "from": "field", "to": "graveyard"}], "working from a graveyard"),
])
def test_words_outside_the_subset_are_skipped(engine, objects, script, words):
    outcome = play(engine, scenario(objects + [{"id": "D", "owner": "P2", "zone": "deck"}], script))
    assert outcome.status == "skipped" and words in outcome.message, outcome.message


def test_probe_a_state_trigger_triggers_after_a_game_action():
    """phase checks a state trigger (603.8) after its own game actions; after a debug move only once a player has
    passed priority (the debug move's doing: the adapter moves a permanent through the token maker's "destroy all"
    where the scenario has a state trigger, tokens.move_key)."""
    trigger = face("When there are no Goblins on the battlefield, exile this creature.")["triggers"][0]
    assert trigger["mode"] == "StateCondition"
    cards = {"Olivia": ("", "Goblin"), "Vamp": ("When there are no Goblins on the battlefield, exile all Elves.", "Elf")}
    table = Table(dict(cards, By=("", "Zombie")), [["Olivia", "Vamp", "Helper"], ["By"]],
                  others=[dict(HELPER, text="{0}: Destroy all Goblins.")])
    for name in ("Olivia", "Vamp", "Helper"):
        table.move(name)
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    table.apply(0, {"type": "PassPriority"})
    table.apply(1, {"type": "PassPriority"})
    assert table.stack() == ["Vamp"]
    table = Table(dict(cards, By=("", "Zombie")), [["Olivia", "Vamp"], ["By"]])
    table.move("Olivia")
    table.move("Vamp")
    table.move("Olivia", "Graveyard", simulate=True)
    assert table.stack() == [] and table.game.waiting_for()["type"] == "Priority"


def test_known_deviation_state_triggers_naming_their_sources_are_not_ordered(engine):
    """docs/engines/phase.md violation 20 (603.3b; triage script identical_texts_naming_their_sources.py): both state
    triggers are written, after the death that made their state true, but stacked in phase's order."""
    doc = report("br-forge-1125-olivia-state-triggers")
    assert card_text(doc["objects"][1], Names.of(doc)) == \
        "When there are no Goblins on the battlefield, exile this creature."
    check = check_scenario(engine, doc, get_ruleset("mtg").invariants_for("2026-02-27"))
    assert list(check.violations) == ["mtg.apnap-order"], check.violations
    (death,) = trace_events(check, type="leave", subject="OL")
    assert [(t["ability"], t["event"]) for t in entries(check.outcome.trace, "trigger")] == \
        [("A1", death["id"]), ("A2", death["id"])]


def test_probe_a_source_dealing_damage_to_you_is_damage_done_to_the_controller():
    trigger = face("Whenever a source deals damage to you, you gain 1 life.")["triggers"][0]
    assert trigger["mode"] == "DamageDone" and trigger["valid_target"] == {"type": "Controller"}
    assert trigger["valid_source"] == {"type": "Typed", "type_filters": [], "controller": None, "properties": []}


def test_damage_its_source_deals_to_a_player_who_has_an_ability_on_damage_dealt_to_them(engine):
    """A draw by another player (the signal ``draws`` with a ``player`` filter: phase's own draw, the token maker's
    "Each opponent draws a card."), "deals 1 damage to that player" (that_player: the drawer, phase's
    TriggeringPlayer) and a damage trigger with ``player: you`` ("Whenever a source deals damage to you"), issues 31
    and 32 item 3."""
    doc = report("br-phase-2869-razorkin-needlehead")
    names = Names.of(doc)
    assert card_text(doc["objects"][0], names) == \
        "Whenever an opponent draws a card, this creature deals 1 damage to that player."
    assert card_text(doc["objects"][1], names) == "Whenever a source deals damage to you, you gain 1 life."
    check = judged(engine, doc)
    (damage,) = trace_events(check, type="damage", subject="RN")
    assert damage["player"] == "P2"
    (signal,) = trace_events(check, type="signal")
    assert (signal["name"], signal["player"], signal["cause"]) == ("draws", "P2", {"action": [0, 0]})
    assert [(t["ability"], t["event"]) for t in entries(check.outcome.trace, "trigger")][0] == ("A1", signal["id"])
    assert [(t["ability"], t["event"]) for t in entries(check.outcome.trace, "trigger")][1] == ("A2", damage["id"])


def test_probe_each_opponent_draws_and_whenever_an_opponent_draws_deals_damage_to_that_player():
    """phase-python alone: the helper's "{0}: Each opponent draws a card." makes seat 1 draw its library's card (a
    real draw: ``CardDrawn``), and "Whenever an opponent draws a card, ... deals 1 damage to that player." triggers on
    it (phase's ``Drawn``) and deals the damage to seat 1 (``TriggeringPlayer``)."""
    text = "Whenever an opponent draws a card, this creature deals 1 damage to that player."
    table = Table({"Needle": (text, "Goblin"), "Filler": ("", "Elf")}, [["Needle", "Helper"], ["Filler"]],
                  others=[dict(HELPER, text="{0}: Each opponent draws a card.")])
    table.move("Needle")
    table.move("Helper")
    table.move("Filler", zone="Library")
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    events = table.play(until=lambda ev: any(e["type"] == "CardDrawn" for e in ev))
    assert [(e["data"]["player_id"], e["data"]["object_id"]) for e in events if e["type"] == "CardDrawn"] == \
        [(1, table.ids["Filler"])]
    assert table.stack() == ["Needle"]
    events = table.play()
    assert [(e["data"]["target"], e["data"]["amount"]) for e in events if e["type"] == "DamageDealt"] == \
        [({"Player": 1}, 1)]


def test_a_draw_by_the_other_player_is_the_token_makers_each_opponent_draws(engine):
    doc = json.loads(json.dumps(report("br-phase-2869-razorkin-needlehead")))
    doc["active_player"] = "P1"  # P2 draws in P1's turn
    check = judged(engine, doc)
    (signal,) = trace_events(check, type="signal")
    assert (signal["name"], signal["player"]) == ("draws", "P2")
    assert [e["player"] for e in trace_events(check, type="damage", subject="RN")] == ["P2"]


@pytest.mark.parametrize("change, words", [
    ("three players", "two-player game only"),
    ("that player on a land", "on a draw only"),
])
def test_other_draws_and_that_player_damage_are_skipped(engine, change, words):
    doc = json.loads(json.dumps(report("br-phase-2869-razorkin-needlehead")))
    if change == "three players":  # P2 draws in P1's turn: "each opponent" would be two players
        doc["players"].append("P3")
        doc["active_player"] = "P1"
        doc["objects"].append({"id": "P3C", "owner": "P3", "zone": "field"})
    else:
        doc["objects"][0]["abilities"][0]["trigger"] = {"event": "signal", "name": "land"}
        doc["script"][0]["actions"][0]["effect"][0]["name"] = "land"
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and words in outcome.message, outcome.message


def test_probe_gaining_control_of_all_elves_is_one_controller_changed_event():
    effect = face("{0}: You gain control of all Elves.")["abilities"][0]["effect"]
    assert effect["type"] == "GainControlAll"
    table = Table({"Taker": ("When this creature enters, you gain control of all Elves.", "Goblin"),
                   "Elfie": ("", "Elf")}, [["Taker"], ["Elfie"]])
    table.move("Elfie")
    table.move("Taker", simulate=True)
    events = table.play()
    assert [(e["type"], e["data"]["new_controller"]) for e in events if e["type"] == "ControllerChanged"] == \
        [("ControllerChanged", 0)]


def test_a_control_change_by_an_ability_to_its_controller_is_a_control_event(engine):
    """issue 32 item 3: "you gain control of all Elves" (phase's GainControlAll) written as the resolution's control
    event, from phase's ControllerChanged."""
    doc = scenario([{"id": "C1", "owner": "P1", "zone": "hand", "abilities": [
        {"id": "A1", "trigger": {"event": "enter", "subject": "self"},
         "effect": [{"do": "gain_control", "object": "C2", "player": "P1"}]}]},
        {"id": "C2", "owner": "P2", "zone": "field"}], [{"do": "move", "object": "C1", "from": "hand", "to": "field"}])
    check = judged(engine, doc)
    (control,) = trace_events(check, type="control")
    assert (control["subject"], control["controller"], control["cause"]) == ("C2", "P1", {"resolution": "T1"})


def test_an_intervening_if_on_a_named_players_life_is_their_you(engine):
    """br-forge-1580-felidar-controller: "if you have 40 or more life" for P1's ability naming P1 (603.4); the other
    player's ability takes control of its source first, and the ability still asks about P1, who controlled it as it
    triggered (603.3a)."""
    doc = report("br-forge-1580-felidar-controller")
    assert card_text(doc["objects"][0], Names.of(doc)).endswith("if you have 40 or more life, you gain 1 life.")
    check = judged(engine, doc)
    (control,) = trace_events(check, type="control")
    assert (control["subject"], control["controller"]) == ("FS", "P2")
    assert trace_events(check, type="life", player="P1")
