"""phase.rs triage (docs/engines/phase.md, violation 7), driving phase-python 0.103.0 directly, without the adapter.

A triggered ability's targets are chosen as it is put on the stack (CR 603.3d, with 601.2c), before any player
receives priority (117.3b, 117.5). One creature, "When this creature enters, target player loses 2 life.", enters
(debug MoveToZone, simulate: true) in a two-player game, both players legal targets. Expected: phase asks for the
target before anyone receives priority. Actual (phase 0.103.0): the ability is on the stack with no target, phase
waits for its controller's priority, the controller passes, and only then does phase ask (TriggerTargetSelection):
"push first, choose second" (phase-rs/phase#1287). With two abilities of one player waiting at once, phase asks for
the targets right after their order, before priority (printed for comparison: tests/test_phase_adapter.py plays that
case clean through the adapter).

Run: python docs/engines/phase-triage/target_chosen_after_priority.py
"""
import json
import phase

TEXTS = {"Aimer": ("When this creature enters, target player loses 2 life.", "Goblin"), "Bystander": ("", "Elf")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
game = engine.new_game(player=["Aimer"], opponent=["Bystander"], seed=1, format="FreeForAll", first_player=0)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1) for c in game.hand(seat)}
game.apply(0, {"type": "Debug", "data": {"type": "MoveToZone", "data": {"object_id": ids["Aimer"],
                                                                        "to_zone": "Battlefield", "simulate": True}}})
seen = []  # what phase waits for, with the targets of the ability on its stack
for _ in range(6):
    wait = game.waiting_for()
    targets = [s["kind"]["data"]["ability"]["targets"] for s in game.stack()]
    seen.append((wait["type"], targets))
    if wait["type"] == "TriggerTargetSelection" or not targets:
        break
    game.apply(wait["data"]["player"], {"type": "PassPriority"})
for wait, targets in seen:
    print(f"phase waits for {wait}; targets of the ability on the stack: {targets}")
asked_late = [w for w, _ in seen][:2] == ["Priority", "TriggerTargetSelection"] and seen[0][1] == [[]]
print("DEVIATION: priority was given with the ability on the stack and no target chosen" if asked_late
      else "as expected")
