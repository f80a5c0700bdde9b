"""phase.rs triage (docs/engines/phase.md, violation 3, second form), driving phase-python 0.103.0 directly, without
the adapter.

Abilities triggered by the events of one resolution are all waiting when a player would next receive priority, so
they go on the stack together in APNAP order (CR 603.3b): the active player's first, then each other player's in
turn order. Three players, seat 0 active. Seat 0's Probe enters (debug MoveToZone, simulate): "When this creature
enters, each player puts all Merfolk cards from their hand onto the battlefield. Destroy all Zombies." Seat 1 has
Greeter, "Whenever another creature enters, you gain 1 life." (and the Merfolk in hand); seat 2 has Mourner,
"Whenever a creature dies, you gain 2 life." (and the Zombie). The resolution triggers Greeter (the Merfolk enters)
and Mourner (the Zombie dies); Greeter's trigger from Probe itself entering resolves before. Expected stack, bottom to top: Greeter (seat 1), Mourner (seat 2). Actual: Mourner
first, then Greeter, whichever order the two instructions come in and whoever is active (the adapter's run found it
with four players, the active player in the fourth seat).

Run: python docs/engines/phase-triage/two_events_of_one_resolution_apnap.py
"""
import json
import phase

TEXTS = {"Probe": ("When this creature enters, each player puts all Merfolk cards from their hand onto the "
                   "battlefield. Destroy all Zombies.", "Human"),
         "Greeter": ("Whenever another creature enters, you gain 1 life.", "Elf"), "Merfolk": ("", "Merfolk"),
         "Mourner": ("Whenever a creature dies, you gain 2 life.", "Wizard"), "Zombie": ("", "Zombie")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
game = engine.new_game(player=["Probe"], opponent=["Greeter", "Merfolk"], extra_players=[["Mourner", "Zombie"]],
                       seed=1, format="FreeForAll", first_player=0)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1, 2]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1, 2) for c in game.hand(seat)}
names = {v: k for k, v in ids.items()}
move = lambda seat, name, simulate: game.apply(seat, {"type": "Debug", "data": {"type": "MoveToZone", "data": {
    "object_id": ids[name], "to_zone": "Battlefield", "simulate": simulate}}})
move(1, "Greeter", False); move(2, "Mourner", False); move(2, "Zombie", False)
move(0, "Probe", True)
for _ in range(20):
    w = game.waiting_for()
    if w["type"] != "Priority" or "Probe" not in [names[s["source_id"]] for s in game.stack()]:
        break  # Greeter's trigger from Probe entering resolves first, then Probe's ability
    game.apply(w["data"]["player"], {"type": "PassPriority"})
stack = [(names[s["source_id"]], s["controller"]) for s in game.stack()]
print("stack, bottom to top:", stack)
print("expected:             [('Greeter', 1), ('Mourner', 2)]")
print("DEVIATION: seat 2's ability went on the stack before seat 1's" if stack == [("Mourner", 2), ("Greeter", 1)]
      else "as expected" if stack == [("Greeter", 1), ("Mourner", 2)] else "something else happened")
