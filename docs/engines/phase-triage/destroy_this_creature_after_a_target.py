"""phase.rs triage (docs/engines/phase.md, violation 13), driving phase-python 0.103.0 directly, without the adapter.

A resolving ability does what its text says (CR 608.2c): "this creature" is the ability's source, whatever else the
ability targets. Seat 0's Aimer (toughness 3, like every card here) enters with "When this creature enters, <a
targeted instruction>. Destroy this creature."; seat 1 has a Wizard and an Elf; the first legal target is chosen.
Expected: Aimer is destroyed each time, and nothing else but what the first instruction says. Actual (phase 0.103.0):
after "deals 1 damage to target Wizard" or "destroy target Wizard", "Destroy this creature" destroys the Wizard (or
nothing more) and Aimer survives; after "target player loses 1 life" it destroys nothing. phase parses "this
creature" as SelfRef (as the adapter's test checks) but resolves the destroy against the ability's chosen targets.
For comparison, "Exile this creature" after a target exiles Aimer, as it should.

Run: python docs/engines/phase-triage/destroy_this_creature_after_a_target.py
"""
from _phase import Table


def first_target(table):
    def answer(wait):
        legal = wait["data"]["selection"]["current_legal_targets"]
        return table.apply(wait["data"]["player"], {"type": "ChooseTarget", "data": {"target": legal[0]}})
    return answer


def left_the_battlefield(first, then="Destroy this creature."):
    text = f"When this creature enters, {first}. {then}"
    table = Table({"Aimer": (text, "Goblin"), "Wizard": ("", "Wizard"), "Elf": ("", "Elf")},
                  [["Aimer"], ["Wizard", "Elf"]], toughness=3)
    table.move("Wizard")
    table.move("Elf")
    table.move("Aimer", simulate=True)
    events = table.play(answers={"TriggerTargetSelection": first_target(table)})
    return [table.names[e["data"]["object_id"]] for e in events if e["type"] == "ZoneChanged"]


wrong = 0
for first in ("this creature deals 1 damage to target Wizard", "destroy target Wizard",
              "target player loses 1 life"):
    gone = left_the_battlefield(first)
    wrong += "Aimer" not in gone
    print(f"{first}. Destroy this creature.: left the battlefield {gone} (expected Aimer among them)")
exiled = left_the_battlefield("this creature deals 1 damage to target Wizard", "Exile this creature.")
print(f"this creature deals 1 damage to target Wizard. Exile this creature.: left the battlefield {exiled}")
print("DEVIATION: 'Destroy this creature' after a target does not destroy this creature" if wrong == 3
      and exiled == ["Aimer"] else "as expected")
