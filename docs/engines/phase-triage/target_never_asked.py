"""phase.rs triage (docs/engines/phase.md, violation 8), driving phase-python 0.103.0 directly, without the adapter.

A targeted triggered ability is given its targets as it is put on the stack (CR 603.3d); only with no legal target
is it removed. Seat 0 has Aimer, "Whenever a creature leaves the battlefield, this creature deals 1 damage to target
player.", an Elf and a Zombie (toughness 1) on the battlefield; Killer enters: "When this creature enters, destroy
all Elves. This creature deals 1 damage to each Zombie." The Elf is destroyed during the resolution, the Zombie dies
to the state-based action after it: Aimer triggers twice, both players are legal targets each time. Expected: two
target choices, two times 1 damage. Actual (phase 0.103.0): both abilities go on the stack, phase asks for one
target only (the ability triggered by the state-based action); the ability triggered during the resolution stays
on the stack with no target and later resolves doing nothing (StackResolved alone). Related to violation 3 (the two
batches) and to phase-rs/phase#1287 (targets chosen after the push).

Run: python docs/engines/phase-triage/target_never_asked.py
"""
import json
import phase

TEXTS = {"Aimer": ("Whenever a creature leaves the battlefield, this creature deals 1 damage to target player.",
                   "Goblin"),
         "Killer": ("When this creature enters, destroy all Elves. This creature deals 1 damage to each Zombie.",
                    "Wizard"),
         "Elf": ("", "Elf"), "Zombie": ("", "Zombie"), "Other": ("", "Merfolk")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({n.lower(): face(n) for n in TEXTS}))
game = engine.new_game(player=["Aimer", "Killer", "Elf", "Zombie"], opponent=["Other"], seed=1, format="FreeForAll",
                       first_player=0)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1) for c in game.hand(seat)}
debug = lambda kind, data: game.apply(0, {"type": "Debug", "data": {"type": kind, "data": data}})
for name in ("Aimer", "Elf", "Zombie", "Other"):
    debug("MoveToZone", {"object_id": ids[name], "to_zone": "Battlefield", "simulate": False})
debug("MoveToZone", {"object_id": ids["Killer"], "to_zone": "Battlefield", "simulate": True})
asked, damage = 0, 0
for _ in range(40):
    wait = game.waiting_for()
    if wait["type"] == "TriggerTargetSelection":
        asked += 1
        events = game.apply(wait["data"]["player"], {"type": "ChooseTarget", "data": {"target": {"Player": 1}}})
    elif wait["type"] == "OrderTriggers":
        events = game.apply(wait["data"]["player"], {"type": "OrderTriggers", "data": {
            "order": list(range(len(wait["data"]["triggers"])))}})
    elif wait["type"] == "Priority" and game.stack():
        events = game.apply(wait["data"]["player"], {"type": "PassPriority"})
    else:
        break
    damage += sum(1 for e in events.to_dict()["events"] if e["type"] == "DamageDealt"
                  and e["data"].get("source_id") == ids["Aimer"])
print(f"Aimer's targets asked: {asked} (expected 2); damage dealt by Aimer: {damage} (expected 2)")
print("DEVIATION: an ability went on the stack without a target and did nothing" if asked < 2 else "as expected")
