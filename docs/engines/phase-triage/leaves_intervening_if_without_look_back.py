"""phase.rs triage (docs/engines/phase.md, reading 1), driving phase-python 0.103.0 directly, without the adapter.

A leaves-the-battlefield ability looks back in time (CR 603.10a) "to determine if [it] triggers". The suite's judge
reads that as covering its intervening "if" too (603.4: the condition is checked "when the trigger event occurs"), so
the condition is judged on the game just before the permanent left. phase judges it just after. Two probes, a
creature destroyed by a scripted debug move (simulate):

  a. the dying creature's own "When this creature dies, if this creature is on the battlefield, you gain 1 life.":
     the judge's reading: it triggers (it was on the battlefield), and is removed on resolution (it no longer is).
     phase: it does not trigger.
  b. a watcher "Whenever an Elf dies, if there are no Elf cards in your graveyard, you gain 1 life." and the Elf
     (same owner) dies: the judge's reading: it triggers (no Elf card was in the graveyard), and is removed on
     resolution. phase: it does not trigger.

The Comprehensive Rules do not settle whether the look-back covers the intervening condition; this is recorded as a
difference of reading, not filed as a bug. Run: python docs/engines/phase-triage/leaves_intervening_if_without_look_back.py
"""
from _phase import Table

KINDS = {"Probe": "Human", "Watcher": "Wizard", "Elf": "Elf", "Other": "Soldier"}


def triggered(cards, dying):
    """Seat 0's ``cards`` (name: text) are placed on the battlefield, then ``dying`` is put into the graveyard."""
    table = Table({name: (text, KINDS[name]) for name, text in {**cards, "Other": ""}.items()},
                  [list(cards), ["Other"]])
    for name in cards:
        table.move(name)
    table.move(dying, "Graveyard", simulate=True)
    return bool(table.game.stack()) or table.game.waiting_for()["type"] == "OrderTriggers"


a = triggered({"Probe": "When this creature dies, if this creature is on the battlefield, you gain 1 life."}, "Probe")
print("a. triggered:", a, "(the judge's reading: True)", "DIFFERENT READING" if not a else "same reading")
b = triggered({"Watcher": "Whenever an Elf dies, if there are no Elf cards in your graveyard, you gain 1 life.",
               "Elf": ""}, "Elf")
print("b. triggered:", b, "(the judge's reading: True)", "DIFFERENT READING" if not b else "same reading")
