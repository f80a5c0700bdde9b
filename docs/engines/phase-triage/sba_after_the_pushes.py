"""phase.rs triage (docs/engines/phase.md, violation 3, third form), driving phase-python 0.103.0 directly, without the
adapter.

After a resolution, state-based actions are performed (and repeated until none applies) before triggered abilities
are put on the stack and before a player receives priority (CR 117.5, 704.3). Seat 2's Pinger (toughness 2), "When
this creature enters, this creature deals 3 damage to this creature. Destroy all Goblins.", enters and resolves:
Pinger has lethal damage, and seat 0's Goblin dies, triggering its two abilities, "Whenever a creature dies, this
creature deals 3 damage to target player." and "Whenever a creature dies, you gain 1 life.". Expected: Pinger is
put into the graveyard (704.5g) before the Goblin's abilities go on the stack. Actual (phase 0.103.0): phase asks
seat 0 to order the two abilities, puts them on the stack, asks for the target, and only then moves Pinger to the
graveyard.

Run: python docs/engines/phase-triage/sba_after_the_pushes.py
"""
from _phase import Table

CARDS = {"Goblin": ("Whenever a creature dies, this creature deals 3 damage to target player.\n"
                    "Whenever a creature dies, you gain 1 life.", "Goblin"),
         "Bystander": ("", "Elf"),
         "Pinger": ("When this creature enters, this creature deals 3 damage to this creature. Destroy all Goblins.",
                    "Merfolk")}

table = Table(CARDS, [["Goblin"], ["Bystander"], ["Pinger"]], first_player=2, toughness=2)
table.move("Goblin")
table.move("Bystander")
table.move("Pinger", simulate=True)
table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
seen = []
for _ in range(6):
    wait = table.game.waiting_for()
    pinger = table.game.object(table.ids["Pinger"])["zone"]
    seen.append((wait["type"], table.stack(), pinger))
    if wait["type"] == "OrderTriggers":
        table.keep_order(wait)
    elif wait["type"] == "TriggerTargetSelection":
        legal = wait["data"]["selection"]["current_legal_targets"]
        table.apply(wait["data"]["player"], {"type": "ChooseTarget", "data": {"target": legal[0]}})
    else:
        break
for wait, stack, zone in seen:
    print(f"phase waits for {wait}; stack {stack}; Pinger (lethal damage) is in {zone}")
late = any(zone == "Battlefield" and "Goblin" in stack for _, stack, zone in seen)
print("DEVIATION: abilities went on the stack while a state-based action still applied" if late else "as expected")
