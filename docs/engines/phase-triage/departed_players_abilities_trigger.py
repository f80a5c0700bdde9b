"""phase.rs triage (docs/engines/phase.md, violation 5), driving phase-python 0.103.0 directly, without the adapter.

When a player leaves the game, the objects they own leave with them, and nothing of theirs may trigger or go on the
stack afterwards (CR 800.4a: their objects leave the game, abilities they control on the stack cease to exist).
Three players; seat 2 owns Leaver, "When this creature enters, you lose 1 life.", and Watcher, "Whenever a creature
leaves the battlefield, you gain 1 life.", and is at 1 life (debug SetLife). Leaver enters (debug MoveToZone,
simulate); its ability resolves; seat 2 is at 0 life and loses (704.5a); phase exiles what seat 2 owns. Expected:
no ability of seat 2 triggers from that, nothing of theirs is on the stack. Actual (phase 0.103.0): Watcher's
ability triggers on the creatures leaving with their owner and goes on the stack, controlled by the departed seat.

Run: python docs/engines/phase-triage/departed_players_abilities_trigger.py
"""
import json
import phase

TEXTS = {"Bystander": ("", "Goblin"), "Other": ("", "Soldier"),
         "Leaver": ("When this creature enters, you lose 1 life.", "Elf"),
         "Watcher": ("Whenever a creature leaves the battlefield, you gain 1 life.", "Wizard")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
game = engine.new_game(player=["Bystander"], opponent=["Other"], extra_players=[["Leaver", "Watcher"]], seed=1,
                       format="FreeForAll", first_player=2)
while game.waiting_for()["type"] == "MulliganDecision":
    seat = game.waiting_for()["data"]["pending"][0]["player"]
    game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1, 2]
game = engine.load_game(state)
ids = {c["name"]: c["id"] for seat in (0, 1, 2) for c in game.hand(seat)}
names = {v: k for k, v in ids.items()}
debug = lambda kind, data: game.apply(2, {"type": "Debug", "data": {"type": kind, "data": data}})
debug("MoveToZone", {"object_id": ids["Watcher"], "to_zone": "Battlefield", "simulate": False})
debug("SetLife", {"player_id": 2, "life": 1})
debug("MoveToZone", {"object_id": ids["Leaver"], "to_zone": "Battlefield", "simulate": True})
events = []
for _ in range(20):
    w = game.waiting_for()
    if w["type"] == "OrderTriggers":
        game.apply(w["data"]["player"], {"type": "OrderTriggers",
                                         "data": {"order": list(range(len(w["data"]["triggers"])))}})
        continue
    if w["type"] != "Priority" or not game.stack() or "PlayerEliminated" in events:
        break
    events += [e["type"] for e in game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]]
left = [(names.get(s["source_id"]), s["controller"]) for s in game.stack()]
print("phase reported:", [e for e in events if e in ("PlayerLost", "ZoneChanged", "PlayerEliminated")])
print("seat 2 eliminated:", game.player(2)["is_eliminated"], "; on the stack afterwards:", left, "(expected [])")
print("DEVIATION: the departed player's ability triggered and went on the stack" if any(c == 2 for _, c in left)
      else "as expected" if not left else "something else happened")
