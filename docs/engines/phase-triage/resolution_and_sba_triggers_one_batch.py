"""phase.rs triage (docs/engines/phase.md, violation 3), driving phase-python 0.103.0 directly, without the adapter.

Abilities that trigger during a resolution and abilities that trigger on the state-based actions performed right
after it are all waiting when a player would next receive priority, so they go on the stack together, in APNAP order
(CR 117.5, 704.3, 603.3b): the active player's first, then the other player's.

Seat 0 (the active player) owns Probe, "When this creature enters, this creature deals 1 damage to each Elf.", and
Mourner, "Whenever a creature dies, you gain 1 life."; seat 1 owns the Elf (toughness 1) and Witness, "Whenever a
creature deals damage, you gain 1 life." Probe enters (debug MoveToZone, simulate) and its ability resolves: the
damage triggers Witness (seat 1) during the resolution; the Elf then dies to a state-based action, which triggers
Mourner (seat 0). Expected stack, bottom to top: Mourner (seat 0), Witness (seat 1), so Witness resolves first.
Actual (phase 0.103.0): Witness is put on the stack first, then Mourner above it: two separate batches, the active
player's ability last. (When a player has several abilities from the resolution, phase asks for their order before it
performs the state-based action; the suite's run shows that case.)

Run: python docs/engines/phase-triage/resolution_and_sba_triggers_one_batch.py
"""
import json
import phase

KINDS = {"Probe": "Human", "Mourner": "Wizard", "Elf": "Elf", "Witness": "Soldier"}
TEXTS = {"Probe": "When this creature enters, this creature deals 1 damage to each Elf.",
         "Mourner": "Whenever a creature dies, you gain 1 life.", "Elf": "",
         "Witness": "Whenever a creature deals damage, you gain 1 life."}


def face(name):
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [KINDS[name]], "text": TEXTS[name], "type": "Creature", "layout": "normal",
        "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
        "foreignData": [], "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
game = engine.new_game(player=["Probe", "Mourner"], opponent=["Elf", "Witness"], seed=1, format="FreeForAll",
                       first_player=0)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1) for c in game.hand(seat)}
names = {v: k for k, v in ids.items()}
move = lambda seat, name, simulate: game.apply(seat, {"type": "Debug", "data": {"type": "MoveToZone", "data": {
    "object_id": ids[name], "to_zone": "Battlefield", "simulate": simulate}}})
move(0, "Mourner", False); move(1, "Elf", False); move(1, "Witness", False)
move(0, "Probe", True)
log = []
for _ in range(40):
    w = game.waiting_for()
    if w["type"] == "OrderTriggers":
        log.append(f"seat {w['data']['player']} asked to order {[t['source_name'] for t in w['data']['triggers']]}")
        events = game.apply(w["data"]["player"], {"type": "OrderTriggers", "data": {"order": [0]}}).to_dict()["events"]
        log += [f"  then {e['type']} {names.get((e.get('data') or {}).get('object_id'), '')}" for e in events
                if e["type"] in ("ZoneChanged", "CreatureDestroyed")]
        continue
    if w["type"] != "Priority" or not game.stack():
        break
    if [names[s["source_id"]] for s in game.stack()] != ["Probe"]:
        break
    game.apply(w["data"]["player"], {"type": "PassPriority"})
stack = [(names[s["source_id"]], s["controller"]) for s in game.stack()]
print("\n".join(log))
print("stack, bottom to top:", stack)
print("expected:             [('Mourner', 0), ('Witness', 1)]")
print("DEVIATION: the active player's ability went on the stack after the other player's" if stack
      == [("Witness", 1), ("Mourner", 0)] else "as expected" if stack == [("Mourner", 0), ("Witness", 1)]
      else "something else happened")
