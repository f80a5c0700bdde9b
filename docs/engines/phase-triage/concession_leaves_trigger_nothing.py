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
from _phase import Table

CARDS = {"Watcher": ("Whenever a creature leaves the battlefield, you gain 2 life.", "Wizard"),
         "Bystander": ("", "Goblin"), "Leaver": ("", "Elf"), "Pinger": ("When this creature enters, you lose 1 life.",
                                                                       "Zombie")}


def watcher_triggers(how):
    table = Table(CARDS, [["Watcher"], ["Bystander"], ["Leaver", "Pinger"]])
    table.move("Watcher")
    table.move("Leaver")
    events = table.leave(2, how, pinger="Pinger", watcher="Watcher")
    exiled = [e["data"]["object_id"] == table.ids["Leaver"] for e in events if e["type"] == "ZoneChanged"
              and e["data"].get("to") == "Exile"]
    return any(exiled), "Watcher" in table.stack()


for how in ("life", "concede"):
    exiled, triggered = watcher_triggers(how)
    print(f"{how}: Leaver exiled from the battlefield: {exiled}; Watcher triggered: {triggered} (expected True)")
print("DEVIATION: a concession's permanents leave the battlefield and trigger nothing"
      if not watcher_triggers("concede")[1] else "as expected")
