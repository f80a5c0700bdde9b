# Regenerate with: PYTHONPATH=tests:. python tests/bug_report_sources.py tests/data/bug-reports
# (then read every trace against the rule; tests/test_bug_reports.py checks what each report's `expect` says).
"""Public trigger bug reports from real engines' trackers (issue 22 item 7), each written as an MTG scenario where the
vocabulary allows. REPORTS holds one record per report: the engine, the link, a paraphrase (never the report's
words), the rules involved, how much of it the vocabulary expresses (`full`, `partly` with what is approximated,
`no` with the missing words), the rule keys the bug breaks, and what the trace must show (`expect`, read against
the rule). The scenario files and tests/data/bug-reports/reports.json are written from it; docs/engines/bug-reports.md
reports the fractions."""
import json, os, sys
from mtg_fixture_sources import scen, obj, ab
from conformance.documents.json_io import dump_json, validate

REPORTS = []
CREATURE = {"types": ["creature"]}


def report(id, engine, url, title, summary, rules, expressible, keys=(), scenario=None, expect=None, approximated=(),
           missing=(), note=None):
    """One report. ``approximated``: what a `partly` scenario stands in for; ``missing``: the vocabulary words a
    `partly` or `no` report needs (ranked in the docs)."""
    assert expressible in ("full", "partly", "no")
    assert (scenario is None) == (expressible == "no")
    assert expressible == "full" or missing
    rec = {"id": id, "engine": engine, "url": url, "title": title, "summary": summary, "rules": list(rules),
           "expressible": expressible, "rule_keys": list(keys), "approximated": list(approximated),
           "missing": list(missing)}
    if note:
        rec["note"] = note
    if scenario is not None:
        scenario = renderable(dict(scenario, id=id, description=summary))
        rec["expect"] = expect or {}
    REPORTS.append((rec, scenario))


def renderable(doc):
    """Stand-in effects (a named signal where the report's effect plays no part: drawing, milling, counters) become
    '+1 life' for the ability's owner, and a player owning no card gets one in their library: neither changes what
    the scenario is about, and both are what phase.rs's adapter can render (it has no wording for named signals and
    does not start a game with an empty library)."""
    def plain(effect, owner):
        return [{"do": "life", "player": owner, "amount": 1} if a["do"] == "signal" and "subject" not in a
                else dict(a, ability=dict(a["ability"], effect=plain(a["ability"]["effect"], owner)))
                if a["do"] in ("create_delayed", "reflexive") else a for a in effect]
    for o in doc["objects"]:
        for a in o.get("abilities", []):
            a["effect"] = plain(a["effect"], o["owner"])
    owners = {o["owner"] for o in doc["objects"]}
    doc["objects"] += [obj(f"D{p}", p, "deck", **CREATURE) for p in doc["players"] if p not in owners]
    return doc


def dies(subject="any", **kw):
    return {"event": "leave", "subject": subject, "to": "graveyard", **kw}


def sig(name, **kw):
    return {"event": "signal", "name": name, **kw}


def mv(o, frm, to):
    return {"do": "move", "object": o, "from": frm, "to": to}


def together(objs, frm, to):
    return {"do": "move_together", "objects": list(objs), "from": frm, "to": to}


def say(name, **kw):
    return {"do": "signal", "name": name, **kw}


P12 = ["P1", "P2"]


def turns(doc, numbers):
    """Give the scenario's steps these turn numbers (500.1)."""
    for step, n in zip(doc["script"], numbers):
        step["turn"] = n
    return doc

# ---- Look back in time (603.10a) -------------------------------------------------------------------------------
report("br-forge-3181-syr-konrad", "Forge", "https://github.com/Card-Forge/forge/issues/3181",
 "Syr Konrad, the Grim (ELD) not triggering when he also dies",
 "Syr Konrad ('whenever another creature dies, deal 1 damage to each opponent') died in one board wipe with other creatures and did not trigger for them; dying at the same time, it must see them die.",
 ["603.10a", "603.6c"], "full", ["mtg.look-back"],
 scen(P12, "P1", [obj("K", "P1", abilities=[ab("A1", dies("other"), [say("damage")], text="Whenever another creature dies, deal 1 damage to each opponent.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("C2", "P2", **CREATURE), obj("T1", "P1", token=True, **CREATURE)],
      [("main", [("P1", [together(["K", "C1", "C2", "T1"], "field", "graveyard")])])]),
 {"triggers": {"A1": 3}})

report("br-xmage-3853-nether-traitor", "XMage", "https://github.com/magefree/mage/issues/3853",
 "Nether Shadow triggers when it dies at the same time as another creature",
 "Nether Traitor's ability works only from the graveyard ('whenever another creature is put into your graveyard from the battlefield, you may pay B; if you do, return this card'); destroyed together with three creatures it triggered three times, though it was not in the graveyard just before they died.",
 ["603.10a", "113.6", "603.6c"], "full", ["mtg.look-back"],
 scen(P12, "P1", [obj("N", "P1", abilities=[ab("A1", dies("other", controller="you"), [mv("N", "graveyard", "field")], text="Whenever another creature is put into your graveyard from the battlefield, you may return this card (works from the graveyard).", active_in=["graveyard"], optional=True)], **CREATURE)]
      + [obj(f"W{k}", "P1", **CREATURE) for k in range(1, 5)],
      [("main", [("P1", [together(["N", "W1", "W2", "W3"], "field", "graveyard")]), ("P1", [mv("W4", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="The mana payment of 'you may pay B' is the optional choice here; the later death of W4 alone is the control: it does trigger the card in the graveyard.")

report("br-xmage-12770-empty-the-laboratory", "XMage", "https://github.com/magefree/mage/issues/12770",
 "Empty the Laboratory death triggers",
 "Empty the Laboratory sacrifices Zombies and then puts Zombie cards onto the battlefield in the same resolution; an Archghoul of Thraben ('whenever another Zombie you control dies, ...') that entered this way triggered for the Zombies sacrificed before it was there.",
 ["603.2", "603.10a", "608.2"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("AG", "P1", "deck", abilities=[ab("A1", dies("other", controller="you", type="creature"), [say("mill")], text="Whenever another Zombie you control dies, you may mill a card.", optional=True)], **CREATURE),
                  obj("Z1", "P1", **CREATURE), obj("Z2", "P1", **CREATURE), obj("Z3", "P1", **CREATURE)],
      [("main", [("P1", [together(["Z1", "Z2"], "field", "graveyard"), mv("AG", "deck", "field")]), ("P1", [mv("Z3", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="Every creature of the scenario is a Zombie, so the type filter 'creature' stands for the subtype exactly; Z3 dying later is the control.")

report("br-argentum-688-batched-dies-source-dies", "argentum-engine", "https://github.com/wingedsheep/argentum-engine/pull/688",
 "Fire batched 'creatures you control die' trigger when the source dies in the same batch (CR 603.10)",
 "A 'whenever one or more other creatures you control die' ability took its sources from the battlefield after the batch, so a source destroyed in the same board wipe as the creatures it watches never triggered.",
 ["603.10a", "603.2c"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("VT", "P1", abilities=[ab("A1", dies("other", controller="you", type="creature", batch=True), [say("counter")], text="Whenever one or more other creatures you control die, put a +1/+1 counter on this creature.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("C2", "P1", **CREATURE)],
      [("main", [("P1", [together(["VT", "C1", "C2"], "field", "graveyard")])])]),
 {"triggers": {"A1": 1}})

report("br-xmage-8293-rot-wolf-wight", "XMage", "https://github.com/magefree/mage/issues/8293",
 "Creatures damaged and dying triggering abilities of creatures dying at the same time don't trigger",
 "Rot Wolf and Wight ('whenever a creature dealt damage by this creature this turn dies, ...') fight and kill each other; both abilities must trigger, since each creature sees the other die at the same time, but neither did.",
 ["603.10a", "704.3", "704.5g"], "partly", ["mtg.look-back", "mtg.sba-loop"],
 scen(P12, "P1", [obj("RW", "P1", toughness=2, abilities=[ab("A1", dies("WI"), [say("draw")], text="Whenever a creature dealt damage by this creature this turn dies, you may draw a card.", optional=True)], **CREATURE),
                  obj("WI", "P2", toughness=2, abilities=[ab("A2", dies("RW"), [say("return")], text="Whenever a creature dealt damage by this creature this turn dies, ...")], **CREATURE)],
      [("main", [("P1", [{"do": "damage", "source": "RW", "object": "WI", "amount": 2}, {"do": "damage", "source": "WI", "object": "RW", "amount": 2}])])]),
 {"triggers": {"A1": 1, "A2": 1}},
 approximated=["'a creature dealt damage by this creature this turn' is the one creature the scenario names as subject"],
 missing=["condition on this turn's history (dealt damage this turn)"])

report("br-xmage-8184-sefris-from-anywhere", "XMage", "https://github.com/magefree/mage/issues/8184",
 "Sefris does trigger for itself",
 "Sefris of the Hidden Ways ('whenever one or more creature cards are put into your graveyard from anywhere, venture ...') triggered on its own death and on a board wipe that killed it with others; a 'from anywhere' ability is not a leaves-the-battlefield ability, does not look back, and must not see cards dying with it.",
 ["603.6c", "603.10a"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("SF", "P1", abilities=[ab("A1", {"event": "zone_change", "to": "graveyard", "type": "creature", "controller": "you", "batch": True}, [say("venture")], text="Whenever one or more creature cards are put into your graveyard from anywhere, venture into the dungeon.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("C2", "P1", "hand", **CREATURE)],
      [("main", [("P1", [together(["SF", "C1"], "field", "graveyard")]), ("P1", [mv("C2", "hand", "field")])])]),
 {"triggers": {"A1": 0}},
 note="A 'from anywhere' ability does not look back (603.6c, 603.10a): since issue 22 item 2 the reference engine and the judge both read it so, and a faulty engine keeping XMage's old reading (mtg-anywhere-looks-back) is caught by mtg.look-back. 'This ability triggers only once each turn' plays no part (one event).")

report("br-xmage-11579-leaving-player-creatures-die", "XMage", "https://github.com/magefree/mage/issues/11579",
 "Losing the game causes creatures with dynamic toughness to die",
 "In a multiplayer game a player lost with creatures whose toughness counts their artifacts; their objects left the game with them, yet those creatures were then reported as dying and triggered another player's 'whenever another creature dies' ability.",
 ["800.4a", "704.5f", "603.10a"], "full", ["mtg.player-leaves", "mtg.triggers-when-satisfied"],
 scen(["P1", "P2", "P3"], "P1", [obj("PT", "P1", abilities=[ab("A1", dies("other"), [{"do": "life", "player": "P2", "amount": -1}], text="Whenever another creature dies, each opponent loses 1 life.")], **CREATURE),
                  obj("AR", "P3", types=["artifact"]),
                  obj("DJ", "P3", dies_when={"test": "not_in_zone", "object": "AR", "zone": "field"}, **CREATURE)],
      [("main", [("P1", [{"do": "concede", "player": "P3"}])])]),
 {"triggers": {"A1": 0}},
 note="dies_when stands for 'toughness equal to the number of artifacts you control' (704.5f) with one artifact.")

report("br-phase-3673-fiend-hunter-return", "phase.rs", "https://github.com/phase-rs/phase/issues/3673",
 "Fiend Hunter: the returned Wall of Omens' enters ability does not trigger",
 "When Fiend Hunter left the battlefield its 'return the exiled card' ability brought back Wall of Omens, but the Wall's own 'when this enters, draw a card' ability did not trigger.",
 ["603.6a", "607.2a", "400.7"], "partly", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("FH", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [{"do": "move_target", "to": "exile"}], text="When this creature enters, you may exile another target creature.", optional=True, target={"candidates": ["WO"]}),
                                       ab("A2", {"event": "leave", "subject": "self"}, [mv("WO", "exile", "field")], text="When this creature leaves the battlefield, return the exiled card to the battlefield.")], **CREATURE),
                  obj("WO", "P2", abilities=[ab("A3", {"event": "enter", "subject": "self"}, [say("draw")], text="When this creature enters, draw a card.")], **CREATURE)],
      [("main", [("P1", [mv("FH", "hand", "field")]), ("P1", [mv("FH", "field", "graveyard")])])]),
 {"triggers": {"A2": 1, "A3": 1}},
 approximated=["'the exiled card' (a linked ability, 607) is the card the scenario names"],
 missing=["linked abilities (607): 'the card exiled with this'"])

# ---- Intervening 'if' (603.4) -----------------------------------------------------------------------------------
report("br-xmage-8265-sheltered-valley", "XMage", "https://github.com/magefree/mage/issues/8265",
 "Sheltered Valley should not trigger on 4+ lands",
 "Sheltered Valley's upkeep ability ('if you control three or fewer lands, you gain 1 life') was not coded with an intervening 'if': it went on the stack with four lands and only checked on resolution.",
 ["603.4"], "partly", ["mtg.intervening-if"],
 scen(P12, "P1", [obj("SV", "P1", abilities=[ab("A1", sig("upkeep"), [{"do": "life", "player": "P1", "amount": 1}], text="At the beginning of your upkeep, if you control three or fewer lands, you gain 1 life.", intervening_if={"test": "not_in_zone", "object": "L4", "zone": "field"})], types=["land"])]
      + [obj(f"L{k}", "P1", types=["land"]) for k in range(1, 4)] + [obj("L4", "P1", "hand", types=["land"])],
      [("upkeep", [("P1", [say("upkeep")])]), ("main", [("P1", [mv("L4", "hand", "field")])]), ("upkeep", [("P1", [say("upkeep")])])]),
 {"triggers": {"A1": 1}},
 approximated=["'three or fewer lands' is 'L4 is not on the battlefield' (the scenario has four lands in all)"],
 missing=["conditions that count permanents a player controls"])

report("br-argentum-1838-intervening-if-recheck", "argentum-engine", "https://github.com/wingedsheep/argentum-engine/pull/1838",
 "Check CR 603.4's intervening 'if' a second time, as the ability resolves",
 "The engine checked an intervening 'if' only when the ability triggered: Beastbond Outcaster ('when this enters, if you control a creature with power 4 or greater, draw a card') still drew after that creature was destroyed before the ability resolved.",
 ["603.4", "608.2a"], "full", ["mtg.intervening-if"],
 scen(P12, "P1", [obj("BO", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [say("draw")], text="When this creature enters, if you control a creature with power 4 or greater, draw a card.", intervening_if={"test": "in_zone", "object": "BG", "zone": "field"})], **CREATURE),
                  obj("BG", "P1", **CREATURE),
                  obj("KL", "P2", abilities=[ab("A2", {"event": "enter", "type": "creature"}, [mv("BG", "field", "graveyard")], text="Whenever a creature enters, destroy BG.")], **CREATURE)],
      [("main", [("P1", [mv("BO", "hand", "field")])])]),
 {"removed": {"A1": "intervening_if"}},
 note="BG is the only creature with power 4 or greater; P2's ability, put on the stack after P1's (603.3b), destroys it first, standing for a response.")

report("br-argentum-1840-if-before-targets", "argentum-engine", "https://github.com/wingedsheep/argentum-engine/issues/1840",
 "CR 608.2a intervening-if check runs after target legality validation",
 "On resolution the engine checked targets before the intervening 'if', so an ability that had lost both its condition and its target was reported as fizzling for its target, where 608.2a removes it for its condition first.",
 ["608.2a", "608.2b", "603.4"], "full", ["mtg.intervening-if"],
 scen(P12, "P1", [obj("ES", "P1", abilities=[ab("A1", sig("end_step"), [{"do": "move_target", "to": "graveyard"}], text="At the beginning of the end step, if C1 is on the battlefield, destroy target creature.", intervening_if={"test": "in_zone", "object": "C1", "zone": "field"}, target={"candidates": ["X"]})]),
                  obj("C1", "P1", **CREATURE), obj("X", "P2", **CREATURE),
                  obj("KL", "P2", abilities=[ab("A2", sig("end_step"), [mv("C1", "field", "exile"), mv("X", "field", "exile")], text="At the beginning of the end step, exile C1 and X.")])],
      [("end", [("P1", [say("end_step")])])]),
 {"removed": {"A1": "intervening_if"}},
 note="The card's condition ('a creature died this turn') is a condition on the turn's history; any condition that turns false shows the order of the two checks, so a zone condition stands in without changing what the bug is about.")

report("br-forge-1580-felidar-controller", "Forge", "https://github.com/Card-Forge/forge/pull/1580",
 "Fix resolving trigger check using wrong controller",
 "When Felidar Sovereign's upkeep ability ('if you have 40 or more life, you win') was on the stack and an opponent gained control of the Sovereign, the check on resolution read the new controller's life; 'you' is the ability's controller, fixed when it triggered.",
 ["603.3a", "603.4", "608.2a"], "full", ["mtg.intervening-if", "mtg.trigger-controller"],
 scen(P12, "P1", [obj("FS", "P1", abilities=[ab("A1", sig("upkeep"), [say("wins")], text="At the beginning of your upkeep, if you have 40 or more life, you win the game.", intervening_if={"test": "life_at_least", "player": "P1", "value": 40})], **CREATURE),
                  obj("TH", "P2", abilities=[ab("A2", sig("upkeep"), [{"do": "gain_control", "object": "FS", "player": "P2"}], text="At the beginning of each upkeep, gain control of FS.")])],
      [("upkeep", [("P1", [say("upkeep")])])], life={"P1": 40}),
 {"resolved": ["A2", "A1"], "controller": {"A1": "P1"}},
 note="The condition names P1 (the controller as the ability triggered). Since issue 22 item 2 the vocabulary's 'controller' player in a condition means the same (the ability's controller, fixed when it triggered), and the faulty engine mtg-if-you-is-source-controller, keeping Forge's old reading, is caught by mtg.intervening-if.")

report("br-xmage-12365-delayed-intervening-if", "XMage", "https://github.com/magefree/mage/issues/12365",
 "Multiple cards using DelayedTriggeredAbility with an intervening 'if' are not set up properly",
 "Delayed abilities of the form 'at the beginning of the next end step, if ..., ...' were not set up with an intervening 'if', so they triggered and resolved when their condition was false.",
 ["603.7", "603.4"], "full", ["mtg.intervening-if", "mtg.delayed-trigger"],
 scen(P12, "P1", [obj("C1", "P1", abilities=[ab("A1", sig("s1"), [{"do": "create_delayed", "ability": {"id": "X1", "text": "At the beginning of the next end step, if C2 is on the battlefield, you gain 3 life.", "trigger": sig("end_step"), "intervening_if": {"test": "in_zone", "object": "C2", "zone": "field"}, "effect": [{"do": "life", "player": "P1", "amount": 3}]}}], text="Whenever s1 happens, create the delayed ability X1.")]),
                  obj("C2", "P1", **CREATURE)],
      [("main", [("P1", [say("s1")]), ("P1", [mv("C2", "field", "graveyard")])]), ("end", [("P1", [say("end_step")])])]),
 {"triggers": {"X1": 0}})

report("br-xmage-748-vengeful-pharaoh", "XMage", "https://github.com/magefree/mage/issues/748",
 "Vengeful Pharaoh -> multiple triggers",
 "Vengeful Pharaoh works from the graveyard ('whenever combat damage is dealt to you, if this card is in your graveyard, destroy target attacking creature ... and put this card on top of your library'); triggered by several creatures, every instance destroyed a creature, where only the first can: after it the card is no longer in the graveyard.",
 ["603.4", "608.2a", "400.7"], "full", ["mtg.intervening-if"],
 scen(P12, "P2", [obj("VP", "P1", "graveyard", abilities=[ab("A1", {"event": "damage", "player": "you"}, [{"do": "move_target", "to": "graveyard"}, mv("VP", "graveyard", "deck")], text="Whenever damage is dealt to you, if this card is in your graveyard, destroy target creature that dealt it and put this card on top of your library.", active_in=["graveyard"], intervening_if={"test": "in_zone", "object": "VP", "zone": "graveyard"}, target={"candidates": ["D1", "D2"]})], **CREATURE),
                  obj("D1", "P2", **CREATURE), obj("D2", "P2", **CREATURE)],
      [("combat_damage", [("P2", [{"do": "damage", "source": "D1", "player": "P1", "amount": 2}, {"do": "damage", "source": "D2", "player": "P1", "amount": 2}])])]),
 {"triggers": {"A1": 2}, "removed": {"A1": "intervening_if"}},
 note="Each instance's target is the first legal candidate; the point is that the second instance does nothing once the card has left the graveyard.")

# ---- Order and timing: 603.3, 603.3b, 704.3, 405.5 ----------------------------------------------------------------
report("br-magarena-423-apnap-bushido", "Magarena", "https://github.com/magarena/magarena/issues/423",
 "Pending triggers should go on the stack in APNAP order",
 "A blocking Shape Stealer (the non-active player's 'whenever this blocks, its power and toughness become the other creature's') got the bonus of the attacker's bushido trigger; the active player's trigger goes on the stack first, so the non-active player's resolves first and sees no bonus.",
 ["603.3b", "101.4"], "full", ["mtg.apnap-order"],
 scen(P12, "P1", [obj("BU", "P1", abilities=[ab("A1", sig("block"), [say("bushido")], text="Bushido: whenever this blocks or becomes blocked, it gets +1/+1 until end of turn.")], **CREATURE),
                  obj("SS", "P2", abilities=[ab("A2", sig("block"), [say("copy_pt")], text="Whenever this blocks or becomes blocked by a creature, its power and toughness become that creature's.")], **CREATURE)],
      [("declare_blockers", [("P1", [say("block")])])]),
 {"resolved": ["A2", "A1"]})

report("br-magarena-209-sba-before-triggers", "Magarena", "https://github.com/magarena/magarena/issues/209",
 "Triggers should go on stack after player has priority, currently triggers go on on stack immediately",
 "A spell dealt lethal damage to Flamespeaker Adept and made its controller scry; the scry trigger (2 damage to any target) went on the stack and resolved before the Adept died, where state-based actions are performed before triggered abilities are put on the stack.",
 ["603.3", "704.3", "117.5", "603.3d"], "full", ["mtg.sba-loop", "mtg.stack-at-priority"],
 scen(P12, "P1", [obj("KP", "P1", abilities=[ab("A1", sig("scry"), [{"do": "damage", "target": True, "amount": 2}], text="Whenever you scry, this deals 2 damage to any target.", target={"candidates": ["AD"], "players": ["P2"]})]),
                  obj("AD", "P2", toughness=2, **CREATURE)],
      [("main", [("P1", [{"do": "damage", "source": "KP", "object": "AD", "amount": 2}, say("scry")])])]),
 {"targets": {"A1": "P2"}},
 note="The Adept is dead by state-based actions before the ability goes on the stack, so its only legal target left is the player.")

report("br-magarena-212-triggers-resolve-next-step", "Magarena", "https://github.com/magarena/magarena/issues/212",
 "Pending triggers not resolved before moving to next phase",
 "Sage's Row Denizen's trigger arose in the declare attackers step but resolved in the declare blockers step; a step ends only once the stack is empty.",
 ["405.5", "500.2", "603.3"], "full", ["mtg.stack-lifo", "mtg.stack-at-priority"],
 scen(P12, "P1", [obj("SD", "P1", abilities=[ab("A1", sig("attacks"), [say("mill")], text="Whenever another creature you control enters, target player mills two cards (here: whenever a creature attacks).")])],
      [("declare_attackers", [("P1", [say("attacks")])]), ("declare_blockers", [("P1", [say("blocks")])])]),
 {"resolved_in_step": {"A1": 0}})

report("br-forge-3019-failed-trigger-freezes-stack", "Forge", "https://github.com/Card-Forge/forge/pull/3019",
 "Fix failed trigger keeping the stack frozen",
 "The active player's magecraft trigger found no legal target and was removed, but it left the stack frozen, so the non-active player's ward trigger from the same spell went on the stack too late.",
 ["603.3b", "603.3d"], "full", ["mtg.no-legal-target", "mtg.apnap-order"],
 scen(P12, "P1", [obj("MG", "P1", abilities=[ab("A1", {"event": "cast"}, [{"do": "move_target", "to": "graveyard"}], text="Magecraft: whenever you cast an instant or sorcery spell, destroy target creature (none is legal).", target={"candidates": ["GX"]})]),
                  obj("GX", "P2", "graveyard", **CREATURE),
                  obj("WD", "P2", abilities=[ab("A2", {"event": "cast"}, [say("ward")], text="Ward: whenever this becomes the target of a spell an opponent controls, counter it unless that player pays.")], **CREATURE),
                  obj("SP", "P1", "hand", spell={"effect": [say("sorcery")]})],
      [("main", [("P1", [{"do": "cast", "object": "SP"}])])]),
 {"removed": {"A1": "no_target"}, "resolved": ["A2"]},
 note="Ward's 'becomes the target' event (603.2e, not modelled) is a cast trigger here: what matters is a second ability waiting in the same run as the one removed.")

report("br-phase-4276-no-target-at-choose-time", "phase.rs", "https://github.com/phase-rs/phase/pull/4276",
 "fix(engine): drop no-legal-target trigger at choose-time instead of erroring (CR 603.3d)",
 "A targeted trigger whose only target was removed earlier in the same cascade of simultaneous events made the engine fail while choosing targets and lock the game; the ability must simply be removed from the stack.",
 ["603.3d", "704.3"], "full", ["mtg.no-legal-target"],
 scen(P12, "P1", [obj("ST", "P1", abilities=[ab("A1", sig("cast"), [say("copy")], text="Whenever an opponent casts a spell, target artifact ... (its only artifact dies first).", target={"candidates": ["AR"]})]),
                  obj("AR", "P2", toughness=1, types=["artifact", "creature"])],
      [("main", [("P1", [{"do": "damage", "source": "ST", "object": "AR", "amount": 1}, say("cast")])])]),
 {"removed": {"A1": "no_target"}})

report("br-forge-1583-trigger-on-trigger-second-pass", "Forge", "https://github.com/Card-Forge/forge/pull/1583",
 "Fix AbilityTriggered failing when cause lacks targets",
 "Ordering simultaneous triggers did not follow 603.3b's two passes: abilities that trigger on another ability triggering must go on the stack after every other waiting ability, each pass in APNAP order.",
 ["603.3b"], "full", ["mtg.trigger-on-trigger-last", "mtg.apnap-order"],
 scen(P12, "P1", [obj("O1", "P1", abilities=[ab("A1", sig("s"), [say("a1")], text="Whenever s happens, ...")]),
                  obj("O2", "P2", abilities=[ab("A2", sig("s"), [say("a2")], text="Whenever s happens, ...")]),
                  obj("O3", "P1", abilities=[ab("A3", {"event": "ability_triggered", "subject": "O2"}, [say("a3")], text="Whenever an ability of O2 triggers, ...")])],
      [("main", [("P1", [say("s")])])]),
 {"resolved": ["A3", "A2", "A1"]})

# ---- Delayed and reflexive abilities (603.7, 603.12) ---------------------------------------------------------------
report("br-phase-2886-grave-betrayal", "phase.rs", "https://github.com/phase-rs/phase/issues/2886",
 "Grave Betrayal: opponents' dead creatures never returned (delayed end-step return not firing)",
 "Grave Betrayal ('whenever a creature you don't control dies, return it under your control at the beginning of the next end step') created its delayed ability, but the return never happened, even turns later.",
 ["603.7a", "603.7b", "603.7e"], "full", ["mtg.delayed-trigger", "mtg.delayed-controller"],
 scen(P12, "P1", [obj("GB", "P1", abilities=[ab("A1", dies(controller="opponent", type="creature"), [{"do": "create_delayed", "ability": {"id": "X1", "text": "At the beginning of the next end step, return C2 to the battlefield under your control.", "trigger": sig("end_step"), "effect": [mv("C2", "graveyard", "field"), {"do": "gain_control", "object": "C2", "player": "P1"}]}}], text="Whenever a creature you don't control dies, return it under your control at the beginning of the next end step.")], **CREATURE),
                  obj("C2", "P2", **CREATURE)],
      [("main", [("P1", [mv("C2", "field", "graveyard")])]), ("end", [("P1", [say("end_step")])])]),
 {"triggers": {"X1": 1}, "controller": {"X1": "P1"}},
 note="'It' is the creature that died; with one creature dying, the delayed ability names it.")

report("br-xmage-12932-until-end-of-your-next-turn", "XMage", "https://github.com/magefree/mage/issues/12932",
 "Delayed triggered abilities don't support 'next turn' durations",
 "Season of the Bold creates 'until the end of your next turn, whenever you cast a spell, ...'; the delayed ability kept triggering after its duration had ended.",
 ["603.7b", "611.2b"], "partly", ["mtg.delayed-trigger"],
 turns(scen(P12, "P1", [obj("SB", "P1", abilities=[ab("A1", sig("s"), [{"do": "create_delayed", "duration": "until_your_next_turn", "ability": {"id": "X1", "text": "Whenever you cast a spell, ...", "trigger": sig("cast"), "effect": [say("bold")]}}], text="Stands for the spell: create the delayed ability X1.")])],
      [("main", [("P1", [say("s")]), ("P1", [say("cast")])]), ("main", [("P2", [say("cast")])]), ("main", [("P1", [say("cast")])]), ("main", [("P1", [say("cast")])])]), [1, 2, 3, 5]),
 {"triggers": {"X1": 2}},
 approximated=["'until the end of your next turn' is 'until your next turn'", "the spell that creates the delayed ability is a triggered ability"],
 missing=["delayed duration 'until the end of your next turn'", "spells that create delayed abilities"])

report("br-phase-3179-declined-optional-reflexive", "phase.rs", "https://github.com/phase-rs/phase/pull/3197",
 "fix(engine): declined optional trigger must not fire its reflexive (#3179)",
 "Swashbuckler Extraordinaire ('you may sacrifice one or more Treasures; when you do, ...') ran its reflexive 'when you do' ability even when its controller declined, and then asked for targets it did not have.",
 ["603.12", "603.5"], "full", ["mtg.reflexive", "mtg.optional-on-resolution"],
 scen(P12, "P1", [obj("SE", "P1", abilities=[ab("A1", sig("attacks"), [mv("TR", "field", "graveyard"), {"do": "reflexive", "ability": {"id": "R1", "text": "When you do, target creatures gain double strike.", "trigger": dies("TR"), "effect": [say("double_strike")]}}], text="Whenever this attacks, you may sacrifice a Treasure. When you do, ...", optional=True)], **CREATURE),
                  obj("TR", "P1", token=True, types=["artifact"])],
      [("declare_attackers", [("P1", [say("attacks")])])], choices={"optional": {"A1": False}}),
 {"triggers": {"R1": 0}})

report("br-phase-7511-reflexive-parent-did-nothing", "phase.rs", "https://github.com/phase-rs/phase/issues/7511",
 "Reflexive 'when you do' fires when its mandatory parent did nothing (Cemetery Desecrator)",
 "Cemetery Desecrator ('exile another card from a graveyard; when you do, ...') ran its reflexive ability with every graveyard empty, when nothing had been exiled.",
 ["603.12"], "full", ["mtg.reflexive"],
 scen(P12, "P1", [obj("CD", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [mv("GX", "graveyard", "exile"), {"do": "reflexive", "ability": {"id": "R1", "text": "When you do, choose one ...", "trigger": {"event": "zone_change", "subject": "GX", "to": "exile"}, "effect": [say("mode")]}}], text="When this creature enters, exile another card from a graveyard. When you do, ...")], **CREATURE),
                  obj("GX", "P2", "deck")],
      [("main", [("P1", [mv("CD", "hand", "field")])])]),
 {"triggers": {"R1": 0}})

report("br-xmage-12253-delayed-after-leaving", "XMage", "https://github.com/magefree/mage/pull/12253",
 "cleanup DelayedTriggeredAbility on player leave",
 "A delayed triggered ability whose controller had left the game could still trigger; 800.4 says an ability a departed player would control is not put on the stack.",
 ["800.4a", "603.7"], "full", ["mtg.player-leaves"],
 scen(["P1", "P2", "P3"], "P1", [obj("C2", "P2", abilities=[ab("A1", sig("s1"), [{"do": "create_delayed", "ability": {"id": "X1", "text": "At the beginning of the next end step, each opponent loses 1 life.", "trigger": sig("end_step"), "effect": [{"do": "life", "player": "P1", "amount": -1}]}}], text="Whenever s1 happens, create the delayed ability X1.")])],
      [("main", [("P1", [say("s1")]), ("P1", [{"do": "concede", "player": "P2"}])]), ("end", [("P1", [say("end_step")])])]),
 {"triggers": {"X1": 0}})

# ---- Control (603.3a, 603.7e) ----------------------------------------------------------------------------------------
report("br-xmage-6806-flickered-strix-controller", "XMage", "https://github.com/magefree/mage/issues/6806",
 "ETB trigger problem (Baleful Strix flickered from an opponent's control)",
 "Baleful Strix, the reporter's own card that an opponent controlled with an Aura, was flickered back under the reporter's control; its 'when this enters, draw a card' ability was still controlled by the opponent.",
 ["603.3a", "400.7", "110.2"], "full", ["mtg.trigger-controller"],
 scen(P12, "P1", [obj("BS", "P1", controller="P2", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [say("draw")], text="When this creature enters, draw a card.")], **CREATURE)],
      [("main", [("P1", [mv("BS", "field", "exile"), mv("BS", "exile", "field")])])]),
 {"controller": {"A1": "P1"}},
 note="The card starts under P2's control (standing for the Aura's control effect, which ends as it leaves, 400.7).")

report("br-forge-1157-untap-then-gain-control", "Forge", "https://github.com/Card-Forge/forge/issues/1157",
 "Differ between control, untap, haste effects",
 "An effect that untaps a creature and then gains control of it made the creature's 'whenever this becomes untapped' ability, waiting to go on the stack, take the new controller; it triggered under the old one.",
 ["603.3a"], "full", ["mtg.trigger-controller"],
 scen(P12, "P1", [obj("C2", "P2", abilities=[ab("A1", sig("untap", subject="self"), [say("untapped")], text="Whenever this creature becomes untapped, ...")], **CREATURE)],
      [("main", [("P1", [say("untap", subject="C2"), {"do": "gain_control", "object": "C2", "player": "P1"}])])]),
 {"controller": {"A1": "P2"}},
 note="'Becomes untapped' (a 'becomes' event, 603.2e) is a named signal about C2.")

# ---- State triggers, once per event, additional triggers ---------------------------------------------------------------
report("br-forge-1125-olivia-state-triggers", "Forge", "https://github.com/Card-Forge/forge/issues/1125",
 "State trigger from Olivia, Crimson Bride might trigger more than once",
 "Several creatures returned by Olivia each have 'when you don't control a legendary Vampire, exile this creature'; with more than one, the state triggers could trigger again while already on the stack.",
 ["603.8"], "full", ["mtg.state-trigger"],
 scen(P12, "P1", [obj("OL", "P1", **CREATURE)]
      + [obj(f"V{k}", "P1", abilities=[ab(f"A{k}", {"event": "state", "state": {"test": "not_in_zone", "object": "OL", "zone": "field"}}, [mv(f"V{k}", "field", "exile")], text="When you don't control a legendary Vampire, exile this creature.")], **CREATURE) for k in (1, 2)],
      [("main", [("P1", [mv("OL", "field", "graveyard")])])]),
 {"triggers": {"A1": 1, "A2": 1}})

report("br-forge-4633-one-or-more-sacrificed", "Forge", "https://github.com/Card-Forge/forge/issues/4633",
 "'One or more' triggers that reuse the singular type have become more problematic",
 "Blood Hypnotist ('whenever you sacrifice one or more Blood tokens, ...') triggered twice when two Blood tokens were sacrificed at the same time; 'one or more' triggers once per event.",
 ["603.2c"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("BH", "P1", abilities=[ab("A1", dies(controller="you", type="artifact", batch=True), [say("cant_block")], text="Whenever you sacrifice one or more Blood tokens, target creature can't block this turn.")], **CREATURE),
                  obj("B1", "P1", token=True, types=["artifact"]), obj("B2", "P1", token=True, types=["artifact"])],
      [("main", [("P1", [together(["B1", "B2"], "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="Sacrificing is the only way the tokens leave, so 'dies' stands for 'you sacrifice'; the card's 'triggers only once each turn' plays no part in one event.")

report("br-xmage-11686-welcoming-vampire", "XMage", "https://github.com/magefree/mage/issues/11686",
 "Welcoming Vampire can trigger more than once and/or for each creature entering",
 "Welcoming Vampire ('whenever one or more other creatures with power 2 or less enter under your control, draw a card; this ability triggers only once each turn') triggered once per token when it left the battlefield as the tokens entered.",
 ["603.2c", "603.6a", "603.10"], "partly", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("WV", "P1", abilities=[ab("A1", {"event": "enter", "subject": "other", "type": "creature", "controller": "you", "batch": True}, [say("draw")], text="Whenever one or more other creatures with power 2 or less you control enter, draw a card. This ability triggers only once each turn.", once_each_turn=True)], **CREATURE)]
      + [obj(f"T{k}", "P1", "hand", token=True, **CREATURE) for k in (1, 2, 3)],
      [("main", [("P1", [{"do": "move_each", "moves": [{"object": "WV", "to": "graveyard"}] + [{"object": f"T{k}", "to": "field"} for k in (1, 2, 3)]}])])]),
 {"triggers": {"A1": 0}},
 approximated=["'this ability triggers only once each turn' is 603.2h's 'do this only once each turn' (once_each_turn)", "the tokens created as Welcoming Vampire leaves, in one event, are cards put onto the battlefield from a hand in that event (create_token creates tokens in an event of their own)"],
 missing=["'triggers only once each turn' (apart from 603.2h)", "tokens created in the same event as another permanent's zone change"])

report("br-xmage-13455-artillerist-panharmonicon", "XMage", "https://github.com/magefree/mage/issues/13455",
 "Ingenious Artillerist not getting doubled by Panharmonicon",
 "Panharmonicon did not make Ingenious Artillerist's 'whenever one or more artifacts you control enter, ...' trigger an additional time, because it only watched single enter events, not batches.",
 ["603.2d", "603.2c"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("PH", "P1", types=["artifact"], additional_triggers={"times": 1, "event": "enter"}),
                  obj("IA", "P1", abilities=[ab("A1", {"event": "enter", "type": "artifact", "controller": "you", "batch": True}, [{"do": "damage", "source": "IA", "player": "P2", "amount": 1}], text="Whenever one or more artifacts you control enter, this deals that much damage to each opponent.")], **CREATURE)]
      + [obj(f"T{k}", "P1", "hand", types=["artifact"]) for k in (1, 2)],
      [("main", [("P1", [together(["T1", "T2"], "hand", "field")])])]),
 {"triggers": {"A1": 2}})

# ---- Zone, source and spells ----------------------------------------------------------------------------------------------
report("br-xmage-9339-see-red-from-hand", "XMage", "https://github.com/magefree/mage/issues/9339",
 "See Red: the 'at the beginning of your end step' trigger triggers in hand and library",
 "See Red's end step ability was set up as a delayed ability, so every copy in the hand and library triggered; an Aura's printed ability works only on the battlefield.",
 ["113.6", "603.2"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("SR1", "P1", abilities=[ab("A1", sig("end_step"), [say("sacrifice_unless")], text="At the beginning of your end step, ...")], types=["enchantment"]),
                  obj("SR2", "P1", "hand", abilities=[ab("A2", sig("end_step"), [say("sacrifice_unless")], text="At the beginning of your end step, ...")], types=["enchantment"]),
                  obj("SR3", "P1", "deck", abilities=[ab("A3", sig("end_step"), [say("sacrifice_unless")], text="At the beginning of your end step, ...")], types=["enchantment"])],
      [("end", [("P1", [say("end_step")])])]),
 {"triggers": {"A1": 1, "A2": 0, "A3": 0}})

report("br-phase-8133-winota-etb", "phase.rs", "https://github.com/phase-rs/phase/issues/8133",
 "Winota, Joiner of Forces: creatures put onto the battlefield don't trigger their enters abilities",
 "Human creatures Winota's attack trigger puts onto the battlefield did not trigger their own 'when this creature enters' abilities.",
 ["603.6a", "603.2"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("WI", "P1", abilities=[ab("A1", sig("attacks"), [mv("HU", "deck", "field")], text="Whenever a non-Human creature you control attacks, you may put a Human creature card from the top six onto the battlefield.")], **CREATURE),
                  obj("HU", "P1", "deck", abilities=[ab("A2", {"event": "enter", "subject": "self"}, [say("etb")], text="When this creature enters, ...")], **CREATURE)],
      [("declare_attackers", [("P1", [say("attacks")])])]),
 {"triggers": {"A2": 1}})

report("br-phase-1320-journey-to-nowhere", "phase.rs", "https://github.com/phase-rs/phase/issues/1320",
 "Journey to Nowhere: 'when this enchantment leaves the battlefield, return the exiled card'",
 "Journey to Nowhere's leaves-the-battlefield ability did not return the creature its enters ability had exiled: the two abilities were not linked.",
 ["607.2a", "603.6c", "610.3"], "partly", ["mtg.resolution-effect"],
 scen(P12, "P1", [obj("JN", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [{"do": "move_target", "to": "exile"}], text="When this enchantment enters, exile target creature.", target={"candidates": ["C2"]}),
                                       ab("A2", {"event": "leave", "subject": "self"}, [mv("C2", "exile", "field")], text="When this enchantment leaves the battlefield, return the exiled card to the battlefield under its owner's control.")], types=["enchantment"]),
                  obj("C2", "P2", **CREATURE)],
      [("main", [("P1", [mv("JN", "hand", "field")]), ("P1", [mv("JN", "field", "graveyard")])])]),
 {"triggers": {"A2": 1}},
 approximated=["'the exiled card' (a linked ability, 607) is the card the scenario names"],
 missing=["linked abilities (607): 'the card exiled with this'"])

report("br-phase-7629-duskmantle-from-anywhere", "phase.rs", "https://github.com/phase-rs/phase/issues/7629",
 "Duskmantle Guildmage: first ability only triggers when a card enters a graveyard from play",
 "Duskmantle Guildmage's activated ability creates 'whenever a card is put into an opponent's graveyard from anywhere this turn, that player loses 1 life'; it triggered only for cards coming from the battlefield, not for milled cards.",
 ["603.6a", "603.7", "603.10a"], "partly", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("DG", "P1", abilities=[ab("A1", {"event": "zone_change", "to": "graveyard", "controller": "opponent"}, [{"do": "life", "player": "P2", "amount": -1}], text="Whenever a card is put into an opponent's graveyard from anywhere, that player loses 1 life.")], **CREATURE),
                  obj("L1", "P2", "deck"), obj("C2", "P2", **CREATURE)],
      [("main", [("P1", [mv("L1", "deck", "graveyard")]), ("P1", [mv("C2", "field", "graveyard")])])]),
 {"triggers": {"A1": 2}},
 approximated=["the delayed ability an activated ability creates for the turn is a printed ability", "'an opponent's graveyard' is 'a card an opponent controls (off the battlefield: owns)'"],
 missing=["activated abilities and their costs", "ownership filters ('put into an opponent's graveyard')", "trigger filters on delayed abilities"])

report("br-xmage-13644-leaver-spell-resolves", "XMage", "https://github.com/magefree/mage/issues/13644",
 "Spell cast from player who has lost still resolved",
 "A player lost while their Kodama's Reach was still on the stack under other spells and abilities; the spell still resolved, though a departed player's objects leave the game with them (800.4a).",
 ["800.4a", "608.2"], "full", ["mtg.player-leaves", "mtg.spell-resolution"],
 scen(["P1", "P2", "P3"], "P2", [obj("KD", "P1", abilities=[ab("A1", {"event": "cast"}, [{"do": "life", "player": "P2", "amount": -20}], text="Whenever an opponent casts a spell, that player loses 20 life.")]),
                  obj("KR", "P2", "hand", spell={"effect": [say("search")]})],
      [("main", [("P2", [{"do": "cast", "object": "KR"}])])]),
 {"spell_not_resolved": ["KR"]})

report("br-xmage-1600-target-player-left", "XMage", "https://github.com/magefree/mage/issues/1600",
 "Spells targeting players continue resolving even when those players leave the game",
 "Storm copies of Tendrils of Agony kept resolving against a player who had already lost to the earlier copies; with its only target gone (800.4a) each further copy must not resolve.",
 ["800.4a", "608.2b", "115.1"], "partly", ["mtg.no-legal-target", "mtg.player-leaves"],
 scen(["P1", "P2", "P3"], "P1", [obj(f"O{k}", "P1", abilities=[ab(f"A{k}", sig("storm"), [{"do": "life", "target": True, "amount": -5}, {"do": "life", "player": "P1", "amount": 5}], text="Target player loses 5 life and you gain 5 life.", target={"players": ["P2"]})]) for k in (1, 2, 3)],
      [("main", [("P1", [say("storm")])])], choices={"trigger_order": ["A1", "A2", "A3"]}, life={"P2": 10}),
 {"removed": {"A3": "illegal_target"}},
 approximated=["storm copies of a spell are triggered abilities"],
 missing=["copies of spells"])

report("br-xmage-12684-drowner-countered", "XMage", "https://github.com/magefree/mage/issues/12684",
 "Drowner of Truth doesn't make tokens if counterspelled",
 "Drowner of Truth's cast trigger ('when you cast this spell, if mana from an Eldrazi was spent, create two tokens') did nothing once the spell had been countered; it is independent of the spell.",
 ["603.4", "113.7a", "601.2i"], "partly", ["mtg.independent-of-source", "mtg.spell-resolution"],
 scen(P12, "P1", [obj("DT", "P1", "hand", spell={"effect": [say("creature")], "permanent": True}, abilities=[ab("A1", {"event": "cast", "subject": "self"}, [say("tokens")], text="When you cast this spell, if mana from an Eldrazi was spent to cast it, create two Eldrazi Spawn tokens.", active_in=["stack"])], **CREATURE),
                  obj("CS", "P2", abilities=[ab("A2", {"event": "cast", "subject": "DT"}, [{"do": "counter", "object": "DT"}], text="Whenever DT is cast, counter it (standing for a Counterspell in response).")])],
      [("main", [("P1", [{"do": "cast", "object": "DT"}])])]),
 {"resolved": ["A2", "A1"]},
 approximated=["the intervening 'if' about the mana spent is left out", "the Counterspell in response is the opponent's cast trigger"],
 missing=["conditions about how a spell was cast (mana spent)", "players responding to spells and abilities on the stack"])

report("br-forge-7498-sigil-of-sleep", "Forge", "https://github.com/Card-Forge/forge/issues/7498",
 "On-damage trigger still occurring when the source of the trigger left the battlefield",
 "Sigil of Sleep ('whenever enchanted creature deals damage to a player, ...') still triggered when the creature's damage ability resolved after the creature, and so the Aura, had left the battlefield.",
 ["603.2", "113.6", "603.10"], "partly", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("NK", "P2", abilities=[ab("A1", sig("draw"), [{"do": "damage", "source": "NK", "player": "P1", "amount": 1}], text="Whenever an opponent draws a card, this deals 1 damage to that player.")], **CREATURE),
                  obj("SG", "P2", abilities=[ab("A2", {"event": "damage", "subject": "NK", "player": "opponent"}, [say("bounce")], text="Whenever enchanted creature deals damage to a player, ...")], types=["enchantment"]),
                  obj("SW", "P1", abilities=[ab("A3", {"event": "ability_stacked", "subject": "NK"}, [together(["NK", "SG"], "field", "exile")], text="Stands for Swords to Plowshares in response: exile NK (its Aura goes too).")])],
      [("draw", [("P1", [say("draw")])])]),
 {"triggers": {"A2": 0}, "resolved": ["A3", "A1"]},
 approximated=["'enchanted creature' is the creature the scenario names", "the Aura leaving as a state-based action is part of the same exile"],
 missing=["Auras and attachment ('enchanted creature')", "players responding to spells and abilities on the stack"])

# ---- Not expressible ------------------------------------------------------------------------------------------------------
report("br-xmage-13082-exile-until-leaves", "XMage", "https://github.com/magefree/mage/issues/13082",
 "'Exile until ~ leaves the battlefield' triggers too late",
 "A card exiled 'until Glorious Protector leaves the battlefield' came back only after the whole resolution that made the Protector leave, so it missed the lands that resolution put onto the battlefield; the return is part of the leaving, not a later trigger.",
 ["610.3c", "603.2", "603.6a"], "no",
 missing=["'until this leaves the battlefield' durations (610.3c)"])

report("br-xmage-11133-lose-control-controller", "XMage", "https://github.com/magefree/mage/issues/11133",
 "Abilities that trigger on control change have wrong controller",
 "Abilities that trigger when a player loses control of a permanent (Kharn the Betrayer) were given the new controller; they look back in time, so the player who lost control controls them.",
 ["603.10a", "603.3a"], "no",
 missing=["losing control as a trigger event (it looks back, 603.10a)"])

report("br-xmage-5152-snuffers-counters", "XMage", "https://github.com/magefree/mage/issues/5152",
 "Abilities where it matters who triggered the ability not resolving correctly",
 "Soul Snuffers' ability, triggered under one player's control, put -1/-1 counters after control of the creature had changed back; the counters were treated as put by the owner and triggered Hapatra ('whenever you put one or more -1/-1 counters on a creature, ...').",
 ["603.3a", "603.2", "122"], "no",
 missing=["counters (putting counters as an event)", "the player who performs an effect as the event's player"])

report("br-xmage-1123-heretical-healer-new-object", "XMage", "https://github.com/magefree/mage/issues/1123",
 "Liliana, Heretical Healer",
 "With several of Liliana's 'exile her, then return her transformed; if you do, create a Zombie' abilities on the stack, each resolution made a Zombie; after the first, she is a new object and the rest do nothing.",
 ["400.7", "603.6", "701.27"], "no",
 missing=["an object becoming a new object across zone changes inside an effect (400.7)", "'if you do' riders"])

report("br-forge-1260-panharmonicon-triggers-once", "Forge", "https://github.com/Card-Forge/forge/pull/1260",
 "Panharmonicon + 'triggers only once'",
 "An effect making an ability trigger an additional time let an ability that 'triggers only once each turn' trigger twice.",
 ["603.2d", "603.2i"], "no",
 missing=["'triggers only once each turn' (apart from 603.2h)"])

report("br-xmage-7095-cast-trigger-sacrificed-cost", "XMage", "https://github.com/magefree/mage/issues/7095",
 "'On cast' trigger abilities triggering even when the permanent has left the battlefield",
 "Young Pyromancer ('whenever you cast an instant or sorcery spell, ...') triggered for Village Rites though it had been sacrificed to pay that spell's cost; cast triggers are checked once casting, costs included, is done.",
 ["601.2i", "601.2h", "603.2"], "no",
 missing=["costs paid while casting (sacrifice as a cost)", "activated abilities and their costs"])

report("br-xmage-8067-attacking-dies", "XMage", "https://github.com/magefree/mage/issues/8067",
 "Kithkin Mourncaller doesn't trigger when an attacking Elf or Kithkin dies",
 "'Whenever an attacking Kithkin or Elf is put into your graveyard from the battlefield' did not trigger, because the last known information of the dead creature did not record it as attacking.",
 ["603.10a", "506.4"], "no",
 missing=["combat status (attacking, blocking) read looking back"])


def phase_result(path):
    """Play one scenario file through phase.rs's adapter (`trigger-conformance check --engine phase`): played (every
    rule passed), failed (a rule failed: its keys), or skipped with the adapter's reason."""
    import subprocess
    run = subprocess.run([os.path.join(os.path.dirname(sys.executable), "trigger-conformance"), "check", "--engine",
                          "phase", path], capture_output=True, text=True, timeout=300)
    skipped = [line.split("skipped: ", 1)[1] for line in run.stdout.splitlines() if "gave no trace: skipped: " in line]
    if skipped:
        return {"status": "skipped", "reason": skipped[0].removeprefix("phase adapter: ")[:240]}
    if run.returncode == 0:
        return {"status": "played"}
    failed = sorted({w for line in run.stdout.splitlines() if line.strip().startswith("FAIL") for w in line.split() if w.startswith("mtg.")})
    return {"status": "failed", "rules": failed, "reason": (run.stdout + run.stderr).strip().splitlines()[-1][:240]}


if __name__ == "__main__" and sys.argv[1:2] == ["--phase"]:
    out = sys.argv[2]
    path = os.path.join(out, "reports.json")
    doc = json.load(open(path))
    for rec in doc["reports"]:
        if "scenario" in rec:
            rec["phase"] = phase_result(os.path.join(out, rec["scenario"]))
            print(rec["id"], rec["phase"]["status"])
    with open(path, "w") as f:
        f.write(dump_json(doc))
elif __name__ == "__main__":
    out = sys.argv[1]
    index = []
    for rec, scenario in REPORTS:
        if scenario is not None:
            validate(scenario, "scenario", rec["id"])
            rec = dict(rec, scenario=rec["id"] + ".json")
            with open(os.path.join(out, rec["id"] + ".json"), "w") as f:
                f.write(dump_json(scenario))
        index.append(rec)
    old = {}
    path = os.path.join(out, "reports.json")
    if os.path.exists(path):  # keep the recorded phase results
        old = {r["id"]: r.get("phase") for r in json.load(open(path))["reports"]}
    for rec in index:
        if old.get(rec["id"]):
            rec["phase"] = old[rec["id"]]
    with open(path, "w") as f:
        f.write(dump_json({"about": "Public trigger bug reports written as MTG scenarios (issue 22 item 7); written by tests/bug_report_sources.py, phase results by tests/bug_report_sources.py --phase; see docs/engines/bug-reports.md.", "reports": index}))
    print(len(index), "reports,", sum(1 for r in index if "scenario" in r), "scenarios")
