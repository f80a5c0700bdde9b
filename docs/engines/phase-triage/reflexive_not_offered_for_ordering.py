"""phase.rs triage (docs/engines/phase.md, violation 12), driving phase-python 0.103.0 directly, without the adapter.

A player puts their abilities that triggered since they last received priority on the stack in any order they
choose (CR 603.3b); a reflexive triggered ability (603.12) is one of them. Seat 0's Chain, "Whenever another creature
dies, destroy all Elves. When you do, you gain 2 life.", sees the Zombie die (debug MoveToZone, simulate: true) and
resolves: the Elf dies, which triggers Chain's printed ability again, and the reflexive "you gain 2 life" triggers.
Two different abilities of seat 0 wait. Expected: phase asks seat 0 to order them (OrderTriggers), as it does for
two printed abilities with different texts. Actual (phase 0.103.0): it puts them on the stack in an order of its
own (the reflexive on top) and gives priority, asking nothing: it takes them for identical, the reflexive ability
carrying its parent's text. The adapter maps identical texts as interchangeable only where they are (same ability,
same event); these are not, so `mtg.apnap-order` reports the order whenever the scenario's differs.

Run: python docs/engines/phase-triage/reflexive_not_offered_for_ordering.py
"""
from _phase import Table

TEXT = "Whenever another creature dies, destroy all Elves. When you do, you gain 2 life."

table = Table({"Chain": (TEXT, "Goblin"), "Elf": ("", "Elf"), "Zombie": ("", "Zombie")}, [["Chain"], ["Elf", "Zombie"]])
for name in ("Chain", "Elf", "Zombie"):
    table.move(name)
table.move("Zombie", "Graveyard", simulate=True)
table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
wait = table.game.waiting_for()["type"]
effects = [s["kind"]["data"]["ability"]["effect"]["type"] for s in table.game.stack()]
print(f"after Chain resolved: phase waits for {wait}; its stack, bottom to top: {effects} (expected: OrderTriggers "
      f"first, for ['DestroyAll', 'GainLife'])")
print("DEVIATION: two different abilities were stacked without asking their controller"
      if wait == "Priority" and sorted(effects) == ["DestroyAll", "GainLife"] else "as expected")
