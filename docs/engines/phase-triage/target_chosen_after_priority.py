"""phase.rs triage (docs/engines/phase.md, violation 7), driving phase-python 0.103.0 directly, without the adapter.

A triggered ability's targets are chosen as it is put on the stack (CR 603.3d, with 601.2c), before any player
receives priority (117.3b, 117.5). One creature, "When this creature enters, target player loses 2 life.", enters
(debug MoveToZone, simulate: true) in a two-player game, both players legal targets. Expected: phase asks for the
target before anyone receives priority. Actual (phase 0.103.0): the ability is on the stack with no target, phase
waits for its controller's priority, the controller passes, and only then does phase ask (TriggerTargetSelection):
"push first, choose second" (phase-rs/phase#1287). With two abilities of one player waiting at once, phase asks for
the targets right after their order, before priority (printed for comparison: tests/test_phase_adapter.py plays that
case clean through the adapter).

Run: python docs/engines/phase-triage/target_chosen_after_priority.py
"""
from _phase import Table

CARDS = {"Aimer": ("When this creature enters, target player loses 2 life.", "Goblin"), "Bystander": ("", "Elf")}

table = Table(CARDS, [["Aimer"], ["Bystander"]])
table.move("Aimer", simulate=True)
seen = []  # what phase waits for, with the targets of the ability on its stack
for _ in range(6):
    wait = table.game.waiting_for()
    targets = [s["kind"]["data"]["ability"]["targets"] for s in table.game.stack()]
    seen.append((wait["type"], targets))
    if wait["type"] == "TriggerTargetSelection" or not targets:
        break
    table.apply(wait["data"]["player"], {"type": "PassPriority"})
for wait, targets in seen:
    print(f"phase waits for {wait}; targets of the ability on the stack: {targets}")
asked_late = [w for w, _ in seen][:2] == ["Priority", "TriggerTargetSelection"] and seen[0][1] == [[]]
print("DEVIATION: priority was given with the ability on the stack and no target chosen" if asked_late
      else "as expected")
