"""phase.rs triage (docs/engines/phase.md, violation 3, second form), driving phase-python 0.103.0 directly, without
the adapter.

Abilities triggered by the events of one resolution are all waiting when a player would next receive priority, so
they go on the stack together in APNAP order (CR 603.3b): the active player's first, then each other player's in
turn order. Three players, seat 0 active. Seat 0's Probe enters (debug MoveToZone, simulate): "When this creature
enters, each player puts all Merfolk cards from their hand onto the battlefield. Destroy all Zombies." Seat 1 has
Greeter, "Whenever another creature enters, you gain 1 life." (and the Merfolk in hand); seat 2 has Mourner,
"Whenever a creature dies, you gain 2 life." (and the Zombie). The resolution triggers Greeter (the Merfolk enters)
and Mourner (the Zombie dies); Greeter's trigger from Probe itself entering resolves before. Expected stack, bottom to top: Greeter (seat 1), Mourner (seat 2). Actual: Mourner
first, then Greeter, whichever order the two instructions come in and whoever is active (the adapter's run found it
with four players, the active player in the fourth seat).

Run: python docs/engines/phase-triage/two_events_of_one_resolution_apnap.py
"""
from _phase import Table

CARDS = {"Probe": ("When this creature enters, each player puts all Merfolk cards from their hand onto the "
                   "battlefield. Destroy all Zombies.", "Human"),
         "Greeter": ("Whenever another creature enters, you gain 1 life.", "Elf"), "Merfolk": ("", "Merfolk"),
         "Mourner": ("Whenever a creature dies, you gain 2 life.", "Wizard"), "Zombie": ("", "Zombie")}

table = Table(CARDS, [["Probe"], ["Greeter", "Merfolk"], ["Mourner", "Zombie"]])
table.move("Greeter"); table.move("Mourner"); table.move("Zombie")
table.move("Probe", simulate=True)
# Greeter's trigger from Probe entering resolves first, then Probe's ability
table.play(until=lambda _: "Probe" not in table.stack())
stack = [(table.names[s["source_id"]], s["controller"]) for s in table.game.stack()]
print("stack, bottom to top:", stack)
print("expected:             [('Greeter', 1), ('Mourner', 2)]")
print("DEVIATION: seat 2's ability went on the stack before seat 1's" if stack == [("Mourner", 2), ("Greeter", 1)]
      else "as expected" if stack == [("Greeter", 1), ("Mourner", 2)] else "something else happened")
