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
 missing=["activated abilities creating delayed triggered abilities", "ownership filters ('put into an opponent's graveyard')", "trigger filters on delayed abilities"])

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
 missing=["costs paid while casting (sacrifice as a cost)"])

report("br-xmage-8067-attacking-dies", "XMage", "https://github.com/magefree/mage/issues/8067",
 "Kithkin Mourncaller doesn't trigger when an attacking Elf or Kithkin dies",
 "'Whenever an attacking Kithkin or Elf is put into your graveyard from the battlefield' did not trigger, because the last known information of the dead creature did not record it as attacking.",
 ["603.10a", "506.4"], "no",
 missing=["combat status (attacking, blocking) read looking back"])


# =====================================================================================================================
# Second collection (issue 31 item 3): 30 more public reports, none of them in the first collection or cited anywhere
# else in the repository, graded by the same rules.
# ---- Delayed abilities (603.7) -----------------------------------------------------------------------------------
report("br-phase-2850-disorder-in-the-court", "phase.rs", "https://github.com/phase-rs/phase/issues/2850",
 "Disorder in the Court: exiled creatures never return at next end step (delayed return trigger missing)",
 "Disorder in the Court exiles creatures and says to return them at the beginning of the next end step; the spell's own delayed return ability was never created, so the exiled creatures stayed in exile.",
 ["603.7a", "603.7d", "608.2"], "full", ["mtg.delayed-trigger", "mtg.resolution-effect"],
 scen(P12, "P1", [obj("DC", "P1", "hand", spell={"effect": [{"do": "move_target", "to": "exile"}, {"do": "create_delayed", "ability": {"id": "X1", "text": "At the beginning of the next end step, return the exiled card to the battlefield under its owner's control.", "trigger": sig("end_step"), "effect": [mv("C2", "exile", "field")]}}], "target": {"candidates": ["C2"]}}),
                  obj("C2", "P2", abilities=[ab("A2", {"event": "enter", "subject": "self"}, [say("etb")], text="When this creature enters, ...")], **CREATURE)],
      [("main", [("P1", [{"do": "cast", "object": "DC"}])]), ("end", [("P1", [say("end_step")])])]),
 {"triggers": {"X1": 1, "A2": 1}},
 note="One target creature stands for X of them, and investigating plays no part; C2's own enters ability shows it came back.")

report("br-phase-478-flickerwisp-end-step-return", "phase.rs", "https://github.com/phase-rs/phase/issues/478",
 "flickerwisp: end step trigger doesn't return the exiled card at the next end step",
 "Flickerwisp's enters ability exiles another permanent and creates a delayed ability returning it at the beginning of the next end step; that delayed ability never triggered, so the card stayed exiled.",
 ["603.7a", "603.7b", "603.6a"], "full", ["mtg.delayed-trigger", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("FW", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [{"do": "move_target", "to": "exile"}, {"do": "create_delayed", "ability": {"id": "X1", "text": "At the beginning of the next end step, return that card to the battlefield under its owner's control.", "trigger": sig("end_step"), "effect": [mv("C2", "exile", "field")]}}], text="When this creature enters, exile another target permanent. Return that card to the battlefield under its owner's control at the beginning of the next end step.", target={"candidates": ["C2"]})], **CREATURE),
                  obj("C2", "P2", abilities=[ab("A2", {"event": "enter", "subject": "self"}, [say("etb")], text="When this creature enters, ...")], **CREATURE)],
      [("main", [("P1", [mv("FW", "hand", "field")])]), ("end", [("P1", [say("end_step")])])]),
 {"triggers": {"X1": 1, "A2": 1}})

report("br-magarena-978-ohran-viper", "Magarena", "https://github.com/magarena/magarena/issues/978",
 "Ohran Viper (Not Destroying creature at end of combat step, after the damage it be given)",
 "Ohran Viper ('whenever this deals combat damage to a creature, destroy that creature at end of combat') did not destroy the creature: no player got priority after combat damage, so the trigger that creates the delayed ability was not put on the stack in the combat damage step.",
 ["510.3", "603.3", "603.7a"], "full", ["mtg.stack-at-priority", "mtg.delayed-trigger"],
 scen(P12, "P1", [obj("OV", "P1", abilities=[ab("A1", {"event": "damage", "subject": "self"}, [{"do": "create_delayed", "ability": {"id": "X1", "text": "At end of combat, destroy that creature.", "trigger": sig("end_of_combat"), "effect": [mv("C2", "field", "graveyard")]}}], text="Whenever this creature deals combat damage to a creature, destroy that creature at end of combat.")], **CREATURE),
                  obj("C2", "P2", toughness=3, **CREATURE)],
      [("combat_damage", [("P1", [{"do": "damage", "source": "OV", "object": "C2", "amount": 1}])]), ("end_of_combat", [("P1", [say("end_of_combat")])])]),
 {"resolved_in_step": {"A1": 0}, "triggers": {"X1": 1}},
 note="The only damage OV deals is combat damage to a creature, so the trigger needs no filter on the damaged object; 'that creature' is the one creature it damaged.")

# ---- Leaving the battlefield, dying, look back (603.6c, 603.10a) --------------------------------------------------
report("br-phase-2838-nadiers-nightblade", "phase.rs", "https://github.com/phase-rs/phase/pull/2838",
 "fix(engine): Nadier's Nightblade triggers on creature tokens leaving",
 "Nadier's Nightblade ('whenever a token you control leaves the battlefield, each opponent loses 1 life and you gain 1 life') did not trigger for a creature token that died: the engine read the filter on the live object, which was gone, instead of looking back at it as it left.",
 ["603.10a", "603.6c", "111.7"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("NN", "P1", abilities=[ab("A1", {"event": "leave", "controller": "you"}, [{"do": "life", "player": "P2", "amount": -1}, {"do": "life", "player": "P1", "amount": 1}], text="Whenever a token you control leaves the battlefield, each opponent loses 1 life and you gain 1 life.")], **CREATURE),
                  obj("T1", "P1", token=True, **CREATURE), obj("T2", "P1", token=True, **CREATURE),
                  obj("KL", "P2", **CREATURE)],
      [("main", [("P1", [{"do": "damage", "source": "KL", "object": "T1", "amount": 1}]), ("P1", [mv("T2", "field", "exile")])])]),
 {"triggers": {"A1": 2}},
 note="Only tokens of P1 leave the battlefield here, so 'a permanent you control' stands for 'a token you control'; T1 dies to state-based actions after KL's damage, T2 is exiled.")

report("br-magarena-647-raving-oni-slave", "Magarena", "https://github.com/magarena/magarena/issues/647",
 "Raving Oni Slave triggering when other permanents leave the battlefield",
 "Raving Oni Slave ('when this enters or leaves the battlefield, you lose 3 life if you don't control a Demon') triggered when other permanents left the battlefield, not only when it did.",
 ["603.2", "603.6a", "603.6c"], "full", ["mtg.triggers-when-satisfied", "mtg.look-back"],
 scen(P12, "P1", [obj("RO", "P1", "hand", abilities=[ab("A1", {"event": "enter", "subject": "self"}, [{"do": "life", "player": "P1", "amount": -3}], text="When this creature enters, you lose 3 life if you don't control a Demon."),
                                       ab("A2", {"event": "leave", "subject": "self"}, [{"do": "life", "player": "P1", "amount": -3}], text="When this creature leaves the battlefield, you lose 3 life if you don't control a Demon.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("C2", "P1", "hand", **CREATURE)],
      [("main", [("P1", [mv("RO", "hand", "field")]), ("P1", [mv("C2", "hand", "field")]), ("P1", [mv("C1", "field", "graveyard")]), ("P1", [mv("RO", "field", "graveyard")])])]),
 {"triggers": {"A1": 1, "A2": 1}},
 note="No Demon is on the battlefield, so the 'if you don't control a Demon' checked on resolution always holds: the life loss stands for it.")

report("br-xmage-8515-meren-necromantic-selection", "XMage", "https://github.com/magefree/mage/issues/8515",
 "Meren doesn't trigger from deaths from Necromantic Selection",
 "Necromantic Selection destroyed every creature, Meren of Clan Nel Toth ('whenever another creature you control dies, you get an experience counter') among them; Meren did not trigger for the creatures that died with it, though it sees them die at the same time.",
 ["603.10a", "603.6c"], "full", ["mtg.look-back"],
 scen(P12, "P1", [obj("ME", "P1", abilities=[ab("A1", dies("other", controller="you", type="creature"), [say("experience")], text="Whenever another creature you control dies, you get an experience counter.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("C2", "P1", **CREATURE), obj("C3", "P2", **CREATURE)],
      [("main", [("P1", [together(["ME", "C1", "C2", "C3"], "field", "graveyard")])])]),
 {"triggers": {"A1": 2}})

report("br-xmage-4315-victimize-butcher", "XMage", "https://github.com/magefree/mage/issues/4315",
 "Victimize and 'whenever a creature dies' bug",
 "Victimize sacrificed a creature and then returned Butcher of Malakir ('whenever this or another creature you control dies, each opponent sacrifices a creature') from the graveyard in the same resolution; Butcher triggered for the creature sacrificed before it was on the battlefield.",
 ["603.2", "603.10a", "608.2"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("BM", "P1", "graveyard", abilities=[ab("A1", dies(controller="you", type="creature"), [say("opponent_sacrifices")], text="Whenever this creature or another creature you control dies, each opponent sacrifices a creature.")], **CREATURE),
                  obj("MS", "P1", **CREATURE), obj("C3", "P1", **CREATURE),
                  obj("VZ", "P1", "hand", spell={"effect": [mv("MS", "field", "graveyard"), mv("BM", "graveyard", "field")]})],
      [("main", [("P1", [{"do": "cast", "object": "VZ"}]), ("P1", [mv("C3", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="One returned card stands for Victimize's two; C3 dying later is the control: it does trigger Butcher.")

report("br-xmage-10610-game-keeper-sacrificed", "XMage", "https://github.com/magefree/mage/issues/10610",
 "Game Keeper Did Not Trigger on Sacrifice",
 "Game Keeper ('when this dies, you may exile it; if you do, ...') was sacrificed to the attack trigger of an opponent's Vaevictus Asmadi and its dies ability never triggered; maintainers linked other reports of dies abilities missed when an effect makes a player sacrifice.",
 ["603.6c", "603.10a", "701.17a"], "full", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("VA", "P1", abilities=[ab("A1", sig("attacks"), [{"do": "move_target", "to": "graveyard"}], text="Whenever this creature attacks, for each opponent, choose target permanent that player controls; that player sacrifices it. ...", target={"candidates": ["GK"]})], **CREATURE),
                  obj("GK", "P2", abilities=[ab("A2", dies("self"), [say("exile_reveal")], text="When this creature dies, you may exile it. If you do, reveal cards ...", optional=True)], **CREATURE)],
      [("declare_attackers", [("P1", [say("attacks")])])]),
 {"triggers": {"A2": 1}},
 note="The sacrifice is the effect putting GK into its owner's graveyard from the battlefield; what it reveals plays no part.")

report("br-xmage-3269-gate-to-the-afterlife", "XMage", "https://github.com/magefree/mage/issues/3269",
 "Gate to the Afterlife triggering on ETB instead of creature dying",
 "Gate to the Afterlife ('whenever a nontoken creature you control dies, you gain 1 life, then you may draw and discard') triggered when a nontoken creature entered the battlefield under its controller's control, not when one died.",
 ["603.2", "603.6c", "700.4"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("GA", "P1", abilities=[ab("A1", dies(controller="you", type="creature", nontoken=True), [{"do": "life", "player": "P1", "amount": 1}], text="Whenever a nontoken creature you control dies, you gain 1 life. Then you may draw a card. If you do, discard a card.")], **CREATURE),
                  obj("C1", "P1", "hand", **CREATURE)],
      [("main", [("P1", [mv("C1", "hand", "field")]), ("P1", [mv("C1", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="Gate to the Afterlife is an artifact; its card type plays no part (it never dies here), so it is a creature card like every other object.")

report("br-forge-3157-glissas-retriever", "Forge", "https://github.com/Card-Forge/forge/pull/3157",
 "Update glissas_retriever.txt",
 "Glissa's Retriever's 'when this dies' ability was scripted to trigger on the card being put into a graveyard from anywhere; it must trigger only when it goes there from the battlefield, not when it is discarded or milled.",
 ["700.4", "603.6c", "113.6"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("GR", "P1", "hand", abilities=[ab("A1", dies("self"), [say("exile_then_return")], text="Corrupted — When this creature dies, exile it. When you do, return up to X target cards from your graveyard to your hand ...")], **CREATURE)],
      [("main", [("P1", [mv("GR", "hand", "graveyard")]), ("P1", [mv("GR", "graveyard", "field")]), ("P1", [mv("GR", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="The discard must not trigger it; dying after it is returned must. The reflexive 'when you do' plays no part.")

report("br-phase-9151-carrot-cake-sacrifice", "phase.rs", "https://github.com/phase-rs/phase/pull/9151",
 "Fire a permanent's own 'when you sacrifice it' trigger (Carrot Cake, Ordeals)",
 "Carrot Cake ('when this enters and when you sacrifice it, create a Rabbit and scry 1') never triggered on its own sacrifice: the engine looked for the sacrificed object's abilities on the battlefield after it had left, where the rule looks back to just before.",
 ["603.10a", "603.6c", "701.17a"], "full", ["mtg.look-back"],
 scen(P12, "P1", [obj("CC", "P1", abilities=[ab("A1", dies("self"), [say("rabbit")], text="When you sacrifice this artifact, create a 1/1 white Rabbit creature token and scry 1.")], types=["artifact"])],
      [("main", [("P1", [mv("CC", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="Sacrificing is the only way it leaves here, so 'when this is put into a graveyard from the battlefield' stands for 'when you sacrifice it' (as for br-forge-4633); both look back (603.10a).")

# ---- Filters and events ---------------------------------------------------------------------------------------------
report("br-phase-1409-heroes-in-a-half-shell", "phase.rs", "https://github.com/phase-rs/phase/issues/1409",
 "Heroes in a Half Shell combat damage trigger does not fire",
 "Heroes in a Half Shell ('whenever one or more Mutants, Ninjas and/or Turtles you control deal combat damage to a player, put a +1/+1 counter on each of them and draw a card') never triggered: the engine had no trigger for a batch of creatures dealing combat damage to a player; it must trigger once for the damage event.",
 ["603.2c", "510.2", "120.2"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("HS", "P1", abilities=[ab("A1", {"event": "damage", "controller": "you", "type": "creature", "player": "opponent", "batch": True}, [say("counters_draw")], text="Whenever one or more Mutants, Ninjas, and/or Turtles you control deal combat damage to a player, put a +1/+1 counter on each of those creatures and draw a card.")], **CREATURE),
                  obj("M1", "P1", **CREATURE), obj("M2", "P1", **CREATURE)],
      [("combat_damage", [("P1", [{"do": "damage_together", "hits": [{"source": "M1", "player": "P2", "amount": 2}, {"source": "M2", "player": "P2", "amount": 3}]}])])]),
 {"triggers": {"A1": 1}},
 note="Every creature is a Mutant, Ninja or Turtle, and the combat damage is the only damage dealt, so 'creature' and 'damage' stand for the subtypes and 'combat damage' exactly.")

report("br-xmage-2806-healer-of-the-pride", "XMage", "https://github.com/magefree/mage/issues/2806",
 "Healer of the Pride triggers when opponent's creatures enter the battlefield",
 "Healer of the Pride ('whenever another creature enters the battlefield under your control, you gain 2 life') triggered for creatures entering under an opponent's control.",
 ["603.2", "603.6a"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("HP", "P1", abilities=[ab("A1", {"event": "enter", "subject": "other", "controller": "you", "type": "creature"}, [{"do": "life", "player": "P1", "amount": 2}], text="Whenever another creature you control enters, you gain 2 life.")], **CREATURE),
                  obj("C1", "P2", "hand", **CREATURE), obj("C2", "P1", "hand", **CREATURE)],
      [("main", [("P1", [mv("C1", "hand", "field")]), ("P1", [mv("C2", "hand", "field")])])]),
 {"triggers": {"A1": 1}},
 note="C1, P2's creature, enters under its owner's control (110.2); the active player's effect putting it there stands for P2 casting it.")

report("br-phase-2872-dragons-rage-channeler", "phase.rs", "https://github.com/phase-rs/phase/issues/2872",
 "Dragon's Rage Channeler: 'when you cast a noncreature spell' surveil fires on resolution instead of on cast",
 "Dragon's Rage Channeler ('whenever you cast a noncreature spell, surveil 1') triggered when the spell, cast from the graveyard with flashback, resolved instead of when it was cast, so its ability resolved after the spell rather than before it.",
 ["601.2i", "603.2", "603.3"], "partly", ["mtg.spell-resolution", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("DR", "P1", abilities=[ab("A1", {"event": "cast", "player": "you"}, [say("surveil")], text="Whenever you cast a noncreature spell, surveil 1.")], **CREATURE),
                  obj("PO", "P1", "hand", spell={"effect": [{"do": "damage", "player": "P2", "amount": 1}]}),
                  obj("WT", "P2", abilities=[ab("A2", {"event": "damage", "player": "you"}, [say("watch")], text="Whenever damage is dealt to you, ... (shows when the spell resolved).")], types=["enchantment"])],
      [("main", [("P1", [{"do": "cast", "object": "PO"}])])]),
 {"resolved": ["A1", "A2"]},
 approximated=["the spell is cast from a hand (the report's was cast from a graveyard with flashback)"],
 missing=["casting spells from a graveyard (flashback)"],
 note="PO has no card type, so it is a noncreature spell; its damage to P2 triggers P2's watcher WT, so the watcher's ability resolving after DR's shows DR's resolved before the spell.")

# ---- Partly expressible -----------------------------------------------------------------------------------------------
report("br-phase-2869-razorkin-needlehead", "phase.rs", "https://github.com/phase-rs/phase/issues/2869",
 "Razorkin Needlehead: opponent-draws trigger fires but deals 0 damage ('them' target unresolved)",
 "Razorkin Needlehead ('whenever an opponent draws a card, this deals 1 damage to them') triggered, but on resolution 'them', the player who drew, was not found, so no damage was dealt.",
 ["603.2", "608.2", "120.3"], "full", ["mtg.resolution-effect"],
 scen(P12, "P2", [obj("RN", "P1", abilities=[ab("A1", sig("draws", player="opponent"), [{"do": "damage", "source": "RN", "that_player": True, "amount": 1}], text="Whenever an opponent draws a card, this creature deals 1 damage to them.")], **CREATURE),
                  obj("WT", "P2", abilities=[ab("A2", {"event": "damage", "player": "you"}, [say("watch")], text="Whenever damage is dealt to you, ... (shows the damage was dealt).")], types=["enchantment"])],
      [("draw", [("P2", [say("draws")])])]),
 {"triggers": {"A1": 1, "A2": 1}},
 note="Drawing a card is the named signal 'draws' given by the player who draws (the signal's player, as a step or an attack is a signal elsewhere): 'them' is that player (that_player), read from the trigger event as phase.rs had to.")

report("br-xmage-4222-ongoing-investigation", "XMage", "https://github.com/magefree/mage/issues/4222",
 "Ongoing Investigation, Storm the Vault triggers at wrong time, wrong number of times",
 "Ongoing Investigation ('whenever one or more creatures you control deal combat damage to a player, investigate') triggered only in the postcombat main phase instead of the combat damage step, and only once when creatures damaged two different opponents, where it triggers once for each player.",
 ["603.2c", "510.2", "603.3"], "partly", ["mtg.stack-at-priority", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("OI", "P1", abilities=[ab("A1", {"event": "damage", "controller": "you", "type": "creature", "player": "opponent", "batch": True}, [say("investigate")], text="Whenever one or more creatures you control deal combat damage to a player, investigate.")], types=["enchantment"]),
                  obj("C1", "P1", **CREATURE), obj("C2", "P1", **CREATURE)],
      [("combat_damage", [("P1", [{"do": "damage_together", "hits": [{"source": "C1", "player": "P2", "amount": 1}, {"source": "C2", "player": "P2", "amount": 1}]}])]), ("main_2", [("P1", [say("postcombat")])])]),
 {"triggers": {"A1": 1}, "resolved_in_step": {"A1": 0}},
 approximated=["both creatures damage the same player: 'once for each player dealt damage' with several opponents is left out"],
 missing=["'one or more' batched per player (once for each player dealt damage)"])

report("br-xmage-8481-daretti-solemn", "XMage", "https://github.com/magefree/mage/issues/8481",
 "Solemn doesn't trigger on death - Daretti PW -2 ability",
 "Daretti, Scrap Savant's -2 ability ('sacrifice an artifact; if you do, return target artifact card from your graveyard to the battlefield') sacrificed Solemn Simulacrum, whose 'when this dies, you may draw a card' never triggered; sacrificed any other way it did.",
 ["603.6c", "603.10a", "608.2"], "partly", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("DS", "P1", abilities=[ab("A1", sig("activate"), [mv("SS", "field", "graveyard"), mv("SR", "graveyard", "field")], text="-2: Sacrifice an artifact. If you do, return target artifact card from your graveyard to the battlefield.")], types=["planeswalker"]),
                  obj("SS", "P1", abilities=[ab("A2", dies("self"), [say("draw")], text="When this creature dies, you may draw a card.", optional=True)], types=["artifact", "creature"]),
                  obj("SR", "P1", "graveyard", types=["artifact"])],
      [("main", [("P1", [say("activate")])])]),
 {"triggers": {"A2": 1}},
 approximated=["the planeswalker's loyalty ability (an activated ability) is a triggered ability on a named signal", "the sacrificed artifact and the target card are the cards the scenario names"],
 missing=["loyalty abilities (a cost of loyalty counters)"])

report("br-xmage-7672-goblin-welder", "XMage", "https://github.com/magefree/mage/issues/7672",
 "Abilities that trigger upon dying of artifacts sacrificed with Goblin Welder do not trigger",
 "Goblin Welder's ability sacrifices an artifact and returns an artifact card from the graveyard at the same time; Ancient Stone Idol and Wormcoil Engine sacrificed this way did not trigger their dies abilities, though they did when sacrificed by anything else.",
 ["603.6c", "603.10a", "608.2"], "partly", ["mtg.look-back", "mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("GW", "P1", abilities=[ab("A1", sig("activate"), [{"do": "move_each", "moves": [{"object": "AS", "from": "field", "to": "graveyard"}, {"object": "WC", "from": "graveyard", "to": "field"}]}], text="{T}: Choose target artifact a player controls and target artifact card in that player's graveyard. If both targets are still legal as this ability resolves, that player simultaneously sacrifices the artifact and returns the artifact card to the battlefield.")], **CREATURE),
                  obj("AS", "P1", abilities=[ab("A2", dies("self"), [say("token")], text="When this creature dies, create a 6/12 colorless Construct artifact creature token with trample.")], types=["artifact", "creature"]),
                  obj("WC", "P1", "graveyard", types=["artifact"])],
      [("main", [("P1", [say("activate")])])]),
 {"triggers": {"A2": 1}},
 approximated=["Goblin Welder's activated ability is a triggered ability on a named signal; its two targets are the cards the scenario names"],
 missing=["tap costs ({T}) and targets of activated abilities"])

report("br-forge-3666-one-with-the-kami", "Forge", "https://github.com/Card-Forge/forge/issues/3666",
 "Counter triggers improperly activating on opponent's actions",
 "Two abilities that should see only their controller's objects or actions triggered for an opponent's: One with the Kami ('whenever enchanted creature or another modified creature you control dies, ...') triggered when an opponent's creature died, and an opponent's Omarthis triggered on counters the reporter put on their own creature.",
 ["603.2", "603.10a"], "partly", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("OK", "P1", abilities=[ab("A1", dies(controller="you", type="creature"), [say("spirits")], text="Whenever enchanted creature or another modified creature you control dies, create X 1/1 colorless Spirit creature tokens.")], **CREATURE),
                  obj("C1", "P1", **CREATURE), obj("OM", "P2", **CREATURE)],
      [("main", [("P1", [mv("OM", "field", "graveyard")]), ("P1", [mv("C1", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 approximated=["'enchanted creature or another modified creature you control' is 'a creature you control' (every creature of the scenario is modified)", "the report's second ability, Omarthis's counters trigger, is left out"],
 missing=["counters (putting counters as an event)", "Auras and attachment ('enchanted creature')"],
 note="One with the Kami is an Aura; its card type plays no part (it never dies here), so it is a creature card like every other object. The moves are effects the active player's spells and abilities perform.")

report("br-xmage-5241-patron-of-the-nezumi", "XMage", "https://github.com/magefree/mage/issues/5241",
 "Patron of the Nezumi damages the controller instead of the owner",
 "Patron of the Nezumi ('whenever a permanent is put into an opponent's graveyard, that player loses 1 life'): an opponent's creature the reporter controlled went to its owner's graveyard, and the reporter lost the life instead of that opponent.",
 ["603.2", "400.3", "108.3"], "full", ["mtg.triggers-when-satisfied", "mtg.resolution-effect"],
 scen(P12, "P1", [obj("PN", "P1", abilities=[ab("A1", {"event": "zone_change", "from": "field", "to": "graveyard", "owner": "opponent"}, [{"do": "life", "that_player": True, "amount": -1}], text="Whenever a permanent is put into an opponent's graveyard, that player loses 1 life.")], **CREATURE),
                  obj("ST", "P2", controller="P1", **CREATURE)],
      [("main", [("P1", [mv("ST", "field", "graveyard")])])]),
 {"triggers": {"A1": 1}},
 note="ST is P2's card controlled by P1 (the control effect standing for Nighteyes the Desecrator's); it goes to its owner's graveyard (400.3), so 'that player' (that_player: the owner of a card put into a graveyard) is P2, whom mtg.resolution-effect requires to lose the life.")

# ---- Combat damage (second collection): not expressible until the word combat (issue 31) -----------------------------
report("br-xmage-3919-grenzo-noncombat", "XMage", "https://github.com/magefree/mage/issues/3919",
 "Grenzo, Havoc Raiser triggers from noncombat damage",
 "Grenzo, Havoc Raiser's 'whenever a creature you control deals combat damage to a player' triggered on noncombat damage (Zo-Zu the Punisher's).",
 ["510.2", "603.2", "120.2"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("GR", "P1", abilities=[ab("A1", {"event": "damage", "controller": "you", "type": "creature", "player": "opponent", "combat": True}, [say("goad")], text="Whenever a creature you control deals combat damage to a player, choose one: goad a creature that player controls, or exile the top card of their library.")], **CREATURE),
                  obj("ZZ", "P1", abilities=[ab("A2", {"event": "enter", "subject": "any", "type": "land"}, [{"do": "damage", "source": "ZZ", "player": "P2", "amount": 2}], text="Whenever a land enters, this deals 2 damage to that land's controller (P2).")], **CREATURE),
                  obj("LD", "P2", "hand", types=["land"])],
      [("main", [("P2", [mv("LD", "hand", "field")])]),
       ("combat_damage", [("P1", [{"do": "damage", "source": "ZZ", "player": "P2", "amount": 2, "combat": True}])])]),
 {"triggers": {"A1": 1, "A2": 1}},
 note="P2 plays LD: Zo-Zu's ability deals 2 noncombat damage to P2, which Grenzo's ability must not see; then Zo-Zu attacks P2 and deals 2 combat damage (the combat damage step's, a scripted action), which it sees once. 'To a player' is 'to an opponent': a creature deals combat damage only to the player it attacks, and Zo-Zu's damage goes to P2 here. Grenzo's modes play no part (a life gain stands in).")

report("br-xmage-4026-arcbound-slith-combat-only", "XMage", "https://github.com/magefree/mage/issues/4026",
 "Arcbound Slith currently triggers on any damage to a player, should trigger only on combat damage",
 "Arcbound Slith and several other cards used a 'deals damage to a player' trigger where the card says 'combat damage', so damage from an activated ability triggered them.",
 ["510.2", "603.2", "120.2"], "full", ["mtg.triggers-when-satisfied"],
 scen(P12, "P1", [obj("AS", "P1", abilities=[ab("A1", {"event": "damage", "subject": "self", "player": "opponent", "combat": True}, [say("counter")], text="Whenever this creature deals combat damage to a player, put a +1/+1 counter on it.")], **CREATURE)],
      [("main", [("P1", [{"do": "damage", "source": "AS", "player": "P2", "amount": 1}])]),
       ("combat_damage", [("P1", [{"do": "damage", "source": "AS", "player": "P2", "amount": 2, "combat": True}])])]),
 {"triggers": {"A1": 1}},
 note="The first action is the ability Viridian Longbow grants AS resolving ('this creature deals 1 damage to any target', P2 chosen; a scripted action stands for a spell or ability resolving): noncombat damage, which AS's ability must not see; then AS attacks P2 and deals 2 combat damage (the combat damage step's), which it sees once. The +1/+1 counter plays no part (a life gain stands in).")

# ---- Not expressible (second collection) --------------------------------------------------------------------------------
report("br-xmage-6261-heliod-lifelink-once", "XMage", "https://github.com/magefree/mage/issues/6261",
 "Heliod, Sun-Crowned Triggers",
 "A lifelink creature blocked by two creatures dealt damage to both at once; Heliod, Sun-Crowned's 'whenever you gain life' triggered twice, where the life gained from one source's simultaneous damage is one life-gain event.",
 ["702.15b", "119.9", "120.3f"], "no",
 missing=["lifelink: life gained from damage, one event per source"])

report("br-xmage-12089-verrak-sacrificed-cost", "XMage", "https://github.com/magefree/mage/issues/12089",
 "Sacrificing Verrak, Warped Sengir to an ability that also costs life to activate triggers Verrak when it shouldn't",
 "Verrak ('whenever you activate an ability that isn't a mana ability, if life was paid to activate it, ...') triggered for the ability it was itself sacrificed to pay for; once the ability is activated Verrak is no longer on the battlefield.",
 ["602.2", "603.2", "601.2h"], "no",
 missing=["abilities triggering on an ability being activated, reading its cost"])

report("br-xmage-12582-evoke-controller-sacrifices", "XMage", "https://github.com/magefree/mage/issues/12582",
 "Sacrifice from evoke doesn't resolve when control of creature changes",
 "An evoked creature's sacrifice trigger ('when this enters, if its evoke cost was paid, its controller sacrifices it') did nothing after control of the creature was exchanged; its current controller must sacrifice it.",
 ["702.74a", "701.17a", "603.3a"], "no",
 missing=["sacrifice as an action only a permanent's current controller performs (701.17a)"])

report("br-magarena-689-gravebane-zombie", "Magarena", "https://github.com/magarena/magarena/issues/689",
 "Gravebane Zombie still triggers 'when dies'",
 "Gravebane Zombie's replacement effect puts it on top of its owner's library instead of into the graveyard, yet 'whenever another creature dies' abilities still triggered for it.",
 ["614.1", "700.4", "603.2g"], "no",
 missing=["replacement effects (a death replaced by another destination, 614)"])

report("br-xmage-5825-trickster-removes-abilities", "XMage", "https://github.com/magefree/mage/issues/5825",
 "Merfolk Trickster vs Tibalt Devils death trigger",
 "A Devil token that had lost all its abilities to Merfolk Trickster still dealt its 'when this dies' damage; looking back, it had no such ability as it died.",
 ["603.10a", "613.1f"], "no",
 missing=["continuous effects that remove abilities"])

report("br-xmage-12579-hero-of-bretagard", "XMage", "https://github.com/magefree/mage/issues/12579",
 "Hero of Bretagard triggers when a creature is exiled by an opponent's Crib Swap",
 "Hero of Bretagard ('whenever you exile one or more cards from your hand and/or permanents from the battlefield, ...') triggered when an opponent's spell exiled the reporter's creature; only exiling done by its controller counts.",
 ["603.2", "603.2c"], "no",
 missing=["the player who performs an effect as the event's player"])

report("br-forge-4335-skullspore-nexus", "Forge", "https://github.com/Card-Forge/forge/issues/4335",
 "The Skullspore Nexus trigger uses wrong power",
 "The Skullspore Nexus's 'whenever one or more nontoken creatures you control die, create a token whose power and toughness are the greatest power among them' used a dead creature's power in the graveyard instead of its power as it last existed on the battlefield.",
 ["608.2h", "603.10a"], "no",
 missing=["power and toughness (last known information in an effect, 608.2h)"])

report("br-xmage-2684-eye-of-the-storm-flashback", "XMage", "https://github.com/magefree/mage/issues/2684",
 "Eye of the storm only triggers when spell has been cast from hand",
 "Eye of the Storm ('whenever a player casts an instant or sorcery card, exile it; ...') did not trigger for an instant cast from a graveyard with flashback, only for spells cast from a hand.",
 ["601.2", "702.34a", "603.2"], "no",
 missing=["casting spells from a graveyard (flashback)"])

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
