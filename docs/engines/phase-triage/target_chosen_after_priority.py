"""phase.rs triage (docs/engines/phase.md, "withdrawn: violation 7"), driving phase-python 0.103.0 directly, without
the adapter.

A triggered ability's targets are chosen as it is put on the stack (CR 603.3d, with 601.2c), before any player
receives priority (117.3b, 117.5). One creature, "When this creature enters, target player loses 2 life.", enters
in a two-player game, both players legal targets, two ways:

* played as a land (the card is a land creature; PlayLand, phase's real game action, in the main phase): phase asks
  for the target (TriggerTargetSelection) before anyone receives priority, as 603.3d requires;
* put onto the battlefield with debug MoveToZone (simulate: true): the ability is on the stack with no target, phase
  gives its controller priority, and asks only once the controller passed.

The second is the debug action's doing, not phase's rules (no player can make that happen in a game): the suite's
adapter plays scripted entries as land plays, and skips a target asked after priority following a debug move.

Run: python docs/engines/phase-triage/target_chosen_after_priority.py
"""
from _phase import Table

CARDS = {"Aimer": ("When this creature enters, target player loses 2 life.", "Goblin"), "Bystander": ("", "Elf")}


def waits_after(enter):
    """What phase waits for, with the targets of the ability on its stack, after ``enter(table)``, passing
    priority until it asks for the target."""
    table = Table(CARDS, [["Aimer"], ["Bystander"]], lands=True)
    enter(table)
    seen = []
    for _ in range(6):
        wait = table.game.waiting_for()
        targets = [s["kind"]["data"]["ability"]["targets"] for s in table.game.stack()]
        seen.append((wait["type"], targets))
        if wait["type"] == "TriggerTargetSelection" or not targets:
            break
        table.apply(wait["data"]["player"], {"type": "PassPriority"})
    return seen


played = waits_after(lambda table: table.play_land("Aimer"))
moved = waits_after(lambda table: table.debug(0, "MoveToZone", {"object_id": table.ids["Aimer"], "to_zone": "Battlefield",
                                                                 "simulate": True}))
print(f"played as a land: {played}")
print(f"debug move: {moved}")
if played[0][0] == "TriggerTargetSelection" and [w for w, _ in moved][:2] == ["Priority", "TriggerTargetSelection"]:
    print("AS REQUIRED after the game action: the target is asked before priority; only the debug move asks late")
elif played[0][0] != "TriggerTargetSelection":
    print("DEVIATION: priority was given with the ability on the stack and no target chosen after a land played")
else:
    print("as expected both ways")
