"""phase.rs triage (docs/engines/phase.md, reading 2 and violation 5, second form), driving phase-python 0.103.0
directly, without the adapter.

When a player leaves the game, nothing of theirs triggers any more (CR 800.4a). 800.4a does not say what becomes of
a delayed triggered ability they created that is still waiting: the judge names two readings (option
departed_delayed: `cease`, it ends with them, the default; `persist`, it stays but can no longer trigger for them).
In a three-player game, seat 1's Creator, "When this creature enters, whenever a creature dies this turn, you gain 1
life.", enters and resolves; seat 1 then leaves (concedes, or loses at 0 life); then seat 0's Killer destroys seat
2's Wizard. Actual (phase 0.103.0): the delayed ability is still in phase's state after the departure (reading
`persist`, not `cease`) and it triggers on the Wizard's death and resolves for the departed seat, which neither
reading allows.

Run: python docs/engines/phase-triage/departed_players_delayed_ability.py
"""
from _phase import Table

CARDS = {"Creator": ("When this creature enters, whenever a creature dies this turn, you gain 1 life.", "Goblin"),
         "Leaver": ("When this creature enters, you lose 1 life.", "Elf"), "Bystander": ("", "Zombie"),
         "Wizard": ("", "Wizard"), "Killer": ("When this creature enters, destroy all Wizards.", "Knight")}

for how in ("concede", "life"):
    table = Table(CARDS, [["Bystander", "Killer"], ["Creator", "Leaver"], ["Wizard"]])
    table.move("Bystander")
    table.move("Wizard")
    table.move("Creator", simulate=True)
    table.play()
    if how == "concede":
        table.apply(1, {"type": "Concede", "data": {"player_id": 1}})
    else:
        table.set_life(1, 1, by=0)
        table.move("Leaver", simulate=True)
        table.play()
    kept = len(table.game.state()["state"]["delayed_triggers"])
    table.move("Killer", simulate=True)
    triggered = False
    for _ in range(10):
        wait = table.game.waiting_for()
        triggered = triggered or "Creator" in table.stack()
        if wait["type"] != "Priority" or not table.game.stack():
            break
        table.apply(wait["data"]["player"], {"type": "PassPriority"})
    print(f"{how}: delayed abilities kept after seat 1 left: {kept}; Creator's delayed ability triggered after: "
          f"{triggered}")
    print("DIFFERENT READING: kept (persist, not cease)" if kept else "ended with the player (cease)")
    print("DEVIATION: a departed player's delayed ability triggered" if triggered else "as expected")
