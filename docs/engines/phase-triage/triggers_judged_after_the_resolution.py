"""phase.rs triage (docs/engines/phase.md, violation 1), driving phase-python 0.103.0 directly, without the adapter.

phase decides which abilities the events of a resolution trigger once the whole resolution is over, on the game as
it is then, instead of as each event happens (CR 603.2, 603.4: "When the trigger event occurs, the ability checks
whether the stated condition is true"). Three probes, each a creature that enters (debug MoveToZone, simulate) and
whose enters ability resolves while every player passes:

  a. missed trigger: "destroy this creature. This creature deals 1 damage to you." with a watcher "Whenever another
     creature dies, if you have 20 or more life, you gain 1 life." The death happens at 20 life: the watcher must
     trigger (then, at 19 life on resolution, be removed). phase never triggers it (it looks at 19 life).
  b. a trigger that should not have happened, changing the life total: the player starts at 19 (debug SetLife);
     "destroy this creature. You gain 2 life." with a watcher "Whenever another creature dies, if you have 20 or more
     life, you gain 5 life." The death happens at 19 life: no trigger, the game ends at 21 life. phase triggers the
     watcher (it looks at 21 life) and the player ends at 26.
  c. missed trigger of a source that leaves later in the same resolution: "destroy all Elves. Destroy all Zombies."
     with a Zombie "Whenever a creature dies, you gain 1 life." The Zombie is on the battlefield when the Elf dies, so
     its ability triggers on the Elf's death (and, looking back, on its own). phase triggers it only once.

Run: python docs/engines/phase-triage/triggers_judged_after_the_resolution.py (prints one line per probe and
DEVIATION when phase does what is described above as its actual behaviour).
"""
import json
import phase

KINDS = {"Probe": "Human", "Watcher": "Wizard", "Elf": "Elf", "Zombie": "Zombie", "Other": "Soldier"}


def face(name, text):
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [KINDS[name]], "text": text, "type": "Creature", "layout": "normal",
        "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
        "foreignData": [], "rulings": [], "power": "1", "toughness": "1"}, None)


def play(cards, mine, battlefield, life=None):
    """Seat 0 owns ``mine`` (the first enters with simulate: true, the others are placed raw); seat 1 owns "Other".
    Returns (events of the whole resolution phase reported, triggers that went on the stack, seat 0's life)."""
    faces = {name.lower(): face(name, text) for name, text in cards.items()}
    faces["other"] = face("Other", "")
    engine = phase.Engine.from_json(json.dumps(faces))
    game = engine.new_game(player=mine, opponent=["Other"], seed=1, format="FreeForAll", first_player=0)
    while game.waiting_for()["type"] == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1]
    game = engine.load_game(state)
    ids = {c["name"]: c["id"] for c in game.hand(0)}
    debug = lambda kind, data: game.apply(0, {"type": "Debug", "data": {"type": kind, "data": data}})
    for name in battlefield:
        debug("MoveToZone", {"object_id": ids[name], "to_zone": "Battlefield", "simulate": False})
    if life is not None:
        debug("SetLife", {"player_id": 0, "life": life})
    debug("MoveToZone", {"object_id": ids["Probe"], "to_zone": "Battlefield", "simulate": True})
    pushed, events = [], []
    for _ in range(60):
        w = game.waiting_for()
        pushed += [s for s in game.stack() if s["id"] not in {p["id"] for p in pushed}]
        if w["type"] == "OrderTriggers":
            game.apply(w["data"]["player"], {"type": "OrderTriggers",
                                             "data": {"order": list(range(len(w["data"]["triggers"])))}})
            continue
        if w["type"] != "Priority" or not game.stack():
            break
        events += game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]
    names = {v: k for k, v in ids.items()}
    return events, [names[p["source_id"]] for p in pushed], game.player(0)["life"]


_, pushed, life = play({"Probe": "When this creature enters, destroy this creature. This creature deals 1 damage to you.",
                        "Watcher": "Whenever another creature dies, if you have 20 or more life, you gain 1 life."},
                       ["Probe", "Watcher"], ["Watcher"])
print(f"a. stack entries from: {pushed}; life {life}. Expected a Watcher trigger (removed on resolution at 19 life).",
      "DEVIATION: the watcher never triggered" if "Watcher" not in pushed else "as expected")

_, pushed, life = play({"Probe": "When this creature enters, destroy this creature. You gain 2 life.",
                        "Watcher": "Whenever another creature dies, if you have 20 or more life, you gain 5 life."},
                       ["Probe", "Watcher"], ["Watcher"], life=19)
print(f"b. stack entries from: {pushed}; life {life}. Expected no Watcher trigger and 21 life.",
      "DEVIATION: the watcher triggered and the life total is wrong" if "Watcher" in pushed else "as expected")

_, pushed, life = play({"Probe": "When this creature enters, destroy all Elves. Destroy all Zombies.",
                        "Elf": "", "Zombie": "Whenever a creature dies, you gain 1 life."},
                       ["Probe", "Elf", "Zombie"], ["Elf", "Zombie"])
print(f"c. stack entries from: {pushed}; life {life}. Expected two Zombie triggers (the Elf's death, its own).",
      "DEVIATION: the Zombie's ability triggered only once" if pushed.count("Zombie") == 1 else "as expected")
