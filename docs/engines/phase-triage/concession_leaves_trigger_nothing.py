"""phase.rs triage (docs/engines/phase.md, violation 9), driving phase-python 0.103.0 directly, without the adapter.

A player who leaves the game takes the objects they own with them (CR 800.4a); their permanents leave the
battlefield, so "Whenever a creature leaves the battlefield" abilities of the other players trigger (603.6c, 603.10a;
the judge's reading, as for a player losing at 0 life). In a three-player game, seat 0 has Watcher, "Whenever a
creature leaves the battlefield, you gain 2 life."; seat 2's Leaver is on the battlefield. Seat 2 concedes
(GameAction Concede). Expected: Watcher's ability on the stack. Actual (phase 0.103.0): phase exiles Leaver
(ZoneChanged to Exile) and nothing triggers. For comparison, the same seat losing at 0 life (debug SetLife 1, then
Pinger enters: "When this creature enters, you lose 1 life.") triggers Watcher once per permanent of theirs.

Run: python docs/engines/phase-triage/concession_leaves_trigger_nothing.py
"""
import json
import phase

TEXTS = {"Watcher": ("Whenever a creature leaves the battlefield, you gain 2 life.", "Wizard"),
         "Bystander": ("", "Goblin"), "Leaver": ("", "Elf"), "Pinger": ("When this creature enters, you lose 1 life.",
                                                                       "Zombie")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


def watcher_triggers(how):
    engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
    game = engine.new_game(player=["Watcher"], opponent=["Bystander"], extra_players=[["Leaver", "Pinger"]], seed=1,
                           format="FreeForAll", first_player=0)
    while game.waiting_for()["type"] == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1, 2]
    game = engine.load_game(state)
    ids = {c["name"]: c["id"] for seat in (0, 1, 2) for c in game.hand(seat)}
    debug = lambda seat, kind, data: game.apply(seat, {"type": "Debug", "data": {"type": kind, "data": data}})
    debug(0, "MoveToZone", {"object_id": ids["Watcher"], "to_zone": "Battlefield", "simulate": False})
    debug(2, "MoveToZone", {"object_id": ids["Leaver"], "to_zone": "Battlefield", "simulate": False})
    events = []
    if how == "concede":
        events += game.apply(2, {"type": "Concede", "data": {"player_id": 2}}).to_dict()["events"]
    else:
        debug(0, "SetLife", {"player_id": 2, "life": 1})
        debug(2, "MoveToZone", {"object_id": ids["Pinger"], "to_zone": "Battlefield", "simulate": True})
        for _ in range(6):
            w = game.waiting_for()
            if w["type"] != "Priority" or any(s["source_id"] == ids["Watcher"] for s in game.stack()) \
                    or not game.stack():
                break
            events += game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]
    exiled = [e["data"]["object_id"] == ids["Leaver"] for e in events if e["type"] == "ZoneChanged"
              and e["data"].get("to") == "Exile"]
    return any(exiled), any(s["source_id"] == ids["Watcher"] for s in game.stack())


for how in ("life", "concede"):
    exiled, triggered = watcher_triggers(how)
    print(f"{how}: Leaver exiled from the battlefield: {exiled}; Watcher triggered: {triggered} (expected True)")
print("DEVIATION: a concession's permanents leave the battlefield and trigger nothing"
      if not watcher_triggers("concede")[1] else "as expected")
