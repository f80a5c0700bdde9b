"""Issue 32 item 3: damage the script deals together to players, played as phase's own combat (real game actions:
passing priority, declaring attackers; reference_engine/mtg/phase/combat.py), and "Whenever one or more creatures you
control deal damage to an opponent". Checked twice: a direct probe of phase-python alone (no adapter) shows what
phase does, and the adapter's trace of a scenario shows the same. Skipped as a whole when the extra is not
installed."""

from __future__ import annotations

import copy
import json
import pathlib
import sys

import pytest

phase = pytest.importorskip("phase", reason="phase-python is not installed (pip install '.[phase]')")

from conformance.adapters.registry import load_engine  # noqa: E402
from conformance.documents.scenarios import prepare_scenario  # noqa: E402
from conformance.running.checking import play  # noqa: E402
from phase_support import entries, judged, trace_events  # noqa: E402
from reference_engine.mtg.phase.render import Names, card_text, mtgjson_face  # noqa: E402

ROOT = pathlib.Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "docs" / "engines" / "phase-triage"))
from _phase import Table, face  # noqa: E402

BATCH = "Whenever one or more creatures you control deal damage to an opponent, you gain 1 life."
HEROES = ROOT / "tests" / "data" / "bug-reports" / "br-phase-1409-heroes-in-a-half-shell.json"


@pytest.fixture(scope="module")
def engine():
    return load_engine("phase", "mtg")


def heroes():
    return prepare_scenario(json.loads(HEROES.read_text("utf-8")), "heroes")[1]


def test_probe_two_attackers_damage_an_opponent_and_a_one_or_more_ability_triggers_once():
    trigger = face("Probe", BATCH, "Goblin", 1, True)["triggers"][0]
    assert (trigger["mode"], trigger["batched"], trigger["damage_kind"]) == ("DamageDoneOnceByController", True, "Any")
    table = Table({"Heroes": (BATCH, "Goblin"), "M1": ("", "Elf"), "M2": ("", "Zombie"), "By": ("", "Wizard")},
                  [["Heroes", "M1", "M2"], ["By"]])
    for name in ("Heroes", "M1", "M2"):
        table.move(name)
        table.debug(0, "SetSummoningSickness", {"object_id": table.ids[name], "sick": False})
    while table.game.waiting_for()["type"] == "Priority":
        table.apply(table.game.waiting_for()["data"]["player"], {"type": "PassPriority"})
    assert table.game.waiting_for()["type"] == "DeclareAttackers"
    attacks = [[table.ids[m], {"type": "Player", "data": 1}] for m in ("M1", "M2")]
    events = table.apply(0, {"type": "DeclareAttackers", "data": {"attacks": attacks}})
    while not table.game.stack():
        events += table.apply(table.game.waiting_for()["data"]["player"], {"type": "PassPriority"})
    assert [e["data"]["source_id"] for e in events if e["type"] == "DamageDealt"] == [table.ids["M1"], table.ids["M2"]]
    assert table.stack() == ["Heroes"]


def test_damage_dealt_together_to_an_opponent_is_combat_and_one_event(engine):
    doc = heroes()
    names = Names.of(doc)
    assert card_text(doc["objects"][0], names) == BATCH
    assert [mtgjson_face(o, names)["power"] for o in doc["objects"][:3]] == ["1", "2", "3"]  # the hits' amounts
    check = judged(engine, doc)
    dealt = trace_events(check, type="damage")
    assert [(e["subject"], e["player"], e["amount"]) for e in dealt] == [("M1", "P2", 2), ("M2", "P2", 3)]
    assert {e["group"] for e in dealt} == {dealt[0]["id"]}
    assert all(e["cause"] == {"action": [0, 0]} for e in dealt)
    # unmarked damage, no trigger's combat filter to tell: phase's combat, written as the script wrote it
    assert not any("combat" in e for e in dealt)
    (trigger,) = entries(check.outcome.trace, "trigger")
    assert trigger["event"] == dealt[0]["id"]


@pytest.mark.parametrize("change", ["to a creature", "twice one source"])
def test_other_damage_dealt_together_is_skipped(engine, change):
    doc = copy.deepcopy(heroes())
    hits = doc["script"][0]["actions"][0]["effect"][0]["hits"]
    if change == "to a creature":
        hits[1] = {"source": "M2", "object": "M1", "amount": 3}
    else:
        hits[1]["source"] = "M1"
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "combat damage" in outcome.message, outcome.message


def test_a_signal_after_combat_is_a_land_played_in_the_second_main_phase(engine):
    """br-xmage-4222-ongoing-investigation: the watcher is an enchantment, which deals no damage in the scenario, so
    "creatures" excludes no source the scenario has; the one or more ability triggers in the combat damage step, on
    the damage, and the signal after combat is played in phase's second main phase."""
    doc = prepare_scenario(json.loads((HEROES.parent / "br-xmage-4222-ongoing-investigation.json").read_text("utf-8")),
                           "investigation")[1]
    assert card_text(doc["objects"][0], Names.of(doc)) == BATCH
    check = judged(engine, doc)
    (trigger,) = entries(check.outcome.trace, "trigger")
    (signal,) = trace_events(check, type="signal")
    assert trace_events(check, id=trigger["event"])[0]["type"] == "damage"
    assert signal["cause"] == {"action": [1, 0]} and signal["name"] == "postcombat"


def test_a_damage_batch_filter_that_would_exclude_a_source_is_skipped(engine):
    doc = copy.deepcopy(heroes())
    doc["objects"][1]["types"] = ["artifact"]  # M1 deals damage and is no creature: "creatures" would exclude it
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and "trigger fields ['player']" in outcome.message, outcome.message


def report(name):
    return prepare_scenario(json.loads((HEROES.parent / f"{name}.json").read_text("utf-8")), name)[1]


def test_probe_an_attacker_and_its_blocker_kill_each_other_in_one_check_and_both_see_it():
    """603.10a: each creature's "Whenever a <type> dies" looks back, so each sees the other die (704.3: one check)."""
    table = Table({"RW": ("Whenever an Elf dies, you gain 1 life.", "Goblin"),
                   "WI": ("Whenever a Goblin dies, you gain 1 life.", "Elf"), "By": ("", "Zombie")},
                  [["RW", "By"], ["WI"]])
    table.move("RW")
    table.move("WI")
    table.debug(0, "SetSummoningSickness", {"object_id": table.ids["RW"], "sick": False})
    events = []
    while not table.game.stack():
        wait = table.game.waiting_for()
        if wait["type"] == "DeclareAttackers":
            attacks = [[table.ids["RW"], {"type": "Player", "data": 1}]]
            events += table.apply(0, {"type": "DeclareAttackers", "data": {"attacks": attacks}})
        elif wait["type"] == "DeclareBlockers":
            events += table.apply(1, {"type": "DeclareBlockers",
                                      "data": {"assignments": [[table.ids["WI"], table.ids["RW"]]]}})
        else:
            events += table.apply(wait["data"]["player"], {"type": "PassPriority"})
    destroyed = [e["data"]["object_id"] for e in events if e["type"] == "CreatureDestroyed"]
    assert sorted(destroyed) == sorted([table.ids["RW"], table.ids["WI"]])
    assert sorted(table.stack()) == ["RW", "WI"]


def test_damage_between_an_attacker_and_its_blocker_and_deaths_of_one_check(engine):
    """br-xmage-8293-rot-wolf-wight: the script's two damage instructions (each its own event, no group) are RW
    attacking and WI blocking it, each its power; both die in one state-based actions check, written as one event
    (a group, 704.3), and each one's ability sees the other die (603.10a)."""
    doc = report("br-xmage-8293-rot-wolf-wight")
    assert [mtgjson_face(o, Names.of(doc))["power"] for o in doc["objects"]] == ["2", "2"]
    check = judged(engine, doc)
    dealt = trace_events(check, type="damage")
    assert [(e["subject"], e["target"], e["amount"]) for e in dealt] == [("RW", "WI", 2), ("WI", "RW", 2)]
    assert not any("group" in e for e in dealt)
    died = trace_events(check, type="leave")
    assert {e["subject"] for e in died} == {"RW", "WI"} and {e["group"] for e in died} == {died[0]["id"]}
    assert sorted(t["ability"] for t in entries(check.outcome.trace, "trigger")) == ["A1", "A2"]


def test_a_blocker_dealing_damage_to_an_attacker_dealing_none(engine):
    """br-phase-2838-nadiers-nightblade: another player's KL deals the damage, so it blocks T1, which attacks with
    power 0 (no damage of its own)."""
    doc = report("br-phase-2838-nadiers-nightblade")
    names = Names.of(doc)
    assert {o["id"]: mtgjson_face(o, names)["power"] for o in doc["objects"]}["T1"] == "0"
    check = judged(engine, doc)
    assert [(e["subject"], e["target"]) for e in trace_events(check, type="damage")] == [("KL", "T1")]


def test_probe_at_end_of_combat_is_a_delayed_trigger_of_phases_end_of_combat_step():
    effect = face("Probe", "Whenever this creature deals damage, at end of combat, destroy all Elves.", "Goblin", 1,
                  True)["triggers"][0]["execute"]["effect"]
    assert effect["type"] == "CreateDelayedTrigger"
    assert effect["condition"] == {"type": "AtNextPhase", "phase": "EndCombat"}


def test_a_delayed_ability_at_end_of_combat_after_the_scripts_combat(engine):
    """br-magarena-978-ohran-viper: OV attacks and deals 1 damage to C2, which blocks it (power 0); OV's "at end of
    combat, destroy all Elves" triggers once on the end of combat's signal, phase's EndCombat step, and C2 dies."""
    doc = report("br-magarena-978-ohran-viper")
    assert card_text(doc["objects"][0], Names.of(doc)) == \
        "Whenever this creature deals damage, at end of combat, destroy all Elves."
    check = judged(engine, doc)
    (signal,) = trace_events(check, type="signal")
    delayed = [t for t in entries(check.outcome.trace, "trigger") if t["ability"] == "X1"]
    assert signal["name"] == "end_of_combat" and [t["event"] for t in delayed] == [signal["id"]]
    assert trace_events(check, type="leave", subject="C2")[0]["cause"] == {"resolution": delayed[0]["id"]}


def test_an_end_of_combat_signal_no_delayed_ability_waits_for_is_a_helper_land(engine):
    """Without a delayed ability waiting for it, the end of combat is a named signal like any (a helper land played
    in the main phase), not phase's step, even where the script has no combat."""
    doc = copy.deepcopy(report("br-magarena-423-apnap-bushido"))
    for step in doc["script"]:
        for action in step["actions"]:
            action["effect"] = [dict(e, name="end_of_combat") if e.get("do") == "signal" else e
                                for e in action["effect"]]
    for obj in doc["objects"]:
        for ability in obj.get("abilities", ()):
            if ability["trigger"].get("event") == "signal":
                ability["trigger"]["name"] = "end_of_combat"
    check = judged(engine, doc)
    assert [e["name"] for e in trace_events(check, type="signal")] == ["end_of_combat"]


SLITH = "Whenever this creature deals combat damage to an opponent, you gain 1 life."
PING = "{0}: This creature deals 1 damage to each opponent."


def test_probe_a_creatures_activated_ability_deals_noncombat_damage_and_combat_only_ignores_it():
    """phase-python alone: "{0}: This creature deals 1 damage to each opponent." activated and resolved deals
    noncombat damage (``is_combat`` false, 120.2b), which "deals combat damage to an opponent" (CombatOnly, 510.2)
    does not see and "deals noncombat damage to an opponent" (NoncombatOnly) does."""
    for words, kind, seen in (("combat", "CombatOnly", []), ("noncombat", "NoncombatOnly", ["Slith"])):
        text = f"Whenever this creature deals {words} damage to an opponent, you gain 1 life.\n{PING}"
        card = face("Slith", text, "Goblin", 1, True)
        assert [t["damage_kind"] for t in card["triggers"]] == [kind] and len(card["abilities"]) == 1
        table = Table({"Slith": (text, "Goblin"), "By": ("", "Elf")}, [["Slith"], ["By"]])
        table.move("Slith")
        table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Slith"], "ability_index": 0}})
        events = table.play(until=lambda ev: any(e["type"] == "DamageDealt" for e in ev))
        assert [(e["data"]["amount"], e["data"]["is_combat"]) for e in events if e["type"] == "DamageDealt"] == \
            [(1, False)]
        assert table.stack() == seen


def test_damage_marked_combat_is_phases_combat_and_unmarked_damage_an_activated_ability(engine):
    """br-xmage-4026-arcbound-slith-combat-only (510.2, 120.2a-b): a trigger's ``combat`` filter tells the two apart,
    so the unmarked scripted damage is noncombat (the source's activated ability) and the marked one phase's combat;
    the trace marks phase's combat damage ``combat``, and the ability triggers on it alone."""
    doc = report("br-xmage-4026-arcbound-slith-combat-only")
    assert card_text(doc["objects"][0], Names.of(doc)) == f"{SLITH}\n{PING}"
    check = judged(engine, doc)
    dealt = trace_events(check, type="damage")
    assert [(e["amount"], e.get("combat"), e["cause"]) for e in dealt] == \
        [(1, None, {"action": [0, 0]}), (2, True, {"action": [1, 0]})]
    assert [t["event"] for t in entries(check.outcome.trace, "trigger")] == [dealt[1]["id"]]


def test_a_noncombat_filter_sees_the_activated_abilitys_damage_only(engine):
    doc = copy.deepcopy(report("br-xmage-4026-arcbound-slith-combat-only"))
    doc["objects"][0]["abilities"][0]["trigger"]["combat"] = False
    assert card_text(doc["objects"][0], Names.of(doc)).startswith(
        "Whenever this creature deals noncombat damage to an opponent, you gain 1 life.")
    check = judged(engine, doc)
    dealt = trace_events(check, type="damage")
    assert [t["event"] for t in entries(check.outcome.trace, "trigger")] == [dealt[0]["id"]]


def test_a_creature_you_control_dealing_combat_damage_and_another_players_land_entering(engine):
    """br-xmage-3919-grenzo-noncombat: the non-active player's land enters by a debug move (phase has no game action
    for a land entering in another player's turn); Zo-Zu's ability deals noncombat damage, the script's marked damage
    is phase's combat, and "Whenever a creature you control deals combat damage to an opponent" sees that alone."""
    doc = report("br-xmage-3919-grenzo-noncombat")
    assert card_text(doc["objects"][0], Names.of(doc)).startswith(
        "Whenever a creature you control deals combat damage to an opponent, ")
    check = judged(engine, doc)
    dealt = trace_events(check, type="damage")
    assert [(e["cause"].get("action"), e.get("combat")) for e in dealt] == [(None, None), ([1, 0], True)]
    triggers = entries(check.outcome.trace, "trigger")
    assert [(t["ability"], t["event"]) for t in triggers][-1] == ("A1", dealt[1]["id"])
    assert [t["ability"] for t in triggers].count("A1") == 1


@pytest.mark.parametrize("change, words", [
    ("two noncombat", "rendered only as its source's activated ability"),
    ("mixed", "combat and noncombat damage at once"),
    ("non-active damage", "a creature the active player controls"),
])
def test_other_noncombat_damage_beside_a_combat_filter_is_skipped(engine, change, words):
    doc = copy.deepcopy(report("br-xmage-4026-arcbound-slith-combat-only"))
    first, second = (step["actions"][0] for step in doc["script"])
    if change == "two noncombat":
        first["effect"].append(dict(first["effect"][0]))
    elif change == "mixed":
        first["effect"].append(dict(second["effect"][0]))
    else:
        first["by"] = "P2"
    outcome = play(engine, doc)
    assert outcome.status == "skipped" and words in outcome.message, outcome.message
