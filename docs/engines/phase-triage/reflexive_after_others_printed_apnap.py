"""phase.rs triage (docs/engines/phase.md, violation 15), driving phase-python 0.103.0 directly, without the adapter.

Abilities that triggered since a player last received priority go on the stack in APNAP order: the active player's
first, then each other player's in turn order (CR 603.3b); a reflexive triggered ability (603.12) is one of them.
Seat 0 is active. Its Chain, "When this creature enters, destroy all Goblins. When you do, you gain 2 life.", enters
(debug MoveToZone, simulate: true) and resolves: seat 1's Goblin, "When this creature dies, you gain 1 life.", dies,
which triggers seat 0's reflexive ability and seat 1's printed one. Expected: seat 0's (the active player's) goes on
the stack first, below seat 1's, and resolves last. Actual (phase 0.103.0): seat 1's printed ability goes on first,
the reflexive one on top of it, so the active player's resolves first. With seat 1 active instead (the control
case), the printed one (now the active player's) is below, as it should be: phase puts the reflexive ability on the
stack after the printed ones, whoever controls them (as violation 14 does with delayed abilities).

Run: python docs/engines/phase-triage/reflexive_after_others_printed_apnap.py
"""
from _phase import Table, report_apnap

CARDS = {"Chain": ("When this creature enters, destroy all Goblins. When you do, you gain 2 life.", "Elf"),
         "Goblin": ("When this creature dies, you gain 1 life.", "Goblin")}


def stack_after_the_death(active):
    table = Table(CARDS, [["Chain"], ["Goblin"]], first_player=active)
    table.move("Goblin")
    table.move("Chain", simulate=True, by=active)
    table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
    return [(table.names.get(s["source_id"]), s["controller"]) for s in table.game.stack()]


report_apnap(stack_after_the_death, ("Chain", 0), ("Goblin", 1), "reflexive")
