"""phase.rs triage (docs/engines/phase.md, violation 11), driving phase-python 0.103.0 directly, without the adapter.

A delayed triggered ability exists from the moment the resolving ability creates it and triggers only on events
after that (CR 603.7a). Seat 0's Creator, "When this creature enters, destroy all Elves. Whenever a creature dies
this turn, you gain 1 life.", enters and resolves: the Elf dies first, then the delayed ability is created, and no
other creature dies. Expected: nothing triggers (seat 0 stays at 20 life). Actual (phase 0.103.0): the delayed
ability triggers on the Elf's death, and seat 0 gains 1 life. (The same mechanism as violation 1: phase looks for
what a resolution triggered once it is over.) For comparison, with the two sentences the other way round the Elf
dies after the creation, and the ability triggers, as it should.

Run: python docs/engines/phase-triage/delayed_sees_an_earlier_event.py
"""
from _phase import Table


def life_after(text):
    table = Table({"Creator": (text, "Goblin"), "Elf": ("", "Elf")}, [["Creator"], ["Elf"]])
    table.move("Elf")
    table.move("Creator", simulate=True)
    table.play(limit=30)
    return table.game.player(0)["life"]


before = life_after("When this creature enters, destroy all Elves. Whenever a creature dies this turn, you gain 1 "
                    "life.")
after = life_after("When this creature enters, whenever a creature dies this turn, you gain 1 life. Destroy all "
                   "Elves.")
print(f"the Elf dies before the delayed ability exists: life {before} (expected 20); after it exists: life {after} "
      f"(expected 21)")
print("DEVIATION: the delayed ability triggered on a death before its creation" if before == 21 and after == 21
      else "as expected")
