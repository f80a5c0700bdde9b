"""Issue 20 item 2: ambiguity and contradiction are judged against the rules (the invariants alone), never against
the reference engine's reading; a player's own choice is never an ambiguity; outcomes no player can tell apart are
one outcome. Each false finding the editors' tools once reported is a test that fails if it is reported again, with
its siblings; the true findings beside them stay found."""

from __future__ import annotations

import copy
import json

import pytest

from conformance.commands.cli import main
from conformance.editors import drafts
from conformance.editors.analysis import (
    ambiguities_of, contradiction_of, edited_invariants, explore_rules, player_outcomes,
)
from conformance.editors.enumeration import enumerate_traces, signature
from conformance.documents.fixture_files import bundled_fixtures
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import get_ruleset, reference_engine_for
from reference_engine.kernel.traceview import TraceView
from reference_engine.mtg.judge.drafts import NAP_FIRST

MOMON = get_ruleset("momon-wonder")
MTG = get_ruleset("mtg")


def prepared(document: dict) -> dict:
    return prepare_scenario(copy.deepcopy(document), "test")[1]


def momon(abilities: list[dict], actions: list[dict], **options) -> dict:
    return {"format": "trigger-conformance/scenario/1", "ruleset": "momon-wonder", "edition": "1.0.0",
            "players": ["P1"], "active_player": "P1", "options": options,
            "objects": [{"id": "F1", "owner": "P1", "zone": "field", "abilities": abilities}],
            "script": [{"step": "one", "actions": [{"by": "P1", "effect": actions}]}]}


def on_signal(ability: str, name: str, effect: list | None = None) -> dict:
    return {"id": ability, "trigger": {"event": "signal", "name": name}, "effect": effect or []}


# -- (a) dropping mw.remedy-front: where an ordinary trigger group goes is settled by 11.2.3-11.2.5 ------------------

TWO_EVENTS = momon([on_signal("A1", "s0"), on_signal("A2", "s1")],
                   [{"do": "signal", "name": "s0"}, {"do": "signal", "name": "s1"}])  # the scenario once reported
DURING_RESOLUTION = momon([on_signal("A1", "s0", [{"do": "signal", "name": "s1"}]), on_signal("A2", "s1")],
                          [{"do": "signal", "name": "s0"}, {"do": "signal", "name": "s1"}])  # 11.2.5's case


def test_without_remedy_front_an_ordinary_group_placement_is_no_ambiguity():
    without = edited_invariants(MOMON, "1.0.0", without=["mw.remedy-front"])
    for document in (TWO_EVENTS, DURING_RESOLUTION):
        walk = enumerate_traces(prepared(document), without, player_choices="scenario")
        assert walk.complete and ambiguities_of(walk) == [], document["script"]
        assert len(walk.outcomes()) == 1  # one legal outcome: the chronological one


@pytest.mark.slow  # a long check; its kind keeps a fast check in the quick suite (issue 26)
def test_lint_rules_without_remedy_front_reports_no_group_position_ambiguity(capsys):
    """The sweep that once reported it (`lint-rules --ruleset momon-wonder --without mw.remedy-front`)."""
    main(["lint-rules", "--ruleset", "momon-wonder", "--without", "mw.remedy-front"])
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("AMBIGUITY")]
    assert not any("group-position" in head for head in heads), heads
    # What it reports instead: open readings an option names, and the true finding beside it: with mw.remedy-front
    # dropped, where a restored trigger goes (remedy-placement, which option sanctioned_play names) is open (issue 28).
    assert any("remedy-placement" in head for head in heads), heads
    assert all("named by option" in head or "remedy-placement" in head for head in heads), heads


def test_an_ordinary_group_put_ahead_of_earlier_work_breaks_group_position():
    """The key of 11.2.3 ("preserve the creating event's chronological position") judges a front placement too,
    not only the order groups were appended in; a restored trigger's front placement stays mw.remedy-front's."""
    scenario = prepared(TWO_EVENTS)
    position = next(inv for inv in MOMON.invariants_for("1.0.0") if inv.key == "mw.group-position")
    walk = enumerate_traces(scenario, [position], player_choices="scenario", prune=False)
    ahead = [leaf for leaf in walk.leaves  # the later event's group put ahead, nothing else changed
             if {d.kind for d in leaf.decisions if d.chosen} == {"group-position"}]
    assert ahead and all("mw.group-position" in leaf.violations for leaf in ahead)
    assert any("put at the front" in m for leaf in ahead for m in leaf.violations["mw.group-position"])
    sanctioned = next(f for f in bundled_fixtures("momon-wonder") if f.id == "mw-remedy-front-sanctioned").scenario
    scenario = prepared(sanctioned)
    trace = reference_engine_for("momon-wonder").run(copy.deepcopy(scenario), ScenarioChooser(scenario))
    assert position.check(TraceView(scenario, trace, scenario["options"])) == []  # the remedy's front: allowed here


def test_dropping_remedy_front_still_opens_the_remedy_placement():
    """The true finding beside it: the remedy's own placement is what mw.remedy-front alone settles."""
    document = next(f for f in bundled_fixtures("momon-wonder") if f.id == "mw-remedy-front-sanctioned").scenario
    without = edited_invariants(MOMON, "1.0.0", without=["mw.remedy-front"])
    kinds = [a.kind for a in ambiguities_of(enumerate_traces(prepared(document), without, player_choices="scenario"))]
    assert kinds == ["remedy-placement"]


# -- (b) strict FIFO against the remedy: one restored trigger on an empty queue is no contradiction --------------

EMPTY_QUEUE = {**momon([on_signal("A2", "never")], [{"do": "remedy_missed_trigger", "source": "F1", "ability": "A2"}]),
               "options": {"sanctioned_play": True}}
ONE_WAITING = {**momon([on_signal("A1", "a"), on_signal("A2", "never")],
                       [{"do": "signal", "name": "a"}, {"do": "remedy_missed_trigger", "source": "F1", "ability": "A2"}]),
               "options": {"sanctioned_play": True}}


def test_front_and_back_of_an_empty_queue_are_one_outcome():
    strict = edited_invariants(MOMON, "1.0.0", [drafts.STRICT_FIFO])
    assert contradiction_of(prepared(EMPTY_QUEUE), strict) is None
    found = contradiction_of(prepared(ONE_WAITING), strict)  # with a trigger waiting, front and back differ
    assert found is not None and set(found.core) == {"mw.queue-fifo", "mw.remedy-front"}


def test_the_minimal_fifo_remedy_contradiction_has_a_trigger_waiting():
    strict = edited_invariants(MOMON, "1.0.0", [drafts.STRICT_FIFO])
    findings = explore_rules(MOMON, "1.0.0", strict, documents=[ONE_WAITING], reduce_seconds=5)
    (found,) = findings.contradictions
    small = found.scenario
    triggers = [a for obj in small["objects"] for a in obj.get("abilities", ())]
    actions = [a["do"] for step in small["script"] for a in step["actions"] for a in a["effect"]]
    assert "remedy_missed_trigger" in actions and "signal" in actions and triggers  # something waits ahead of it
    assert "strict" not in json.dumps(small)


def test_the_canonical_signature_merges_only_what_no_player_can_tell_apart():
    strict = edited_invariants(MOMON, "1.0.0", [drafts.STRICT_FIFO])
    for document, merged in ((EMPTY_QUEUE, True), (ONE_WAITING, False)):
        walk = enumerate_traces(prepared(document), strict, player_choices="scenario", prune=False)
        placements = {}
        for leaf in walk.leaves:
            if leaf.decisions and leaf.decisions[0].kind == "remedy-placement" and not any(
                    d.chosen for d in leaf.decisions[1:]):
                placements[leaf.decisions[0].chosen] = leaf.trace
        front, back = placements[0], placements[1]
        assert signature(front) != signature(back)
        assert (signature(front, canonical=True) == signature(back, canonical=True)) is merged


# -- (c) a draft that changes a reading: two instances of one ability stay the player's choice -------------------

NAP_SCENARIO = {
    "format": "trigger-conformance/scenario/1", "ruleset": "mtg", "edition": "2026-02-27",
    "players": ["P1", "P2"], "active_player": "P1",
    "objects": [
        {"id": "AR", "owner": "P1", "zone": "field", "abilities": [
            {"id": "A1", "trigger": {"event": "leave", "subject": "other", "to": "graveyard"}, "effect": []}]},
        {"id": "C1", "owner": "P1", "zone": "field"}, {"id": "C2", "owner": "P2", "zone": "field"},
        {"id": "C3", "owner": "P2", "zone": "field", "abilities": [
            {"id": "A3", "trigger": {"event": "leave", "subject": "C1", "to": "graveyard"}, "effect": []}]}],
    "script": [{"step": "main", "actions": [{"by": "P2", "effect": [
        {"do": "move_together", "objects": ["AR", "C1", "C2"], "from": "field", "to": "graveyard"}]}]}],
}


def test_a_draft_changing_a_reading_leaves_instance_order_to_the_player():
    scenario = prepared(NAP_SCENARIO)
    nap_first = edited_invariants(MTG, "2026-02-27", [NAP_FIRST])
    walk = enumerate_traces(scenario, nap_first, player_choices="scenario")
    assert len(walk.outcomes()) == 2  # P1's two instances of A1, in either order, after P2's A3 went on first
    assert ambiguities_of(walk) == []
    # the reference engine's reading as the yardstick is what reported it: none of the draft's outcomes is there
    reference = player_outcomes(scenario)
    assert not set(walk.outcomes()) & reference
    assert [a.kind for a in ambiguities_of(walk, accountable=reference)] == ["batch-order"]


def test_lint_rules_with_a_draft_changing_a_reading(tmp_path, capsys):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(NAP_SCENARIO))
    assert main(["lint-rules", "--ruleset", "mtg", "--with", "reference_engine.mtg.judge.drafts:NAP_FIRST",
                 "--scenario", str(path)]) == 0
    assert "AMBIGUITY" not in capsys.readouterr().out


def test_the_draft_nap_first_is_a_real_check():
    scenario = prepared(NAP_SCENARIO)
    trace = reference_engine_for("mtg").run(copy.deepcopy(scenario), ScenarioChooser(scenario))
    assert NAP_FIRST.check(TraceView(scenario, trace, scenario["options"]))  # APNAP: the active player's first


def test_an_order_between_players_is_still_an_ambiguity_when_no_key_settles_it():
    """The true finding beside it: without any key ordering the players, who goes first is open, whatever reading."""
    without = edited_invariants(MTG, "2026-02-27", without=["mtg.apnap-order"])
    found = ambiguities_of(enumerate_traces(prepared(NAP_SCENARIO), without, player_choices="scenario"))
    assert [a.kind for a in found] == ["batch-order"]


def test_only_what_the_scenario_leaves_open_is_the_players_choice():
    """The players' own choices, for the yardstick, are the answers the scenario's choices leave open (the order of
    instances it ranks alike), not every answer: a reading that overrides an order the scenario states is still
    the rules' (tests/test_editors_options.py finds pass_two_membership so)."""
    scenario = prepared(NAP_SCENARIO)
    assert len(player_outcomes(scenario)) == 2  # P1's two instances of A1, either way; APNAP kept
    document = copy.deepcopy(NAP_SCENARIO)  # P1 gets a second ability: its order against A1 the scenario ranks
    document["objects"].append({"id": "AR2", "owner": "P1", "zone": "field", "abilities": [
        {"id": "A4", "trigger": {"event": "leave", "subject": "C1", "to": "graveyard"}, "effect": []}]})
    scenario = prepared(document)
    ties, every = player_outcomes(scenario), player_outcomes(scenario, player_choices="branch")
    assert len(ties) == 2 and ties < every
