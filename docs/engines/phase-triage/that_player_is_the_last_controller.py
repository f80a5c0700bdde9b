"""phase.rs triage (docs/engines/phase.md, violation 21), driving phase-python 0.103.0 directly, without the adapter.

"Whenever a creature an opponent owns dies, that player loses 1 life." (Patron of the Nezumi; the scenario
br-xmage-5241-patron-of-the-nezumi, XMage issue 5241): "that player" is the player the trigger condition names
(603.2, 608.2), the opponent who owns the creature, whose graveyard it is put into (400.3), whoever controlled it.
Seat 0 has Patron, seat 1 owns Stolen; seat 0 takes control of Stolen three ways: not at all (the control case),
debug SetController, and a real control-changing effect (a helper artifact's "{0}: Gain control of target
creature.", activated, its target chosen, resolved). Then a second helper's "{0}: Destroy all Elves." destroys
Stolen. Expected each time: seat 1 loses 1 life. Actual (phase 0.103.0): seat 1 in the control case, but seat 0,
Stolen's last controller, after either control change; Patron's ability does trigger (its "an opponent owns" filter
reads the owner), only "that player" reads the controller.

Run: python docs/engines/phase-triage/that_player_is_the_last_controller.py
"""
from _phase import Table

TEXT = "Whenever a creature an opponent owns dies, that player loses 1 life."


def artifact(name, text):
    """An MTGJSON face of a helper artifact with no mana cost and rules text ``text``."""
    return {"name": name, "manaCost": "", "manaValue": 0.0, "types": ["Artifact"], "supertypes": [], "subtypes": [],
            "text": text, "type": "Artifact", "layout": "normal", "colors": [], "colorIdentity": [], "keywords": [],
            "legalities": {}, "identifiers": {}, "printings": [], "foreignData": [], "rulings": []}


def life_lost(how):
    """The seats that lost life after Stolen died, seat 0 having taken control of it ``how``."""
    table = Table({"Patron": (TEXT, "Goblin"), "Stolen": ("", "Elf")}, [["Patron", "Helper", "Thief"], ["Stolen"]],
                  others=[artifact("Helper", "{0}: Destroy all Elves."),
                          artifact("Thief", "{0}: Gain control of target creature.")])
    for name in ("Patron", "Helper", "Thief", "Stolen"):
        table.move(name)
    if how == "debug SetController":
        table.debug(0, "SetController", {"object_id": table.ids["Stolen"], "controller": 0})
    elif how == "Gain control of target creature":
        table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Thief"], "ability_index": 0}})
        table.apply(0, {"type": "ChooseTarget", "data": {"target": {"Object": table.ids["Stolen"]}}})
        table.play(limit=6)
    controller = table.game.object(table.ids["Stolen"])["controller"]
    table.apply(0, {"type": "ActivateAbility", "data": {"source_id": table.ids["Helper"], "ability_index": 0}})
    events = table.play(limit=10)
    lost = [e["data"]["player_id"] for e in events if e["type"] == "LifeChanged" and e["data"]["amount"] < 0]
    print(f"{how}: Stolen (owner seat 1) controlled by seat {controller} as it died; seats that lost life: {lost} "
          f"(expected [1])")
    return lost


found = [life_lost(how) for how in ("no control change", "debug SetController", "Gain control of target creature")]
if found[0] == [1] and found[1] == found[2] == [0]:
    print("DEVIATION: 'that player' (the owner the trigger names) is read as the dying creature's last controller")
else:
    print("as expected" if found == [[1]] * 3 else "OTHER")
