"""phase.rs triage (docs/engines/phase.md, violation 16), driving phase-python 0.103.0 directly, without the adapter.

A delayed triggered ability triggers whenever its event occurs while it exists (CR 603.7), whatever else triggers on
the same event. Seat 0's Creator, "When this creature enters, whenever a creature dies this turn, you gain 1 life.",
enters (debug MoveToZone, simulate: true) and resolves: the delayed ability exists. Then seat 0's Killer, "When this
creature enters, destroy all Goblins.", enters and resolves: seat 0's Goblin, "When this creature dies, you gain 1
life.", dies. The control case: the Goblin's ability and the delayed one trigger, both resolve, and seat 0 ends at
22 life. The case: seat 0 also controls Watcher, "Whenever another creature dies, you lose 1 life.", so that the
death triggers two printed abilities of seat 0 with different texts and phase asks seat 0 to order them
(OrderTriggers). Expected: the delayed ability triggers too (three abilities; seat 0 ends at 21 life). Actual (phase
0.103.0): phase's prompt offers the two printed abilities only, its stack then holds those two, and the delayed
ability never triggers: seat 0 ends at 20.

Run: python docs/engines/phase-triage/delayed_lost_to_an_order_prompt.py
"""
from _phase import Table

CARDS = {"Creator": ("When this creature enters, whenever a creature dies this turn, you gain 1 life.", "Elf"),
         "Killer": ("When this creature enters, destroy all Goblins.", "Zombie"),
         "Goblin": ("When this creature dies, you gain 1 life.", "Goblin"),
         "Watcher": ("Whenever another creature dies, you lose 1 life.", "Merfolk"),
         "Bystander": ("", "Wizard")}


def after_the_death(watcher):
    """(whether phase asked for an order, the sources of its stack after the death, seat 0's life at the end)."""
    mine = ["Creator", "Killer", "Goblin"] + (["Watcher"] if watcher else [])
    table = Table(CARDS, [mine, ["Bystander"]])
    for name in ["Goblin"] + (["Watcher"] if watcher else []):
        table.move(name)
    for name in ("Creator", "Killer"):
        table.move(name, simulate=True)
        table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
    wait = table.game.waiting_for()
    asked = wait["type"] == "OrderTriggers"
    if asked:
        table.keep_order(wait)
    stack = sorted(table.stack())
    table.play(limit=30)
    return asked, stack, table.game.player(0)["life"]


asked, stack, life = after_the_death(watcher=False)
print(f"control (no order prompt): asked for an order: {asked}; stack {stack}; life {life} (expected 22)")
asked, stack, life = after_the_death(watcher=True)
print(f"with Watcher: asked for an order: {asked}; stack {stack}; life {life} (expected 21, the stack holding "
      f"['Creator', 'Goblin', 'Watcher'])")
if asked and "Creator" not in stack and life == 20:
    print("DEVIATION: the delayed ability did not trigger on a death that made phase ask for an order")
else:
    print("as expected")
