"""Issue 28 item 1: decisions the reference engines made silently, where the texts say nothing, are branch points.

Each case is an open point of docs/readings-audit.md that no tool found: the permissive engine now asks it (answer 0
the reference engine's reading), only where its answer can matter; the invariants alone then say whether it is an
open reading, one outcome, or settled by the keys (only one answer legal). Each test shows where it is met and not
met, what the keys say at the defaults, and that without the keys reading it the point is open (so the keys, not
the permissive engine, settle it).
"""

from __future__ import annotations

import copy
import json

from conftest import ROOT
from conformance.editors.analysis import ambiguities_of, edited_invariants, legal_parting
from conformance.editors.enumeration import enumerate_traces
from conformance.editors.readings import met_points
from conformance.documents.scenarios import prepare_scenario
from reference_engine.kernel.registry import get_ruleset

MOMON = get_ruleset("momon-wonder")
REDEMPTION = get_ruleset("redemption")


def prepared(document: dict) -> dict:
    return prepare_scenario(copy.deepcopy(document), "test")[1]


def walk(ruleset, document: dict, without=()):
    edition = document["edition"]
    invariants = edited_invariants(ruleset, edition, without=list(without)) if without else \
        ruleset.invariants_for(edition)
    return enumerate_traces(prepared(document), invariants, player_choices="scenario")


def scenario(ruleset: str, edition: str, players: list[str], objects: list[dict], effect: list[dict],
             **extra) -> dict:
    return {"format": "trigger-conformance/scenario/1", "ruleset": ruleset, "edition": edition,
            "players": players, "active_player": players[0], "options": {}, "objects": objects,
            "script": [{"step": "one", "actions": [{"by": players[0], "effect": effect}]}], **extra}


def ability(name: str, event: dict, optional: bool = False) -> dict:
    return {"id": name, "trigger": event, "effect": [], **({"optional": True} if optional else {})}


# -- M15: State-Based Conditions after a player's action (Momon Wonder 11.2.2) -------------------------------------------

def marked(mark: bool) -> dict:
    """P1's action signals s and, with ``mark``, marks F1 for defeat; F1's A1 triggers on its own defeat."""
    return scenario("momon-wonder", "1.0.0", ["P1"], [
        {"id": "F1", "owner": "P1", "zone": "field", "abilities": [
            ability("A1", {"event": "defeated", "subject": "self"}), ability("A2", {"event": "signal", "name": "s"})]}],
        [{"do": "signal", "name": "s"}] + ([{"do": "mark_defeat", "object": "F1"}] if mark else []))


def test_state_based_conditions_after_a_player_s_action_are_a_branch_point_the_keys_settle():
    """11.2.2 names a turn-based action or an Ability, not a player's action: whether State-Based Conditions follow
    one is asked where something is marked for defeat, and mw.sbc-after-completion settles it (the project reads a
    scripted action as a completion); without that key both answers are legal and lead apart."""
    assert "sbc-after-action" not in met_points(marked(False))
    assert "sbc-after-action" in met_points(marked(True))
    point = MOMON.branch_points["sbc-after-action"]
    assert point.sentences == ("11.2.2",) and point.option is None
    found = walk(MOMON, marked(True))
    assert ambiguities_of(found) == []
    skipped = [leaf for leaf in found.leaves if any(d.kind == "sbc-after-action" and d.chosen for d in leaf.decisions)]
    assert skipped and all("mw.sbc-after-completion" in leaf.violations for leaf in skipped)
    assert "sbc-after-action" not in legal_parting(found)[0]  # settled: only one answer legal
    opened = walk(MOMON, marked(True), without=["mw.sbc-after-completion"])
    assert "sbc-after-action" in {a.branch_point for a in ambiguities_of(opened)}
    assert "sbc-after-action" in legal_parting(opened)[1]


# -- R8: when an optional trigger's holder chooses (Redemption TA.5) --------------------------------------------------

def optional_pair(declined: bool, optional_player: str = "P2") -> dict:
    """P1's and P2's abilities both react to one signal; ``optional_player``'s is optional and used, or declined (P1
    is the active player)."""
    return scenario("redemption", REDEMPTION.default_edition, ["P1", "P2"], [
        {"id": f"C{n}", "owner": player, "zone": "field", "abilities": [
            ability(f"A{n}", {"event": "signal", "name": "s"}, optional=player == optional_player)]}
        for n, player in ((1, "P1"), (2, "P2"))],
        [{"do": "signal", "name": "s"}], choices={"optional": {("A1" if optional_player == "P1" else "A2"): not declined}})


def test_when_an_optional_trigger_s_holder_chooses_is_a_branch_point_the_keys_settle():
    """TA.5 says the players choose, the active player first, not when: as the triggers arise, or as each one's turn
    comes. It is asked only where the holder declines and another trigger is free with it (otherwise it activates or
    leaves at the same place either way). P2 choosing as the triggers arise chooses before P1's turn:
    red.active-player-first settles it, and without that key the early choice is legal and removes P2's trigger at
    another place. The active player's own first trigger, declined early or as its turn comes: one outcome."""
    assert "optional-choice-time" not in met_points(optional_pair(declined=False))
    assert "optional-choice-time" in met_points(optional_pair(declined=True))
    point = REDEMPTION.branch_points["optional-choice-time"]
    assert point.sentences == ("TA.5",) and point.option is None
    found = walk(REDEMPTION, optional_pair(declined=True))
    assert ambiguities_of(found) == []
    early = [leaf for leaf in found.leaves if any(d.kind == "optional-choice-time" and d.chosen
                                                  for d in leaf.decisions)]
    assert early and all("red.active-player-first" in leaf.violations for leaf in early)
    assert "optional-choice-time" not in legal_parting(found)[0]  # settled: only one answer legal
    opened = walk(REDEMPTION, optional_pair(declined=True), without=["red.active-player-first"])
    assert "optional-choice-time" in {a.branch_point for a in ambiguities_of(opened)}
    both, apart = legal_parting(walk(REDEMPTION, optional_pair(declined=True, optional_player="P1")))
    assert "optional-choice-time" in both and "optional-choice-time" not in apart  # one outcome


# -- a departed player's waiting triggers (MTG 800.4a) ----------------------------------------------------------------

def test_a_departed_player_s_waiting_abilities_are_a_branch_point_the_keys_settle():
    """800.4a makes a departed player's objects on the stack cease to exist and says nothing of their abilities
    waiting to go there: the fixture mtg-ref-800-4a-leaves-at-once (P2 leaves with two abilities waiting) meets the
    branch point; mtg.player-leaves settles it (they cease), and without that key both answers are legal and lead
    apart (the abilities resolve, or not)."""
    mtg = get_ruleset("mtg")
    document = json.loads((ROOT / "fixtures" / "mtg" / "mtg-ref-800-4a-leaves-at-once.json").read_text())["scenario"]
    assert "departed-waiting" in met_points(document)
    point = mtg.branch_points["departed-waiting"]
    assert "800.4a" in point.sentences and point.option is None
    found = walk(mtg, document)
    assert ambiguities_of(found) == []
    kept = [leaf for leaf in found.leaves if any(d.kind == "departed-waiting" and d.chosen for d in leaf.decisions)]
    assert kept and all("mtg.player-leaves" in leaf.violations for leaf in kept)
    assert "departed-waiting" not in legal_parting(found)[0]
    opened = walk(mtg, document, without=["mtg.player-leaves"])
    assert [a.branch_point for a in ambiguities_of(opened)] == ["departed-waiting"]
    # No player leaves with an ability of theirs waiting: never asked.
    assert "departed-waiting" not in met_points(json.loads(
        (ROOT / "fixtures" / "mtg" / "mtg-vocab-115-1-target-player-leaves.json").read_text())["scenario"])


# -- G6: a "from anywhere" ability does not look back (MTG 603.6c, 603.10a) -------------------------------------------

def from_anywhere(leaves: bool) -> dict:
    """W: whenever a card is put into a graveyard from anywhere, P1 gains 1 life. P2 puts W (or, with ``leaves``
    false, the card K from P1's hand) into the graveyard."""
    moved = ({"do": "move", "object": "W", "from": "field", "to": "graveyard"} if leaves else
             {"do": "move", "object": "K", "from": "hand", "to": "graveyard"})
    return scenario("mtg", "2026-02-27", ["P1", "P2"], [
        {"id": "W", "owner": "P1", "zone": "field", "abilities": [
            {"id": "AW", "trigger": {"event": "zone_change", "to": "graveyard"},
             "effect": [{"do": "life", "player": "P1", "amount": 1}]}]},
        {"id": "K", "owner": "P1", "zone": "hand"}], [moved])


def test_whether_a_from_anywhere_ability_looks_back_is_a_branch_point_the_keys_settle():
    """603.10a lists the abilities that look back in time; one about a card put into a graveyard "from anywhere" is
    not a leaves-the-battlefield ability (603.6c), so W, put into the graveyard itself, is judged after the event
    and does not see it. Asked only where looking back would give other abilities (W leaving the battlefield, not K
    leaving a hand); mtg.look-back settles it, and without that key both readings are legal and lead apart (P1
    gains 1 life, or not)."""
    mtg = get_ruleset("mtg")
    assert "from-anywhere-looks-back" not in met_points(from_anywhere(leaves=False))
    assert "from-anywhere-looks-back" in met_points(from_anywhere(leaves=True))
    point = mtg.branch_points["from-anywhere-looks-back"]
    assert point.sentences == ("603.6c", "603.10a") and point.option is None
    found = walk(mtg, from_anywhere(leaves=True))
    assert ambiguities_of(found) == []
    back = [leaf for leaf in found.leaves if any(d.kind == "from-anywhere-looks-back" and d.chosen
                                                 for d in leaf.decisions)]
    assert back and all("mtg.look-back" in leaf.violations for leaf in back)
    assert "from-anywhere-looks-back" not in legal_parting(found)[0]
    opened = walk(mtg, from_anywhere(leaves=True), without=["mtg.look-back"])
    assert [a.branch_point for a in ambiguities_of(opened)] == ["from-anywhere-looks-back"]


# -- G7: "you" in an intervening "if" checked again on resolution (MTG 603.3a, 603.4) ----------------------------------

def test_who_you_is_in_an_intervening_if_on_resolution_is_a_branch_point_the_keys_settle():
    """603.4 checks an intervening "if" again on resolution and does not say who "you" is then if the source changed
    hands: the ability's controller as it triggered (603.3a), or the source's new controller. The fixture
    mtg-ref-603-4-felidar-stolen-on-the-stack (P2 steals P1's Felidar Sovereign while its ability waits on the
    stack) meets it; mtg.intervening-if settles it, and without that key both readings are legal and lead apart (P1
    wins, or the ability is removed). A Felidar nobody steals never asks it."""
    mtg = get_ruleset("mtg")
    fixture = ROOT / "fixtures" / "mtg"
    stolen = json.loads((fixture / "mtg-ref-603-4-felidar-stolen-on-the-stack.json").read_text())["scenario"]
    assert "intervening-you" in met_points(stolen)
    assert "intervening-you" not in met_points(json.loads((fixture / "mtg-603-4-felidar-wins.json").read_text())[
        "scenario"])
    point = mtg.branch_points["intervening-you"]
    assert point.sentences == ("603.4", "603.3a") and point.option is None
    found = walk(mtg, stolen)
    assert ambiguities_of(found) == []
    other = [leaf for leaf in found.leaves if any(d.kind == "intervening-you" and d.chosen for d in leaf.decisions)]
    assert other and all("mtg.intervening-if" in leaf.violations for leaf in other)
    assert "intervening-you" not in legal_parting(found)[0]
    assert [a.branch_point for a in ambiguities_of(walk(mtg, stolen, without=["mtg.intervening-if"]))] == [
        "intervening-you"]
