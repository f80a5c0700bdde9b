"""phase.rs triage (docs/engines/phase.md, violation 8), driving phase-python 0.103.0 directly, without the adapter.

A targeted triggered ability is given its targets as it is put on the stack (CR 603.3d); only with no legal target
is it removed. Seat 0 has Aimer, "Whenever a creature leaves the battlefield, this creature deals 1 damage to target
player.", an Elf and a Zombie (toughness 1) on the battlefield; Killer enters: "When this creature enters, destroy
all Elves. This creature deals 1 damage to each Zombie." The Elf is destroyed during the resolution, the Zombie dies
to the state-based action after it: Aimer triggers twice, both players are legal targets each time. Expected: two
target choices, two times 1 damage. Actual (phase 0.103.0): both abilities go on the stack, phase asks for one
target only (the ability triggered by the state-based action); the ability triggered during the resolution stays
on the stack with no target and later resolves doing nothing (StackResolved alone). Related to violation 3 (the two
batches) and to phase-rs/phase#1287 (targets chosen after the push).

Run: python docs/engines/phase-triage/target_never_asked.py
"""
from _phase import Table

CARDS = {"Aimer": ("Whenever a creature leaves the battlefield, this creature deals 1 damage to target player.",
                   "Goblin"),
         "Killer": ("When this creature enters, destroy all Elves. This creature deals 1 damage to each Zombie.",
                    "Wizard"),
         "Elf": ("", "Elf"), "Zombie": ("", "Zombie"), "Other": ("", "Merfolk")}

table = Table(CARDS, [["Aimer", "Killer", "Elf", "Zombie"], ["Other"]])
for name in ("Aimer", "Elf", "Zombie", "Other"):
    table.move(name, by=0)
table.move("Killer", simulate=True)
asked = 0


def target_player_1(wait):
    """Count the target choice and choose seat 1."""
    global asked
    asked += 1
    return table.apply(wait["data"]["player"], {"type": "ChooseTarget", "data": {"target": {"Player": 1}}})


events = table.play(limit=40, answers={"TriggerTargetSelection": target_player_1, "OrderTriggers": table.keep_order})
damage = sum(1 for e in events if e["type"] == "DamageDealt" and e["data"].get("source_id") == table.ids["Aimer"])
print(f"Aimer's targets asked: {asked} (expected 2); damage dealt by Aimer: {damage} (expected 2)")
print("DEVIATION: an ability went on the stack without a target and did nothing" if asked < 2 else "as expected")
