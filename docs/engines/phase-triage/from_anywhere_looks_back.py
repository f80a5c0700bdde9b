"""phase.rs triage (docs/engines/phase.md, violation 19), driving phase-python 0.103.0 directly, without the adapter.

An ability that triggers on a card put into a graveyard "from anywhere" is never a leaves-the-battlefield ability
(CR 603.6c, last sentence), so it does not look back in time (603.10a): its source dying does not see its own death,
nor the deaths simultaneous with it. Seat 0 has Sefris, "Whenever one or more creature cards are put into your
graveyard from anywhere, you gain 1 life." (the scenario br-xmage-8184-sefris-from-anywhere, XMage issue 8184), and
Other; a helper artifact's "{0}: Destroy all Goblins and Elves." destroys both at once. Expected: nothing triggers.
Actual (phase 0.103.0): Sefris's ability goes on the stack. The same with the "a creature card" (not batched) wording,
Sefris dying alone.

Run: python docs/engines/phase-triage/from_anywhere_looks_back.py
"""
from _phase import Table

CARDS = {"Sefris": ("Whenever one or more creature cards are put into your graveyard from anywhere, you gain 1 life.",
                    "Goblin"),
         "Single": ("Whenever a creature card is put into your graveyard from anywhere, you gain 1 life.", "Goblin"),
         "Other": ("", "Elf"), "Bystander": ("", "Zombie")}
HELPER = {"name": "Helper", "manaCost": "", "manaValue": 0.0, "types": ["Artifact"], "supertypes": [],
          "subtypes": [], "text": "{0}: Destroy all Goblins and Elves.", "type": "Artifact", "layout": "normal",
          "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
          "foreignData": [], "rulings": []}


def triggers(source, together):
    cards = {source: CARDS[source], "Other": CARDS["Other"], "Bystander": CARDS["Bystander"]}
    table = Table(cards, [[source, "Other", "Helper"], ["Bystander"]], others=[HELPER])
    for name in (source, "Other", "Helper") if together else (source, "Helper"):
        table.move(name)
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    for _ in range(4):  # every player passes until the helper's ability has resolved
        if not any(s["source_id"] == table.ids["Helper"] for s in table.game.stack()):
            break
        table.apply(table.game.waiting_for()["data"]["player"], {"type": "PassPriority"})
    return table.stack().count(source)


found = {}
for source, together in (("Sefris", True), ("Single", False)):
    found[source] = triggers(source, together)
    print(f"{source} {'dying with Other' if together else 'dying alone'}: its ability triggered {found[source]} "
          f"time(s) (expected 0)")
print("DEVIATION: a 'from anywhere' ability looks back at its own source's death" if any(found.values())
      else "as expected")
