"""The MTG vocabulary as documented, validated and played (issue 12, item 1): reference_engine/mtg/docs.md lists exactly the
words the scenario schema accepts and the ruleset defines, and every ability that can trigger, delayed and
reflexive ones included, can be named in ``choices.trigger_order``."""

from __future__ import annotations

import re

import pytest

from conformance.documents.json_io import load_schema
from reference_engine.kernel.errors import ScenarioError
from conformance.documents.scenarios import prepare_scenario
from conftest import ROOT
from mtg_support import ability, find, obj, play, scenario, violations
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.mtg.engines.reference import Game
from reference_engine.mtg.judge.vocabulary import VOCABULARY

PAGE = (ROOT / "reference_engine" / "mtg" / "docs.md").read_text("utf-8")
SCHEMA = load_schema("scenario")


def _documented(label: str, until: str) -> set[str]:
    """The words the doc's Model section lists after ``label``, up to ``until`` (parenthesised notes left out)."""
    found = re.search(re.escape(label) + r"(.*?)" + re.escape(until), PAGE, re.S)
    assert found, f"reference_engine/mtg/docs.md has no {label!r} list"
    return set(re.findall(r"`([a-z_]+)`", re.sub(r"\([^()]*\)", "", found.group(1))))


def _schema_actions() -> set[str]:
    return {branch["properties"]["do"]["const"] for branch in SCHEMA["$defs"]["action"]["oneOf"]}


@pytest.mark.parametrize("label, until, defined, accepted", [
    ("Ability trigger events:", "Abilities may have", VOCABULARY.trigger_events,
     set(SCHEMA["$defs"]["event_type"]["enum"])),
    ("Actions:", "Choices:", VOCABULARY.actions, _schema_actions()),
    ("Conditions:", "Actions:", VOCABULARY.condition_tests,
     set(SCHEMA["$defs"]["condition"]["properties"]["test"]["enum"])),
    ("Choices:", "\n*", VOCABULARY.choice_fields, set(SCHEMA["$defs"]["choices"]["properties"])),
], ids=["trigger events", "actions", "conditions", "choices"])
def test_the_doc_lists_what_the_schema_accepts_and_the_ruleset_defines(label, until, defined, accepted):
    documented = _documented(label, until)
    assert documented == set(defined), f"reference_engine/mtg/docs.md {label} differs from the ruleset's vocabulary"
    assert documented <= accepted, f"the scenario schema rejects {sorted(documented - accepted)}"


def _delayed_and_printed(order):
    """P1's ability C creates a delayed ability D ('the next time X is signalled, gain 1 life'); B, printed, also
    triggers on X. The signal X then triggers B and D together; ``order`` answers P1's ordering (603.3b)."""
    creator = ability("C", {"event": "signal", "name": "go"}, [
        {"do": "create_delayed", "ability": ability("D", {"event": "signal", "name": "X"},
                                                    [{"do": "life", "player": "P1", "amount": 1}])},
        {"do": "reflexive", "ability": ability("R", {"event": "signal", "name": "go"},
                                               [{"do": "signal", "name": "r"}])}])
    printed = ability("B", {"event": "signal", "name": "X"}, [{"do": "life", "player": "P1", "amount": 3}])
    return scenario(["P1", "P2"], "P1", [obj("S", "P1", abilities=[creator, printed])],
                    [("P1", [{"do": "signal", "name": "go"}]), ("P1", [{"do": "signal", "name": "X"}])],
                    choices={"trigger_order": order})


@pytest.mark.parametrize("order", [["D", "B"], ["B", "D"]])
def test_trigger_order_can_name_a_delayed_ability_and_the_engine_follows_it(order):
    prepared = _delayed_and_printed(order)
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    entries = trace["entries"]
    choice = entries[find(entries, kind="choice", decision="order")]
    by_id = {e["id"]: e for e in entries if e["kind"] == "trigger"}
    assert [by_id[t]["ability"] for t in choice["chosen"]] == order


@pytest.mark.parametrize("order", [["R", "L"], ["L", "R"]])
def test_trigger_order_can_name_a_reflexive_ability(order):
    """C: 'gain 1 life; when you do, signal r' (603.12); L, printed: 'whenever a player gains life, signal l'.
    The life gain during C's resolution triggers L and the reflexive R together."""
    creator = ability("C", {"event": "signal", "name": "go"}, [
        {"do": "life", "player": "P1", "amount": 1},
        {"do": "reflexive", "ability": ability("R", {"event": "life"},
                                               [{"do": "signal", "name": "r"}])}])
    printed = ability("L", {"event": "life"}, [{"do": "signal", "name": "l"}])
    prepared = scenario(["P1", "P2"], "P1", [obj("S", "P1", abilities=[creator, printed])],
                        [("P1", [{"do": "signal", "name": "go"}])], choices={"trigger_order": order})
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    entries = trace["entries"]
    choice = entries[find(entries, kind="choice", decision="order")]
    by_id = {e["id"]: e for e in entries if e["kind"] == "trigger"}
    assert [by_id[t]["ability"] for t in choice["chosen"]] == order


def test_trigger_order_naming_no_ability_at_all_is_still_rejected():
    with pytest.raises(ScenarioError, match=r"\$\.choices\.trigger_order\[2\]: no ability 'Q'"):
        _delayed_and_printed(["D", "B", "Q"])


def test_trigger_filters_are_refused_on_a_created_ability():
    """Filters relative to a player or to card characteristics are read on printed abilities only."""
    creator = ability("C", {"event": "signal", "name": "go"}, [
        {"do": "create_delayed", "ability": ability("D", {"event": "life", "player": "you", "change": "gain"}, [])}])
    with pytest.raises(ScenarioError, match=r"effect\[0\]\.ability\.trigger: change, player: these trigger filters"):
        scenario(["P1", "P2"], "P1", [obj("S", "P1", abilities=[creator])], [("P1", [{"do": "signal", "name": "go"}])])


@pytest.mark.parametrize("relation, gainer, fires", [("you", "P2", True), ("you", "P1", False),
                                                     ("opponent", "P1", True), ("opponent", "P2", False)])
def test_you_is_the_abilitys_controller_not_the_active_player(relation, gainer, fires):
    """P2's 'whenever you (an opponent) gain(s) life' while P1 is active (603.3a)."""
    watcher = ability("W", {"event": "life", "player": relation, "change": "gain"}, [])
    prepared = scenario(["P1", "P2"], "P1", [obj("S", "P2", abilities=[watcher])],
                        [("P1", [{"do": "life", "player": gainer, "amount": 2}]),
                         ("P1", [{"do": "life", "player": gainer, "amount": -1}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    triggers = [e for e in trace["entries"] if e["kind"] == "trigger"]
    assert len(triggers) == (1 if fires else 0)  # never on the loss


def test_turns_only_go_forward():
    prepared = scenario(["P1", "P2"], "P1", [obj("S", "P1")], [("P1", [{"do": "signal", "name": "x"}])])
    document = {k: v for k, v in prepared.items() if k != "options"}
    document["script"] = [{"step": "main", "turn": 2, "actions": []}, {"step": "main", "turn": 1, "actions": []}]
    with pytest.raises(ScenarioError, match=r"\$\.script\[1\]\.turn: turn 1 comes after turn 2"):
        prepare_scenario(document, "test")


def test_a_step_turn_is_a_foreign_word_outside_mtg():
    from reference_engine.kernel.registry import get_ruleset

    momon = get_ruleset("momon-wonder").vocabulary
    found = momon.foreign_words({"objects": [], "script": [{"step": "main", "turn": 2, "actions": []}]})
    assert found and found[0].startswith("$.script[0].turn: step field 'turn'")


def _once_each_turn_across_turns() -> dict:
    """W's O: 'Whenever s1 happens, you gain 1 life. Do this only once each turn.' s1 twice in turn 1, once in
    turn 2: O triggers once in each turn (603.2h: the action holds it back for the rest of that turn only)."""
    signal = {"by": "P1", "effect": [{"do": "signal", "name": "s1"}]}
    return {"format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
            "players": ["P1", "P2"], "active_player": "P1",
            "objects": [{"id": "W", "owner": "P1", "zone": "field", "abilities": [
                {"id": "O", "trigger": {"event": "signal", "name": "s1"}, "once_each_turn": True,
                 "effect": [{"do": "life", "player": "P1", "amount": 1}]}]}],
            "script": [{"step": "main", "actions": [signal, signal]},
                       {"step": "main", "turn": 2, "actions": [signal]}]}


def test_once_each_turn_starts_afresh_each_turn_and_the_judge_requires_it():
    from conformance.running.checking import check_scenario
    from conformance.documents.scenarios import prepare_scenario
    from reference_engine.mtg.engines.reference import Game, MtgEngine
    from reference_engine.common.faulty import mutant

    _, scenario = prepare_scenario(_once_each_turn_across_turns(), "test")
    from reference_engine.mtg.judge import MTG

    checked = check_scenario(MtgEngine(), scenario, MTG.invariants_for(scenario["edition"]))
    assert checked.outcome.status == "trace" and not checked.violations
    fired = [e for e in checked.outcome.trace["entries"] if e["kind"] == "trigger" and e["ability"] == "O"]
    assert len(fired) == 2  # once in turn 1 (the second s1 is held back), once in turn 2

    class NeverResetGame(Game):
        """Reads "only once each turn" as "once per game"."""

        def end_turn(self) -> None:
            used = set(self.used_this_turn)
            super().end_turn()
            self.used_this_turn |= used  # "once each turn" read as "once per game"

    faulty = mutant("test-once-per-game", MtgEngine, NeverResetGame, "mtg.triggers-when-satisfied", "mtg",
                    ["2026-02-27", "2021-02-24"]).factory()
    wrong = check_scenario(faulty, scenario, MTG.invariants_for(scenario["edition"]))
    assert wrong.outcome.status == "trace"
    assert wrong.violations.get("mtg.triggers-when-satisfied"), wrong.violations


def _faulty_play(game_class, prepared):
    return game_class(prepared, ScenarioChooser(prepared)).play()


@pytest.mark.parametrize("gainer, direction", [("P2", "missed"), ("P1", "extra")])
def test_the_judge_flags_a_filter_read_against_the_wrong_player_both_ways(gainer, direction):
    """P2's 'whenever you gain life' while P1 is active, played by the engine reading 'you' as the active player: P2
    gaining life is missed, P1 gaining life wrongly triggers it; mtg.triggers-when-satisfied flags both."""
    from reference_engine.mtg.engines.faulty import ActivePlayerIsYouGame

    watcher = ability("W", {"event": "life", "player": "you", "change": "gain"}, [])
    prepared = scenario(["P1", "P2"], "P1", [obj("S", "P2", abilities=[watcher])],
                        [("P1", [{"do": "life", "player": gainer, "amount": 2}])])
    found = violations(prepared, _faulty_play(ActivePlayerIsYouGame, prepared))
    assert found.get("mtg.triggers-when-satisfied"), (direction, found)


class _NextTurnAtOnceGame(Game):
    """A faulty engine for this test only: a 'next turn' delayed ability works from the moment it is created."""

    def delayed_triggers(self, group, before):
        for d in self.delayed:
            if d.duration == "next_turn":
                d.born = self.turn - 1
        return super().delayed_triggers(group, before)


def _next_turn_scenario(turns_of_x):
    creator = ability("C", {"event": "signal", "name": "go"}, [
        {"do": "create_delayed", "duration": "next_turn", "ability": ability("D", {"event": "signal", "name": "x"}, [])}])
    prepared = scenario(["P1", "P2"], "P1", [obj("S", "P1", abilities=[creator])],
                        [("P1", [{"do": "signal", "name": "go"}]), ("P1", [{"do": "signal", "name": "x"}])])
    document = {k: v for k, v in prepared.items() if k != "options"}
    document["script"] += [{"step": "main", "turn": t, "actions": [{"by": "P1", "effect": [
        {"do": "signal", "name": "x"}]}]} for t in turns_of_x]
    return prepare_scenario(document, "test")[1]


def test_a_next_turn_delayed_ability_triggers_only_in_the_next_turn_and_the_judge_flags_it_early():
    prepared = _next_turn_scenario([2, 3])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    fired = [e for e in trace["entries"] if e["kind"] == "trigger" and e.get("delayed")]
    assert len(fired) == 1  # in turn 2 only: not in turn 1 (not yet), not in turn 3 (over)
    found = violations(prepared, _faulty_play(_NextTurnAtOnceGame, prepared))
    assert "mtg.delayed-trigger" in found


def test_a_next_turn_with_no_step_passes_with_its_delayed_ability_unused():
    prepared = _next_turn_scenario([3])  # turn 2 passes with nothing scripted
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert not [e for e in trace["entries"] if e["kind"] == "trigger" and e.get("delayed")]


# -- Issue 22, item 1: new words, each judged in both directions ------------------------------------------------------

def _faulty_trace(name: str, prepared: dict) -> dict:
    from reference_engine.kernel.registry import MUTANTS

    return MUTANTS[name].factory().run(prepared, ScenarioChooser(prepared))


@pytest.mark.parametrize("holder, fires", [("P1", True), ("P2", False)])
def test_an_ownership_filter_reads_the_owner_and_the_judge_requires_it_both_ways(holder, fires):
    """C, owned by P1, is given to P2, then dies. ``holder``'s 'whenever a creature you own dies' triggers for P1
    (its owner) and not for P2 (who controlled it, 603.10a). The faulty engine reading the controller misses P1's
    trigger, or adds P2's: the judge flags both."""
    watcher = ability("O", {"event": "leave", "to": "graveyard", "owner": "you"}, [])
    prepared = scenario(["P1", "P2"], "P1", [obj("W", holder, abilities=[watcher]), obj("C", "P1")],
                        [("P1", [{"do": "gain_control", "object": "C", "player": "P2"}]),
                         ("P1", [{"do": "move", "object": "C", "from": "field", "to": "graveyard"}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert len([e for e in trace["entries"] if e["kind"] == "trigger"]) == (1 if fires else 0)
    found = violations(prepared, _faulty_trace("mtg-owner-is-controller", prepared))
    assert "mtg.look-back" in found
    assert ("should have triggered" if fires else "too many") in " ".join(found["mtg.look-back"])



@pytest.mark.parametrize("scripted, wanted", [(False, 3), (True, None)])
def test_that_many_is_the_trigger_events_amount_and_the_judge_requires_it_both_ways(scripted, wanted):
    """'Whenever W deals damage, you gain that much life' after W deals 3 damage: P1 gains 3 (not the printed 1). A
    scripted 'that much' has no trigger event: nothing happens. The faulty engine reading the printed amount gains 1
    where 3 is due, and deals damage where none is: the judge flags both."""
    gain = ability("A", {"event": "damage", "subject": "self"}, [{"do": "life", "player": "P1", "amount": 1,
                                                                   "that_many": True}])
    act = {"do": "damage", "source": "W", "player": "P2", "amount": 3}
    if scripted:
        act = {"do": "life", "player": "P1", "amount": 1, "that_many": True}
    prepared = scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[gain])], [("P1", [act])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    gained = [e["amount"] for e in trace["entries"] if e["kind"] == "event" and e["type"] == "life"]
    assert gained == ([wanted] if wanted else [])
    found = violations(prepared, _faulty_trace("mtg-that-many-is-printed", prepared))
    assert "should have caused" in " ".join(found["mtg.resolution-effect"])


@pytest.mark.parametrize("returns", [False, True])
def test_triggers_only_once_each_turn_is_per_object_and_the_judge_requires_it_both_ways(returns):
    """W's O 'Whenever s happens, you gain 1 life. This ability triggers only once each turn.' Two s at once in one
    effect: O triggers once. Then (``returns``) W is exiled and comes back, a new object (400.7), and s again: O
    triggers again. The faulty engine reading it as 603.2h's 'do this only once each turn' triggers twice on the two
    signals (none had resolved), and misses the new object's trigger: the judge flags both."""
    once = dict(ability("O", {"event": "signal", "name": "s"}, [{"do": "life", "player": "P1", "amount": 1}]),
                triggers_once_each_turn=True)
    signal = {"do": "signal", "name": "s"}
    script = [("P1", [signal, signal])]
    if returns:
        script += [("P1", [{"do": "move", "object": "W", "from": "field", "to": "exile"}]),
                   ("P1", [{"do": "move", "object": "W", "from": "exile", "to": "field"}]), ("P1", [signal])]
    else:
        script += [("P1", [signal])]
    prepared = scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[once])], script)
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert len([e for e in trace["entries"] if e["kind"] == "trigger"]) == (2 if returns else 1)
    found = violations(prepared, _faulty_trace("mtg-triggers-once-read-as-do-once", prepared))
    said = " ".join(found["mtg.triggers-when-satisfied"])
    assert "too many" in said
    assert ("should have triggered" in said) == returns



def _spell_delayed_scenario(duration: str | None) -> dict:
    """P2 casts S: 'When (whenever, this turn) s happens, you gain 1 life'; then s happens twice, one by one."""
    made = {"do": "create_delayed", "ability": ability("DS", {"event": "signal", "name": "s"},
                                                       [{"do": "life", "player": "P2", "amount": 1}])}
    if duration:
        made["duration"] = duration
    signal = {"do": "signal", "name": "s"}
    return scenario(["P1", "P2"], "P1", [obj("W", "P1"), obj("S", "P2", "hand", spell={"effect": [made]})],
                    [("P1", [signal]), ("P2", [{"do": "cast", "object": "S"}]), ("P1", [signal]), ("P1", [signal])])


@pytest.mark.parametrize("duration", [None, "turn"])
def test_a_spell_creates_its_delayed_ability_and_the_judge_requires_it_both_ways(duration):
    """603.7a, 603.7d: the spell is the delayed ability's source and its caster, P2 (not the active player), its
    controller; it triggers on the later signals only (once, or each time this turn). The judge flags a dropped
    creation (the faulty engine), one made twice, and a wrong source or controller."""
    prepared = _spell_delayed_scenario(duration)
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    (created,) = [e for e in trace["entries"] if e["kind"] == "delayed_create"]
    assert (created["spell"], created["source"], created["controller"]) == ("S", "S", "P2")
    assert "created_by" not in created
    fired = [e for e in trace["entries"] if e["kind"] == "trigger"]
    assert [(t["source"], t["controller"]) for t in fired] == [("S", "P2")] * (2 if duration else 1)
    dropped = violations(prepared, _faulty_trace("mtg-spell-delayed-dropped", prepared))
    assert "without creating its delayed triggered ability DS" in " ".join(dropped["mtg.delayed-trigger"])
    for field, wrong, key, said in (("controller", "P1", "mtg.delayed-controller", "who controlled the spell"),
                                    ("source", "W", "mtg.delayed-controller", "its source is that spell")):
        broken = {**trace, "entries": [dict(e, **{field: wrong}) if e is created else e for e in trace["entries"]]}
        assert said in " ".join(violations(prepared, broken).get(key, ())), field
    at = trace["entries"].index(created)
    twice = {**trace, "entries": trace["entries"][:at + 1] + [dict(created, id="D9")] + trace["entries"][at + 1:]}
    assert "more than its effect says" in " ".join(violations(prepared, twice)["mtg.delayed-trigger"])
    early = [e for e in trace["entries"] if e is not created]
    early.insert(1, created)  # before S was cast: not during its resolution
    assert "was not resolving" in " ".join(violations(prepared, {**trace, "entries": early})["mtg.delayed-trigger"])


def test_a_spells_delayed_ability_may_watch_abilities_triggering():
    """A spell's 'this turn, whenever an ability of W triggers, you gain 1 life' (603.7d, 603.2): the engine listens for
    abilities triggering because a spell's effect asks for it, like an ability's would."""
    made = {"do": "create_delayed", "duration": "turn", "ability": ability(
        "DT", {"event": "ability_triggered", "subject": "W"}, [{"do": "life", "player": "P2", "amount": 1}])}
    printed = ability("A", {"event": "signal", "name": "s"}, [{"do": "life", "player": "P1", "amount": 1}])
    prepared = scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[printed]),
                                            obj("S", "P2", "hand", spell={"effect": [made]})],
                        [("P2", [{"do": "cast", "object": "S"}]), ("P1", [{"do": "signal", "name": "s"}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert [t["ability"] for t in trace["entries"] if t["kind"] == "trigger"] == ["A", "DT"]


@pytest.mark.parametrize("filtered", [False, True])
def test_dealt_damage_reads_the_permanent_dealt_damage_and_the_judge_requires_it_both_ways(filtered):
    """W's O 'Whenever this is dealt damage, you gain 1 life' (or, ``filtered``, P2's 'Whenever a creature you
    control is dealt damage'): W deals damage to X (nothing), then X deals damage to W (it triggers). The faulty
    engine reading it as 'deals damage' triggers on the first and not the second: the judge flags both."""
    if filtered:
        trigger, holder = {"event": "dealt_damage", "controller": "you", "type": "creature"}, "P2"
    else:
        trigger, holder = {"event": "dealt_damage", "subject": "self"}, "P1"
    watcher = ability("O", trigger, [{"do": "life", "player": holder, "amount": 1}])
    objects = [obj("W", "P2", types=["creature"], toughness=9), obj("X", "P1", types=["creature"], toughness=9),
               obj("H", holder, types=["enchantment"], abilities=[watcher])]
    if not filtered:  # the ability is W's own
        objects = [obj("W", "P1", types=["creature"], toughness=9, abilities=[watcher]),
                   obj("X", "P2", types=["creature"], toughness=9)]
    prepared = scenario(["P1", "P2"], "P1", objects,
                        [("P1", [{"do": "damage", "source": "W", "object": "X", "amount": 1}]),
                         ("P1", [{"do": "damage", "source": "X", "object": "W", "amount": 1}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    damage = [e["id"] for e in trace["entries"] if e["kind"] == "event" and e["type"] == "damage"]
    assert [t["event"] for t in trace["entries"] if t["kind"] == "trigger"] == [damage[1]]
    found = violations(prepared, _faulty_trace("mtg-dealt-read-as-deals", prepared))
    said = " ".join(found["mtg.triggers-when-satisfied"])
    assert "should have triggered" in said and damage[0] in said, said


@pytest.mark.parametrize("batch", [False, True])
def test_one_damage_event_with_several_occurrences_and_the_judge_requires_it_both_ways(batch):
    """W's O 'Whenever a creature is dealt damage' (``batch``: 'one or more creatures are'), then one event dealing 1
    damage to each of X, Y and P2: O triggers twice (once, 603.2c). The faulty engine reading the event as one
    occurrence triggers once: flagged unless batch; a trace leaving out one hit is flagged by mtg.resolution-effect."""
    trigger = {"event": "dealt_damage", **({"batch": True} if batch else {})}
    watcher = ability("O", trigger, [{"do": "life", "player": "P1", "amount": 1}])
    hits = [{"source": "W", "object": "X", "amount": 1}, {"source": "W", "object": "Y", "amount": 1},
            {"source": "W", "player": "P2", "amount": 1}]
    prepared = scenario(["P1", "P2"], "P1", [obj("W", "P1", abilities=[watcher]), obj("X", "P2", toughness=5),
                                            obj("Y", "P2", toughness=5)],
                        [("P1", [{"do": "damage_together", "hits": hits}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    damage = [e for e in trace["entries"] if e["kind"] == "event" and e["type"] == "damage"]
    assert len(damage) == 3 and len({e["group"] for e in damage}) == 1
    assert len([e for e in trace["entries"] if e["kind"] == "trigger"]) == (1 if batch else 2)
    found = violations(prepared, _faulty_trace("mtg-damage-event-once", prepared))
    assert ("should have triggered" in " ".join(found.get("mtg.triggers-when-satisfied", ()))) == (not batch)
    fewer = {**trace, "entries": [e for e in trace["entries"] if e is not damage[2]]}
    assert "mtg.resolution-effect" in violations(prepared, fewer)


def _token_scenario(**extra):
    """P1's W 'Whenever a creature enters, you gain 1 life'; P1 creates T (a 1/1 creature token: 'When this token
    enters, it deals 1 damage to P2') and V (another) at once; U, a token never created, has W's ability. P1 creates T
    again: nothing."""
    watcher = ability("AW", {"event": "enter", "type": "creature"}, [{"do": "life", "player": "P1", "amount": 1}])
    own = ability("AT", {"event": "enter", "subject": "self"}, [{"do": "damage", "player": "P2", "amount": 1}])
    never = ability("AU", {"event": "enter", "type": "creature"}, [{"do": "life", "player": "P2", "amount": 1}])
    return scenario(["P1", "P2"], "P1", [
        obj("W", "P1", types=["enchantment"], abilities=[watcher]),
        obj("T", "P1", "uncreated", abilities=[own], types=["creature"], token=True),
        obj("U", "P1", "uncreated", abilities=[never], types=["creature"], token=True),
        obj("V", "P1", "uncreated", types=["creature"], token=True)],
        [("P1", [{"do": "create_token", "objects": ["T", "V"]}]), ("P1", [{"do": "create_token", "objects": ["T"]}])],
        **extra)


def test_a_created_token_enters_the_battlefield_and_the_judge_requires_it_both_ways():
    """603.6a: creating T and V is one event, each entering the battlefield: W's ability triggers on each (603.2c),
    T's own on T; creating T again does nothing; U, never created, triggers on nothing. The faulty engine putting
    tokens onto the battlefield without checking abilities misses the triggers; a trace where U's ability triggers is
    flagged."""
    prepared = _token_scenario()
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    enters = [e for e in trace["entries"] if e["kind"] == "event" and e["type"] == "enter"]
    assert [(e["subject"], e["from"], e["to"]) for e in enters] == [("T", "uncreated", "field"),
                                                                   ("V", "uncreated", "field")]
    assert len({e["group"] for e in enters}) == 1  # one event, two occurrences
    triggered = sorted(e["ability"] for e in trace["entries"] if e["kind"] == "trigger")
    assert triggered == ["AT", "AW", "AW"]
    found = violations(prepared, _faulty_trace("mtg-token-enters-silently", prepared))
    said = " ".join(found["mtg.triggers-when-satisfied"])
    assert "should have triggered" in said and "AT" in said and "AW" in said, said
    first = next(e for e in trace["entries"] if e["kind"] == "trigger")
    forged = dict(first, id="T99", source="U", ability="AU", controller="P1")
    entries = list(trace["entries"])
    entries.insert(entries.index(first) + 1, forged)
    entries = [dict(e, position=n) if "position" in e else e for n, e in enumerate(entries)]
    assert "mtg.triggers-when-satisfied" in violations(prepared, {**trace, "entries": entries})


@pytest.mark.parametrize("bad, where", [
    ({"do": "create_token", "objects": ["T", "W"]}, "create_token names a token"),
    ({"do": "move", "object": "T", "to": "uncreated"}, "starting zone only")])
def test_only_a_token_starting_uncreated_is_created_and_nothing_moves_there(bad, where):
    with pytest.raises(ScenarioError, match=where):
        scenario(["P1", "P2"], "P1", [obj("W", "P1"), obj("T", "P1", "uncreated", token=True)], [("P1", [bad])])
    with pytest.raises(ScenarioError, match="only a token"):
        scenario(["P1", "P2"], "P1", [obj("W", "P1", "uncreated")], [])


def test_a_token_not_created_yet_does_not_move_and_the_judge_requires_it():
    """U, never created, is 'moved' to a graveyard: nothing happens (it exists nowhere); a trace where it moves, or
    where T is created a second time, is flagged by mtg.resolution-effect."""
    prepared = _token_scenario()
    prepared["script"][0]["actions"].append({"by": "P1", "effect": [
        {"do": "move", "object": "U", "to": "graveyard"}]})
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert not [e for e in trace["entries"] if e["kind"] == "event" and e.get("subject") == "U"]
    end = next(e for e in trace["entries"] if e["kind"] == "action_end" and e["action"] == [0, 2])
    at = trace["entries"].index(end)
    for forged in ({"type": "move", "subject": "U", "from": "uncreated", "to": "graveyard"},
                   {"type": "enter", "subject": "T", "from": "uncreated", "to": "field"}):
        entries = list(trace["entries"])
        action = [0, 2] if forged["subject"] == "U" else [0, 1]
        where = at if forged["subject"] == "U" else entries.index(
            next(e for e in entries if e["kind"] == "action_end" and e["action"] == [0, 1]))
        entries.insert(where, {"kind": "event", "id": "E99", "cause": {"action": action}, **forged})
        entries = [dict(e, position=n) if "position" in e or e is entries[where] else e for n, e in enumerate(entries)]
        assert "mtg.resolution-effect" in violations(prepared, {**trace, "entries": entries}), forged
