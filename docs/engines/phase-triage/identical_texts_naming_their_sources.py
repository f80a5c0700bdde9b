"""phase.rs triage (docs/engines/phase.md, violation 20), driving phase-python 0.103.0 directly, without the adapter.

A player puts their own simultaneously triggered abilities on the stack in the order they choose (CR 603.3b). Two
cards of one player with the same text that names its own source ("exile this creature") trigger together: the two
abilities do different things (each exiles its own source), so the order is the player's choice. Seat 0 has V1 and
V2, both "Whenever a Goblin dies, exile this creature." (then both "When there are no Goblins on the battlefield,
exile this creature.", a state trigger, 603.8: the scenario br-forge-1125-olivia-state-triggers), and a Goblin that a
helper artifact's "{0}: Destroy all Goblins." destroys. Expected: phase asks seat 0 for the order (OrderTriggers).
Actual (phase 0.103.0): it stacks them in an order of its own and gives priority, as it rightly does for two
abilities that do the same thing ("you gain 1 life", shown last for comparison: phase-rs/phase#1849 auto-orders
"indistinguishable" triggers, comparing the abilities with their source zeroed, which makes "this creature" of two
sources alike).

Run: python docs/engines/phase-triage/identical_texts_naming_their_sources.py
"""
from _phase import Table

HELPER = {"name": "Helper", "manaCost": "", "manaValue": 0.0, "types": ["Artifact"], "supertypes": [],
          "subtypes": [], "text": "{0}: Destroy all Goblins.", "type": "Artifact", "layout": "normal",
          "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
          "foreignData": [], "rulings": []}


def asked(text):
    """Whether phase asks seat 0 to order V1's and V2's abilities (both ``text``) once the Goblin is destroyed."""
    cards = {"Goblin": ("", "Goblin"), "V1": (text, "Elf"), "V2": (text, "Zombie"), "By": ("", "Wizard")}
    table = Table(cards, [["Goblin", "V1", "V2", "Helper"], ["By"]], others=[HELPER])
    for name in ("Goblin", "V1", "V2", "Helper"):
        table.move(name)
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    for _ in range(4):
        wait = table.game.waiting_for()
        if wait["type"] == "OrderTriggers":
            return True, table.stack()
        if wait["type"] != "Priority" or sorted(table.stack()) == ["V1", "V2"]:
            return False, table.stack()
        table.apply(wait["data"]["player"], {"type": "PassPriority"})
    return False, table.stack()


deviation = False
for text, distinct in (("Whenever a Goblin dies, exile this creature.", True),
                       ("When there are no Goblins on the battlefield, exile this creature.", True),
                       ("Whenever a Goblin dies, you gain 1 life.", False)):
    was_asked, stack = asked(text)
    print(f"{text!r}: asked for an order: {was_asked} (expected {distinct}); phase's stack {stack}")
    deviation = deviation or was_asked != distinct
print("DEVIATION: abilities naming their own sources are stacked without their controller ordering them" if deviation
      else "as expected")
