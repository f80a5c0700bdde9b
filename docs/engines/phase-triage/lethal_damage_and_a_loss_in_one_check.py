"""phase.rs triage (docs/engines/phase.md, violation 6), driving phase-python 0.103.0 directly, without the adapter.

State-based actions are performed all at once (CR 704.3): a creature with lethal damage is put into its owner's
graveyard (704.5g) in the same check in which its owner, at 0 life, loses (704.5a); then the player leaves the game
and what they own leaves with them from wherever it is (800.4a). So the creature dies. Three players; seat 0 owns
Mourner, "Whenever a creature dies, you gain 1 life."; seat 2, at 1 life (debug SetLife), owns Leaver, "When this
creature enters, this creature deals 1 damage to this creature. You lose 1 life." (toughness 1). Leaver enters
(debug MoveToZone, simulate); its ability resolves. Expected: Leaver dies, Mourner triggers. Actual (phase 0.103.0):
phase exiles Leaver from the battlefield with its owner, it never dies, and Mourner does not trigger.

Run: python docs/engines/phase-triage/lethal_damage_and_a_loss_in_one_check.py
"""
import json
import phase

TEXTS = {"Mourner": ("Whenever a creature dies, you gain 1 life.", "Wizard"), "Other": ("", "Soldier"),
         "Leaver": ("When this creature enters, this creature deals 1 damage to this creature. You lose 1 life.", "Elf")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
game = engine.new_game(player=["Mourner"], opponent=["Other"], extra_players=[["Leaver"]], seed=1,
                       format="FreeForAll", first_player=2)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1, 2]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1, 2) for c in game.hand(seat)}
names = {v: k for k, v in ids.items()}
game.apply(0, {"type": "Debug", "data": {"type": "MoveToZone", "data": {"object_id": ids["Mourner"],
                                                                       "to_zone": "Battlefield", "simulate": False}}})
game.apply(2, {"type": "Debug", "data": {"type": "SetLife", "data": {"player_id": 2, "life": 1}}})
game.apply(2, {"type": "Debug", "data": {"type": "MoveToZone", "data": {"object_id": ids["Leaver"],
                                                                       "to_zone": "Battlefield", "simulate": True}}})
moves = []
for _ in range(20):
    w = game.waiting_for()
    if w["type"] != "Priority" or not game.stack() or any(names.get(s["source_id"]) == "Mourner" for s in game.stack()):
        break
    for e in game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]:
        if e["type"] in ("ZoneChanged", "PlayerLost", "PlayerEliminated", "CreatureDestroyed"):
            d = e["data"]
            moves.append((e["type"], names.get(d.get("object_id")), d.get("from"), d.get("to")))
mourned = any(names.get(s["source_id"]) == "Mourner" for s in game.stack())
print("phase reported:", moves)
print("Mourner triggered:", mourned, "(expected True: Leaver dies in the same check as its owner loses)")
print("DEVIATION: the creature with lethal damage was exiled with its owner instead of dying" if not mourned
      else "as expected")
