"""phase.rs triage (docs/engines/phase.md, violation 17), driving phase-python 0.103.0 directly, without the adapter.

When several triggered abilities of one player wait to be put on the stack, that player puts them there in the
order they choose (CR 603.3b); a delayed triggered ability is one of them like any other (603.7). Seat 0's Creator,
"When this creature enters, whenever a creature dies this turn, you gain 1 life.", enters and resolves: the delayed
ability exists. Then seat 0's Killer, "When this creature enters, destroy all Goblins.", enters and resolves: seat
0's Goblin, "When this creature dies, you lose 1 life.", dies. Both the Goblin's printed ability and the delayed one
trigger, with different texts, both seat 0's. Expected: phase asks seat 0 to order them (OrderTriggers), as it does
for two printed abilities with different texts. Actual (phase 0.103.0): no prompt; phase puts the printed ability on
the stack first and the delayed one on top, whatever seat 0 would choose (the run's apnap-order failure at seed 2:
"P1 chose to have T3 resolve before T4, yet T3 went on the stack first"). The entries are played as lands (PlayLand,
phase's own game action).

Run: python docs/engines/phase-triage/delayed_and_printed_not_ordered.py
"""
from _phase import Table

CARDS = {"Creator": ("When this creature enters, whenever a creature dies this turn, you gain 1 life.", "Elf"),
         "Killer": ("When this creature enters, destroy all Goblins.", "Zombie"),
         "Goblin": ("When this creature dies, you lose 1 life.", "Goblin"),
         "Bystander": ("", "Wizard")}

table = Table(CARDS, [["Creator", "Killer", "Goblin"], ["Bystander"]], lands=True)
table.move("Goblin")
for name in ("Creator", "Killer"):
    table.play_land(name)
    table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
wait = table.game.waiting_for()
stack = [(s["source_id"] == table.ids["Creator"] and "delayed") or table.names.get(s["source_id"])
         for s in table.game.stack()]
print(f"after the Goblin died: phase waits for {wait['type']}; its stack, bottom to top: {stack}")
if wait["type"] != "OrderTriggers" and stack == ["Goblin", "delayed"]:
    print("DEVIATION: two abilities of seat 0 with different texts went on the stack without seat 0 choosing the order")
else:
    print("as expected")
