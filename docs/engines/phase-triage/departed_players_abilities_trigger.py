"""phase.rs triage (docs/engines/phase.md, violation 5), driving phase-python 0.103.0 directly, without the adapter.

When a player leaves the game, the objects they own leave with them, and nothing of theirs may trigger or go on the
stack afterwards (CR 800.4a: their objects leave the game, abilities they control on the stack cease to exist).
Three players; seat 2 owns Leaver, "When this creature enters, you lose 1 life.", and Watcher, "Whenever a creature
leaves the battlefield, you gain 1 life.", and is at 1 life (debug SetLife). Leaver enters (debug MoveToZone,
simulate); its ability resolves; seat 2 is at 0 life and loses (704.5a); phase exiles what seat 2 owns. Expected:
no ability of seat 2 triggers from that, nothing of theirs is on the stack. Actual (phase 0.103.0): Watcher's
ability triggers on the creatures leaving with their owner and goes on the stack, controlled by the departed seat.

Run: python docs/engines/phase-triage/departed_players_abilities_trigger.py
"""
from _phase import Table

CARDS = {"Bystander": ("", "Goblin"), "Other": ("", "Soldier"),
         "Leaver": ("When this creature enters, you lose 1 life.", "Elf"),
         "Watcher": ("Whenever a creature leaves the battlefield, you gain 1 life.", "Wizard")}

table = Table(CARDS, [["Bystander"], ["Other"], ["Leaver", "Watcher"]], first_player=2)
table.move("Watcher")
table.set_life(2, 1)
table.move("Leaver", simulate=True)
events = [e["type"] for e in table.play(until=lambda events: any(e["type"] == "PlayerEliminated" for e in events),
                                        answers={"OrderTriggers": table.keep_order})]
left = [(table.names.get(s["source_id"]), s["controller"]) for s in table.game.stack()]
print("phase reported:", [e for e in events if e in ("PlayerLost", "ZoneChanged", "PlayerEliminated")])
print("seat 2 eliminated:", table.game.player(2)["is_eliminated"], "; on the stack afterwards:", left, "(expected [])")
print("DEVIATION: the departed player's ability triggered and went on the stack" if any(c == 2 for _, c in left)
      else "as expected" if not left else "something else happened")
