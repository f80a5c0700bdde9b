# Regenerate with: PYTHONPATH=. python tests/mtg_fixture_sources.py fixtures/mtg  (then read every expected trace).
"""Writes fixtures/mtg/*.json: one golden scenario per Example paragraph of CR 603 (and 101.4, 704.4, 608.2b)
that states an outcome about triggers; expected traces come from the reference engine and are read by hand."""
import json, sys
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from conformance.documents.json_io import dump_json, validate
from reference_engine.mtg.engines.reference import MtgEngine

def scen(players, active, objects, script, choices=None, life=None, edition="2026-02-27", options=None):
    doc = {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": edition,
           "players": players, "active_player": active, "objects": objects,
           "script": [{"step": name, "actions": [{"by": by, "effect": eff} for by, eff in acts]} for name, acts in script]}
    if choices: doc["choices"] = choices
    if life: doc["life"] = life
    if options: doc["options"] = options
    return doc

def obj(id, owner, zone="field", abilities=None, **kw):
    o = {"id": id, "owner": owner, "zone": zone}
    if abilities: o["abilities"] = abilities
    o.update(kw)
    return o

def ab(id, trigger, effect=(), text=None, **kw):
    a = {"id": id}
    if text: a["text"] = text
    a["trigger"] = trigger
    a.update(kw)
    a["effect"] = list(effect)
    return a

DIES_ANY = {"event": "leave", "subject": "any", "to": "graveyard"}
DIES_OTHER = {"event": "leave", "subject": "other", "to": "graveyard"}
F = []

def fixture(id, description, source, keys, doc):
    F.append((id, description, source, keys, doc))

# 101.4: each player sacrifices a creature; all at once, so the dies triggers form one batch put on in APNAP order.
fixture("mtg-101-4-each-player-sacrifices",
 "101.4 example: each of three players sacrifices a creature (active player P2 chooses first, then P3, then P1); the three creatures are sacrificed at the same time, so each player's 'whenever a creature dies' ability triggers three times in one batch, and the batch goes on the stack P2's first, then P3's, then P1's (603.3b): P1's resolve first.",
 "CR 101.4, Example", ["mtg.look-back", "mtg.apnap-order", "mtg.stack-lifo"],
 scen(["P1", "P2", "P3"], "P2",
  [obj("W1", "P1", abilities=[ab("A1", DIES_ANY, text="When any creature dies: ...")]),
   obj("W2", "P2", abilities=[ab("A2", DIES_ANY, text="When any creature dies: ...")]),
   obj("W3", "P3", abilities=[ab("A3", DIES_ANY, text="When any creature dies: ...")]),
   obj("C1", "P1"), obj("C2", "P2"), obj("C3", "P3")],
  [("main", [("P2", [{"do": "move_together", "objects": ["C2", "C3", "C1"], "from": "field", "to": "graveyard"}])])]))

fixture("mtg-603-2c-destroy-all-lands",
 "603.2c example: a permanent's ability watches for lands going from the battlefield to a graveyard; one spell destroys all five lands at once, so the ability triggers once per land: five separate triggers.",
 "CR 603.2c, Example", ["mtg.look-back", "mtg.stack-at-priority"],
 scen(["P1", "P2"], "P1",
  [obj("O1", "P1", abilities=[ab("A1", {"event": "leave", "subject": "other", "to": "graveyard"}, text="Each time a land goes from the battlefield to a graveyard: ...")])]
  + [obj(f"L{k}", "P1" if k <= 3 else "P2") for k in range(1, 6)],
  [("main", [("P1", [{"do": "move_together", "objects": [f"L{k}" for k in range(1, 6)], "from": "field", "to": "graveyard"}])])]))

fixture("mtg-603-2g-prevented-damage",
 "603.2g example: an ability triggers whenever its source deals damage; all the damage it would deal is prevented, so the ability does not trigger. The unprevented damage right after does trigger it.",
 "CR 603.2g, Example", ["mtg.prevented-no-trigger", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1",
  [obj("O1", "P1", abilities=[ab("A1", {"event": "damage", "subject": "self"}, [{"do": "signal", "name": "dealt"}], text="Each time this deals damage: ...")])],
  [("main", [("P1", [{"do": "damage", "source": "O1", "player": "P2", "amount": 2, "prevented": True}]),
             ("P1", [{"do": "damage", "source": "O1", "player": "P2", "amount": 1}])])]))

FELIDAR = lambda: obj("FS", "P1", abilities=[ab("A1", {"event": "signal", "name": "upkeep"}, [{"do": "signal", "name": "wins"}],
    text="Upkeep trigger: if its controller has at least 40 life, that player wins.",
    intervening_if={"test": "life_at_least", "player": "controller", "value": 40})])
fixture("mtg-603-4-felidar-39-life",
 "603.4 example (Felidar Sovereign): its controller has 39 life as their upkeep begins, so the ability does not trigger at all.",
 "CR 603.4, Example", ["mtg.intervening-if", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1", [FELIDAR()], [("upkeep", [("P1", [{"do": "signal", "name": "upkeep"}])])], life={"P1": 39}))
fixture("mtg-603-4-felidar-drops-below",
 "603.4 example (Felidar Sovereign): its controller has 40 life as their upkeep begins, so the ability triggers; the opponent's upkeep trigger makes them lose 1 life and resolves first (603.3b), so when the Sovereign's ability resolves its condition fails: it is removed from the stack and has no effect.",
 "CR 603.4, Example", ["mtg.intervening-if", "mtg.apnap-order"],
 scen(["P1", "P2"], "P1", [FELIDAR(), obj("D1", "P2", abilities=[ab("A2", {"event": "signal", "name": "upkeep"}, [{"do": "life", "player": "P1", "amount": -1}], text="Upkeep trigger: the active player loses 1 life.")])],
  [("upkeep", [("P1", [{"do": "signal", "name": "upkeep"}])])], life={"P1": 40}))
fixture("mtg-603-4-felidar-wins",
 "603.4 example (Felidar Sovereign): its controller has 40 life as their upkeep begins and still 40 as the ability resolves, so it resolves and that player wins the game (the 'wins' signal).",
 "CR 603.4, Example", ["mtg.intervening-if"],
 scen(["P1", "P2"], "P1", [FELIDAR()], [("upkeep", [("P1", [{"do": "signal", "name": "upkeep"}])])], life={"P1": 40}))

fixture("mtg-603-7a-delayed-created-too-late",
 "603.7a first example: an ability creates 'when this creature leaves the battlefield, ...' for creature C2, but C2 already left the battlefield (destroyed by a trigger that resolved first). The delayed ability never triggers, not even when the card returns and leaves again: that is a new object (603.7c, 400.7).",
 "CR 603.7a, Example 1", ["mtg.delayed-trigger", "mtg.delayed-controller"],
 scen(["P1", "P2"], "P1",
  [obj("C2", "P1", abilities=[ab("A1", {"event": "signal", "name": "s1"}, [{"do": "create_delayed", "ability": {"id": "X1", "text": "When this creature leaves the battlefield, ...", "trigger": {"event": "leave", "subject": "self"}, "effect": [{"do": "signal", "name": "delayed"}]}}], text="Whenever s1 happens, create the delayed ability X1.")]),
   obj("K1", "P2", abilities=[ab("A2", {"event": "signal", "name": "s1"}, [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}], text="Whenever s1 happens, destroy C2.")])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]),
             ("P1", [{"do": "move", "object": "C2", "from": "graveyard", "to": "field"}]),
             ("P1", [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"}])])]))

fixture("mtg-603-7a-delayed-waits-for-next",
 "603.7a second example, with a signal in place of untapping (tapping is not modelled): the event the delayed ability waits for happens before the ability that creates it resolves, so it waits for the next occurrence, and triggers then, once (603.7b).",
 "CR 603.7a, Example 2 (analogue)", ["mtg.delayed-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("C1", "P1", abilities=[ab("A1", {"event": "signal", "name": "s1"}, [{"do": "create_delayed", "ability": {"id": "X1", "text": "When C1 becomes untapped, ...", "trigger": {"event": "signal", "name": "untap"}, "effect": [{"do": "signal", "name": "delayed"}]}}])]),
   obj("C2", "P2", abilities=[ab("A2", {"event": "signal", "name": "s1"}, [{"do": "signal", "name": "untap"}])])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "signal", "name": "untap"}]), ("P1", [{"do": "signal", "name": "untap"}])])]))

fixture("mtg-603-7c-exile-at-end-step",
 "603.7c example: an ability creates 'exile this creature at the beginning of the next end step'; the creature dies before then, so at the end step the delayed ability triggers and resolves but exiles nothing.",
 "CR 603.7c, Example", ["mtg.delayed-trigger", "mtg.independent-of-source"],
 scen(["P1", "P2"], "P1",
  [obj("C1", "P1", abilities=[ab("A1", {"event": "signal", "name": "s1"}, [{"do": "create_delayed", "ability": {"id": "X1", "text": "Next end step: exile this creature.", "trigger": {"event": "signal", "name": "end_step"}, "effect": [{"do": "move", "object": "C1", "from": "field", "to": "exile"}]}}])])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}])]),
   ("end", [("P1", [{"do": "signal", "name": "end_step"}])])]))

NO_HAND = lambda effect: obj("S1", "P1", abilities=[ab("A1", {"event": "state", "state": {"test": "zone_empty", "player": "P1", "zone": "hand"}}, effect, text="State trigger: with an empty hand, its controller draws.")])
fixture("mtg-603-8-last-card-played",
 "603.8 example: 'whenever you have no cards in hand, draw a card'. Its controller plays the last card of their hand: the ability triggers once and does not trigger again (even as more happens) until it has left the stack; it then draws, and the hand is no longer empty.",
 "CR 603.8, Example", ["mtg.state-trigger", "mtg.stack-at-priority"],
 scen(["P1", "P2"], "P1",
  [NO_HAND([{"do": "move", "object": "L1", "from": "deck", "to": "hand"}]), obj("H1", "P1", "hand"), obj("L1", "P1", "deck")],
  [("main", [("P1", [{"do": "move", "object": "H1", "from": "hand", "to": "field"}, {"do": "signal", "name": "cast_more"}])])]))
fixture("mtg-603-8-discard-then-draw",
 "603.8 example: a spell reads 'discard your hand, then draw that many cards'. The hand is empty for a moment during the spell's resolution, so 'whenever you have no cards in hand, draw a card' triggers then, and goes on the stack once the spell has finished (117.2a).",
 "CR 603.8, Example", ["mtg.state-trigger", "mtg.stack-at-priority"],
 scen(["P1", "P2"], "P1",
  [NO_HAND([{"do": "move", "object": "L3", "from": "deck", "to": "hand"}]), obj("H1", "P1", "hand"), obj("H2", "P1", "hand"),
   obj("L1", "P1", "deck"), obj("L2", "P1", "deck"), obj("L3", "P1", "deck")],
  [("main", [("P1", [{"do": "move_together", "objects": ["H1", "H2"], "from": "hand", "to": "graveyard"},
                     {"do": "move_together", "objects": ["L1", "L2"], "from": "deck", "to": "hand"}])])]))

fixture("mtg-603-10a-artifact-dies-with-creatures",
 "603.10a example: two creatures and an artifact with 'whenever a creature dies, you gain 1 life'; a spell destroys all of them at once. Leaves-the-battlefield abilities look back in time, so the artifact's ability triggers twice (its controller gains 2 life), though the artifact went to the graveyard at the same time.",
 "CR 603.10a, Example", ["mtg.look-back", "mtg.independent-of-source"],
 scen(["P1", "P2"], "P1",
  [obj("AR", "P1", abilities=[ab("A1", DIES_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="When another creature dies, its controller gains 1 life.")]),
   obj("C1", "P1"), obj("C2", "P2")],
  [("main", [("P2", [{"do": "move_together", "objects": ["AR", "C1", "C2"], "from": "field", "to": "graveyard"}])])]))

MANTICORE = lambda: obj("HM", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"},
    [{"do": "move", "object": "C2", "from": "field", "to": "graveyard"},
     {"do": "reflexive", "ability": {"id": "R1", "text": "Reflexive: this creature deals 3 damage.", "trigger": {"event": "leave", "subject": "any", "to": "graveyard"}, "effect": [{"do": "damage", "source": "HM", "player": "P2", "amount": 3}]}}],
    text="On entering: its controller may sacrifice another creature; if so, a reflexive ability follows.", optional=True)])
fixture("mtg-603-12-manticore-sacrifices",
 "603.12 example (Heart-Piercer Manticore): it enters; its controller chooses to sacrifice C2 as the ability resolves, so the reflexive 'when you do' ability triggers, once, and goes on the stack after that resolution; C3 sacrificed earlier for another reason does not make it trigger.",
 "CR 603.12, Example", ["mtg.reflexive", "mtg.optional-on-resolution", "mtg.stack-at-priority"],
 scen(["P1", "P2"], "P1",
  [MANTICORE(), obj("C2", "P1"), obj("C3", "P1")],
  [("main", [("P1", [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "HM", "from": "hand", "to": "field"}])])]))
fixture("mtg-603-12-manticore-declines",
 "603.12 example (Heart-Piercer Manticore): it enters and its ability goes on the stack (603.5); its controller declines to sacrifice as it resolves, so no creature is sacrificed and the reflexive ability is never created.",
 "CR 603.12, Example", ["mtg.reflexive", "mtg.optional-on-resolution"],
 scen(["P1", "P2"], "P1",
  [MANTICORE(), obj("C2", "P1")],
  [("main", [("P1", [{"do": "move", "object": "HM", "from": "hand", "to": "field"}])])], choices={"optional": {"A1": False}}))

fixture("mtg-704-4-maro",
 "704.4 example (Maro): Maro's toughness is the number of cards in its controller's hand; a spell discards the hand, then draws two. Maro has toughness 0 only during the resolution, and state-based actions are not checked then, so Maro survives. A 'no cards in hand' state trigger does trigger during the resolution, and goes on the stack after it.",
 "CR 704.4, Example", ["mtg.sba-between-resolutions", "mtg.sba-loop", "mtg.state-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("MARO", "P1", dies_when={"test": "zone_empty", "player": "P1", "zone": "hand"}),
   obj("S1", "P1", abilities=[ab("A1", {"event": "state", "state": {"test": "zone_empty", "player": "P1", "zone": "hand"}}, [{"do": "signal", "name": "noticed"}], text="State trigger: with an empty hand, ...")]),
   obj("H1", "P1", "hand"), obj("H2", "P1", "hand"), obj("L1", "P1", "deck"), obj("L2", "P1", "deck")],
  [("main", [("P1", [{"do": "move_together", "objects": ["H1", "H2"], "from": "hand", "to": "graveyard"},
                     {"do": "move_together", "objects": ["L1", "L2"], "from": "deck", "to": "hand"}])])]))

fixture("mtg-608-2b-target-gone",
 "608.2b example (Sorin's Thirst), for a triggered ability: 'deal 2 damage to target creature and you gain 2 life' targets C2; C2 leaves the battlefield before it resolves, so its only target is illegal: it is removed and does nothing, and no life is gained.",
 "CR 608.2b, Example 1 (applied to a triggered ability)", ["mtg.no-legal-target", "mtg.stack-lifo"],
 scen(["P1", "P2"], "P1",
  [obj("O1", "P1", abilities=[ab("A1", {"event": "signal", "name": "s1"}, [{"do": "damage", "object": "C2", "amount": 2}, {"do": "life", "player": "P1", "amount": 2}], text="On s1: 2 damage to the targeted creature, then 2 life for its controller.", target={"candidates": ["C2"]})]),
   obj("C2", "P2", abilities=[ab("A2", {"event": "signal", "name": "s1"}, [{"do": "move", "object": "C2", "from": "field", "to": "exile"}], text="Whenever s1 happens, exile this.")])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}])])]))

WATCH = lambda edition: scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("A1", {"event": "ability_triggered", "subject": "C2"}, text="When an ability of C2 triggers, ...")]),
   obj("C2", "P2", abilities=[ab("A2", {"event": "signal", "name": "s1"}, text="On s1: ...")])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}])])], edition=edition)
fixture("mtg-603-3b-two-pass",
 "603.3b (2026 text): P2's ability triggers on s1, and the active player P1's ability triggers on that ability triggering. In the two-part process P2's ability goes on the stack in the first pass and P1's in the second, so P1's resolves first.",
 "CR 603.3b (not an Example paragraph; the 2021-04-19 change)", ["mtg.trigger-on-trigger-last", "mtg.apnap-order"], WATCH("2026-02-27"))
fixture("mtg-603-3b-single-pass-2021",
 "603.3b (2021-02-24 text): the same situation under the single-pass rule: the active player P1 puts their ability on the stack first, then P2, so P2's resolves first.",
 "CR 603.3b as of 2021-02-24", ["mtg.apnap-order", "mtg.stack-lifo"], WATCH("2021-02-24"))

# -- Reference engine fixes of issue 9 (item 5) and the 603.3b/704.3 batch: mtg-ref-* ---------------------------------

fixture("mtg-ref-603-3b-resolution-and-sba-batch-3p",
 "603.3b with 704.3 and 117.5, three players: the active player P1's ability deals lethal damage to P1's creature C; that damage triggers P2's ability S; state-based actions then put C into the graveyard and C's dies-ability D (P1's) triggers. S and D both triggered since a player last received priority, so they go on the stack in one batch in APNAP order: D (the active player's) first, then S, and S resolves first. An engine that puts S on alone, checks state-based actions again and puts D on top resolves D first.",
 "CR 603.3b, 704.3, 117.5 (issue 9)", ["mtg.apnap-order", "mtg.sba-loop", "mtg.stack-lifo"],
 scen(["P1", "P2", "P3"], "P1",
  [obj("X", "P1", abilities=[ab("A1", {"event": "signal", "name": "go"}, [{"do": "damage", "object": "C", "amount": 2}], text="Whenever go happens, this deals 2 damage to C.")]),
   obj("C", "P1", toughness=2, abilities=[ab("D", {"event": "leave", "subject": "self", "to": "graveyard"}, [{"do": "life", "player": "P1", "amount": 2}], text="When this creature dies, its controller gains 2 life.")]),
   obj("Y", "P2", abilities=[ab("S", {"event": "damage"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a source deals damage, its controller gains 1 life.")])],
  [("main", [("P1", [{"do": "signal", "name": "go"}])])]))

fixture("mtg-ref-603-4-delayed-intervening-if",
 "603.4 applies to delayed triggered abilities (603.7): an ability creates 'the next time s2 happens, if C2 is on the battlefield, its controller gains 3 life'. The first s2 happens while C2 is in its owner's hand: the condition is false, so the ability does not trigger, and (having not triggered) it keeps waiting. C2 is then put onto the battlefield; the next s2 makes it trigger, once.",
 "CR 603.4, 603.7b (issue 9)", ["mtg.intervening-if", "mtg.delayed-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("C1", "P1", abilities=[ab("A1", {"event": "signal", "name": "s1"}, [{"do": "create_delayed", "ability": {"id": "X1", "text": "Next time s2 happens, if C2 is on the battlefield, gain 3 life.", "trigger": {"event": "signal", "name": "s2"}, "intervening_if": {"test": "in_zone", "object": "C2", "zone": "field"}, "effect": [{"do": "life", "player": "P1", "amount": 3}]}}], text="Whenever s1 happens, create the delayed ability X1.")]),
   obj("C2", "P1", "hand")],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "signal", "name": "s2"}]),
             ("P1", [{"do": "move", "object": "C2", "from": "hand", "to": "field"}]), ("P1", [{"do": "signal", "name": "s2"}]),
             ("P1", [{"do": "signal", "name": "s2"}])])]))

fixture("mtg-ref-603-4-state-trigger-intervening-if",
 "603.4 applies to state triggers (603.8): 'whenever C1 is in a graveyard, if C2 is on the battlefield, exile C1'. C1 dies while C2 is still in hand: the state holds but the condition does not, so the ability does not trigger. When C2 enters, state and condition both hold: it triggers at once, and exiles C1. (An engine ignoring the condition would trigger on C1's death, remove the ability on resolution, and trigger it again forever.)",
 "CR 603.4, 603.8 (issue 9)", ["mtg.intervening-if", "mtg.state-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("A1", {"event": "state", "state": {"test": "in_zone", "object": "C1", "zone": "graveyard"}}, [{"do": "move", "object": "C1", "from": "graveyard", "to": "exile"}], text="Whenever C1 is in a graveyard, if C2 is on the battlefield, exile C1.", intervening_if={"test": "in_zone", "object": "C2", "zone": "field"})]),
   obj("C1", "P2"), obj("C2", "P1", "hand")],
  [("main", [("P1", [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "C2", "from": "hand", "to": "field"}])])]))

fixture("mtg-ref-603-10-leaves-intervening-if-looks-back",
 "603.10 with 603.4: 'whenever another creature dies, if C2 is on the battlefield, its controller gains 1 life'. A spell destroys C1 and C2 together. Leaves-the-battlefield abilities look back in time, their intervening 'if' too: just before the event C2 was on the battlefield, so the ability triggers once for C1 and once for C2 (judged on the game after the event, C2 being in the graveyard, it would not trigger at all). As each resolves, the condition is checked again, on the game as it is then: C2 is in the graveyard, so each is removed and does nothing (608.2a).",
 "CR 603.10, 603.10a, 603.4 (issue 9)", ["mtg.look-back", "mtg.intervening-if"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("A1", DIES_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature dies, if C2 is on the battlefield, gain 1 life.", intervening_if={"test": "in_zone", "object": "C2", "zone": "field"})]),
   obj("C1", "P1"), obj("C2", "P2")],
  [("main", [("P2", [{"do": "move_together", "objects": ["C1", "C2"], "from": "field", "to": "graveyard"}])])]))

fixture("mtg-option-603-10-leaves-intervening-if-after-event",
 "Option leaves_intervening_if=after-event (603.10a with 603.4): the intervening 'if' of a leaves-the-battlefield ability is read on the game just after its event, while whether it triggers still looks back. C1 and C2 die together. W1's 'whenever another creature dies, if C2 is on the battlefield, gain 1 life' does not trigger (C2 is in the graveyard just after; under the default look-back reading it triggers twice and is removed on resolution). W2's 'whenever another creature dies, if C2 is in a graveyard, gain 1 life' triggers twice, once per creature (under the default reading, never: just before, C2 was on the battlefield), and each resolves: P1 gains 2 life.",
 "CR 603.10a, 603.4 (option leaves_intervening_if)", ["mtg.look-back", "mtg.intervening-if"],
 scen(["P1", "P2"], "P1",
  [obj("W1", "P1", abilities=[ab("A1", DIES_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature dies, if C2 is on the battlefield, gain 1 life.", intervening_if={"test": "in_zone", "object": "C2", "zone": "field"})]),
   obj("W2", "P1", abilities=[ab("A2", DIES_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature dies, if C2 is in a graveyard, gain 1 life.", intervening_if={"test": "in_zone", "object": "C2", "zone": "graveyard"})]),
   obj("C1", "P1"), obj("C2", "P2")],
  [("main", [("P2", [{"do": "move_together", "objects": ["C1", "C2"], "from": "field", "to": "graveyard"}])])],
  options={"leaves_intervening_if": "after-event"}))

fixture("mtg-ref-603-10a-graveyard-leaving-looks-back",
 "603.10a: abilities that trigger when a card leaves a graveyard look back in time. G, a card in P1's graveyard, has 'whenever a card leaves a graveyard, if this card is in a graveyard, its owner gains 1 life'. An effect exiles G and two other cards from the graveyard at once: just before the event all three were in the graveyard, so the ability triggers three times, its condition holding then. On resolution G is in exile, so each is removed and does nothing (603.4, 608.2a).",
 "CR 603.10a (issue 9)", ["mtg.look-back", "mtg.intervening-if"],
 scen(["P1", "P2"], "P1",
  [obj("G", "P1", "graveyard", abilities=[ab("A1", {"event": "move", "from": "graveyard"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card leaves a graveyard, if this card is in a graveyard, gain 1 life.", active_in=["graveyard"], intervening_if={"test": "in_zone", "object": "self", "zone": "graveyard"})]),
   obj("K1", "P1", "graveyard"), obj("K2", "P2", "graveyard")],
  [("main", [("P1", [{"do": "move_together", "objects": ["G", "K1", "K2"], "from": "graveyard", "to": "exile"}])])]))

fixture("mtg-ref-603-3a-control-ends-off-the-battlefield",
 "Control does not outlive the battlefield (400.7, 108.4a, 110.2) and a triggered ability is controlled by whoever controlled its source when it triggered (603.3a). C and D are P1's; D starts under P2's control, and P2 gains control of C. Both die together: C's 'when this dies' ability looks back (603.10a) and is P2's, who controlled C just before. In P1's graveyard, their 'at the upkeep signal, while this is in your graveyard' abilities trigger under P1's control: the control effects ended as C and D left the battlefield, and a card off the battlefield is its owner's. C then returns to the battlefield under its owner's control: its 'when this enters' ability is P1's.",
 "CR 400.7, 108.4a, 110.2, 603.3a (issue 12)", ["mtg.trigger-controller", "mtg.look-back"],
 scen(["P1", "P2"], "P1",
  [obj("C", "P1", abilities=[
      ab("CD", {"event": "leave", "subject": "self", "to": "graveyard"}, text="When this dies, ..."),
      ab("CG", {"event": "signal", "name": "upkeep"}, [{"do": "life", "player": "P1", "amount": 1}], text="At the upkeep signal, you gain 1 life (works only while this is in a graveyard).", active_in=["graveyard"]),
      ab("CE", {"event": "enter", "subject": "self"}, text="When this enters, ...")]),
   obj("D", "P1", controller="P2", abilities=[
      ab("DG", {"event": "signal", "name": "upkeep"}, [{"do": "life", "player": "P1", "amount": 1}], text="At the upkeep signal, you gain 1 life (works only while this is in a graveyard).", active_in=["graveyard"])])],
  [("main", [("P2", [{"do": "gain_control", "object": "C", "player": "P2"}]),
             ("P1", [{"do": "move_together", "objects": ["C", "D"], "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "signal", "name": "upkeep"}]),
             ("P1", [{"do": "move", "object": "C", "from": "graveyard", "to": "field"}])])]))

fixture("mtg-ref-603-10a-put-into-hand-looks-back",
 "603.10a: abilities that trigger when an object every player can see is put into a hand look back in time. R, a card in exile, has 'whenever a card is put into a hand, its owner gains 1 life' (it works from exile). An effect returns R and another exiled card to their owners' hands at once: just before the event R was in exile, so its ability triggers twice, once for each card.",
 "CR 603.10a (issue 9)", ["mtg.look-back"],
 scen(["P1", "P2"], "P1",
  [obj("R", "P1", "exile", abilities=[ab("A1", {"event": "move", "to": "hand"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card is put into a hand, gain 1 life (works in exile).", active_in=["exile"])]),
   obj("K1", "P2", "exile")],
  [("main", [("P1", [{"do": "move_together", "objects": ["R", "K1"], "from": "exile", "to": "hand"}])])]))

fixture("mtg-ref-800-4a-leaves-at-once",
 "800.4a: P2 leaves the game while two of their triggered abilities wait to go on the stack and a state trigger instance of theirs (from M, a permanent P1 owns and P2 controls) is on the stack. All of P2's abilities cease to exist together with P2's objects, and control of M returns to P1; only then is M's state trigger checked again (603.8): it triggers once, for P1, and is not re-triggered by each removal.",
 "CR 800.4a, 603.8 (issue 9)", ["mtg.player-leaves", "mtg.state-trigger", "mtg.trigger-controller"],
 scen(["P1", "P2", "P3"], "P1",
  [obj("M", "P1", controller="P2", abilities=[ab("A1", {"event": "state", "state": {"test": "life_at_most", "player": "P3", "value": 19}}, [{"do": "life", "player": "P3", "amount": 1}], text="State trigger: while P3 has 19 or less life, P3 gains 1 life.")]),
   obj("Q", "P2", abilities=[ab("A2", {"event": "signal", "name": "s1"}, [{"do": "signal", "name": "s2"}], text="Whenever s1 happens, s2."),
                              ab("A3", {"event": "signal", "name": "s1"}, [{"do": "signal", "name": "s2"}], text="Whenever s1 happens, s2 (again).")]),
   obj("K", "P3", abilities=[ab("A4", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P3", "amount": -1}, {"do": "concede", "player": "P2"}], text="Whenever s1 happens, P3 loses 1 life, then P2 leaves the game.")])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}])])], choices={"trigger_order": ["A4", "A2", "A3"]}))

fixture("mtg-ref-104-4b-state-trigger-without-target",
 "603.8 with 603.3d and 104.4b: 'whenever C1 is in a graveyard, exile target creature' where the only candidate, C2, is in a hand. C1 dies; the state trigger triggers, has no legal target as it is put on the stack and is removed; having left the stack, it would trigger again at once in the very same game, and again forever: a loop of mandatory actions, so the game is a draw (game_over). The reference engine ends the game rather than looping until a guard trips.",
 "CR 603.8, 603.3d, 104.4b (issue 9)", ["mtg.no-legal-target", "mtg.state-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("A1", {"event": "state", "state": {"test": "in_zone", "object": "C1", "zone": "graveyard"}}, [{"do": "move_target", "to": "exile"}], text="Whenever C1 is in a graveyard, exile target creature (C2).", target={"candidates": ["C2"]})]),
   obj("C1", "P1"), obj("C2", "P2", "hand")],
  [("main", [("P1", [{"do": "move", "object": "C1", "from": "field", "to": "graveyard"}]), ("P1", [{"do": "signal", "name": "after"}])])]))

# -- The wider vocabulary of issue 12, item 1: mtg-vocab-* ----------------------------------------------------------

fixture("mtg-vocab-115-1-target-player-leaves",
 "115.1 with 603.3d, 608.2b and 800.4a: abilities may target players. Three abilities of S trigger on s1: A1 'deal 2 damage to target player' (P2 or P3; P1 prefers P3), A2 'target player loses 3 life' (P3, at 2 life) and A3 'target player gains 2 life' (P2). Every target is legal as they go on the stack. A2 resolves first: P3 is at -1 life and leaves the game (704.5a). A3 resolves, P2 gaining 2 life. A1's target, P3, is no longer in the game: A1 is removed on resolution and does nothing.",
 "CR 115.1, 603.3d, 608.2b, 800.4a (issue 12)", ["mtg.no-legal-target", "mtg.resolution-effect", "mtg.player-leaves"],
 scen(["P1", "P2", "P3"], "P1",
  [obj("S", "P1", abilities=[
      ab("A1", {"event": "signal", "name": "s1"}, [{"do": "damage", "amount": 2, "target": True}], text="Whenever s1 happens, this deals 2 damage to target player (P2 or P3).", target={"players": ["P2", "P3"]}),
      ab("A2", {"event": "signal", "name": "s1"}, [{"do": "life", "amount": -3, "target": True}], text="Whenever s1 happens, target player (P3) loses 3 life.", target={"players": ["P3"]}),
      ab("A3", {"event": "signal", "name": "s1"}, [{"do": "life", "amount": 2, "target": True}], text="Whenever s1 happens, target player (P2) gains 2 life.", target={"players": ["P2"]})]),
   obj("K", "P3")],
  [("main", [("P1", [{"do": "signal", "name": "s1"}])])],
  choices={"trigger_order": ["A2", "A3", "A1"], "targets": {"A1": ["P3"]}}, life={"P3": 2}))

fixture("mtg-vocab-filters-you-opponent-type-token",
 "Trigger filters relative to a player and to card characteristics (603.2, 603.3a, 603.10a). P1 is active; W, P2's, has: A1 'Whenever a creature an opponent controls enters', A2 'Whenever another nontoken creature you control dies', A3 'Whenever you gain life', A4 'Whenever a source you control deals damage'. P1's creature C1 enters (A1 triggers: P1 is P2's opponent) and P1's artifact T1 enters (not a creature: nothing). P2's creature C2, P2's creature token K2 and P1's creature C3 die together: A2 triggers once, for C2 (K2 is a token, C3 is not P2's). P2 gains 2 life (A3 triggers), loses 1 (nothing); P1 gains 3 (nothing: not you). D2, P2's, deals 1 damage to P1 (A4 triggers); D1, P1's, deals 1 damage to P2 (nothing).",
 "CR 603.2, 603.3a, 603.10a, 205.2a, 111.1 (issue 12)", ["mtg.triggers-when-satisfied", "mtg.look-back"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P2", abilities=[
      ab("A1", {"event": "enter", "type": "creature", "controller": "opponent"}, text="Whenever a creature an opponent controls enters, ..."),
      ab("A2", {"event": "leave", "to": "graveyard", "subject": "other", "type": "creature", "controller": "you", "nontoken": True}, text="Whenever another nontoken creature you control dies, ..."),
      ab("A3", {"event": "life", "player": "you", "change": "gain"}, text="Whenever you gain life, ..."),
      ab("A4", {"event": "damage", "controller": "you"}, text="Whenever a source you control deals damage, ...")]),
   obj("C1", "P1", "hand", types=["creature"]), obj("T1", "P1", "hand", types=["artifact"]),
   obj("C2", "P2", types=["creature"]), obj("K2", "P2", types=["creature"], token=True), obj("C3", "P1", types=["creature"]),
   obj("D1", "P1", types=["creature"], toughness=3), obj("D2", "P2", types=["creature"], toughness=3)],
  [("main", [("P1", [{"do": "move", "object": "C1", "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move", "object": "T1", "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move_together", "objects": ["C2", "K2", "C3"], "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "life", "player": "P2", "amount": 2}]),
             ("P1", [{"do": "life", "player": "P2", "amount": -1}]),
             ("P1", [{"do": "life", "player": "P1", "amount": 3}]),
             ("P1", [{"do": "damage", "source": "D2", "player": "P1", "amount": 1}]),
             ("P1", [{"do": "damage", "source": "D1", "player": "P2", "amount": 1}])])]))

fixture("mtg-vocab-603-10a-zone-changes-anywhere",
 "Zone changes between any two zones (603.6, 603.10a). One event moves four objects to different zones: G1 (P1's graveyard) to exile, G2 (P1's graveyard) to P1's hand, Y (P1's permanent) to its owner's library, Z (P2's permanent) to exile. G1's A1 'whenever a card leaves your graveyard' (working from the graveyard) looks back and triggers twice, for G1 itself and for G2. X's A2 'whenever a card or permanent is put into exile from anywhere' triggers twice (G1, Z) and its A3 'whenever a card is put into a hand from anywhere' once (G2). Y's A4 'when this is put into a library from the battlefield' triggers, looking back. Then R is returned from P1's graveyard to the battlefield: its own A5 'when this card leaves your graveyard' (working from the graveyard) looks back and triggers; E's A6 'whenever a permanent enters' looks forward and triggers; A1 does not (G1 is in exile now).",
 "CR 603.6, 603.10a (issue 12)", ["mtg.look-back", "mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("G1", "P1", "graveyard", abilities=[ab("A1", {"event": "zone_change", "from": "graveyard", "controller": "you"}, text="Whenever a card leaves your graveyard, ...", active_in=["graveyard"])]),
   obj("G2", "P1", "graveyard"),
   obj("X", "P2", abilities=[
       ab("A2", {"event": "zone_change", "to": "exile"}, text="Whenever a card or permanent is put into exile from anywhere, ..."),
       ab("A3", {"event": "zone_change", "to": "hand"}, text="Whenever a card is put into a hand from anywhere, ...")]),
   obj("Y", "P1", abilities=[ab("A4", {"event": "zone_change", "subject": "self", "from": "field", "to": "deck"}, text="When this is put into a library from the battlefield, ...")]),
   obj("Z", "P2"),
   obj("R", "P1", "graveyard", abilities=[ab("A5", {"event": "zone_change", "subject": "self", "from": "graveyard"}, text="When this card leaves your graveyard, ...", active_in=["graveyard"])]),
   obj("E", "P2", abilities=[ab("A6", {"event": "enter"}, text="Whenever a permanent enters, ...")])],
  [("main", [("P1", [{"do": "move_each", "moves": [{"object": "G1", "from": "graveyard", "to": "exile"},
                                                    {"object": "G2", "from": "graveyard", "to": "hand"},
                                                    {"object": "Y", "from": "field", "to": "deck"},
                                                    {"object": "Z", "from": "field", "to": "exile"}]}]),
             ("P1", [{"do": "move", "object": "R", "from": "graveyard", "to": "field"}])])]))

# -- Issue 12, item 1f: how many times an ability triggers ------------------------------------------------------------

ENTERS = {"event": "enter"}

fixture("mtg-vocab-603-2c-one-or-more-enter",
 "603.2c: an ability triggers once each time its trigger event occurs, and once per occurrence of one event. P1's W has B 'Whenever one or more creatures enter the battlefield, you gain 1 life' and E 'Whenever a creature enters the battlefield, you gain 1 life'. Three cards are put onto the battlefield from P1's hand at once (one event, three occurrences): B triggers once, E three times. Then a fourth card enters alone: B and E trigger once each.",
 "CR 603.2c (issue 12)", ["mtg.triggers-when-satisfied", "mtg.apnap-order"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[
      ab("B", dict(ENTERS, batch=True), [{"do": "life", "player": "P1", "amount": 1}], text="Whenever one or more creatures enter the battlefield, you gain 1 life."),
      ab("E", ENTERS, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a creature enters the battlefield, you gain 1 life.")]),
   obj("H1", "P1", "hand"), obj("H2", "P1", "hand"), obj("H3", "P1", "hand"), obj("H4", "P1", "hand")],
  [("main", [("P1", [{"do": "move_together", "objects": ["H1", "H2", "H3"], "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move", "object": "H4", "from": "hand", "to": "field"}])])],
  choices={"trigger_order": ["B", "E"]}))

fixture("mtg-vocab-603-2d-additional-times",
 "603.2d: P1's permanent M says 'If a creature entering the battlefield causes a triggered ability of a permanent you control to trigger, that ability triggers an additional time.' A card enters: P1's W (A1 'whenever a creature enters, you gain 1 life') triggers twice; P2's V (A2, the same ability) once, M being P1's; the delayed ability D that P1's W created earlier ('the next time a creature enters, you gain 1 life') once, 603.2d not applying to delayed abilities. Then M leaves the battlefield and another card enters: A1 triggers once.",
 "CR 603.2d (issue 12)", ["mtg.triggers-when-satisfied", "mtg.delayed-trigger"],
 scen(["P1", "P2"], "P1",
  [obj("M", "P1", additional_triggers={"times": 1, "event": "enter"}),
   obj("W", "P1", abilities=[
      ab("A1", ENTERS, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a creature enters the battlefield, you gain 1 life."),
      ab("C", {"event": "signal", "name": "s1"}, [{"do": "create_delayed", "ability": ab("D", ENTERS, [{"do": "life", "player": "P1", "amount": 1}], text="The next time a creature enters the battlefield, you gain 1 life.")}], text="Whenever s1 happens, create D.")]),
   obj("V", "P2", abilities=[ab("A2", ENTERS, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature enters the battlefield, you gain 1 life.")]),
   obj("H1", "P1", "hand"), obj("H2", "P2", "hand")],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]),
             ("P1", [{"do": "move", "object": "H1", "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move", "object": "M", "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "H2", "from": "hand", "to": "field"}])])],
  choices={"trigger_order": ["A1", "D"]}))

fixture("mtg-vocab-603-2h-once-each-turn",
 "603.2h: W has O 'Whenever s1 happens, you gain 1 life. Do this only once each turn.' and Q 'Whenever s1 happens, you may gain 2 life. Do this only once each turn.', which P1 always declines. s1 happens three times: O triggers only the first time (P1 has taken the action after it resolves); Q triggers every time, P1 never taking its action.",
 "CR 603.2h (issue 12)", ["mtg.triggers-when-satisfied", "mtg.optional-on-resolution"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[
      ab("O", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever s1 happens, you gain 1 life. Do this only once each turn.", once_each_turn=True),
      ab("Q", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P1", "amount": 2}], text="Whenever s1 happens, you may gain 2 life. Do this only once each turn.", optional=True, once_each_turn=True)])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "signal", "name": "s1"}]),
             ("P1", [{"do": "signal", "name": "s1"}])])],
  choices={"trigger_order": ["O", "Q"], "optional": {"Q": False}}))

def once_each_turn_readings(options):
    return scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[
      ab("O", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever s1 happens, you gain 1 life. Do this only once each turn.", once_each_turn=True),
      ab("Q", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P1", "amount": 2}], text="Whenever s1 happens, you may gain 2 life. Do this only once each turn.", optional=True, once_each_turn=True),
      ab("N", {"event": "signal", "name": "s1"}, [{"do": "move", "object": "X", "from": "field", "to": "exile"}], text="Whenever s1 happens, exile X from the battlefield. Do this only once each turn.", once_each_turn=True)]),
   obj("X", "P2", "graveyard")],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]), ("P1", [{"do": "signal", "name": "s1"}]),
             ("P1", [{"do": "signal", "name": "s1"}])])],
  choices={"trigger_order": ["O", "Q", "N"], "optional": {"Q": False}}, options=options)

fixture("mtg-option-603-2h-once-each-turn-on-resolution",
 "Option once_each_turn_taken=on-resolution (603.2h): a 'do this only once each turn' action counts as taken as an instance begins resolving, even if its controller declines it. W has O (gain 1 life), Q (may gain 2 life, always declined) and N (exile X from the battlefield: X is in a graveyard, so it does nothing), each once each turn; s1 happens three times. Each triggers only the first time. Under the default unless-declined reading Q triggers all three times (never taken), O and N once.",
 "CR 603.2h (option once_each_turn_taken)", ["mtg.triggers-when-satisfied", "mtg.optional-on-resolution"],
 once_each_turn_readings({"once_each_turn_taken": "on-resolution"}))

fixture("mtg-option-603-2h-once-each-turn-when-performed",
 "Option once_each_turn_taken=when-performed (603.2h): a 'do this only once each turn' action counts as taken only when the instance's effect does something. The same W and three s1 as the on-resolution fixture: O triggers once (its first instance gains life), while Q (declined) and N (its exile finds nothing to move) trigger all three times. Under the default unless-declined reading N triggers only once.",
 "CR 603.2h (option once_each_turn_taken)", ["mtg.triggers-when-satisfied", "mtg.optional-on-resolution"],
 once_each_turn_readings({"once_each_turn_taken": "when-performed"}))

def off_battlefield_controller(options):
    leaves_graveyard = {"event": "move", "from": "graveyard", "controller": "you"}
    return scen(["P1", "P2"], "P1",
  [obj("C", "P1", controller="P2"),
   obj("V", "P1", abilities=[ab("A1", leaves_graveyard, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card you control leaves a graveyard, you gain 1 life.")]),
   obj("W", "P2", abilities=[ab("A2", leaves_graveyard, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a card you control leaves a graveyard, you gain 1 life.")])],
  [("main", [("P1", [{"do": "move", "object": "C", "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "C", "from": "graveyard", "to": "exile"}])])],
  options=options)

fixture("mtg-option-108-4a-controller-off-battlefield-last-known",
 "Option controller_off_battlefield=last-known (108.4a, 113.7a): a 'you control' filter reads, for an object off the battlefield, the controller it had as it last left the battlefield. C, owned by P1 and controlled by P2, dies, then is exiled from P1's graveyard (a card leaving a graveyard: judged just before, 603.10a, C being in the graveyard). P1's V and P2's W both have 'whenever a card you control leaves a graveyard, you gain 1 life': W triggers (P2 controlled C last), V does not. Under the default owner reading V triggers instead; under none, neither.",
 "CR 108.4a, 603.10a (option controller_off_battlefield)", ["mtg.look-back", "mtg.resolution-effect"],
 off_battlefield_controller({"controller_off_battlefield": "last-known"}))

fixture("mtg-option-108-4a-controller-off-battlefield-none",
 "Option controller_off_battlefield=none: no one controls an object off the battlefield, so a 'you control' filter never matches it. The same C, V and W as the last-known fixture: C leaving P1's graveyard triggers neither V's nor W's ability. Under the default owner reading V's triggers (P1 owns C).",
 "CR 108.4a, 603.10a (option controller_off_battlefield)", ["mtg.look-back"],
 off_battlefield_controller({"controller_off_battlefield": "none"}))

fixture("mtg-vocab-603-2-ability-resolves",
 "603.2: a triggered ability resolving is an event. P2's R has W 'Whenever an ability of X resolves, you gain 1 life'. X's ability A ('whenever s1 happens, if X is on the battlefield, ...') triggers twice: once on s1 while X is there (it resolves, and W triggers), and once more on a later s1 during whose resolution of a third ability X is destroyed first, so A is removed on resolution by its intervening 'if' (603.4): it does not resolve, and W does not trigger. W's own resolution triggers nothing.",
 "CR 603.2, 603.4 (issue 12)", ["mtg.triggers-when-satisfied", "mtg.intervening-if"],
 scen(["P1", "P2"], "P1",
  [obj("X", "P1", abilities=[ab("A", {"event": "signal", "name": "s1"}, [{"do": "life", "player": "P1", "amount": -1}], text="Whenever s1 happens, if X is on the battlefield, you lose 1 life.", intervening_if={"test": "in_zone", "object": "self", "zone": "field"})]),
   obj("K", "P1", abilities=[ab("KA", {"event": "signal", "name": "s2"}, [{"do": "move", "object": "X", "from": "field", "to": "graveyard"}], text="Whenever s2 happens, destroy X.")]),
   obj("R", "P2", abilities=[ab("W", {"event": "resolved", "subject": "X"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever an ability of X resolves, you gain 1 life.")])],
  [("main", [("P1", [{"do": "signal", "name": "s1"}]),
             ("P1", [{"do": "signal", "name": "s1"}, {"do": "signal", "name": "s2"}])])],
  choices={"trigger_order": ["KA", "A"]}))

fixture("mtg-vocab-603-7b-durations-across-turns",
 "Scripts spanning turns (500.1) and delayed abilities with durations (603.7b). Turn 1 is P1's, turn 2 P2's, turn 3 P1's again. In turn 1, S's A1 (P1's) creates three delayed abilities watching the signal x: D1 'this turn', D2 'during your next turn' and D3 'until your next turn'. x in turn 1 triggers D1 and D3 (D2 not yet), with Q's B (P2's): P1's go on the stack first. x in turn 2 triggers D2 and D3 (D1 has ended with turn 1), with B: P2 is active now, so B goes on the stack first (101.4). x in turn 3 triggers only B: D2 ended with turn 2, D3 as P1's next turn began.",
 "CR 500.1, 101.4, 603.7b (issue 12)", ["mtg.delayed-trigger", "mtg.apnap-order"],
 scen(["P1", "P2"], "P1",
  [obj("S", "P1", abilities=[ab("A1", {"event": "signal", "name": "go"}, [
      {"do": "create_delayed", "duration": "turn", "ability": ab("D1", {"event": "signal", "name": "x"}, text="This turn, whenever x, ...")},
      {"do": "create_delayed", "duration": "next_turn", "ability": ab("D2", {"event": "signal", "name": "x"}, text="During your next turn, whenever x, ...")},
      {"do": "create_delayed", "duration": "until_your_next_turn", "ability": ab("D3", {"event": "signal", "name": "x"}, text="Until your next turn, whenever x, ...")}],
      text="Whenever go happens, create D1, D2 and D3.")]),
   obj("Q", "P2", abilities=[ab("B", {"event": "signal", "name": "x"}, text="Whenever x happens, ...")])],
  [("main", [("P1", [{"do": "signal", "name": "go"}]), ("P1", [{"do": "signal", "name": "x"}])]),
   ("main", [("P2", [{"do": "signal", "name": "x"}])]),
   ("upkeep", [("P1", [{"do": "signal", "name": "x"}])])]))
F[-1][4]["script"][1]["turn"] = 2
F[-1][4]["script"][2]["turn"] = 3

# -- Issue 12, item 1g: spells as objects on the stack --------------------------------------------------------------

fixture("mtg-vocab-608-2b-spells-on-the-stack",
 "405.1, 405.5 and 608.2b: spells are objects on the stack. P1 casts S1 ('destroy target creature X'): W's CW ('whenever a player casts a spell, destroy X') triggers, goes on the stack above S1 and resolves first: X is gone, so S1 does not resolve and goes to P1's graveyard. P1 casts S2 ('you gain 3 life'): V's K ('whenever S2 is cast, counter it') counters it, S2 goes to the graveyard without resolving, and V's CV ('whenever a spell is countered, you gain 1 life') triggers; CW's instance does nothing more. P1 casts S3, a permanent spell ('signal z'): after CW's instance, it resolves and enters the battlefield.",
 "CR 405.1, 405.5, 608.2b (issue 12)", ["mtg.spell-resolution", "mtg.triggers-when-satisfied", "mtg.stack-lifo"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("CW", {"event": "cast"}, [{"do": "move", "object": "X", "from": "field", "to": "graveyard"}], text="Whenever a player casts a spell, destroy X.")]),
   obj("V", "P2", abilities=[
      ab("CV", {"event": "countered"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a spell is countered, you gain 1 life."),
      ab("K", {"event": "cast", "subject": "S2"}, [{"do": "counter", "object": "S2"}], text="Whenever S2 is cast, counter it.")]),
   obj("X", "P2"),
   obj("S1", "P1", "hand", spell={"effect": [{"do": "move_target", "to": "graveyard"}], "target": {"candidates": ["X"]}}),
   obj("S2", "P1", "hand", spell={"effect": [{"do": "life", "player": "P1", "amount": 3}]}),
   obj("S3", "P1", "hand", spell={"effect": [{"do": "signal", "name": "z"}], "permanent": True})],
  [("main", [("P1", [{"do": "cast", "object": "S1"}]), ("P1", [{"do": "cast", "object": "S2"}]),
             ("P1", [{"do": "cast", "object": "S3"}])])]))

# -- Issue 22, item 1: new words --------------------------------------------------------------------------------------

DIES = {"event": "leave", "to": "graveyard"}
INTO_GRAVEYARD = {"event": "zone_change", "to": "graveyard"}

fixture("mtg-vocab-108-3-ownership-filters",
 "Ownership filters (108.3, 400.3): C, owned by P1, is given to P2, then dies. P1's W has O1 'Whenever a creature you own dies, you gain 1 life' and G1 'Whenever a card is put into an opponent's graveyard from anywhere, you gain 1 life'; P2's V has O2 'Whenever a creature you own dies', Y2 'Whenever a creature you control dies' and G2 'Whenever a card is put into an opponent's graveyard from anywhere', each 'you gain 1 life'. C's death triggers O1 (P1 owns C, though P2 controlled it as it died), Y2 (P2 controlled it, 603.10a) and G2 (P2's opponent owns it), not O2 nor G1. Then P2's card H is put into P2's graveyard from P2's hand: G1 triggers, and nothing else.",
 "CR 108.3, 400.3, 603.10a (issue 22)", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[
      ab("O1", dict(DIES, owner="you"), [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a creature you own dies, you gain 1 life."),
      ab("G1", dict(INTO_GRAVEYARD, owner="opponent"), [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card is put into an opponent's graveyard from anywhere, you gain 1 life.")]),
   obj("V", "P2", abilities=[
      ab("O2", dict(DIES, owner="you"), [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature you own dies, you gain 1 life."),
      ab("Y2", dict(DIES, controller="you"), [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature you control dies, you gain 1 life."),
      ab("G2", dict(INTO_GRAVEYARD, owner="opponent"), [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a card is put into an opponent's graveyard from anywhere, you gain 1 life.")]),
   obj("C", "P1"), obj("H", "P2", "hand")],
  [("main", [("P1", [{"do": "gain_control", "object": "C", "player": "P2"}]),
             ("P1", [{"do": "move", "object": "C", "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "H", "from": "hand", "to": "graveyard"}])])],
  choices={"trigger_order": ["O1", "G1", "Y2", "G2", "O2"]}))

fixture("mtg-vocab-608-2-that-many",
 "Amounts taken from the trigger event ('that much', 608.2): W deals 3 damage to P2. P1's W has A1 'Whenever W deals damage, you gain that much life' and P2's X has A3 'Whenever W deals damage, you lose that much life' (printed amounts 1, never used); P2's V has A2 'Whenever a player gains or loses life, V deals that much damage to P1'. A1 gains P1 3 life and A3 loses P2 3 life, each triggering A2, which deals 3 damage each time. Then a scripted 'deals that much damage' has no trigger event to take an amount from: nothing is dealt.",
 "CR 608.2, 120.8 (issue 22)", ["mtg.resolution-effect", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("A1", {"event": "damage", "subject": "self"}, [{"do": "life", "player": "P1", "amount": 1, "that_many": True}], text="Whenever W deals damage, you gain that much life.")]),
   obj("X", "P2", abilities=[ab("A3", {"event": "damage", "subject": "W"}, [{"do": "life", "player": "P2", "amount": -1, "that_many": True}], text="Whenever W deals damage, you lose that much life.")]),
   obj("V", "P2", abilities=[ab("A2", {"event": "life"}, [{"do": "damage", "player": "P1", "amount": 1, "that_many": True}], text="Whenever a player gains or loses life, V deals that much damage to P1.")])],
  [("main", [("P1", [{"do": "damage", "source": "W", "player": "P2", "amount": 3}]),
             ("P1", [{"do": "damage", "source": "W", "player": "P2", "amount": 1, "that_many": True}])])],
  choices={"trigger_order": ["A1", "A3", "A2"]}))

ENTERS_OTHER = {"event": "enter", "subject": "other"}

fixture("mtg-vocab-400-7-triggers-once-each-turn",
 "'This ability triggers only once each turn' counts per object (400.7) and is not 603.2h's 'do this only once each turn'. P1's W has O 'Whenever another creature enters, you gain 1 life. This ability triggers only once each turn.' and D 'Whenever another creature enters, you gain 2 life. Do this only once each turn.' A and B enter together: O triggers once, D twice (P1 has not yet taken D's action when both trigger, 603.2h). W is exiled and returns: a new object (400.7), whose O may trigger again. C then enters: O triggers, D does not (P1 took its action this turn). Then E enters: nothing triggers.",
 "CR 400.7, 603.2h (issue 22)", ["mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[
      ab("O", ENTERS_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature enters, you gain 1 life. This ability triggers only once each turn.", triggers_once_each_turn=True),
      ab("D", ENTERS_OTHER, [{"do": "life", "player": "P1", "amount": 2}], text="Whenever another creature enters, you gain 2 life. Do this only once each turn.", once_each_turn=True)]),
   obj("A", "P1", "hand"), obj("B", "P1", "hand"), obj("C", "P1", "hand"), obj("E", "P1", "hand")],
  [("main", [("P1", [{"do": "move_together", "objects": ["A", "B"], "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move", "object": "W", "from": "field", "to": "exile"}]),
             ("P1", [{"do": "move", "object": "W", "from": "exile", "to": "field"}]),
             ("P1", [{"do": "move", "object": "C", "from": "hand", "to": "field"}]),
             ("P1", [{"do": "move", "object": "E", "from": "hand", "to": "field"}])])],
  choices={"trigger_order": ["O", "D"]}))

# -- Issue 31: more words -------------------------------------------------------------------------------------------

fixture("mtg-vocab-603-7d-spell-creates-delayed",
 "603.7a and 603.7d: a resolving spell creates the delayed triggered abilities its effect says; their source is that spell and their controller the player who controlled it as it resolved (Forge PR 1290 fixed the same for a delayed ability's controller). P1 is the active player. C3 dies first: nothing waits for it yet. P2 casts S: 'Whenever a creature dies this turn, you gain 1 life. When C1 dies, you gain 2 life.' S resolves and goes to the graveyard, creating both. P1 destroys C1 and C2 together: the first triggers twice, the second once, all three controlled by P2 with source S, though S is in a graveyard and P1 is the active player. In the next turn, C4 dies: the first has ended with the turn, the second after triggering.",
 "CR 603.7a, 603.7b, 603.7d (issue 31; Forge PR 1290)", ["mtg.delayed-trigger", "mtg.delayed-controller"],
 scen(["P1", "P2"], "P1",
  [obj("C1", "P1"), obj("C2", "P1"), obj("C3", "P2"), obj("C4", "P2"),
   obj("S", "P2", "hand", spell={"effect": [
       {"do": "create_delayed", "duration": "turn", "ability": ab("DS", DIES_ANY, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature dies this turn, you gain 1 life.")},
       {"do": "create_delayed", "ability": ab("DN", {"event": "leave", "subject": "C1", "to": "graveyard"}, [{"do": "life", "player": "P2", "amount": 2}], text="When C1 dies, you gain 2 life.")}]})],
  [("main", [("P1", [{"do": "move", "object": "C3", "from": "field", "to": "graveyard"}]),
             ("P2", [{"do": "cast", "object": "S"}]),
             ("P1", [{"do": "move_together", "objects": ["C1", "C2"], "from": "field", "to": "graveyard"}])]),
   ("main", [("P2", [{"do": "move", "object": "C4", "from": "field", "to": "graveyard"}])])],
  choices={"trigger_order": ["DN", "DS"]}))
F[-1][4]["script"][1]["turn"] = 2

DEALT_SELF = {"event": "dealt_damage", "subject": "self"}
fixture("mtg-vocab-120-3-dealt-damage",
 "The object dealt damage, as a trigger and as a filter (phase.rs issue 1342, Stuffy Doll: 'Whenever this creature is dealt damage, it deals that much damage to the chosen player'). P1's SD is Stuffy Doll (P2 chosen; indestructible, here toughness 5). P1's K has 'Whenever this creature deals damage, you gain 1 life'. P2's V has 'Whenever a creature you control is dealt damage, you gain 1 life'. K deals 2 damage to SD: SD's ability triggers (SD is dealt damage) and K's (K deals it); V's does not (SD is P1's). SD's ability resolves: SD deals 2 damage to P2, a player, so neither SD's ability (SD deals, is not dealt, damage) nor V's triggers. Then K deals 1 damage to P2's Y: V's triggers (a creature P2 controls is dealt damage), K's too; SD's does not.",
 "CR 603.2, 120.3 (issue 31; phase.rs issue 1342)", ["mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("SD", "P1", types=["creature"], toughness=5, abilities=[ab("ASD", DEALT_SELF, [{"do": "damage", "source": "SD", "player": "P2", "amount": 1, "that_many": True}], text="Whenever this creature is dealt damage, it deals that much damage to the chosen player (P2).")]),
   obj("K", "P1", types=["creature"], abilities=[ab("AK", {"event": "damage", "subject": "self"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever this creature deals damage, you gain 1 life.")]),
   obj("V", "P2", types=["enchantment"], abilities=[ab("AV", {"event": "dealt_damage", "subject": "any", "controller": "you", "type": "creature"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature you control is dealt damage, you gain 1 life.")]),
   obj("Y", "P2", types=["creature"], toughness=3)],
  [("main", [("P1", [{"do": "damage", "source": "K", "object": "SD", "amount": 2}]),
             ("P1", [{"do": "damage", "source": "K", "object": "Y", "amount": 1}])])],
  choices={"trigger_order": ["ASD", "AK", "AV"]}))

fixture("mtg-vocab-603-2c-damage-occurrences",
 "603.2c: one damage event with several occurrences triggers an ability once per occurrence, a 'one or more' ability once per event. PY deals 1 damage to each creature at once (A and B, P1's; C, P2's): P1's W 'Whenever a creature you control is dealt damage, you gain 1 life' triggers twice (A, B), X 'Whenever one or more creatures you control are dealt damage, you gain 1 life' once, P2's Z (the same as W) once (C). Then, as combat damage, A deals 1 damage to P2 and B 1 damage to C at once: P1's V 'Whenever a creature you control deals damage, you gain 1 life' triggers twice, Z once (C).",
 "CR 603.2c (issue 31)", ["mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("A", "P1", types=["creature"], toughness=5), obj("B", "P1", types=["creature"], toughness=5),
   obj("C", "P2", types=["creature"], toughness=5), obj("PY", "P2", types=["enchantment"]),
   obj("W", "P1", types=["enchantment"], abilities=[
       ab("AW", {"event": "dealt_damage", "controller": "you", "type": "creature"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a creature you control is dealt damage, you gain 1 life."),
       ab("AX", {"event": "dealt_damage", "controller": "you", "type": "creature", "batch": True}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever one or more creatures you control are dealt damage, you gain 1 life."),
       ab("AV", {"event": "damage", "controller": "you", "type": "creature"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a creature you control deals damage, you gain 1 life.")]),
   obj("Z", "P2", types=["enchantment"], abilities=[
       ab("AZ", {"event": "dealt_damage", "controller": "you", "type": "creature"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a creature you control is dealt damage, you gain 1 life.")])],
  [("main", [("P2", [{"do": "damage_together", "hits": [{"source": "PY", "object": o, "amount": 1} for o in ("A", "B", "C")]}]),
             ("P1", [{"do": "damage_together", "hits": [{"source": "A", "player": "P2", "amount": 1}, {"source": "B", "object": "C", "amount": 1}]}])])],
  choices={"trigger_order": ["AW", "AX", "AV", "AZ"]}))

fixture("mtg-vocab-603-6a-token-enters",
 "Creating a token is the token entering the battlefield (603.6a; phase.rs issue 4238, fixed by PR 4631: Incubate created its token without the zone-change event, so no 'whenever a permanent enters' ability, Altar of the Brood's or Soul Warden's, triggered on it). P1's AB is Altar of the Brood ('Whenever another permanent you control enters, each opponent mills a card': here P2 loses 1 life). P2's SW is Soul Warden ('Whenever another creature enters, you gain 1 life'). P1 incubates: creates INC, an Incubator artifact token: AB triggers, SW does not (INC is no creature). P1 then creates two 1/1 white Soldier creature tokens, SOL and SOL2, at once (one event, two occurrences): AB and SW trigger twice each (603.2c). P1 creating INC again does nothing (it exists already); FSH, a token never created, has SW's ability and triggers on nothing.",
 "CR 603.6a, 603.2c (issue 31; phase.rs issue 4238, PR 4631)", ["mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("AB", "P1", types=["artifact"], abilities=[ab("AAB", {"event": "enter", "subject": "other", "controller": "you"}, [{"do": "life", "player": "P2", "amount": -1}], text="Whenever another permanent you control enters, each opponent mills a card (here: loses 1 life).")]),
   obj("SW", "P2", types=["creature"], abilities=[ab("ASW", {"event": "enter", "subject": "other", "type": "creature"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever another creature enters, you gain 1 life.")]),
   obj("INC", "P1", "uncreated", types=["artifact"], token=True, name="Incubator"),
   obj("SOL", "P1", "uncreated", types=["creature"], token=True, name="Soldier"),
   obj("SOL2", "P1", "uncreated", types=["creature"], token=True, name="Soldier"),
   obj("FSH", "P2", "uncreated", types=["creature"], token=True, name="Fish", abilities=[ab("AFSH", {"event": "enter", "subject": "other", "type": "creature"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever another creature enters, you gain 1 life.")])],
  [("main", [("P1", [{"do": "create_token", "objects": ["INC"]}]),
             ("P1", [{"do": "create_token", "objects": ["SOL", "SOL2"]}]),
             ("P1", [{"do": "create_token", "objects": ["INC"]}])])]))

fixture("mtg-vocab-602-2-sacrifice-cost-triggers",
 "An activated ability goes on the stack before its cost is paid (602.2a, 601.2h), so what paying the cost triggers goes on the stack above it and resolves first (603.3, 405.5). Forge issue 10622: Exploding Barrel's '{8}, Sacrifice this artifact: it deals 20 damage to target creature' dealt its damage without sacrificing the Barrel (the mana part of the cost is not modelled; its target is P2's creature C, named). P1's EB is the Barrel; P1's SC is 'Whenever an artifact you control is put into a graveyard from the battlefield, you gain 1 life'; P2's C (toughness 3) has 'When this dies, each opponent loses 1 life'. P1 activates EB's ability: the ability goes on the stack, then EB is sacrificed (it dies) and SC triggers; SC's ability goes on above EB's and resolves first (P1 gains 1), then EB's ability deals 20 damage to C, though EB has left (113.7a): C dies and its ability makes P1 lose 1 life. Then P2 activates MD's 'Discard a card, pay 1 life: you gain 3 life', discarding H: P1's WT, 'Whenever an opponent discards a card, you gain 1 life', triggers on the discard and resolves before MD's ability. Last, P1 tries EB's ability again: EB is in the graveyard, so nothing happens.",
 "CR 602.2, 601.2h, 603.3, 405.5 (issue 31; Forge issue 10622)", ["mtg.stack-lifo", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("EB", "P1", types=["artifact"], name="Exploding Barrel", activated=[{"id": "XEB", "cost": [{"pay": "sacrifice"}], "effect": [{"do": "damage", "object": "C", "amount": 20}]}]),
   obj("SC", "P1", types=["enchantment"], abilities=[ab("ASC", {"event": "leave", "to": "graveyard", "type": "artifact", "controller": "you"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever an artifact you control is put into a graveyard from the battlefield, you gain 1 life.")]),
   obj("C", "P2", types=["creature"], toughness=3, abilities=[ab("AC", {"event": "leave", "subject": "self", "to": "graveyard"}, [{"do": "life", "player": "P1", "amount": -1}], text="When this dies, each opponent loses 1 life.")]),
   obj("MD", "P2", types=["artifact"], activated=[{"id": "XMD", "cost": [{"pay": "discard", "object": "H"}, {"pay": "life", "amount": 1}], "effect": [{"do": "life", "player": "P2", "amount": 3}]}]),
   obj("H", "P2", "hand"),
   obj("WT", "P1", types=["enchantment"], abilities=[ab("AWT", {"event": "move", "from": "hand", "to": "graveyard", "owner": "opponent"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever an opponent discards a card, you gain 1 life.")])],
  [("main", [("P1", [{"do": "activate", "object": "EB", "ability": "XEB"}]),
             ("P2", [{"do": "activate", "object": "MD", "ability": "XMD"}]),
             ("P1", [{"do": "activate", "object": "EB", "ability": "XEB"}])])]))

fixture("mtg-vocab-510-2-combat-damage",
 "Combat damage as distinct from noncombat damage (120.2a-b, 510.2). phase.rs issue 8127: Norn's Decree ('Whenever one or more creatures an opponent controls deal combat damage to you, that opponent gets a poison counter') gave a poison counter for the noncombat damage of Vivi Ornitier's 'whenever you cast a noncreature spell, ... it deals 1 damage to each opponent'. P1's ND is Norn's Decree (the poison counter stood in for by P2 losing 1 life); P2's VO is Vivi Ornitier (casting the noncreature spell is the named signal 'cast'); P2's IN has 'Whenever a source you control deals noncombat damage to an opponent, you gain 1 life'; G is P2's other creature. P2 casts: VO's ability triggers and resolves, VO deals 1 damage to P1: noncombat damage, so IN's ability triggers and ND's does not. In the combat damage step VO and G deal 2 and 1 combat damage to P1 at once: ND's ability triggers once (one or more creatures, 603.2c), IN's does not.",
 "CR 120.2a, 120.2b, 510.2, 603.2 (issue 31; phase.rs issue 8127)", ["mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(["P1", "P2"], "P2",
  [obj("ND", "P1", types=["enchantment"], name="Norn's Decree", abilities=[ab("AND", {"event": "damage", "batch": True, "type": "creature", "controller": "opponent", "player": "you", "combat": True}, [{"do": "life", "player": "P2", "amount": -1}], text="Whenever one or more creatures an opponent controls deal combat damage to you, that opponent gets a poison counter (here: loses 1 life).")]),
   obj("VO", "P2", types=["creature"], name="Vivi Ornitier", abilities=[ab("AVO", {"event": "signal", "name": "cast"}, [{"do": "damage", "source": "VO", "player": "P1", "amount": 1}], text="Whenever you cast a noncreature spell (the signal cast), this deals 1 damage to each opponent.")]),
   obj("IN", "P2", types=["enchantment"], abilities=[ab("AIN", {"event": "damage", "controller": "you", "player": "opponent", "combat": False}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a source you control deals noncombat damage to an opponent, you gain 1 life.")]),
   obj("G", "P2", types=["creature"])],
  [("main", [("P2", [{"do": "signal", "name": "cast"}])]),
   ("combat_damage", [("P2", [{"do": "damage_together", "combat": True, "hits": [{"source": "VO", "player": "P1", "amount": 2}, {"source": "G", "player": "P1", "amount": 1}]}])])]))

fixture("mtg-vocab-608-2-that-player",
 "'That player', 'them': an effect for the player of the trigger event (603.2, 608.2; 400.3). phase.rs issue 6370: Curse of Fool's Wisdom ('Whenever enchanted player draws a card, they lose 2 life and you gain 2 life') gave its controller 2 life but took none from the player who drew. P1's CF is the Curse on P2 ('enchanted player' is 'an opponent' in this two-player game; drawing a card is the named signal 'draw', given by the player who draws). P1's PN has 'Whenever a permanent is put into an opponent's graveyard, that player loses 1 life' (Patron of the Nezumi); P2's Z has 'Whenever a player gains life, that player loses 1 life'. P2 draws: CF's ability triggers; it resolves: P2 loses 2 life, P1 gains 2, and Z's ability triggers on P1's gain: P1, not Z's controller, loses 1 life. P1 draws: nothing. P1 gains control of P2's creature ST, then ST is destroyed: it goes to its owner's graveyard (400.3), P2's, so PN's ability triggers and P2, not P1 who controlled ST, loses 1 life.",
 "CR 603.2, 608.2, 400.3 (issue 31; phase.rs issue 6370, XMage issue 5241)", ["mtg.resolution-effect"],
 scen(["P1", "P2"], "P1",
  [obj("CF", "P1", types=["enchantment"], name="Curse of Fool's Wisdom", abilities=[ab("ACF", {"event": "signal", "name": "draw", "player": "opponent"}, [{"do": "life", "that_player": True, "amount": -2}, {"do": "life", "player": "P1", "amount": 2}], text="Whenever enchanted player (an opponent) draws a card, they lose 2 life and you gain 2 life.")]),
   obj("PN", "P1", types=["creature"], name="Patron of the Nezumi", abilities=[ab("APN", {"event": "leave", "to": "graveyard", "owner": "opponent"}, [{"do": "life", "that_player": True, "amount": -1}], text="Whenever a permanent is put into an opponent's graveyard, that player loses 1 life.")]),
   obj("ST", "P2", types=["creature"]),
   obj("Z", "P2", types=["enchantment"], abilities=[ab("AZ", {"event": "life", "change": "gain"}, [{"do": "life", "that_player": True, "amount": -1}], text="Whenever a player gains life, that player loses 1 life.")])],
  [("main", [("P2", [{"do": "signal", "name": "draw"}]),
             ("P1", [{"do": "signal", "name": "draw"}]),
             ("P1", [{"do": "gain_control", "object": "ST", "player": "P1"}]),
             ("P1", [{"do": "move", "object": "ST", "from": "field", "to": "graveyard"}])])]))

# -- Issue 22, item 2: two readings fixed in the engine and the judge ------------------------------------------------

ANYWHERE_GY = {"event": "zone_change", "to": "graveyard"}
fixture("mtg-ref-603-6c-from-anywhere-dies-together",
 "603.6c and 603.10a: an ability triggering as a card goes into a graveyard 'from anywhere' is not a leaves-the-battlefield ability and does not look back in time. W and Z have 'whenever a card is put into a graveyard from anywhere, you gain 1 life'; Y has 'whenever another creature dies, you gain 1 life'. One effect destroys W, Y and C together. Just after the event W is in the graveyard, so its ability, judged then, does not trigger at all (reading it as one that looks back, it would see all three: a bug XMage had). Y's dies ability looks back and triggers twice (W and C). Z, still on the battlefield, triggers three times. Then P1 discards K (hand to graveyard): Z triggers once more.",
 "CR 603.6c, 603.10a (issue 22)", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2"], "P1",
  [obj("W", "P1", abilities=[ab("AW", ANYWHERE_GY, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card is put into a graveyard from anywhere, you gain 1 life.")]),
   obj("Y", "P1", abilities=[ab("AY", DIES_OTHER, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature dies, you gain 1 life.")]),
   obj("Z", "P2", abilities=[ab("AZ", ANYWHERE_GY, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever a card is put into a graveyard from anywhere, you gain 1 life.")]),
   obj("C", "P2"), obj("K", "P1", "hand")],
  [("main", [("P2", [{"do": "move_together", "objects": ["W", "Y", "C"], "from": "field", "to": "graveyard"}]),
             ("P1", [{"do": "move", "object": "K", "from": "hand", "to": "graveyard"}])])]))

fixture("mtg-ref-603-10a-exiled-from-anywhere-out-of-a-graveyard",
 "603.10a names abilities, not events: only an ability that triggers on a card leaving a graveyard looks back when cards leave one. G and H are cards in P1's graveyard whose abilities work from there: G's 'whenever a card is put into exile from anywhere, you gain 1 life', H's 'whenever a card leaves a graveyard, you gain 1 life'. One effect exiles G, H and K from the graveyards together. Just after the event G is in exile, where its ability does not work: it does not trigger (reading it as one that looks back, it would trigger three times). H's ability looks back and triggers three times.",
 "CR 603.6c, 603.10a (issue 22)", ["mtg.look-back"],
 scen(["P1", "P2"], "P1",
  [obj("G", "P1", "graveyard", abilities=[ab("AG", {"event": "zone_change", "to": "exile"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card is put into exile from anywhere, you gain 1 life (works in a graveyard).", active_in=["graveyard"])]),
   obj("H", "P1", "graveyard", abilities=[ab("AH", {"event": "zone_change", "from": "graveyard"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a card leaves a graveyard, you gain 1 life (works in a graveyard).", active_in=["graveyard"])]),
   obj("K", "P2", "graveyard")],
  [("main", [("P1", [{"do": "move_together", "objects": ["G", "H", "K"], "from": "graveyard", "to": "exile"}])])]))

fixture("mtg-ref-603-4-felidar-stolen-on-the-stack",
 "603.3a and 603.4 (Felidar Sovereign): 'you' in an intervening 'if' is the ability's controller, fixed as it triggered. P1's FS has 'at the upkeep signal, if you have 40 or more life, you win'; P1 has 40 life, P2 20. The upkeep signal also triggers P2's T, 'gain control of FS'; P1 is active, so FS's ability goes on the stack first and T resolves first: P2 controls FS. FS's ability, still P1's, checks its condition again on resolution about P1, who has 40 life: it resolves and P1 wins (reading 'you' as the source's controller, P2 with 20 life, would remove it: the bug Forge had).",
 "CR 603.3a, 603.4 (issue 22)", ["mtg.intervening-if", "mtg.trigger-controller"],
 scen(["P1", "P2"], "P1",
  [obj("FS", "P1", abilities=[ab("A1", {"event": "signal", "name": "upkeep"}, [{"do": "signal", "name": "wins"}], text="At the upkeep signal, if your life total is 40 or more, you win.", intervening_if={"test": "life_at_least", "player": "controller", "value": 40})]),
   obj("T", "P2", abilities=[ab("A2", {"event": "signal", "name": "upkeep"}, [{"do": "gain_control", "object": "FS", "player": "P2"}], text="At the upkeep signal, gain control of FS.")])],
  [("upkeep", [("P1", [{"do": "signal", "name": "upkeep"}])])], life={"P1": 40}))

fixture("mtg-ref-603-4-you-is-the-thief-and-the-creator",
 "603.3a, 603.7d-e and 603.4: 'you' in an intervening 'if' is the ability's controller whoever controls its source. P1 has 10 life, P2 20. P2 steals P1's C, 'when this dies, if you have 15 or more life, you gain 1 life', and C dies: its ability looks back and is P2's (603.10a); on resolution C is in P1's graveyard, P1's card again (400.7, 108.4a), but 'you' is still P2, with 20 life: it resolves. Then P2's S creates 'the next time sig happens, if you have 15 or more life, you gain 1 life' (P2's, 603.7e); P1 gains control of S, and sig happens: the delayed ability triggers, its condition being about P2, not about S's controller P1 with 10 life, and resolves.",
 "CR 603.3a, 603.4, 603.7e (issue 22)", ["mtg.intervening-if", "mtg.delayed-controller", "mtg.trigger-controller"],
 scen(["P1", "P2"], "P1",
  [obj("C", "P1", abilities=[ab("AC", {"event": "leave", "subject": "self", "to": "graveyard"}, [{"do": "life", "player": "P2", "amount": 1}], text="When this dies, if you have 15 or more life, you gain 1 life (P2 is 'you' here).", intervening_if={"test": "life_at_least", "player": "controller", "value": 15})]),
   obj("S", "P2", abilities=[ab("AS", {"event": "signal", "name": "go"}, [{"do": "create_delayed", "ability": ab("D1", {"event": "signal", "name": "sig"}, [{"do": "life", "player": "P2", "amount": 1}], text="The next time sig happens, if you have 15 or more life, you gain 1 life.", intervening_if={"test": "life_at_least", "player": "controller", "value": 15})}], text="Whenever go happens, create D1.")])],
  [("main", [("P2", [{"do": "gain_control", "object": "C", "player": "P2"}]),
             ("P2", [{"do": "move", "object": "C", "from": "field", "to": "graveyard"}]),
             ("P2", [{"do": "signal", "name": "go"}]),
             ("P1", [{"do": "gain_control", "object": "S", "player": "P1"}]),
             ("P1", [{"do": "signal", "name": "sig"}])])], life={"P1": 10}))

# -- Issue 22, item 3: triggers announced as their event happens ----------------------------------------------------

fixture("mtg-ref-603-2-triggers-as-each-event-happens",
 "603.2 and 603.10: an ability triggers as its event happens, on the game just after it, not once the whole resolution is over. K's ability resolves: it puts C from P1's hand onto the battlefield, signals s2, then destroys W and X. W's 'whenever another creature enters, you gain 1 life' triggers on C entering (W is on the battlefield just after), and X's 'whenever s2 happens, if X is on the battlefield, you gain 1 life' on the signal (its condition holds just after it); each trigger comes right after its event, before the next one. On resolution X is in the graveyard, so X's ability is removed (608.2a); W's resolves. An engine looking for triggers only after the whole resolution (phase.rs's scan after each action, XMage's batching at the end of an effect) would find W and X gone and lose both.",
 "CR 603.2, 603.4, 603.10 (issue 22)", ["mtg.triggers-when-satisfied", "mtg.intervening-if"],
 scen(["P1", "P2"], "P1",
  [obj("K", "P1", abilities=[ab("AK", {"event": "signal", "name": "go"}, [
      {"do": "move", "object": "C", "from": "hand", "to": "field"}, {"do": "signal", "name": "s2"},
      {"do": "move_together", "objects": ["W", "X"], "from": "field", "to": "graveyard"}],
      text="Whenever go happens, put C onto the battlefield, then s2, then destroy W and X.")]),
   obj("W", "P1", abilities=[ab("AW", {"event": "enter", "subject": "other"}, [{"do": "life", "player": "P1", "amount": 1}], text="Whenever another creature enters, you gain 1 life.")]),
   obj("X", "P2", abilities=[ab("AX", {"event": "signal", "name": "s2"}, [{"do": "life", "player": "P2", "amount": 1}], text="Whenever s2 happens, if this is on the battlefield, you gain 1 life.", intervening_if={"test": "in_zone", "object": "self", "zone": "field"})]),
   obj("C", "P1", "hand")],
  [("main", [("P1", [{"do": "signal", "name": "go"}])])]))

import os

if __name__ == "__main__":
    out = sys.argv[1]
    only = sys.argv[2:]  # fixture ids to write (default: all)
    for id, description, source, keys, doc in F:
        if only and id not in only:
            continue
        ruleset, sc = prepare_scenario(doc, id)
        trace = MtgEngine().run(sc, ScenarioChooser(sc))
        fx = {"format": "trigger-conformance/fixture/1", "id": id, "description": description, "source": source,
              "rule_keys": keys, "scenario": doc, "expected_trace": trace}
        validate(fx, "fixture", id)
        open(os.path.join(out, id + ".json"), "w").write(dump_json(fx))
    print(len(F), "fixtures")
