"""phase.rs triage (docs/engines/phase.md, violation 2), driving phase-python 0.103.0 directly, without the adapter.

Probe One reads "When this creature enters, destroy this creature. This creature deals 2 damage to this creature."
It enters from the hand (debug MoveToZone, simulate), and every player passes until the stack is empty.
Expected (608.2, 400.7; only a permanent on the battlefield or a player can be dealt damage): the creature is
destroyed, and the second instruction does nothing. Actual: phase reports DamageDealt to object 1, the card now in
the graveyard. Run: python docs/engines/phase-triage/damage_to_a_card_in_the_graveyard.py
"""
from _phase import Table

CARDS = {"Probe One": ("When this creature enters, destroy this creature. This creature deals 2 damage to this "
                       "creature.", None),
         "Probe Two": ("", None)}

table = Table(CARDS, [["Probe One"], ["Probe Two"]], toughness=3)
table.move("Probe One", simulate=True)
seen = []
for e in table.play():
    data = {k: v for k, v in (e.get("data") or {}).items()
            if k in ("object_id", "from", "to", "target", "amount", "source_id")}
    seen.append((e["type"], data))
for s in seen:
    print(s)
where = {e[1]["object_id"]: e[1]["to"] for e in seen if e[0] == "ZoneChanged"}
hit = [e[1] for e in seen if e[0] == "DamageDealt" and where.get(e[1]["target"].get("Object")) == "Graveyard"]
print("DEVIATION: damage dealt to a card in the graveyard" if hit else "as expected: no damage after the destroy")
