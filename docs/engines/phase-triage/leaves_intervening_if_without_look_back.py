"""phase.rs triage (docs/engines/phase.md, reading 1), driving phase-python 0.103.0 directly, without the adapter.

A leaves-the-battlefield ability looks back in time (CR 603.10a) "to determine if [it] triggers". The suite's judge
reads that as covering its intervening "if" too (603.4: the condition is checked "when the trigger event occurs"), so
the condition is judged on the game just before the permanent left. phase judges it just after. Two probes, a
creature destroyed by a scripted debug move (simulate):

  a. the dying creature's own "When this creature dies, if this creature is on the battlefield, you gain 1 life.":
     the judge's reading: it triggers (it was on the battlefield), and is removed on resolution (it no longer is).
     phase: it does not trigger.
  b. a watcher "Whenever an Elf dies, if there are no Elf cards in your graveyard, you gain 1 life." and the Elf
     (same owner) dies: the judge's reading: it triggers (no Elf card was in the graveyard), and is removed on
     resolution. phase: it does not trigger.

The Comprehensive Rules do not settle whether the look-back covers the intervening condition; this is recorded as a
difference of reading, not filed as a bug. Run: python docs/engines/phase-triage/leaves_intervening_if_without_look_back.py
"""
import json
import phase

KINDS = {"Probe": "Human", "Watcher": "Wizard", "Elf": "Elf", "Other": "Soldier"}


def face(name, text):
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [KINDS[name]], "text": text, "type": "Creature", "layout": "normal",
        "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
        "foreignData": [], "rulings": [], "power": "1", "toughness": "1"}, None)


def triggered(cards, dying):
    faces = {name.lower(): face(name, text) for name, text in cards.items()}
    faces["other"] = face("Other", "")
    engine = phase.Engine.from_json(json.dumps(faces))
    game = engine.new_game(player=list(cards), opponent=["Other"], seed=1, format="FreeForAll", first_player=0)
    while game.waiting_for()["type"] == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
    game = engine.load_game(state)
    ids = {c["name"]: c["id"] for c in game.hand(0)}
    move = lambda name, zone, simulate: game.apply(0, {"type": "Debug", "data": {"type": "MoveToZone", "data": {
        "object_id": ids[name], "to_zone": zone, "simulate": simulate}}})
    for name in cards:
        move(name, "Battlefield", False)
    move(dying, "Graveyard", True)
    w = game.waiting_for()
    return bool(game.stack()) or w["type"] == "OrderTriggers"


a = triggered({"Probe": "When this creature dies, if this creature is on the battlefield, you gain 1 life."}, "Probe")
print("a. triggered:", a, "(the judge's reading: True)", "DIFFERENT READING" if not a else "same reading")
b = triggered({"Watcher": "Whenever an Elf dies, if there are no Elf cards in your graveyard, you gain 1 life.",
               "Elf": ""}, "Elf")
print("b. triggered:", b, "(the judge's reading: True)", "DIFFERENT READING" if not b else "same reading")
