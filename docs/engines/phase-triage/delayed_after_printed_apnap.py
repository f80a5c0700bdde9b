"""phase.rs triage (docs/engines/phase.md, violation 14), driving phase-python 0.103.0 directly, without the adapter.

Abilities that triggered since a player last received priority go on the stack in APNAP order: the active player's
first, then each other player's in turn order (CR 603.3b); a delayed triggered ability is one of them (603.7). Seat 0
is active. Its Creator, "When this creature enters, whenever a creature dies this turn, you gain 1 life.", enters
(debug MoveToZone, simulate: true) and resolves: the delayed ability exists. Then its Killer, "When this creature
enters, destroy all Goblins.", enters and resolves: seat 1's Goblin, "When this creature dies, you gain 1 life.",
dies, which triggers seat 0's delayed ability and seat 1's printed one. Expected: seat 0's (the active player's) goes
on the stack first, below seat 1's. Actual (phase 0.103.0): seat 1's printed ability goes on first, the delayed one
on top of it, so the active player's resolves first. With seat 1 active instead (the control case), the printed one
(now the active player's) is below, as it should be: phase seems to put delayed abilities on the stack after the
printed ones, whoever controls them.

Run: python docs/engines/phase-triage/delayed_after_printed_apnap.py
"""
from _phase import Table, report_apnap

CARDS = {"Creator": ("When this creature enters, whenever a creature dies this turn, you gain 1 life.", "Elf"),
         "Killer": ("When this creature enters, destroy all Goblins.", "Zombie"),
         "Goblin": ("When this creature dies, you gain 1 life.", "Goblin")}


def stack_after_the_death(active):
    table = Table(CARDS, [["Creator", "Killer"], ["Goblin"]], first_player=active)
    table.move("Goblin")
    for name in ("Creator", "Killer"):
        table.move(name, simulate=True, by=active)
        table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events))
    return [(table.names.get(s["source_id"]), s["controller"]) for s in table.game.stack()]


report_apnap(stack_after_the_death, ("Creator", 0), ("Goblin", 1), "delayed")
