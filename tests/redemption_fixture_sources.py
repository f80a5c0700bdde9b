"""The scenarios of fixtures/redemption/*.json. Run ``python tests/redemption_fixture_sources.py`` from the repository
root to rewrite the fixtures: each expected trace is the reference engine's, and tests/test_redemption_fixtures.py
asserts the key outcome of each by hand (so a change in the engine that alters an outcome fails there)."""

from pathlib import Path
from reference_engine.kernel.choices import ScenarioChooser
from conformance.documents.json_io import dump_json
from conformance.documents.scenarios import prepare_scenario
from reference_engine.redemption.judge import REDEMPTION
from reference_engine.kernel.registry import reference_engine_for

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "redemption"
def card(id, owner, zone="field", abilities=(), **kw):
    return {"id": id, "owner": owner, "zone": zone, "abilities": list(abilities), **kw}
def ab(id, event, effect=(), **kw):
    trig = {"event": event}
    if event == "signal": trig["name"] = kw.pop("name", "s0")
    if "subject" in kw: trig["subject"] = kw.pop("subject")
    return {"id": id, "trigger": trig, **kw, "effect": list(effect)}
def sig(name): return {"do": "signal", "name": name}
def move(o, to): return {"do": "move", "object": o, "to": to}
def scen(players, active, objects, script, **extra):
    d = {"format": "trigger-conformance/scenario/1", "ruleset": "redemption", "edition": "reg-glossary",
         "players": players, "active_player": active, "objects": objects,
         "script": [{"step": s, "actions": [{"by": by, "effect": eff} for by, eff in acts]} for s, acts in script]}
    d.update(extra); return d

def write(fid, description, keys, scenario):
    scenario = {"id": fid, **scenario}
    ruleset, prepared = prepare_scenario(scenario, fid)
    trace = reference_engine_for(ruleset.name).run(prepared, ScenarioChooser(prepared))
    doc = {"format": "trigger-conformance/fixture/1", "id": fid, "description": description, "rule_keys": keys,
           "scenario": scenario, "expected_trace": trace}
    (OUT / f"{fid}.json").write_text(dump_json(doc))


def main() -> None:
    # TA.1
    write("ta1-triggers-on-situation",
          "A signal s0 triggers the abilities waiting for s0 on cards in play, not the one waiting for s1, and not the one "
          "on a card in hand; the trigger is held by the card's controller (P2 controls P1's card).",
          ["red.triggers-on-situation", "red.pending-then-activates"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", name="s0")]),
                card("C2", "P1", abilities=[ab("A2", "signal", name="s1")]),
                card("C3", "P1", "hand", abilities=[ab("A3", "signal", name="s0")]),
                card("C4", "P1", controller="P2", abilities=[ab("A4", "signal", name="s0")])],
               [("battle", [("P1", [sig("s0")])])]))
    # TA.2
    write("ta2-if-x-y-checks-on-play",
          "P1 plays C1 with two 'If X, Y' abilities: A1 (if C9 is in play: signal s1) holds and completes, A2 (if C9 is "
          "discarded: signal s2) fails and does nothing. Both activate as C1 is played; C2's ability triggered by the "
          "play waits until they are done, and so does the s1 trigger A4.",
          ["red.if-x-y-never-waits", "red.if-x-y-checks-now", "red.no-cutting-in"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", "hand", abilities=[
                    {"id": "A1", "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
                     "condition": {"test": "in_zone", "object": "C9", "zone": "field"}, "effect": [sig("s1")]},
                    {"id": "A2", "trigger": {"event": "play", "subject": "self"}, "checks_on_play": True,
                     "condition": {"test": "in_zone", "object": "C9", "zone": "graveyard"}, "effect": [sig("s2")]}]),
                card("C2", "P2", abilities=[ab("A3", "play", subject="any")]),
                card("C9", "P2", abilities=[ab("A4", "signal", name="s1"), ab("A5", "signal", name="s2")])],
               [("preparation", [("P1", [{"do": "play", "object": "C1"}])])]))
    # TA.3
    write("ta3-mandatory-discarded-still-activates",
          "C1's mandatory ability triggers on s0; in the same action C1 is discarded before it can activate. It still "
          "activates once the action is done.",
          ["red.mandatory-persists", "red.pending-then-activates"],
          scen(["P1", "P2"], "P1", [card("C1", "P1", abilities=[ab("A1", "signal", [sig("s1")], name="s0")])],
               [("battle", [("P1", [sig("s0"), move("C1", "graveyard")])])]))
    write("ta3-optional-discarded-does-not-activate",
          "The same with an optional ability: C1 is discarded before its turn, so it does not activate (removed, "
          "source_gone) and its holder is not asked.",
          ["red.optional-needs-card"],
          scen(["P1", "P2"], "P1", [card("C1", "P1", abilities=[ab("A1", "signal", [sig("s1")], name="s0", optional=True)])],
               [("battle", [("P1", [sig("s0"), move("C1", "graveyard")])])]))
    write("ta3-optional-set-aside-keeps-trigger",
          "C1's optional ability triggers on s0 and C1 is then moved to the set-aside area: it keeps its trigger, its "
          "holder is asked and it activates.",
          ["red.optional-needs-card", "red.optional-choice"],
          scen(["P1", "P2"], "P1", [card("C1", "P1", abilities=[ab("A1", "signal", [sig("s1")], name="s0", optional=True)])],
               [("battle", [("P1", [sig("s0"), move("C1", "set_aside")])])]))
    write("ta3-optional-control-lost",
          "C1's optional ability triggers for P1, then P2 gains control of C1: it is no longer controlled by its holder, "
          "so it does not activate.",
          ["red.optional-needs-card"],
          scen(["P1", "P2"], "P1", [card("C1", "P1", abilities=[ab("A1", "signal", name="s0", optional=True)])],
               [("battle", [("P1", [sig("s0"), {"do": "gain_control", "object": "C1", "player": "P2"}])])]))
    write("ta3-card-says-otherwise",
          "C1's mandatory ability says it ends once C1 is gone (ends_if_card_leaves); C1 is discarded before its turn, so "
          "it ends (card_left). C2's plain mandatory ability, whose card is also discarded, still activates.",
          ["red.mandatory-persists"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", name="s0", ends_if_card_leaves=True)]),
                card("C2", "P1", abilities=[ab("A2", "signal", name="s0")])],
               [("battle", [("P1", [sig("s0"), move("C1", "graveyard"), move("C2", "graveyard")])])]))
    write("ta3-negated-mandatory-ends",
          "Two mandatory abilities trigger on s0. P1's resolves first and negates P2's card C2: C2's pending mandatory "
          "trigger ends without activating.",
          ["red.negation-ends"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", [{"do": "negate", "object": "C2"}], name="s0")]),
                card("C2", "P2", abilities=[ab("A2", "signal", [sig("s1")], name="s0")])],
               [("battle", [("P1", [sig("s0")])])]))
    write("ta3-negated-ability-only",
          "Two mandatory abilities of P2's C2 (A2, A3) and P1's A1 trigger on s0. A1 resolves first (active player) and "
          "negates the one ability A2 of C2: A2's pending trigger ends without activating; A3, not negated, activates.",
          ["red.negation-ends", "red.effect-carried-out"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", [{"do": "negate", "object": "C2", "ability": "A2"}],
                                               name="s0")]),
                card("C2", "P2", abilities=[ab("A2", "signal", [sig("s1")], name="s0"),
                                            ab("A3", "signal", [sig("s2")], name="s0")])],
               [("battle", [("P1", [sig("s0")])])]))
    PHASE_END = (["P1", "P2"], "P1",
                 [card("C1", "P1", abilities=[ab("A1", "signal", [move("C2", "graveyard"), {"do": "end_phase"}], name="s0")]),
                  card("C2", "P2", abilities=[ab("A2", "signal", [sig("s1")], name="s0")])],
                 [("battle", [("P1", [sig("s0")]), ("P1", [sig("s1")])]), ("discard", [("P1", [sig("s2")])])])
    write("ta3-mandatory-lapses-at-phase-end",
          "P1's A1 discards C2, whose mandatory A2 is pending, and ends the battle phase. With mandatory_after_phase=lapse "
          "(the default) A2 lapses when the phase ends (expired); the battle phase's second action is skipped.",
          ["red.mandatory-after-phase", "red.mandatory-persists", "red.pending-then-activates"],
          scen(*PHASE_END))
    write("ta3-lapse-together-in-arising-order",
          "P1's A1 and P2's A2, A3 trigger together on s0; P2 chose A3 before A2. A1 goes first (active player), "
          "discards C2 and ends the phase: A2 and A3 lapse together at the phase end. They never took their turns, so "
          "the order P2 chose plays no part: the reference engine records simultaneous removals in the order the "
          "triggers arose (A2, then A3).",
          ["red.mandatory-after-phase"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", [move("C2", "graveyard"), {"do": "end_phase"}],
                                               name="s0")]),
                card("C2", "P2", abilities=[ab("A2", "signal", name="s0"), ab("A3", "signal", name="s0")])],
               [("battle", [("P1", [sig("s0")])])], choices={"trigger_order": ["A3", "A2"]}))
    write("ta3-mandatory-persists-past-phase",
          "The same under mandatory_after_phase=persist: A2 keeps waiting and activates at the start of the discard phase.",
          ["red.mandatory-after-phase", "red.mandatory-persists", "red.pending-then-activates"],
          scen(*PHASE_END, options={"mandatory_after_phase": "persist"}))
    # TA.4 / TA.5
    def seats(n, active, optional=False, declined=()):
        players = [f"P{k + 1}" for k in range(n)]
        objects = []
        order = []
        for k, p in enumerate(players):
            a, b = f"A{2 * k + 1}", f"A{2 * k + 2}"
            objects.append(card(f"{p}c1", p, abilities=[ab(a, "signal", name="s0", optional=optional)]))
            objects.append(card(f"{p}c2", p, abilities=[ab(b, "signal", name="s0", optional=optional)]))
            order += [b, a]  # every player prefers their second card's trigger first
        choices = {"trigger_order": order}
        if declined:
            choices["optional"] = {a: False for a in declined}
        return scen(players, active, objects, [("battle", [(active, [sig("s0")])])], choices=choices)
    write("ta4-active-player-first-2p",
          "Two players, P2 active: P2's two mandatory triggers (in P2's chosen order) resolve before P1's.",
          ["red.active-player-first", "red.mandatory-own-order"], seats(2, "P2"))
    write("ta4-active-player-first-3p",
          "Three players, P2 active: P2's mandatory triggers, then P3's, then P1's, each in its player's chosen order.",
          ["red.active-player-first", "red.mandatory-own-order"], seats(3, "P2"))
    write("ta4-active-player-first-4p",
          "Four players, P3 active: P3's mandatory triggers, then P4's, P1's and P2's, each in its player's chosen order.",
          ["red.active-player-first", "red.mandatory-own-order"], seats(4, "P3"))
    write("ta5-optional-active-player-first-3p",
          "Three players, P3 active, all triggers optional: P3 chooses first (in P3's order), then P1, then P2; P3 "
          "declines A6 and P2 declines A3.",
          ["red.optional-active-player-first", "red.optional-own-order", "red.optional-choice"],
          seats(3, "P3", optional=True, declined=("A3", "A6")))
    # TA.4 / TA.5: the order holds for triggers that are later negated or lapse (issue 9, the small input of TA.4)
    def neg(o): return {"do": "negate", "object": o}
    write("ta4-negated-later-3p",
          "Three players, P2 (the middle seat) active. Only the inactive players' cards trigger on s0: P1's A1 would "
          "negate P3's card, P3's A2 would negate P1's. In turn order from P2, P3 goes before P1: A2 resolves and "
          "negates C1, so A1 ends without activating. The order held for A1 although A1 never took its turn; seat "
          "order (P1 before P3) gives the opposite outcome.",
          ["red.active-player-first", "red.negation-ends"],
          scen(["P1", "P2", "P3"], "P2",
               [card("C1", "P1", abilities=[ab("A1", "signal", [neg("C3")], name="s0")]),
                card("C3", "P3", abilities=[ab("A2", "signal", [neg("C1")], name="s0")])],
               [("battle", [("P2", [sig("s0")])])]))
    write("ta4-lapsed-later-3p",
          "Three players, P2 active; P1's A1 and P3's A2 trigger together on s0, each discarding the other's card and "
          "ending the battle phase. P3's A2 goes first (turn order from P2): C1 is discarded and the phase ends, so "
          "P1's mandatory A1, whose card is gone, lapses (mandatory_after_phase=lapse) without its turn.",
          ["red.active-player-first", "red.mandatory-after-phase"],
          scen(["P1", "P2", "P3"], "P2",
               [card("C1", "P1", abilities=[ab("A1", "signal", [move("C3", "graveyard"), {"do": "end_phase"}],
                                               name="s0")]),
                card("C3", "P3", abilities=[ab("A2", "signal", [move("C1", "graveyard"), {"do": "end_phase"}],
                                               name="s0")])],
               [("battle", [("P2", [sig("s0")])])]))
    write("ta5-optional-negated-later-4p",
          "Four players, P3 active; optional triggers of P1 (A1, negating P4's card) and P4 (A2, negating P1's card) "
          "fire together on s0. Turn order from P3 is P4, P1, P2: P4 says yes and A2 negates C1, so P1 is never asked "
          "about A1.",
          ["red.optional-active-player-first", "red.optional-choice", "red.negation-ends"],
          scen(["P1", "P2", "P3", "P4"], "P3",
               [card("C1", "P1", abilities=[ab("A1", "signal", [neg("C4")], name="s0", optional=True)]),
                card("C4", "P4", abilities=[ab("A2", "signal", [neg("C1")], name="s0", optional=True)])],
               [("battle", [("P3", [sig("s0")])])]))
    write("ta3-optional-does-not-lapse",
          "P1's A1 discards C2, whose optional A2 is pending, and ends the battle phase. Only mandatory triggers lapse "
          "at the end of a phase: A2 keeps its turn, which comes first in the discard phase, and it is removed then "
          "because its card is gone (source_gone), without its holder being asked.",
          ["red.mandatory-after-phase", "red.optional-needs-card"],
          scen(["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "signal", [move("C2", "graveyard"), {"do": "end_phase"}],
                                               name="s0")]),
                card("C2", "P2", abilities=[ab("A2", "signal", [sig("s1")], name="s0", optional=True)])],
               [("battle", [("P1", [sig("s0")])]), ("discard", [("P1", [sig("s2")])])]))
    # TA.1 / TA.3: triggers on a change of control; who holds the card's own (option control_change_holder)
    CONTROL = (["P1", "P2"], "P1",
               [card("C1", "P1", abilities=[ab("A1", "control", [sig("s1")], subject="self"),
                                            ab("A2", "control", [sig("s2")], subject="self", optional=True)]),
                card("C2", "P2", abilities=[ab("A3", "control", subject="any")])],
               [("battle", [("P1", [{"do": "gain_control", "object": "C1", "player": "P2"}])])])
    write("ta1-control-change-new-controller",
          "P2 gains control of P1's C1. C1's own abilities about its change of control (A1 mandatory, A2 optional) are "
          "held by P2, who now controls C1 (control_change_holder=new-controller, the default), as is C2's A3 about any "
          "change of control. All three are P2's: A2 can activate, since its holder controls C1.",
          ["red.triggers-on-situation", "red.optional-needs-card", "red.mandatory-own-order"],
          scen(*CONTROL))
    write("ta1-control-change-old-controller",
          "The same under control_change_holder=old-controller: A1 and A2 are held by P1, who lost C1. P1 is the "
          "active player, so they take their turns first: A1 activates (mandatory), A2 does not (its holder no longer "
          "controls C1, source_gone); then P2's A3.",
          ["red.triggers-on-situation", "red.optional-needs-card", "red.active-player-first"],
          scen(*CONTROL, options={"control_change_holder": "old-controller"}))
    # TA.6
    DURING = (["P1", "P2"], "P1",
              [card("C1", "P1", abilities=[ab("A1", "signal", [sig("s1")], name="s0")]),
               card("C2", "P2", abilities=[ab("A2", "signal", name="s0")]),
               card("C3", "P2", abilities=[ab("A3", "signal", name="s1")])],
              [("battle", [("P1", [sig("s0")])])])
    write("ta6-trigger-during-resolution-waits",
          "A1 and A2 trigger together; A1 resolves first (active player) and its s1 triggers A3 while A2 is still pending. "
          "A3 does not cut in: it waits until A1 is done and, by default (after-pending), until A2 has resolved too.",
          ["red.new-trigger-placement", "red.no-cutting-in", "red.pending-then-activates"], scen(*DURING))
    write("ta6-trigger-during-resolution-before-pending",
          "The same under trigger_during_resolution=before-pending: A3 still waits until A1 is done, then activates "
          "ahead of A2.",
          ["red.new-trigger-placement", "red.no-cutting-in"],
          scen(*DURING, options={"trigger_during_resolution": "before-pending"}))


if __name__ == "__main__":
    main()
