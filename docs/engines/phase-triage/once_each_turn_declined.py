"""phase.rs triage (docs/engines/phase.md, reading 3), driving phase-python 0.103.0 directly, without the adapter.

"Do this only once each turn" (603.2h): once the action has been taken, the ability no longer triggers that turn.
Whether an instance whose controller declined its "you may" has taken the action is a reading (the suite's option
once_each_turn_taken: unless-declined, the default; on-resolution; when-performed). Seat 0 has Watcher, "Whenever a
player plays a land named Signal, you may gain 2 life. Do this only once each turn.", and three lands named Signal,
played one after the other, each instance declined. Under the default reading Watcher's ability triggers three times
(the action is never taken); phase (0.103.0) triggers it once: it counts the action taken as the first instance
resolves, declined or not (the on-resolution reading).

Run: python docs/engines/phase-triage/once_each_turn_declined.py
"""
from _phase import Table

LAND = {"name": "Signal", "manaCost": "", "manaValue": 0.0, "types": ["Land"], "supertypes": [], "subtypes": [],
        "text": "", "type": "Land", "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [],
        "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [], "rulings": []}
TEXT = "Whenever a player plays a land named Signal, you may gain 2 life. Do this only once each turn."

table = Table({"Watcher": (TEXT, "Goblin"), "By": ("", "Elf")}, [["Watcher", "Signal", "Signal", "Signal"], ["By"]],
              others=[LAND])
table.move("Watcher")
signals = [c["id"] for c in table.game.hand(0) if c["name"] == "Signal"]
triggered = 0
for land in signals:
    table.apply(0, {"type": "PlayLand", "data": {"object_id": land, "card_id": land}})
    triggered += table.stack().count("Watcher")
    for _ in range(6):  # pass until the stack is empty, declining the "you may"
        wait = table.game.waiting_for()
        if wait["type"] == "OptionalEffectChoice":
            table.apply(wait["data"]["player"], {"type": "DecideOptionalEffect", "data": {"accept": False}})
        elif wait["type"] == "Priority" and table.game.stack():
            table.apply(wait["data"]["player"], {"type": "PassPriority"})
        else:
            break
print(f"Watcher's ability triggered {triggered} time(s) for three lands, each instance declined (default reading: "
      f"3; on-resolution: 1)")
print("DIFFERENT READING: on-resolution (a declined instance takes the action)" if triggered == 1 else "as expected")
