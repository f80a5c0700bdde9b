"""phase.rs triage (docs/engines/phase.md, violation 4), driving phase-python 0.103.0 directly, without the adapter.

A player who concedes leaves the game and loses it (CR 104.3a), so "Whenever a player loses the game" triggers. In a
three-player game, seat 0 has Mourner, "Whenever a player loses the game, you gain 3 life."; seat 2 concedes
(GameAction Concede). Expected: Mourner's ability on the stack. Actual (phase 0.103.0): phase reports
PlayerEliminated (no PlayerLost) and nothing triggers. For comparison, the same seat losing at 0 life (debug
SetLife 1, then "When this creature enters, you lose 1 life.") is reported as PlayerLost and triggers Mourner.

Run: python docs/engines/phase-triage/concession_is_no_loss.py
"""
import json
import phase

TEXTS = {"Mourner": ("Whenever a player loses the game, you gain 3 life.", "Wizard"), "Bystander": ("", "Goblin"),
         "Leaver": ("When this creature enters, you lose 1 life.", "Elf")}


def face(name):
    text, kind = TEXTS[name]
    return phase.build_oracle_face({"name": name, "manaCost": "{1}", "manaValue": 1.0, "types": ["Creature"],
        "supertypes": [], "subtypes": [kind], "text": text, "type": "Creature", "layout": "normal", "colors": [],
        "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [],
        "rulings": [], "power": "1", "toughness": "1"}, None)


def mourner_triggers(how):
    engine = phase.Engine.from_json(json.dumps({name.lower(): face(name) for name in TEXTS}))
    game = engine.new_game(player=["Mourner"], opponent=["Bystander"], extra_players=[["Leaver"]], seed=1,
                           format="FreeForAll", first_player=0)
    while game.waiting_for()["type"] == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    state = game.state(); state["state"]["debug_mode"] = True; state["state"]["debug_permitted"] = [0, 1, 2]
    game = engine.load_game(state)
    ids = {c["name"]: c["id"] for seat in (0, 1, 2) for c in game.hand(seat)}
    debug = lambda seat, kind, data: game.apply(seat, {"type": "Debug", "data": {"type": kind, "data": data}})
    debug(0, "MoveToZone", {"object_id": ids["Mourner"], "to_zone": "Battlefield", "simulate": False})
    events = []
    if how == "concede":
        events += game.apply(2, {"type": "Concede", "data": {"player_id": 2}}).to_dict()["events"]
    else:
        debug(0, "SetLife", {"player_id": 2, "life": 1})
        debug(2, "MoveToZone", {"object_id": ids["Leaver"], "to_zone": "Battlefield", "simulate": True})
        for _ in range(6):
            w = game.waiting_for()
            if w["type"] != "Priority" or any(s["source_id"] == ids["Mourner"] for s in game.stack()) \
                    or not game.stack():
                break
            events += game.apply(w["data"]["player"], {"type": "PassPriority"}).to_dict()["events"]
    reported = [e["type"] for e in events if e["type"] in ("PlayerLost", "PlayerEliminated")]
    return reported, any(s["source_id"] == ids["Mourner"] for s in game.stack())


for how in ("life", "concede"):
    reported, triggered = mourner_triggers(how)
    print(f"{how}: phase reported {reported}; Mourner triggered: {triggered} (expected True)")
print("DEVIATION: a concession triggers no 'loses the game' ability" if not mourner_triggers("concede")[1]
      else "as expected")
