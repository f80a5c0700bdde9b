"""phase.rs triage (docs/engines/phase.md, violation 4), driving phase-python 0.103.0 directly, without the adapter.

A player who concedes leaves the game and loses it (CR 104.3a), so "Whenever a player loses the game" triggers. In a
three-player game, seat 0 has Mourner, "Whenever a player loses the game, you gain 3 life."; seat 2 concedes
(GameAction Concede). Expected: Mourner's ability on the stack. Actual (phase 0.103.0): phase reports
PlayerEliminated (no PlayerLost) and nothing triggers. For comparison, the same seat losing at 0 life (debug
SetLife 1, then "When this creature enters, you lose 1 life.") is reported as PlayerLost and triggers Mourner.

Run: python docs/engines/phase-triage/concession_is_no_loss.py
"""
from _phase import Table

CARDS = {"Mourner": ("Whenever a player loses the game, you gain 3 life.", "Wizard"), "Bystander": ("", "Goblin"),
         "Leaver": ("When this creature enters, you lose 1 life.", "Elf")}


def mourner_triggers(how):
    table = Table(CARDS, [["Mourner"], ["Bystander"], ["Leaver"]])
    table.move("Mourner")
    events = table.leave(2, how, pinger="Leaver", watcher="Mourner")
    reported = [e["type"] for e in events if e["type"] in ("PlayerLost", "PlayerEliminated")]
    return reported, "Mourner" in table.stack()


for how in ("life", "concede"):
    reported, triggered = mourner_triggers(how)
    print(f"{how}: phase reported {reported}; Mourner triggered: {triggered} (expected True)")
print("DEVIATION: a concession triggers no 'loses the game' ability" if not mourner_triggers("concede")[1]
      else "as expected")
