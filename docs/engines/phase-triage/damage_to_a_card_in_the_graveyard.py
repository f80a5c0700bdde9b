"""phase.rs triage (docs/engines/phase.md, violation 2), driving phase-python 0.103.0 directly, without the adapter.

Probe One reads "When this creature enters, destroy this creature. This creature deals 2 damage to this creature."
It enters from the hand (debug MoveToZone, simulate), and every player passes until the stack is empty.
Expected (608.2, 400.7; only a permanent on the battlefield or a player can be dealt damage): the creature is
destroyed, and the second instruction does nothing. Actual: phase reports DamageDealt to object 1, the card now in
the graveyard. Run: python docs/engines/phase-triage/damage_to_a_card_in_the_graveyard.py
"""
import json
import phase

def face(name, text):
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "3"}, None)

faces = {"probe one": face("Probe One", "When this creature enters, destroy this creature. This creature deals 2 damage to this creature."),
         "probe two": face("Probe Two", "")}
engine = phase.Engine.from_json(json.dumps(faces))
game = engine.new_game(player=["Probe One"], opponent=["Probe Two"], seed=1, format="FreeForAll", first_player=0)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
game = engine.load_game(state)
one = game.hand(0)[0]["id"]
game.apply(0, {"type": "Debug", "data": {"type": "MoveToZone", "data": {"object_id": one, "to_zone": "Battlefield", "simulate": True}}})
seen = []
for _ in range(20):
    w = game.waiting_for()
    if w["type"] != "Priority" or not game.stack() and seen:
        break
    for e in game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]:
        data = {k: v for k, v in (e.get("data") or {}).items() if k in ("object_id", "from", "to", "target", "amount", "source_id")}
        seen.append((e["type"], data))
for s in seen:
    print(s)
where = {e[1]["object_id"]: e[1]["to"] for e in seen if e[0] == "ZoneChanged"}
hit = [e[1] for e in seen if e[0] == "DamageDealt" and where.get(e[1]["target"].get("Object")) == "Graveyard"]
print("DEVIATION: damage dealt to a card in the graveyard" if hit else "as expected: no damage after the destroy")
