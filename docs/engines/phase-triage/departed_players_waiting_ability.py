"""phase.rs triage (docs/engines/phase.md, "a departed player's waiting abilities"), driving phase-python 0.103.0
directly, without the adapter.

A triggered ability triggers when its event occurs (CR 603.2; a reflexive one, 603.12, when its instruction is
done); it waits until a player would next get priority, and then goes on the stack under its controller (603.3).
Three seats; seat 1, at 1 life, holds Pinger, "When this creature enters, this creature deals 1 damage to you. Destroy all Goblins.
When you do, you gain 2 life.", and Watcher, "Whenever a creature dies, you gain 1 life."; seat 2 holds the Goblin.
Pinger enters (debug MoveToZone, simulate: true) and its ability resolves: seat 1 is dealt 1 damage (0 life), the
Goblin dies, so Watcher's ability and the reflexive one trigger; then the state-based actions make seat 1 lose
(704.5a) and leave the game (800.4a), before either ability is put on the stack, so neither ever is (no player is
left to put it there). The end state is the same whatever phase decided; what the script shows is that phase reports
nothing of either ability (no prompt, no stack entry, no event), so whether they triggered cannot be seen. With seat 1
at 20 life (the control case) phase puts both on the stack. Not an engine bug to file: the adapter skips such
scenarios (a false alarm of mtg.reflexive and mtg.look-back before it did).

Run: python docs/engines/phase-triage/departed_players_waiting_ability.py
"""
from _phase import Table

PINGER = "When this creature enters, this creature deals 1 damage to you. Destroy all Goblins. When you do, you gain 2 life."
WATCHER = "Whenever a creature dies, you gain 1 life."


def play(life):
    table = Table({"Anchor": ("", "Elf"), "Pinger": (PINGER, "Zombie"), "Watcher": (WATCHER, "Merfolk"),
                   "Goblin": ("", "Goblin")}, [["Anchor"], ["Pinger", "Watcher"], ["Goblin"]])
    for name in ("Anchor", "Watcher", "Goblin"):
        table.move(name)
    table.set_life(1, life, by=0)
    table.move("Pinger", simulate=True, by=0)
    events = table.play(until=lambda events: any(e["type"] == "StackResolved" for e in events),
                        answers={"OrderTriggers": table.keep_order})
    left = any(e["type"] == "PlayerEliminated" for e in events)
    wait = table.game.waiting_for()
    stack = [(table.names.get(s["source_id"]), s["controller"]) for s in table.game.stack()]
    asked = wait["type"] == "OrderTriggers"
    return left, stack, asked


left, stack, asked = play(1)
print(f"seat 1 at 1 life: seat 1 left the game: {left}; phase's stack after Pinger resolved: {stack}; "
      f"an order prompt: {asked}")
control_left, control_stack, control_asked = play(20)
print(f"seat 1 at 20 life (control): left: {control_left}; stack: {control_stack}; an order prompt: {control_asked}")
if left and not stack and not asked and (control_stack or control_asked):
    print("NOT SHOWN: the abilities of a player who left before they went on the stack leave no trace in phase "
          "(the adapter skips: whether they triggered cannot be seen)")
else:
    print("as the adapter assumes otherwise: phase shows them")
