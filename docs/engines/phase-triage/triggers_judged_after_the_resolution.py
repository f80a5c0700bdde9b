"""phase.rs triage (docs/engines/phase.md, violation 1), driving phase-python 0.103.0 directly, without the adapter.

phase decides which abilities the events of a resolution trigger once the whole resolution is over, on the game as
it is then, instead of as each event happens (CR 603.2; 603.4: an intervening "if" is tested at the moment of the
trigger event). Three probes, each a creature that enters (debug MoveToZone, simulate) and
whose enters ability resolves while every player passes:

  a. missed trigger: "destroy this creature. This creature deals 1 damage to you." with a watcher "Whenever another
     creature dies, if you have 20 or more life, you gain 1 life." The death happens at 20 life: the watcher must
     trigger (then, at 19 life on resolution, be removed). phase never triggers it (it looks at 19 life).
  b. a trigger that should not have happened, changing the life total: the player starts at 19 (debug SetLife);
     "destroy this creature. You gain 2 life." with a watcher "Whenever another creature dies, if you have 20 or more
     life, you gain 5 life." The death happens at 19 life: no trigger, the game ends at 21 life. phase triggers the
     watcher (it looks at 21 life) and the player ends at 26.
  c. missed trigger of a source that leaves later in the same resolution: "destroy all Elves. Destroy all Zombies."
     with a Zombie "Whenever a creature dies, you gain 1 life." The Zombie is on the battlefield when the Elf dies, so
     its ability triggers on the Elf's death (and, looking back, on its own). phase triggers it only once.

Run: python docs/engines/phase-triage/triggers_judged_after_the_resolution.py (prints one line per probe and
DEVIATION when phase does what is described above as its actual behaviour).
"""
from _phase import Table

KINDS = {"Probe": "Human", "Watcher": "Wizard", "Elf": "Elf", "Zombie": "Zombie", "Other": "Soldier"}


def play(cards, mine, battlefield, life=None):
    """Seat 0 owns ``mine`` (the first enters with simulate: true, the others are placed raw); seat 1 owns "Other".
    Returns (events of the whole resolution phase reported, triggers that went on the stack, seat 0's life)."""
    table = Table({name: (text, KINDS[name]) for name, text in {**cards, "Other": ""}.items()}, [mine, ["Other"]])
    for name in battlefield:
        table.move(name)
    if life is not None:
        table.set_life(0, life)
    table.move("Probe", simulate=True)
    pushed = []

    def note_pushed(_):
        pushed.extend(s for s in table.game.stack() if s["id"] not in {p["id"] for p in pushed})
        return False

    events = table.play(until=note_pushed, limit=60, answers={"OrderTriggers": table.keep_order})
    return events, [table.names[p["source_id"]] for p in pushed], table.game.player(0)["life"]


_, pushed, life = play({"Probe": "When this creature enters, destroy this creature. This creature deals 1 damage to you.",
                        "Watcher": "Whenever another creature dies, if you have 20 or more life, you gain 1 life."},
                       ["Probe", "Watcher"], ["Watcher"])
print(f"a. stack entries from: {pushed}; life {life}. Expected a Watcher trigger (removed on resolution at 19 life).",
      "DEVIATION: the watcher never triggered" if "Watcher" not in pushed else "as expected")

_, pushed, life = play({"Probe": "When this creature enters, destroy this creature. You gain 2 life.",
                        "Watcher": "Whenever another creature dies, if you have 20 or more life, you gain 5 life."},
                       ["Probe", "Watcher"], ["Watcher"], life=19)
print(f"b. stack entries from: {pushed}; life {life}. Expected no Watcher trigger and 21 life.",
      "DEVIATION: the watcher triggered and the life total is wrong" if "Watcher" in pushed else "as expected")

_, pushed, life = play({"Probe": "When this creature enters, destroy all Elves. Destroy all Zombies.",
                        "Elf": "", "Zombie": "Whenever a creature dies, you gain 1 life."},
                       ["Probe", "Elf", "Zombie"], ["Elf", "Zombie"])
print(f"c. stack entries from: {pushed}; life {life}. Expected two Zombie triggers (the Elf's death, its own).",
      "DEVIATION: the Zombie's ability triggered only once" if pushed.count("Zombie") == 1 else "as expected")
