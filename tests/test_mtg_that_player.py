"""MTG "that player" / "them" (issue 31; 603.2, 608.2, 400.3): a triggered ability's damage or life change for the
player of its trigger event (``that_player``): the event's player, or the owner of a card put into a graveyard, a hand
or a library. Played by the reference engine and judged both ways by mtg.resolution-effect: an engine finding no
player (phase.rs's Razorkin Needlehead and Curse of Fool's Wisdom) and one acting on another player are flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_support import ability, fixture, obj, play, scenario, violations
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.registry import MUTANTS


def _faulty_trace(name, prepared):
    return MUTANTS[name].factory().run(prepared, ScenarioChooser(prepared))


def _events(trace, kind):
    return [e for e in trace["entries"] if e["kind"] == "event" and e["type"] == kind]


@pytest.mark.parametrize("do", ["damage", "life"])
def test_that_player_is_the_signals_player_and_the_judge_requires_it_both_ways(do):
    """P1's R: 'Whenever a player draws (the signal), this deals 1 damage to them' (or 'they lose 1 life'). P2 draws,
    then P1: R's ability hits P2, then P1. Finding no player, or the ability's controller, is flagged."""
    effect = {"do": do, "that_player": True, "amount": 1 if do == "damage" else -1}
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("R", "P1", abilities=[ability("AR", {"event": "signal", "name": "draw"}, [effect])])],
                        [("P2", [{"do": "signal", "name": "draw"}]), ("P1", [{"do": "signal", "name": "draw"}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert [e["player"] for e in _events(trace, do)] == ["P2", "P1"]
    found = violations(prepared, _faulty_trace("mtg-that-player-unresolved", prepared))
    assert "should have caused" in " ".join(found.get("mtg.resolution-effect", ())), found
    _events(trace, do)[0]["player"] = "P1"  # the ability's controller instead of the player who drew
    assert "mtg.resolution-effect" in violations(prepared, trace)


def test_that_player_of_a_card_put_into_a_graveyard_is_its_owner_and_nothing_without_one():
    """Patron of the Nezumi's shape: P2's ST, controlled by P1, dies: 'that player' is P2 (400.3), not P1. A spell
    or scripted action has no trigger event: its 'that player' instruction does nothing; so does an ability whose
    trigger event has no player (a card entering the battlefield)."""
    patron = ability("APN", {"event": "leave", "to": "graveyard"}, [{"do": "life", "that_player": True, "amount": -1}])
    enters = ability("AE", {"event": "enter", "subject": "any"}, [{"do": "life", "that_player": True, "amount": -1}])
    prepared = scenario(["P1", "P2"], "P1",
                        [obj("PN", "P1", abilities=[patron, enters]), obj("ST", "P2", controller="P1"),
                         obj("H", "P1", "hand")],
                        [("P1", [mv for mv in [{"do": "move", "object": "ST", "from": "field", "to": "graveyard"}]]),
                         ("P1", [{"do": "move", "object": "H", "from": "hand", "to": "field"}]),
                         ("P1", [{"do": "life", "that_player": True, "amount": -5}])])
    trace = play(prepared)
    assert violations(prepared, trace) == {}
    assert [(e["player"], e["amount"]) for e in _events(trace, "life")] == [("P2", -1)]
    moved = [e for e in trace["entries"] if e["kind"] == "event" and e["type"] == "life"]
    moved[0]["player"] = "P1"  # the controller it died under
    assert "mtg.resolution-effect" in violations(prepared, trace)


def test_the_fixture_and_its_faulty_engine():
    prepared, expected = fixture("mtg-vocab-608-2-that-player")
    assert violations(prepared, play(prepared)) == {}
    assert play(prepared) == expected
    assert "mtg.resolution-effect" in violations(prepared, _faulty_trace("mtg-that-player-unresolved", prepared))


@pytest.mark.parametrize("report", ["br-xmage-5241-patron-of-the-nezumi", "br-phase-2869-razorkin-needlehead"])
def test_the_real_reports_the_word_made_expressible_catch_the_unresolved_reading(report):
    from conformance.documents.scenarios import prepare_scenario

    document = json.loads((Path(__file__).parent / "data" / "bug-reports" / f"{report}.json").read_text("utf-8"))
    prepared = prepare_scenario(document, report)[1]
    assert violations(prepared, play(prepared)) == {}
    assert "mtg.resolution-effect" in violations(prepared, _faulty_trace("mtg-that-player-unresolved", prepared))


def test_the_editors_words_say_that_player():
    from conformance.editors.words import Describer
    from reference_engine.kernel.registry import get_ruleset

    prepared, _ = fixture("mtg-vocab-608-2-that-player")
    text = "\n".join(Describer(prepared).scenario_lines(get_ruleset("mtg")))
    assert text.count("that player loses") == 3 and "None" not in text, text
