"""phase.rs triage (docs/engines/phase.md, violation 3), driving phase-python 0.103.0 directly, without the adapter.

Abilities that trigger during a resolution and abilities that trigger on the state-based actions performed right
after it are all waiting when a player would next receive priority, so they go on the stack together, in APNAP order
(CR 117.5, 704.3, 603.3b): the active player's first, then the other player's.

Seat 0 (the active player) owns Probe, "When this creature enters, this creature deals 1 damage to each Elf.", and
Mourner, "Whenever a creature dies, you gain 1 life."; seat 1 owns the Elf (toughness 1) and Witness, "Whenever a
creature deals damage, you gain 1 life." Probe enters (debug MoveToZone, simulate) and its ability resolves: the
damage triggers Witness (seat 1) during the resolution; the Elf then dies to a state-based action, which triggers
Mourner (seat 0). Expected stack, bottom to top: Mourner (seat 0), Witness (seat 1), so Witness resolves first.
Actual (phase 0.103.0): Witness is put on the stack first, then Mourner above it: two separate batches, the active
player's ability last. (When a player has several abilities from the resolution, phase asks for their order before it
performs the state-based action; the suite's run shows that case.)

Run: python docs/engines/phase-triage/resolution_and_sba_triggers_one_batch.py
"""
from _phase import Table

CARDS = {"Probe": ("When this creature enters, this creature deals 1 damage to each Elf.", "Human"),
         "Mourner": ("Whenever a creature dies, you gain 1 life.", "Wizard"), "Elf": ("", "Elf"),
         "Witness": ("Whenever a creature deals damage, you gain 1 life.", "Soldier")}

table = Table(CARDS, [["Probe", "Mourner"], ["Elf", "Witness"]])
table.move("Mourner"); table.move("Elf"); table.move("Witness")
table.move("Probe", simulate=True)
log = []


def order(wait):
    """Log who is asked to order which triggers, answer, and log what phase then moves."""
    log.append(f"seat {wait['data']['player']} asked to order {[t['source_name'] for t in wait['data']['triggers']]}")
    events = table.apply(wait["data"]["player"], {"type": "OrderTriggers", "data": {"order": [0]}})
    log.extend(f"  then {e['type']} {table.names.get((e.get('data') or {}).get('object_id'), '')}" for e in events
               if e["type"] in ("ZoneChanged", "CreatureDestroyed"))
    return events


table.play(until=lambda _: table.stack() != ["Probe"], limit=40, answers={"OrderTriggers": order})
stack = [(table.names[s["source_id"]], s["controller"]) for s in table.game.stack()]
print("\n".join(log))
print("stack, bottom to top:", stack)
print("expected:             [('Mourner', 0), ('Witness', 1)]")
print("DEVIATION: the active player's ability went on the stack after the other player's" if stack
      == [("Witness", 1), ("Mourner", 0)] else "as expected" if stack == [("Mourner", 0), ("Witness", 1)]
      else "something else happened")
