"""phase.rs triage (docs/engines/phase.md, violation 18), driving phase-python 0.103.0 directly, without the adapter.

Each instruction of a resolving ability is followed in order (CR 608.2c); "each player" scopes its own sentence
only, and "you" is the ability's controller (109.5). Seat 0's Prober, "When this creature enters, you may lose 1
life. If you do, each player puts all Elf cards from their hand onto the battlefield. If you do, this creature deals
1 damage to you.", is played as a land in a two-player game (PlayLand, phase's own game action); seat 0 accepts.
Expected: seat 0 loses 1 life and is dealt 1 damage (18), seat 1 nothing (20). Actual (phase 0.103.0): phase parses
the damage as a sub-ability of the "each player" instruction, which carries ``player_scope: All``, and deals it once
per player: seat 1 is dealt 1 damage too (19). Without the "If you do" chain ("... onto the battlefield. This
creature deals 1 damage to you.") the damage is dealt once, as expected. The run's shrunk mtg.resolution-effect
failure at seed 5 ("should have caused type=damage ... player=P1, but caused" damage to another player) is this.

Run: python docs/engines/phase-triage/each_player_scope_leaks.py
"""
from _phase import Table

TEXT = ("When this creature enters, you may lose 1 life. If you do, each player puts all Elf cards from their hand "
        "onto the battlefield. If you do, this creature deals 1 damage to you.")


def accept(wait):
    return table.apply(wait["data"]["player"], {"type": "DecideOptionalEffect", "data": {"accept": True}})


table = Table({"Prober": (TEXT, "Goblin"), "Bystander": ("", "Wizard"), "Elf": ("", "Elf")},
              [["Prober"], ["Bystander", "Elf"]])
table.move("Bystander")
table.move("Prober", simulate=True)
events = table.play(limit=20, answers={"OptionalEffectChoice": accept})
hits = [e["data"]["target"] for e in events if e["type"] == "DamageDealt"]
life = [table.game.player(seat)["life"] for seat in (0, 1)]
print(f"damage dealt to: {hits}; life totals: {life} (expected: [{{'Player': 0}}] and [18, 20])")
if len(hits) > 1 and life == [18, 19]:
    print("DEVIATION: 'this creature deals 1 damage to you' after an 'each player' instruction hit every player")
else:
    print("as expected")
