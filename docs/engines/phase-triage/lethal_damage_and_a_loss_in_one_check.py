"""phase.rs triage (docs/engines/phase.md, violation 6), driving phase-python 0.103.0 directly, without the adapter.

State-based actions are performed all at once (CR 704.3): a creature with lethal damage is put into its owner's
graveyard (704.5g) in the same check in which its owner, at 0 life, loses (704.5a); then the player leaves the game
and what they own leaves with them from wherever it is (800.4a). So the creature dies. Three players; seat 0 owns
Mourner, "Whenever a creature dies, you gain 1 life."; seat 2, at 1 life (debug SetLife), owns Leaver, "When this
creature enters, this creature deals 1 damage to this creature. You lose 1 life." (toughness 1). Leaver enters
(debug MoveToZone, simulate); its ability resolves. Expected: Leaver dies, Mourner triggers. Actual (phase 0.103.0):
phase exiles Leaver from the battlefield with its owner, it never dies, and Mourner does not trigger.

Run: python docs/engines/phase-triage/lethal_damage_and_a_loss_in_one_check.py
"""
from _phase import Table

CARDS = {"Mourner": ("Whenever a creature dies, you gain 1 life.", "Wizard"), "Other": ("", "Soldier"),
         "Leaver": ("When this creature enters, this creature deals 1 damage to this creature. You lose 1 life.", "Elf")}

table = Table(CARDS, [["Mourner"], ["Other"], ["Leaver"]], first_player=2)
table.move("Mourner")
table.set_life(2, 1)
table.move("Leaver", simulate=True)
moves = [(e["type"], table.names.get(e["data"].get("object_id")), e["data"].get("from"), e["data"].get("to"))
         for e in table.play(until=lambda _: "Mourner" in table.stack())
         if e["type"] in ("ZoneChanged", "PlayerLost", "PlayerEliminated", "CreatureDestroyed")]
mourned = "Mourner" in table.stack()
print("phase reported:", moves)
print("Mourner triggered:", mourned, "(expected True: Leaver dies in the same check as its owner loses)")
print("DEVIATION: the creature with lethal damage was exiled with its owner instead of dying" if not mourned
      else "as expected")
